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
import type { ParamProblem, ValidationContext, VerbResult } from '../verb.js';

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
