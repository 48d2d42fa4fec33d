/**
 * `forensic`: the RED behaviour the seeds observed. It re-reads SKILL.md and
 * its plan, finds every ledger under `.superpowers/`, and for each commit a
 * ledger cites it fetches the commit's content (`git show --stat --patch`) and
 * matches the files changed against the task specs of its own plan and of the
 * other plans in `docs/plans/`. A ledger is trusted only when its cited commits
 * implement its own plan's tasks. This costs a tool call per cited commit:
 * the "disambiguation tax" of seed 000 (6 to 13 calls there).
 */
import path from 'node:path';
import {
  call,
  callAll,
  type PolicyProgram,
} from '../../../harness/model-server/policies/program.js';
import {
  bash,
  glob,
  outputLines,
  read,
  shellQuote,
} from '../../../harness/model-server/policies/tools.js';
import type { Policy, PolicyContext } from './context.js';
import { finishResume } from './finish.js';
import { type Ledger, parseLedger } from './ledger.js';
import type { PlanTask } from './plan.js';
import { firstIncomplete, type LedgerFinding, taskRange } from './report.js';
import { readSkill, unanchoredReport, workspaceFor } from './skill-text.js';
import { fileRead, git, maybeLookAround, maybeVerify, planRead, readFile } from './steps.js';

export const forensicPolicy: Policy = {
  name: 'forensic',
  summary: "checks each cited commit's content against the plan files before trusting a ledger",
  needs: ['Read', 'Bash', 'Glob'],
  *program(context) {
    const skill = yield* readSkill(context);
    if (!skill.ok) return unanchoredReport(context, skill.problem);
    return yield* forensicResume(context, workspaceFor(context, skill.text));
  },
};

interface PlanOnDisk {
  readonly relative: string;
  readonly tasks: readonly PlanTask[];
}

type Verdict =
  | { readonly kind: 'own'; readonly tasks: readonly number[] }
  | { readonly kind: 'other'; readonly plan: string; readonly tasks: readonly number[] }
  | { readonly kind: 'unverified'; readonly why: string };

/** The forensic resume; its task briefs go to `workspace`. */
function* forensicResume(context: PolicyContext, workspace: string): PolicyProgram {
  const { facts } = context;
  const plan = planRead(yield* readFile(facts.planFile));
  const found = yield* call(
    bash(
      `find ${shellQuote(path.join(facts.repo, '.superpowers'))} -type f -name 'progress*.md' 2>/dev/null | sort`,
      'Find SDD progress ledgers',
    ),
  );
  const ledgerPaths = outputLines(found).filter(
    (line) => path.isAbsolute(line) && line.endsWith('.md'),
  );
  yield* maybeLookAround(context);

  if (ledgerPaths.length === 0) {
    yield* maybeVerify(context);
    return yield* finishResume(
      context,
      {
        ledgers: [],
        noLedgersNote: `none found under ${path.join(facts.repo, '.superpowers')} — fresh start.`,
        completeTasks: [],
        firstDispatch: firstIncomplete(plan.tasks, []),
        tasks: plan.tasks,
      },
      workspace,
    );
  }

  const ledgerOutcomes = yield* callAll(ledgerPaths.map((ledgerPath) => read(ledgerPath)));
  const ledgers = ledgerPaths.map((ledgerPath, index) => ({
    path: ledgerPath,
    file: fileRead(ledgerOutcomes[index] ?? { text: '', isError: true }),
  }));

  const log = yield* call(bash(git(context, 'log --oneline --all'), 'List every commit'));
  const knownHashes = outputLines(log).map((line) => line.split(/\s+/)[0] ?? '');

  const listed = yield* call(glob('docs/plans/*.md', facts.repo));
  const otherPlanFiles = outputLines(listed)
    .filter((line) => line.endsWith('.md'))
    .map((line) => path.resolve(facts.repo, line))
    .filter((file) => file !== facts.planFile);
  const otherPlanOutcomes = yield* callAll(otherPlanFiles.map((file) => read(file)));
  const otherPlans: PlanOnDisk[] = otherPlanFiles.map((file, index) => ({
    relative: path.relative(facts.repo, file).split(path.sep).join('/'),
    tasks: planRead(fileRead(otherPlanOutcomes[index] ?? { text: '', isError: true })).tasks,
  }));

  const parsed = ledgers.map((entry) => ({
    ...entry,
    ledger: entry.file.ok ? parseLedger(entry.file.text) : undefined,
  }));
  const citations = [
    ...new Set(
      parsed.flatMap(({ ledger }) =>
        (ledger?.entries ?? [])
          .map((entry) => entry.commits)
          .filter((commits): commits is string => commits !== undefined)
          .filter((commits) => resolvable(commits, knownHashes)),
      ),
    ),
  ];
  const shows = yield* callAll(
    citations.map((commits) =>
      bash(
        git(
          context,
          `${commits.includes('..') ? 'log' : 'show'} --stat --patch ${shellQuote(commits)}`,
        ),
        `Inspect the content of cited commit ${commits}`,
      ),
    ),
  );
  const changedFiles = new Map<string, readonly string[]>();
  citations.forEach((commits, index) => {
    const shown = shows[index];
    if (shown !== undefined && !shown.isError) changedFiles.set(commits, filesInDiff(shown.text));
  });
  yield* maybeVerify(context);

  const findings: LedgerFinding[] = [];
  const complete = new Set<number>();
  for (const { path: ledgerPath, file, ledger } of parsed) {
    if (!file.ok || ledger === undefined) {
      findings.push({
        path: ledgerPath,
        conclusion: `could not be read (${file.ok ? '' : file.problem}).`,
      });
      continue;
    }
    const verdict = judge(ledger, plan.tasks, otherPlans, changedFiles, knownHashes);
    if (verdict.kind === 'own') for (const task of verdict.tasks) complete.add(task);
    findings.push({ path: ledgerPath, conclusion: describe(ledger, verdict, changedFiles) });
  }

  const completeTasks = [...complete].sort((a, b) => a - b);
  return yield* finishResume(
    context,
    {
      ledgers: findings,
      noLedgersNote: 'none.',
      completeTasks,
      ...(completeTasks.length === 0
        ? { completeNote: 'no ledger is backed by commits implementing this plan' }
        : {}),
      firstDispatch: firstIncomplete(plan.tasks, completeTasks),
      tasks: plan.tasks,
    },
    workspace,
  );
}

