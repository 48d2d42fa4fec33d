/**
 * Strong Kleene logic over check outcomes, the only place outcomes are
 * combined. `undecided` means the evidence could not settle a check; it is
 * never counted as a pass or a fail:
 *
 * - allOf: any `fail` fails; else any `undecided` is undecided; else `pass`.
 * - anyOf: any `pass` passes; else any `undecided` is undecided; else `fail`.
 * - notOf: swaps `pass` and `fail` and keeps `undecided`, so negating a check
 *   whose evidence is missing (a file gone, a transcript unreadable, a
 *   command that could not start) never passes.
 *
 * `allOf([])` is `pass` and `anyOf([])` is `fail`; the scenario schema
 * rejects empty lists, so neither is ever reached from a scenario file.
 */
import { z } from 'zod';

export const OUTCOMES = ['pass', 'fail', 'undecided'] as const;
export const outcomeSchema = z.enum(OUTCOMES);
/** What one check says about one rep. */
export type Outcome = z.infer<typeof outcomeSchema>;

export function allOf(outcomes: readonly Outcome[]): Outcome {
  if (outcomes.includes('fail')) return 'fail';
  if (outcomes.includes('undecided')) return 'undecided';
  return 'pass';
}

export function anyOf(outcomes: readonly Outcome[]): Outcome {
  if (outcomes.includes('pass')) return 'pass';
  if (outcomes.includes('undecided')) return 'undecided';
  return 'fail';
}

export function notOf(outcome: Outcome): Outcome {
  if (outcome === 'pass') return 'fail';
  if (outcome === 'fail') return 'pass';
  return 'undecided';
}
