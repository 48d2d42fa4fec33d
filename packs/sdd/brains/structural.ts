/**
 * `structural`: resolves its own plan's workspace with the skill's own
 * `scripts/sdd-workspace <plan>`, reads `<workspace>/progress.md`, and trusts
 * it only if its first line is `# SDD ledger — plan: <this plan>`. No ledger
 * there: fresh start at Task 1. Any other ledger it sees (litter at the old
 * flat path, a sibling plan's directory) is another plan's, left in place.
 * This is the GREEN behaviour: the decision comes from structure, not from
 * reading commits.
 */
import path from 'node:path';
import {
  call,
  callAll,
  type PolicyProgram,
} from '../../../harness/model-server/policies/program.js';
import {
  bash,
  outputLines,
  read,
  shellQuote,
} from '../../../harness/model-server/policies/tools.js';
import type { Policy, PolicyContext } from './context.js';
import { finishResume } from './finish.js';
import { identityNamesPlan, parseLedger } from './ledger.js';
import { firstIncomplete, type LedgerFinding, type ResumeReport, taskRange } from './report.js';
import { readSkill, unanchoredReport } from './skill-text.js';
import {
  type FileRead,
  fileRead,
  maybeLookAround,
  maybeVerify,
  planRead,
  scopedWorkspace,
} from './steps.js';

export const structuralPolicy: Policy = {
  name: 'structural',
  summary:
    "resolves its plan's workspace with the skill's script; trusts only a ledger naming its plan",
  needs: ['Read', 'Bash'],
  *program(context) {
    const skill = yield* readSkill(context);
    if (!skill.ok) return unanchoredReport(context, skill.problem);
    return yield* structuralResume(context);
  },
};

/**
 * What a structural resume found, for a policy that goes on from there (the
 * fix-loop chain readers, see chain-moves.ts): the workspace, this plan's own
 * ledger when it trusted one, the plan, and the report it would give.
 */
export interface StructuralState {
  /** The directory `sdd-workspace` printed (or would have: the plan-scoped default). */
  readonly workspace: string;
  /** Where this plan's ledger is (or would be). */
  readonly ledgerPath: string;
  /** The ledger's text, when it was read and names this plan; undefined for a fresh start. */
  readonly ownLedgerText: string | undefined;
  /** The plan's text, when it could be read. */
  readonly planText: string | undefined;
  readonly report: ResumeReport;
}

/**
 * A policy's move once a structural resume knows the state: a program to run
 * instead of the default finish (dispatch the first open task, or report), or
 * undefined to finish as usual.
 */
export type StructuralContinuation = (state: StructuralState) => PolicyProgram | undefined;

