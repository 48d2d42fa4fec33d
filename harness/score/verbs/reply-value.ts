/**
 * What the reply verbs share: reading one section's extracted value from the
 * evidence (an unreadable or absent answer leaves the check undecided, with
 * the extractor's reason), checking at load that the section exists and
 * extracts the kind of value the verb compares, and what values a section could read.
 */
import { type Evidence, type ExtractedValue, required } from '../evidence.js';
import { extractorOf, registeredExtractors } from '../extractor-table.js';
import { nameSchema } from '../param-types.js';
import type { ParamProblem, ValidationContext } from '../validation.js';
import type { VerbResult } from '../verb.js';

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
  kinds: readonly string[],
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

/**
 * A load-time problem when values a check compares with a section's value
 * could never be that value, as the section's extractor says (a choice the
 * section does not declare, a number for a choice).
 */
export function sectionValuesProblem(
  field: string,
  section: string,
  values: readonly (string | number)[],
  context: ValidationContext,
): ParamProblem | undefined {
  const kind = context.sections[section];
  if (kind === undefined) return undefined;
  return extractorOf(kind)?.entry.valuesProblem?.(field, section, values, context);
}

/** The kinds of section whose value is one scalar (what reply-one-of compares). */
export function scalarKinds(): string[] {
  return registeredExtractors()
    .filter(({ entry }) => entry.scalar !== undefined)
    .map(({ name }) => name);
}