function judge(
  ledger: Ledger,
  ownTasks: readonly PlanTask[],
  otherPlans: readonly PlanOnDisk[],
  changedFiles: ReadonlyMap<string, readonly string[]>,
  knownHashes: readonly string[],
): Verdict {
  if (ledger.entries.length === 0) return { kind: 'own', tasks: [] };
  const owners: (string | undefined)[] = [];
  for (const entry of ledger.entries) {
    if (entry.commits === undefined) {
      return { kind: 'unverified', why: `Task ${entry.task} cites no commit` };
    }
    if (!resolvable(entry.commits, knownHashes)) {
      return { kind: 'unverified', why: `${entry.commits} is not in this repository's history` };
    }
    const changed = changedFiles.get(entry.commits) ?? [];
    if (implementsTask(changed, ownTasks, entry.task)) {
      owners.push(undefined);
      continue;
    }
    const otherOwner =
      otherPlans.find((other) => implementsTask(changed, other.tasks, entry.task)) ??
      otherPlans.find((other) => other.tasks.some((task) => overlaps(changed, task.files)));
    if (otherOwner === undefined) {
      return {
        kind: 'unverified',
        why: `${entry.commits} does not implement this plan's Task ${entry.task}`,
      };
    }
    owners.push(otherOwner.relative);
  }
  const tasks = ledger.entries.map((entry) => entry.task);
  const first = owners[0];
  if (owners.every((owner) => owner === undefined)) return { kind: 'own', tasks };
  if (first !== undefined && owners.every((owner) => owner === first)) {
    return { kind: 'other', plan: first, tasks };
  }
  return { kind: 'unverified', why: 'its commits implement tasks of different plans' };
}

function describe(
  ledger: Ledger,
  verdict: Verdict,
  changedFiles: ReadonlyMap<string, readonly string[]>,
): string {
  const identity = ledger.identity === undefined ? '' : `first line names ${ledger.identity}; `;
  const commits = ledger.entries.flatMap((entry) => entry.commits ?? []);
  const files = [...new Set(commits.flatMap((commit) => changedFiles.get(commit) ?? []))];
  const cites =
    commits.length === 0
      ? 'cites no commits'
      : `cites ${commits.length} commit${commits.length === 1 ? '' : 's'} (${commits.join(', ')})`;
  const touching = files.length === 0 ? '' : `, whose diffs change ${files.join(', ')}`;
  switch (verdict.kind) {
    case 'own':
      return verdict.tasks.length === 0
        ? `${identity}records no completed task.`
        : `${identity}${cites}${touching} — exactly what this plan's ${taskRange(verdict.tasks)} specify: this plan's progress, trusted.`;
    case 'other':
      return `${identity}${cites}${touching} — that is ${verdict.plan} ${taskRange(verdict.tasks)}, not this plan's: another plan's ledger, not trusted; left in place.`;
    case 'unverified':
      return `${identity}${cites}; ${verdict.why} — not trusted.`;
  }
}

function implementsTask(
  changed: readonly string[],
  tasks: readonly PlanTask[],
  number: number,
): boolean {
  const task = tasks.find((candidate) => candidate.number === number);
  return task !== undefined && overlaps(changed, task.files);
}

function overlaps(changed: readonly string[], specFiles: readonly string[]): boolean {
  const normalized = new Set(changed.map(normalizePath));
  return specFiles.some((file) => normalized.has(normalizePath(file)));
}

function normalizePath(file: string): string {
  return file.replace(/^\.\//, '');
}

/** Whether every end of a cited commit or range is a commit `git log` listed. */
function resolvable(commits: string, knownHashes: readonly string[]): boolean {
  return commits
    .split('..')
    .every((hash) =>
      knownHashes.some(
        (known) => known !== '' && (known.startsWith(hash) || hash.startsWith(known)),
      ),
    );
}

/** The paths a `git show --stat --patch` output changes, from its `diff --git` headers. */
function filesInDiff(diff: string): readonly string[] {
  const files = new Set<string>();
  for (const match of diff.matchAll(/^diff --git a\/(\S+) b\/(\S+)$/gm)) {
    if (match[2] !== undefined) files.add(match[2]);
  }
  return [...files];
}