export function* structuralResume(
  context: PolicyContext,
  continueWith?: StructuralContinuation,
): PolicyProgram {
  const { facts } = context;
  const script = path.join(facts.skillDir, 'scripts', 'sdd-workspace');
  const resolved = yield* call(
    bash(
      `cd ${shellQuote(facts.repo)} && ${shellQuote(script)} ${shellQuote(facts.planRelative)}`,
      "Resolve this plan's SDD workspace",
    ),
  );
  const workspace = resolved.isError
    ? undefined
    : [...outputLines(resolved)].reverse().find((line) => path.isAbsolute(line));

  const ownLedgerPath = workspace === undefined ? undefined : path.join(workspace, 'progress.md');
  const [planOutcome, ledgerOutcome] = yield* callAll([
    read(facts.planFile),
    ...(ownLedgerPath === undefined ? [] : [read(ownLedgerPath)]),
  ]);
  const planFile = fileRead(planOutcome ?? missingOutcome);
  const plan = planRead(planFile);
  const ownFile =
    ownLedgerPath === undefined ? undefined : fileRead(ledgerOutcome ?? missingOutcome);
  const own =
    ownLedgerPath === undefined
      ? unresolvedWorkspace(context, outputLines(resolved)[0] ?? 'no output')
      : judgeOwnLedger(context, ownLedgerPath, ownFile ?? { ok: false, problem: 'not read' });
  const findings: LedgerFinding[] = [own.finding];
  const complete = own.complete;

  yield* maybeLookAround(context);
  const others = yield* call(
    bash(
      `cd ${shellQuote(facts.repo)} && find .superpowers -type f -name 'progress*.md' 2>/dev/null | sort | while IFS= read -r f; do printf '%s\\t%s\\n' "$f" "$(head -n 1 "$f")"; done`,
      'List every SDD ledger and its first line',
    ),
  );
  for (const line of outputLines(others)) {
    const [relative, firstLine = ''] = line.split('\t');
    if (relative === undefined || !relative.startsWith('.superpowers')) continue;
    const ledgerPath = path.join(facts.repo, relative);
    if (ledgerPath === ownLedgerPath) continue;
    findings.push({
      path: ledgerPath,
      conclusion: foreignLedgerConclusion(context, relative, firstLine),
    });
  }
  yield* maybeVerify(context);

  const report: ResumeReport = {
    ledgers: findings,
    noLedgersNote: 'none.',
    completeTasks: complete,
    ...(complete.length === 0 ? { completeNote: 'nothing of this plan is recorded done' } : {}),
    firstDispatch: firstIncomplete(plan.tasks, complete),
    tasks: plan.tasks,
  };
  const resolvedWorkspace = workspace ?? scopedWorkspace(context);
  const next = continueWith?.({
    workspace: resolvedWorkspace,
    ledgerPath: ownLedgerPath ?? path.join(resolvedWorkspace, 'progress.md'),
    ownLedgerText: own.trusted && ownFile?.ok === true ? ownFile.text : undefined,
    planText: planFile.ok ? planFile.text : undefined,
    report,
  });
  if (next !== undefined) return yield* next;
  return yield* finishResume(context, report, resolvedWorkspace);
}

const missingOutcome = { text: '', isError: true };

interface OwnLedger {
  readonly finding: LedgerFinding;
  readonly complete: readonly number[];
  /** True when the ledger names this plan, so it is this plan's progress. */
  readonly trusted: boolean;
}

function unresolvedWorkspace(context: PolicyContext, why: string): OwnLedger {
  return {
    finding: {
      path: path.join(context.facts.skillDir, 'scripts', 'sdd-workspace'),
      conclusion: `did not resolve a workspace for this plan (${why}); no ledger of this plan to trust — fresh start.`,
    },
    complete: [],
    trusted: false,
  };
}

/** Trust the ledger in this plan's workspace only if its first line names this plan. */
function judgeOwnLedger(context: PolicyContext, ledgerPath: string, file: FileRead): OwnLedger {
  if (!file.ok) {
    return {
      finding: {
        path: ledgerPath,
        conclusion: "not present — this plan's workspace holds no ledger: fresh start.",
      },
      complete: [],
      trusted: false,
    };
  }
  const ledger = parseLedger(file.text);
  if (ledger.identity !== undefined && identityNamesPlan(ledger.identity, context.facts)) {
    const complete = ledger.entries.map((entry) => entry.task);
    const listed =
      complete.length === 0 ? 'no task recorded complete yet' : `${taskRange(complete)} complete`;
    return {
      finding: {
        path: ledgerPath,
        conclusion: `first line names this plan (${ledger.identity}) — this plan's ledger; ${listed}.`,
      },
      complete,
      trusted: true,
    };
  }
  const named =
    ledger.identity === undefined ? 'has no identity line' : `first line names ${ledger.identity}`;
  return {
    finding: {
      path: ledgerPath,
      conclusion: `${named} — not this plan's ledger; left in place, starting fresh.`,
    },
    complete: [],
    trusted: false,
  };
}

function foreignLedgerConclusion(
  context: PolicyContext,
  relative: string,
  firstLine: string,
): string {
  const identity = parseLedger(firstLine).identity;
  if (identity !== undefined) {
    const whose = identityNamesPlan(identity, context.facts)
      ? 'names this plan but sits outside its workspace'
      : `names ${identity}`;
    return `identity line ${whose} — another plan's progress, not mine; left in place.`;
  }
  if (relative === '.superpowers/sdd/progress.md') {
    return "stray ledger at the old flat path, no identity line — another plan's progress; left in place.";
  }
  return "no identity line, outside this plan's workspace — not this plan's; left in place.";
}
