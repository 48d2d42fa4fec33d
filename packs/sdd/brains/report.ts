/**
 * The final reply every policy ends with: the three-section report the
 * campaign prompt asks for (seed 000, Appendix B), written the way a terse
 * model would write it: concrete paths, what was concluded, and which task is
 * next by number and title.
 */
import { type PlanTask, taskLabel } from './plan.js';

export interface LedgerFinding {
  readonly path: string;
  readonly conclusion: string;
}

export type FirstDispatch =
  | { readonly kind: 'task'; readonly task: number }
  | { readonly kind: 'all-complete' }
  | { readonly kind: 'undetermined'; readonly reason: string };

export interface ResumeReport {
  readonly ledgers: readonly LedgerFinding[];
  /** Said when no ledger was looked at or found. */
  readonly noLedgersNote: string;
  readonly completeTasks: readonly number[];
  /** Appended to the completed-tasks line (e.g. "starting fresh"). */
  readonly completeNote?: string;
  readonly firstDispatch: FirstDispatch;
  readonly tasks: readonly PlanTask[];
}

export function formatReport(report: ResumeReport): string {
  const ledgerSection =
    report.ledgers.length === 0
      ? `1. LEDGERS CHECKED: ${report.noLedgersNote}`
      : [
          '1. LEDGERS CHECKED:',
          ...report.ledgers.map((finding) => `   - ${finding.path} — ${finding.conclusion}`),
        ].join('\n');
  return [
    ledgerSection,
    `2. TASKS ALREADY COMPLETE: ${completeText(report)}`,
    `3. FIRST DISPATCH: ${dispatchText(report)}`,
  ].join('\n');
}

function completeText(report: ResumeReport): string {
  const note = report.completeNote === undefined ? '' : ` — ${report.completeNote}`;
  if (report.completeTasks.length === 0) return `none${note}.`;
  const numbers = [...report.completeTasks].sort((a, b) => a - b);
  const titles = numbers
    .map((number) => report.tasks.find((task) => task.number === number)?.title)
    .filter((title): title is string => title !== undefined);
  const named = titles.length === numbers.length ? ` (${titles.join('; ')})` : '';
  return `${taskRange(numbers)}${named}${note}.`;
}

function dispatchText(report: ResumeReport): string {
  switch (report.firstDispatch.kind) {
    case 'task':
      return `${taskLabel(report.firstDispatch.task, report.tasks)}.`;
    case 'all-complete':
      return 'none — all tasks complete.';
    case 'undetermined':
      return `undetermined — ${report.firstDispatch.reason}.`;
  }
}

/** `Task 2`, `Tasks 1–2`, `Tasks 1, 3 and 4`. */
export function taskRange(numbers: readonly number[]): string {
  if (numbers.length === 1) return `Task ${numbers[0]}`;
  const contiguous = numbers.every((n, i) => i === 0 || n === (numbers[i - 1] ?? n) + 1);
  if (contiguous) return `Tasks ${numbers[0]}–${numbers[numbers.length - 1]}`;
  return `Tasks ${numbers.slice(0, -1).join(', ')} and ${numbers[numbers.length - 1]}`;
}

/** The lowest task of the plan that is not complete, or all-complete. */
export function firstIncomplete(
  tasks: readonly PlanTask[],
  complete: readonly number[],
): FirstDispatch {
  if (tasks.length === 0) {
    const next = complete.length === 0 ? 1 : Math.max(...complete) + 1;
    return { kind: 'task', task: next };
  }
  const open = tasks.find((task) => !complete.includes(task.number));
  return open === undefined ? { kind: 'all-complete' } : { kind: 'task', task: open.number };
}
