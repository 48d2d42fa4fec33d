/** Task numbers as checks give them and details name them, and the load-time problem of one outside its plan. */
import { z } from 'zod';
import type { ParamProblem } from '../../../harness/score/validation.js';
import type { KnownPlan } from './known-plans.js';

export const taskNumber = z.number().int().positive();

/** A task number, or `none` for "no task". */
export const taskOrNone = z.union([taskNumber, z.literal('none')]);

export const taskListSchema = z.array(z.number().int().positive());

/** `[1, 2, 3, 5]` → `Tasks 1–3, 5`; `[]` → `no task`. */
export function describeTasks(numbers: readonly number[]): string {
  if (numbers.length === 0) return 'no task';
  const sorted = [...new Set(numbers)].sort((a, b) => a - b);
  const parts: string[] = [];
  let start = sorted[0] ?? 0;
  let previous = start;
  for (const n of [...sorted.slice(1), Number.NaN]) {
    if (n === previous + 1) {
      previous = n;
      continue;
    }
    parts.push(
      start === previous
        ? `${start}`
        : previous === start + 1
          ? `${start}, ${previous}`
          : `${start}–${previous}`,
    );
    start = n;
    previous = n;
  }
  return `${sorted.length === 1 ? 'Task' : 'Tasks'} ${parts.join(', ')}`;
}

/** `Task 3`, or `no task` for none. */
export function describeTask(task: number | 'none'): string {
  return task === 'none' ? 'no task' : `Task ${task}`;
}

/**
 * A load-time problem when a task number is not a task of `plan` (whose task
 * count is known): such a check could never pass.
 */
export function taskRangeProblem(
  field: string,
  tasks: readonly (number | 'none')[],
  plan: KnownPlan | undefined,
  noneAllowed = false,
): ParamProblem | undefined {
  const count = plan?.taskCount;
  if (plan === undefined || count === undefined) return undefined;
  const outside = tasks.find((task) => task !== 'none' && (task < 1 || task > count));
  if (outside === undefined) return undefined;
  return {
    field,
    problem: `Task ${outside} is not a task of ${plan.path}, which has ${count} tasks`,
    fix: `use ${count === 1 ? '1' : `1–${count}`}${noneAllowed ? ' or none' : ''}`,
  };
}
