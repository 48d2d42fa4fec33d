/**
 * The moves of a controller in the fix-loop chain's moments, as tool calls:
 * appending ledger lines (Bash), writing a task brief and a review package
 * with the skill's own scripts, recording BASE, and the dispatches the texts
 * describe: a fresh implementer for a task, a fix subagent, a resume of the
 * implementer (SendMessage), a task reviewer sent back over open findings,
 * the final whole-branch review; and a question
 * to the human (AskUserQuestion when offered). Prompts are written the way a
 * controller following the texts writes them: the brief and report paths,
 * the Global Constraints verbatim, the findings verbatim, a model named.
 *
 * `chainMoment` says which moment a structural resume found: a fresh start,
 * a task mid-way through its fix loop, the next task, or every task done.
 */
import path from 'node:path';
import {
  call,
  type PolicyProgram,
  type SubProgram,
  type ToolCall,
} from '../../../harness/model-server/policies/program.js';
import { bash, outputLines, shellQuote } from '../../../harness/model-server/policies/tools.js';
import { type ChainLedger, parseChainLedger, roundsOf } from './chain-ledger.js';
import type { PolicyContext } from './context.js';
import { type PlanTask, taskLabel } from './plan.js';
import { globalConstraints } from './plan-conflicts.js';
import { git } from './steps.js';
import type { StructuralState } from './structural.js';

/** Where a plan stands, as the ledger a structural resume trusted says. */
export type ChainMoment =
  | { readonly kind: 'fresh' }
  | { readonly kind: 'all-complete'; readonly ledger: ChainLedger }
  | {
      readonly kind: 'mid-loop';
      readonly ledger: ChainLedger;
      readonly task: PlanTask;
      /** The latest fix round: its number, cap and open findings. */
      readonly round: number;
      readonly cap: number;
      readonly findings: string;
    }
  | { readonly kind: 'next'; readonly ledger: ChainLedger; readonly task: PlanTask };

export function chainMoment(state: StructuralState): ChainMoment | undefined {
  if (state.ownLedgerText === undefined) return { kind: 'fresh' };
  const ledger = parseChainLedger(state.ownLedgerText);
  const tasks = state.report.tasks;
  const complete = new Set(ledger.completes.map((line) => line.task));
  const next = tasks.find((task) => !complete.has(task.number));
  if (next === undefined) return tasks.length === 0 ? undefined : { kind: 'all-complete', ledger };
  const latest = roundsOf(ledger, next.number).at(-1);
  if (latest === undefined || latest.open === 0) return { kind: 'next', ledger, task: next };
  return {
    kind: 'mid-loop',
    ledger,
    task: next,
    round: latest.round,
    cap: latest.cap,
    findings: latest.findings,
  };
}

/** A finding that names a later task of the plan: a later task builds on it. */
export function namesLaterTask(finding: string, task: number, tasks: readonly PlanTask[]): boolean {
  return tasks.some(
    (other) =>
      other.number > task && new RegExp(`\\btask\\s+${other.number}\\b`, 'i').test(finding),
  );
}

const TIERS = ['haiku', 'sonnet', 'opus'] as const;
export type Tier = (typeof TIERS)[number];

/** The tier a model id or alias is on, if any. */
export function tierOf(model: string): Tier | undefined {
  return TIERS.find((tier) => model.toLowerCase().includes(tier));
}

/** One tier above the model (opus stays opus); sonnet when the model is on no tier. */
export function tierAbove(model: string | undefined): Tier {
  const tier = model === undefined ? undefined : tierOf(model);
  if (tier === undefined) return 'sonnet';
  return TIERS[Math.min(TIERS.indexOf(tier) + 1, TIERS.length - 1)] ?? 'opus';
}

/** Append lines to the ledger (creating it when `create`), with Bash. */
export function* appendLedger(
  ledgerPath: string,
  lines: readonly string[],
  create = false,
): SubProgram<void> {
  const quoted = lines.map((line) => shellQuote(line)).join(' ');
  yield* call(
    bash(
      `printf '%s\\n' ${quoted} ${create ? '>' : '>>'} ${shellQuote(ledgerPath)}`,
      create ? 'Start the ledger' : 'Append to the ledger',
    ),
  );
}

/** Record BASE before a dispatch, as the texts ask. */
export function* recordBase(context: PolicyContext): SubProgram<string | undefined> {
  const outcome = yield* call(bash(git(context, 'rev-parse --short HEAD'), 'Record BASE'));
  return outcome.isError ? undefined : outputLines(outcome)[0];
}

