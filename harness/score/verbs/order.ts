/**
 * `order`: the first event `first` selects comes before the first event
 * `then` selects, in the session's event list (session-events.ts: tool
 * calls, skill invocations, file writes, Bash writes included, questions,
 * answers). `which` picks the last occurrence instead, for either side:
 * `{ "first": "last", "then": "last" }` says the last `first` event comes
 * before the last `then` one (the tests ran after the final edit, whatever
 * ran before it). Never vacuous:
 *
 * - `then` never happened: the outcome the check states in `ifThenAbsent`
 *   (`pass`, `fail` or `undecided`; required: no default hides the case);
 * - `then` happened and `first` never did: fail;
 * - both in one simple command (one position): neither comes first, fail;
 *   the parts of one compound command are ordered left to right, so in
 *   `pytest && git commit` the test run comes first;
 * - a transcript with unreadable lines, or without the calls of a seat
 *   either selector looks at: undecided (an earlier event may be among them);
 * - a write the event list cannot place: when the snapshots show a file
 *   added or changed that no write event names (a build, a script file,
 *   `git apply fix.patch`), and `first` or `then` is a write selector that
 *   file matches, the outcome that write could overturn is undecided (a
 *   pass when it could be an earlier first `then` or a later last `first`,
 *   a fail when it could be an earlier first `first` or a later last
 *   `then`); one it cannot overturn stands.
 */
import { z } from 'zod';
import {
  eventSelectorSchema,
  firstMatch,
  lastMatch,
  selectorToolProblem,
  writeMayMatch,
} from '../event-selector.js';
import { required } from '../evidence.js';
import {
  comparePositions,
  positionText,
  sessionEvents,
  unplacedWrites,
} from '../session-events.js';
import { NO_TURNS_RECORDED } from '../turn-selector.js';
import { defineVerb, listed, type VerbResult } from '../verb.js';
import { missingCalls, undescribedDispatches } from './tool-match.js';

/** Which occurrence of a selector's events is compared: its first (the default) or its last. */
const occurrenceSchema = z.enum(['first', 'last']);
type Occurrence = z.infer<typeof occurrenceSchema>;

export const order = defineVerb({
  summary:
    'the first event `first` selects comes before the first `then` selects (which: the last of either instead; ifThenAbsent: pass, fail or undecided)',
  params: z
    .object({
      first: eventSelectorSchema,
      then: eventSelectorSchema,
      which: z
        .object({ first: occurrenceSchema.optional(), then: occurrenceSchema.optional() })
        .strict()
        .optional(),
      ifThenAbsent: z.enum(['pass', 'fail', 'undecided']),
    })
    .strict(),
  validate: (params, context) =>
    selectorToolProblem(params.first, 'first', context) ??
    selectorToolProblem(params.then, 'then', context),
  reads: () => ['transcript'],
  run: (params, evidence): VerbResult => {
    const transcript = required(evidence.transcript, 'transcript');
    if (
      transcript.turns === undefined &&
      (params.first.turn !== undefined || params.then.turn !== undefined)
    ) {
      return { outcome: 'undecided', detail: NO_TURNS_RECORDED };
    }
    const events = sessionEvents(transcript);
    const whichFirst: Occurrence = params.which?.first ?? 'first';
    const whichThen: Occurrence = params.which?.then ?? 'first';
    const pick = (occurrence: Occurrence) => (occurrence === 'first' ? firstMatch : lastMatch);
    const first = pick(whichFirst)(params.first, events, transcript.dispatches);
    const then = pick(whichThen)(params.then, events, transcript.dispatches);
    // "first: …" for the default, "last first: …" when `which` picks the last occurrence.
    const label = (occurrence: Occurrence, side: string) =>
      occurrence === 'first' ? side : `last ${side}`;
    const firstSeen =
      first === undefined
        ? 'first: never'
        : `${label(whichFirst, 'first')}: ${first.why} at ${positionText(first.event.at)}`;
    const thenSeen =
      then === undefined
        ? 'then: never'
        : `${label(whichThen, 'then')}: ${then.why} at ${positionText(then.event.at)}`;
    const seatOf = (selector: typeof params.first) => ('seat' in selector ? selector.seat : 'any');
    // A dispatch event selected by description that was not seen may be one that records none.
    const byDescription = (selector: typeof params.first) =>
      selector.event === 'dispatch' && selector.description !== undefined
        ? undescribedDispatches({ description: selector.description }, transcript.dispatches)
        : undefined;
    const missing =
      missingCalls(seatOf(params.first), transcript) ??
      missingCalls(seatOf(params.then), transcript) ??
      (first === undefined ? byDescription(params.first) : undefined) ??
      (then === undefined ? byDescription(params.then) : undefined);
    if (missing !== undefined) {
      return {
        outcome: 'undecided',
        detail: `${missing.replace('a missing call', whichFirst === 'first' && whichThen === 'first' ? 'an earlier event' : 'an event')} (${firstSeen}; ${thenSeen})`,
      };
    }
    // Writes of files the snapshots show changed that no event places: each may be either event.
    const unplaced = unplacedWrites(events, evidence.before, evidence.after);
    const hiddenThen = unplaced.filter((file) => writeMayMatch(params.then, file));
    const hiddenFirst = unplaced.filter((file) => writeMayMatch(params.first, file));
    const unsure = (files: readonly string[], could: string): VerbResult => ({
      outcome: 'undecided',
      observed: 'write not placed',
      detail: `not decidable: ${listed(files, 3)} changed, written by no call the event list can read, so that write may be ${could} (${firstSeen}; ${thenSeen})`,
    });
    if (then === undefined) {
      if (hiddenThen.length > 0) {
        // "then" did happen, at a time nobody knows: it fails only if "first" surely never did.
        if (first !== undefined || hiddenFirst.length > 0) {
          return unsure(hiddenThen, 'a "then" event before the "first" one');
        }
        return {
          outcome: 'fail',
          observed: 'then only',
          detail: `${listed(hiddenThen, 3)} changed (a "then" write no call the event list reads), and the "first" event never happened`,
        };
      }
      return {
        outcome: params.ifThenAbsent,
        observed: first === undefined ? 'neither' : 'first only',
        detail: `the "then" event never happened, so the check is ${params.ifThenAbsent === 'undecided' ? 'undecided' : `${params.ifThenAbsent} as ifThenAbsent says`} (${firstSeen})`,
      };
    }
    if (first === undefined) {
      if (hiddenFirst.length > 0)
        return unsure(hiddenFirst, 'a "first" event before the "then" one');
      return {
        outcome: 'fail',
        observed: 'then only',
        detail: `${thenSeen}, and the "first" event never happened`,
      };
    }
    // An unplaced write may sit anywhere: it moves a first occurrence earlier, a last one later.
    const compared = comparePositions(first.event.at, then.event.at);
    if (compared < 0) {
      if (whichThen === 'first' && hiddenThen.length > 0)
        return unsure(hiddenThen, 'a "then" event before the "first" one');
      if (whichFirst === 'last' && hiddenFirst.length > 0)
        return unsure(hiddenFirst, 'a later "first" event, after the "then" one');
      return {
        outcome: 'pass',
        observed: 'first before then',
        detail: `${firstSeen}; ${thenSeen}`,
      };
    }
    if (whichFirst === 'first' && hiddenFirst.length > 0)
      return unsure(hiddenFirst, 'a "first" event before the "then" one');
    if (whichThen === 'last' && hiddenThen.length > 0)
      return unsure(hiddenThen, 'a later "then" event, after the "first" one');
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
