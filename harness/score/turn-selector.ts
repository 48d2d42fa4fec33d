/**
 * The `turn` selector: which conversation turn of a session a check looks
 * at, by number (1 is the prompt's, 2 the first message the user sent after
 * a reply, …) or by the id of one of the user's declared turns
 * (user-turns.ts; `prompt` names turn 1). A turn holds the calls the session
 * made after its message and before the next one, and ends on its reply.
 *
 * The turns come from the transcript's `user_turn` records
 * (user-question-record.ts). A transcript that records no scripted user has
 * no turns to select: a check selecting one is undecided there.
 */
import { z } from 'zod';
import type { TranscriptEvidence } from './evidence.js';
import { nameSchema } from './param-types.js';
import type { ParamProblem, ValidationContext } from './validation.js';

export const turnSelectorSchema = z.union([z.number().int().min(1), nameSchema], {
  error: 'must be a turn number (1 is the prompt) or a declared turn id',
});
export type TurnSelector = z.infer<typeof turnSelectorSchema>;

/** A turn as checks see it: its number and its declared id (`prompt` for 1, null for an answer). */
export interface TurnPlace {
  readonly turn: number;
  readonly id: string | null;
}

export const PROMPT_TURN: TurnPlace = { turn: 1, id: 'prompt' };

/** What a check selecting a turn says when the transcript records no turns. */
export const NO_TURNS_RECORDED =
  'not decidable: the transcript records no scripted user, so it has no conversation turns to select';

export function selectsTurn(selector: TurnSelector, place: TurnPlace | undefined): boolean {
  if (place === undefined) return false;
  return typeof selector === 'number' ? place.turn === selector : place.id === selector;
}

export function turnText(selector: TurnSelector): string {
  return typeof selector === 'number' ? `turn ${selector}` : `turn "${selector}"`;
}

/** The turn of each call, by call index, as the transcript's records place them; undefined without records. */
export function callTurns(transcript: TranscriptEvidence): readonly TurnPlace[] | undefined {
  const turns = transcript.turns;
  if (turns === undefined) return undefined;
  const indexOf = new Map(transcript.calls.map((call, index) => [call.id, index]));
  const starts = turns.map((turn) => ({
    place: { turn: turn.turn, id: turn.id } satisfies TurnPlace,
    after: turn.afterCall === null ? -1 : (indexOf.get(turn.afterCall) ?? -1),
  }));
  return transcript.calls.map((_, index) => {
    let place = PROMPT_TURN;
    for (const start of starts) if (index > start.after) place = start.place;
    return place;
  });
}

/**
 * The reply that ended a turn: the reply a later turn's record quotes, or,
 * for the last turn, the session's final reply. Undefined when the
 * transcript records no such turn (or no turns at all).
 */
export function replyOfTurn(
  transcript: TranscriptEvidence | undefined,
  finalReply: string | undefined,
  selector: TurnSelector,
): string | undefined {
  const turns = transcript?.turns;
  if (turns === undefined) return undefined;
  const places: TurnPlace[] = [
    PROMPT_TURN,
    ...turns.map((turn) => ({ turn: turn.turn, id: turn.id })),
  ];
  const at = places.findIndex((place) => selectsTurn(selector, place));
  if (at < 0) return undefined;
  const next = turns[at];
  return next === undefined ? finalReply : next.reply;
}

/** A `turn` naming no declared turn of the scenario, as a problem at `field`. */
export function turnProblem(
  selector: TurnSelector | undefined,
  field: string,
  context: ValidationContext | undefined,
): ParamProblem | undefined {
  if (selector === undefined || typeof selector === 'number' || selector === 'prompt') {
    return undefined;
  }
  const scenario = context?.scenario;
  if (scenario === undefined) return undefined;
  const user = scenario.user as { turns?: readonly { id?: unknown }[] } | undefined;
  const ids = (user?.turns ?? []).map((turn) => turn.id).filter((id) => typeof id === 'string');
  if (ids.includes(selector)) return undefined;
  return {
    field,
    problem: `names turn "${selector}", which the scenario's user does not declare`,
    fix:
      ids.length === 0
        ? 'declare it in user.turns, or give a turn number'
        : `name one of prompt, ${ids.join(', ')}, or give a turn number`,
  };
}