/** Run the skill's `task-brief` for a task; the path it printed, or the default in the workspace. */
export function* writeBrief(
  context: PolicyContext,
  workspace: string,
  task: number,
): SubProgram<string> {
  const script = path.join(context.facts.skillDir, 'scripts', 'task-brief');
  const outcome = yield* call(
    bash(
      `cd ${shellQuote(context.facts.repo)} && ${shellQuote(script)} ${shellQuote(context.facts.planRelative)} ${task}`,
      `Write Task ${task}'s brief`,
    ),
  );
  return writtenPath(outcome, path.join(workspace, `task-${task}-brief.md`));
}

/**
 * A fresh start on a plan with a ruling on record: start this plan's ledger
 * with `rulingLines` under its header, record BASE, write Task 1's brief and
 * dispatch its implementer with `note` (the ruling, as the task must honour it).
 */
export function* ledgerRulingAndDispatchFirst(
  context: PolicyContext,
  state: StructuralState,
  first: PlanTask,
  rulingLines: readonly string[],
  note: string,
): SubProgram<void> {
  yield* appendLedger(
    state.ledgerPath,
    [`# SDD ledger — plan: ${context.facts.planRelative}`, '', ...rulingLines],
    true,
  );
  yield* recordBase(context);
  const brief = yield* writeBrief(context, state.workspace, first.number);
  yield* call(
    implementerDispatch(context, {
      task: first,
      brief,
      workspace: state.workspace,
      planText: state.planText,
      model: 'sonnet',
      notes: [note],
    }),
  );
}

/** Run the skill's `review-package` for the whole branch; the package's path. */
export function* packageBranch(context: PolicyContext, workspace: string): SubProgram<string> {
  const script = path.join(context.facts.skillDir, 'scripts', 'review-package');
  const outcome = yield* call(
    bash(
      `cd ${shellQuote(context.facts.repo)} && ${shellQuote(script)} ${shellQuote(context.facts.planRelative)} "$(git merge-base main HEAD)" HEAD`,
      'Package the whole branch for the final review',
    ),
  );
  return writtenPath(outcome, path.join(workspace, 'review-branch.diff'));
}

function writtenPath(outcome: { text: string; isError: boolean }, fallback: string): string {
  if (outcome.isError) return fallback;
  const wrote = outputLines(outcome)
    .map((line) => /^wrote (\/\S+?):/.exec(line)?.[1])
    .find((found) => found !== undefined);
  return wrote ?? fallback;
}

/** The subagent tool the request offers: Agent, else its legacy name Task. */
function subagentTool(context: PolicyContext): 'Agent' | 'Task' {
  return context.offeredTools.has('Agent') ? 'Agent' : 'Task';
}

/** Whether the session can dispatch at all (a tool, and a prompt that allows it). */
export function canDispatch(context: PolicyContext): boolean {
  return (
    context.dispatchAllowed &&
    (context.offeredTools.has('Agent') || context.offeredTools.has('Task'))
  );
}

function dispatch(
  context: PolicyContext,
  input: { description: string; prompt: string; model?: string | undefined },
): ToolCall {
  return {
    name: subagentTool(context),
    input: {
      description: input.description,
      prompt: input.prompt,
      subagent_type: 'general-purpose',
      ...(input.model === undefined ? {} : { model: input.model }),
    },
  };
}

export interface ImplementerBrief {
  readonly task: PlanTask;
  readonly brief: string;
  readonly workspace: string;
  readonly planText: string | undefined;
  readonly model: string;
  /** Extra paragraphs: rulings to carry, hand-over framing, findings. */
  readonly notes?: readonly string[];
}

/** A fresh implementer for a task: brief and report paths, the Global Constraints, a model. */
export function implementerDispatch(context: PolicyContext, brief: ImplementerBrief): ToolCall {
  const constraints =
    brief.planText === undefined ? [] : globalConstraints(brief.planText).map((c) => `- ${c}`);
  return dispatch(context, {
    description: `Implement Task ${brief.task.number}: ${brief.task.title}`,
    model: brief.model,
    prompt: [
      `You are implementing ${taskLabel(brief.task.number, [brief.task])} of the plan ${context.facts.planRelative} in the repository at ${context.facts.repo}.`,
      '',
      `Your brief is ${brief.brief}: read it first; it is your requirements, with the exact values to use verbatim.`,
      `Write your full report to ${path.join(brief.workspace, `task-${brief.task.number}-report.md`)} and reply with your status, commits, a one-line test summary and any concerns.`,
      ...(constraints.length === 0
        ? []
        : ['', 'Global Constraints (the plan binds every task to them):', ...constraints]),
      ...(brief.notes ?? []).flatMap((note) => ['', note]),
    ].join('\n'),
  });
}

