/**
 * `order`: the first event `first` selects comes before the first event
 * `then` selects, in the session's event list (session-events.ts: tool
 * calls, skill invocations, file writes, Bash writes included, questions,
 * answers). Never vacuous:
 *
 * - `then` never happened: the outcome the check states in `ifThenAbsent`
 *   (`pass`, `fail` or `undecided`; required: no default hides the case);
 * - `then` happened and `first` never did: fail;
 * - both in one simple command (one position): neither comes first, fail;
 *   the parts of one compound command are ordered left to right, so in
 *   `pytest && git commit` the test run comes first;
 * - a transcript with unreadable lines, or without the calls of a seat
 *   either selector looks at: undecided (an earlier event may be among them).
 */
import { z } from 'zod';
import { eventSelectorSchema, firstMatch, selectorToolProblem } from '../event-selector.js';
import { required } from '../evidence.js';
import { comparePositions, positionText, sessionEvents } from '../session-events.js';
import { defineVerb, type VerbResult } from '../verb.js';
import { missingCalls } from './tool-match.js';

export const order = defineVerb({
  summary:
    'the first event `first` selects comes before the first `then` selects (ifThenAbsent: pass, fail or undecided)',
  params: z
    .object({
      first: eventSelectorSchema,
      then: eventSelectorSchema,
      ifThenAbsent: z.enum(['pass', 'fail', 'undecided']),
    })
    .strict(),
  validate: (params, context) =>
    selectorToolProblem(params.first, 'first', context) ??
    selectorToolProblem(params.then, 'then', context),
  reads: () => ['transcript'],
  run: (params, evidence): VerbResult => {
    const transcript = required(evidence.transcript, 'transcript');
    const events = sessionEvents(transcript);
    const first = firstMatch(params.first, events, transcript.dispatches);
    const then = firstMatch(params.then, events, transcript.dispatches);
    const firstSeen =
      first === undefined
        ? 'first: never'
        : `first: ${first.why} at ${positionText(first.event.at)}`;
    const thenSeen =
      then === undefined ? 'then: never' : `then: ${then.why} at ${positionText(then.event.at)}`;
    const seatOf = (selector: typeof params.first) => ('seat' in selector ? selector.seat : 'any');
    const missing =
      missingCalls(seatOf(params.first), transcript) ??
      missingCalls(seatOf(params.then), transcript);
    if (missing !== undefined) {
      return {
        outcome: 'undecided',
        detail: `${missing.replace('a missing call', 'an earlier event')} (${firstSeen}; ${thenSeen})`,
      };
    }
    if (then === undefined) {
      return {
        outcome: params.ifThenAbsent,
        observed: first === undefined ? 'neither' : 'first only',
        detail: `the "then" event never happened, so the check is ${params.ifThenAbsent === 'undecided' ? 'undecided' : `${params.ifThenAbsent} as ifThenAbsent says`} (${firstSeen})`,
      };
    }
    if (first === undefined) {
      return {
        outcome: 'fail',
        observed: 'then only',
        detail: `${thenSeen}, and the "first" event never happened`,
      };
    }
    const compared = comparePositions(first.event.at, then.event.at);
    if (compared < 0) {
      return {
        outcome: 'pass',
        observed: 'first before then',
        detail: `${firstSeen}; ${thenSeen}`,
      };
    }
    return {
      outcome: 'fail',
      observed: compared === 0 ? 'same command' : 'then before first',
      detail:
        compared === 0
          ? `both in one simple command, so neither comes first (${firstSeen}; ${thenSeen})`
          : `${thenSeen} came before ${firstSeen}`,
    };
  },
});
