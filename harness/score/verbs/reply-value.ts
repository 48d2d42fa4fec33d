/**
 * What the reply verbs share: reading one section's extracted value from the
 * evidence (an unreadable or absent answer leaves the check undecided, with
 * the extractor's reason), checking at load that the section exists and
 * extracts the kind of value the verb compares, and naming tasks in details.
 */
import { z } from 'zod';
import { type Evidence, type ExtractedValue, required } from '../evidence.js';
import type { ExtractorKind } from '../extractors/index.js';
import { nameSchema } from '../param-types.js';
import type { KnownPlan, ParamProblem, ValidationContext, VerbResult } from '../verb.js';

export const sectionParam = nameSchema.describe('a section of the report contract');

/** The section's value, or the undecided result that stands in for it. */
export function sectionValue(
  evidence: Evidence,
  section: string,
): { readonly value: ExtractedValue } | { readonly undecided: VerbResult } {
  const reading = required(evidence.reply, 'reply').values[section];
  if (reading === undefined) {
    return { undecided: { outcome: 'undecided', detail: `the reply has no "${section}" section` } };
  }
  if (!reading.ok) {
    return {
      undecided: { outcome: 'undecided', detail: `the "${section}" answer ${reading.why}` },
    };
  }
  return { value: reading.value };
}

/** A load-time problem when `section` is missing from the contract or extracts another kind. */
export function sectionProblem(
  section: string,
  context: ValidationContext,
  kinds: readonly ExtractorKind[],
): ParamProblem | undefined {
  const kind = context.sections[section];
  if (kind === undefined) {
    const known = Object.keys(context.sections);
    return {
      field: 'section',
      problem: `names section "${section}", which the report contract lacks`,
      fix: known.length === 0 ? 'declare it under "report"' : `use one of ${known.join(', ')}`,
    };
  }
  if (!kinds.includes(kind)) {
    return {
      field: 'section',
      problem: `section "${section}" extracts a ${kind} value; this verb compares ${kinds.join(' or ')} values`,
      fix: 'use the reply verb for that kind of value',
    };
  }
  return undefined;
}

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

export const taskListSchema = z.array(z.number().int().positive());

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

/**
 * A load-time problem when values a check compares with a section's value
 * could never be that value: a choice the section does not declare, a task
 * number given for a choice, or a word other than `none` given for a task.
 */
export function sectionValuesProblem(
  field: string,
  section: string,
  values: readonly (string | number)[],
  context: ValidationContext,
): ParamProblem | undefined {
  const kind = context.sections[section];
  if (kind === 'choice') {
    const declared = context.choiceValues?.[section];
    for (const value of values) {
      if (typeof value === 'number') {
        return {
          field,
          problem: `${value} is a task, but the "${section}" section reads a choice`,
          fix:
            declared === undefined ? 'give a declared value' : `use one of ${declared.join(', ')}`,
        };
      }
      if (declared !== undefined && !declared.includes(value)) {
        return {
          field,
          problem: `"${value}" is not a value the "${section}" section declares, so it could never be read`,
          fix: `use one of ${declared.join(', ')}`,
        };
      }
    }
  }
  if (kind === 'task') {
    const word = values.find((value) => typeof value === 'string' && value !== 'none');
    if (word !== undefined) {
      return {
        field,
        problem: `"${word}" is no task: the "${section}" section reads a task number or none`,
        fix: 'use task numbers or none',
      };
    }
    return taskRangeProblem(
      field,
      values.filter(
        (value): value is number | 'none' => value === 'none' || typeof value === 'number',
      ),
      context.sectionPlans?.[section],
      true,
    );
  }
  return undefined;
}