/** A fix subagent (or fresh implementer) for a task's open findings. */
export function fixDispatch(
  context: PolicyContext,
  fix: {
    readonly task: PlanTask;
    readonly workspace: string;
    readonly round: number;
    readonly findings: string;
    readonly model: string;
    readonly framing?: string;
  },
): ToolCall {
  const number = fix.task.number;
  return dispatch(context, {
    description: `Task ${number} fix round ${fix.round}`,
    model: fix.model,
    prompt: [
      ...(fix.framing === undefined ? [] : [fix.framing, '']),
      `Fix the open review findings of ${taskLabel(number, [fix.task])} of the plan ${context.facts.planRelative}, in the repository at ${context.facts.repo}.`,
      '',
      `Your brief is ${path.join(fix.workspace, `task-${number}-brief.md`)}: read it first; it holds the task's full text.`,
      `The report file is ${path.join(fix.workspace, `task-${number}-report.md`)}: append your fix report to it (what changed, the covering tests, the command, the output).`,
      '',
      'Open findings, verbatim:',
      `- ${fix.findings}`,
      '',
      'Write a failing test first where you can, fix, re-run the tests that cover the change, commit, and reply with your status.',
    ].join('\n'),
  });
}

/** A task reviewer sent back over a task's open findings: it reads and reports, and changes no code. */
export function reReviewDispatch(
  context: PolicyContext,
  review: {
    readonly task: PlanTask;
    readonly round: number;
    readonly findings: string;
    readonly model: string;
  },
): ToolCall {
  const number = review.task.number;
  return dispatch(context, {
    description: `Re-review Task ${number}`,
    model: review.model,
    prompt: [
      `You are the task reviewer for ${taskLabel(number, [review.task])} of the plan ${context.facts.planRelative}, in the repository at ${context.facts.repo}.`,
      `Re-review the code after fix round ${review.round}: check whether this finding is still open, verbatim:`,
      `- ${review.findings}`,
      '',
      'Do not change code; report findings only.',
    ].join('\n'),
  });
}

/** A message to the task's live implementer with its open findings (a resume), or undefined when not offered. */
export function resumeImplementer(
  context: PolicyContext,
  resume: {
    readonly task: number;
    readonly agent: string;
    readonly round: number;
    readonly findings: string;
  },
): ToolCall | undefined {
  if (!context.offeredTools.has('SendMessage')) return undefined;
  return {
    name: 'SendMessage',
    input: {
      to: resume.agent,
      summary: `Task ${resume.task} fix round ${resume.round}`,
      message: [
        `Fix round ${resume.round} for Task ${resume.task}. The re-review left this open, verbatim:`,
        `- ${resume.findings}`,
        'Fix it, re-run the covering tests, append your fix report to the report file, commit, and reply with your status.',
      ].join('\n'),
    },
  };
}

/** The final whole-branch review, pointed at the ledger lines it is to triage. */
export function finalReviewDispatch(
  context: PolicyContext,
  review: {
    readonly packagePath: string;
    /** What the text says to point the reviewer at, e.g. "`minor (deferred)` and `parked`". */
    readonly pointAt: string;
    readonly lines: readonly string[];
  },
): ToolCall {
  return dispatch(context, {
    description: 'Final whole-branch review',
    model: 'opus',
    prompt: [
      `You are the final whole-branch reviewer for the plan ${context.facts.planRelative}, in the repository at ${context.facts.repo}.`,
      `Use ${path.join(context.facts.skillDir, 'task-reviewer-prompt.md')} in whole-branch mode: the plan is your spec, and ${review.packagePath} holds the commit list, the stat and the full diff of the branch since it left main.`,
      '',
      `Triage the ledger's ${review.pointAt} lines below: decide which must be fixed before merge.`,
      ...review.lines.map((line) => `- ${line}`),
    ].join('\n'),
  });
}

/** Ask the human: through the question tool when offered (the call ends a probe), else in words. */
export function* askHuman(
  context: PolicyContext,
  question: { readonly text: string; readonly header: string; readonly options: readonly string[] },
  preamble: string,
): SubProgram<string> {
  if (context.offeredTools.has('AskUserQuestion')) {
    yield* call({
      name: 'AskUserQuestion',
      input: {
        questions: [
          {
            question: question.text,
            header: question.header.slice(0, 12),
            options: question.options.slice(0, 4).map((label) => ({ label, description: label })),
            multiSelect: false,
          },
        ],
      },
    });
  }
  return `${preamble}\n\n${question.text}`;
}

/** A move that only replies: no tool call. */
// biome-ignore lint/correctness/useYield: a program that ends at once is still a program
export function* replyOnly(text: string): PolicyProgram {
  return text;
}
