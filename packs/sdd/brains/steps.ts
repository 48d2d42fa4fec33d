/**
 * Steps several policies share: re-reading SKILL.md and the plan, reading a
 * ledger, and the seeded optional calls (looking around, verifying with git)
 * that vary a policy's tool_uses from session to session. Every command is
 * read-only; paths are absolute.
 */
import path from 'node:path';
import {
  call,
  type SubProgram,
  type ToolCall,
} from '../../../harness/model-server/policies/program.js';
import {
  bash,
  fileText,
  glob,
  grep,
  read,
  shellQuote,
} from '../../../harness/model-server/policies/tools.js';
import type { PolicyContext } from './context.js';
import { type PlanTask, parsePlanTasks } from './plan.js';

/** A file a policy tried to read: its text, or why it could not. */
export type FileRead =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly problem: string };

export function fileRead(outcome: { text: string; isError: boolean }): FileRead {
  if (outcome.isError) {
    const firstLine = outcome.text.trim().split('\n')[0] ?? '';
    return { ok: false, problem: firstLine === '' ? 'could not be read' : firstLine };
  }
  return { ok: true, text: fileText(outcome) };
}

export function* readFile(filePath: string): SubProgram<FileRead> {
  return fileRead(yield* call(read(filePath)));
}

export interface PlanRead {
  readonly tasks: readonly PlanTask[];
  readonly problem: string | undefined;
}

export function planRead(file: FileRead): PlanRead {
  return file.ok
    ? { tasks: parsePlanTasks(file.text), problem: undefined }
    : { tasks: [], problem: file.problem };
}

/** `git -C <repo> ...` with the repo quoted. */
export function git(context: PolicyContext, args: string): string {
  return `git -C ${shellQuote(context.facts.repo)} ${args}`;
}

export function flatLedgerPath(context: PolicyContext): string {
  return path.join(flatWorkspace(context), 'progress.md');
}

/** The workspace the released `sdd-workspace` prints: one per working tree. */
export function flatWorkspace(context: PolicyContext): string {
  return path.join(context.facts.repo, '.superpowers', 'sdd');
}

/** The workspace the plan-scoped `sdd-workspace PLAN_FILE` prints: one per plan. */
export function scopedWorkspace(context: PolicyContext): string {
  return path.join(flatWorkspace(context), path.basename(context.facts.planFile, '.md'));
}

/** Seeded: zero to three extra looks around the repository. */
export function* maybeLookAround(context: PolicyContext): SubProgram<void> {
  const choices = lookAroundCalls(context);
  for (let made = 0; made < 3; made += 1) {
    const pick = draw(context, context.extras.lookAroundProbability, choices);
    if (pick === undefined) return;
    yield* call(pick);
  }
}

/** Seeded: zero to two extra verification calls against git history. */
export function* maybeVerify(context: PolicyContext): SubProgram<void> {
  const checks = [
    bash(git(context, 'log --oneline -n 10'), 'Cross-check recent commits'),
    bash(
      git(context, 'log --format="%h %an %ad %s" --date=short -n 10'),
      'Check who committed what',
    ),
  ];
  for (const check of checks) {
    if (context.rng === undefined || context.rng.next() >= context.extras.verificationProbability) {
      return;
    }
    yield* call(check);
  }
}

function lookAroundCalls(context: PolicyContext): readonly ToolCall[] {
  const plansDir = path.join(context.facts.repo, 'docs', 'plans');
  const calls: ToolCall[] = [];
  if (context.offeredTools.has('Bash')) {
    calls.push(
      bash(git(context, '--no-optional-locks status --short'), 'Look at the working tree'),
    );
  }
  if (context.offeredTools.has('Glob')) calls.push(glob('docs/plans/*.md', context.facts.repo));
  if (context.offeredTools.has('Grep')) calls.push(grep('^## Task', plansDir, 'content'));
  return calls;
}

function draw(
  context: PolicyContext,
  probability: number,
  choices: readonly ToolCall[],
): ToolCall | undefined {
  if (context.rng === undefined || choices.length === 0) return undefined;
  if (context.rng.next() >= probability) return undefined;
  return choices[Math.floor(context.rng.next() * choices.length)];
}
