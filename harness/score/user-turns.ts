/**
 * The scripted user's own turns (`user.turns`): messages the user sends
 * after the session replies, besides the answers to its questions
 * (scripted-user.ts). Each turn is sent at most once, in declaration order:
 *
 * - `say`: the message (`/compact` is the engine's own compaction command,
 *   `compact: true` says the same, see compactTurn);
 * - `after`: a regular expression (case-insensitive) the reply must match
 *   for the turn to be sent; without it the turn follows any reply;
 * - `last: true`: the session ends after the reply to this turn (nothing
 *   is answered or said after it). No turn may follow a last one.
 *
 * After each reply of the controller the user picks, in order: the first
 * unsent turn with an `after` pattern the reply matches; else, when the
 * reply ends on a question, the answer (scripted-user.ts); else the first
 * unsent turn without a pattern; else nothing, and the session ends. Pure:
 * the session room applies it (harness/session/scripted-user-session.ts).
 */
import { z } from 'zod';
import { nameSchema, nonBlank, regexSource } from './param-types.js';

/** What a compaction turn sends: Claude Code's own command (2.1.332, over streamed input). */
export const COMPACT_COMMAND = '/compact';

export const userTurnSchema = z
  .object({
    /** Names the turn in the records and in checks' `turn` selectors. */
    id: nameSchema.refine((id) => id !== 'prompt', 'is reserved for the first turn (the prompt)'),
    /** The message; absent only with `compact: true`. */
    say: nonBlank.optional(),
    /** Send the engine's compaction command (`/compact`) as this turn. */
    compact: z.literal(true).optional(),
    /** A regular expression (case-insensitive) the reply must match; absent: any reply. */
    after: regexSource.optional(),
    /** The session ends after the reply to this turn. */
    last: z.literal(true).optional(),
  })
  .strict()
  .refine((turn) => (turn.say === undefined) !== (turn.compact === undefined), {
    message: 'give say (the message) or compact: true, not both and not neither',
    path: ['say'],
  });
export type UserTurn = z.infer<typeof userTurnSchema>;

export const userTurnsSchema = z
  .array(userTurnSchema)
  .max(50)
  .default([])
  .superRefine((turns, context) => {
    const seen = new Set<string>();
    for (const [index, turn] of turns.entries()) {
      if (seen.has(turn.id)) {
        context.addIssue({
          code: 'custom',
          path: [index, 'id'],
          message: `two turns share the id "${turn.id}": give each its own`,
        });
        return;
      }
      seen.add(turn.id);
      const last = turns.slice(0, index).find((earlier) => earlier.last === true);
      if (last !== undefined) {
        context.addIssue({
          code: 'custom',
          path: [index],
          message: `turn "${turn.id}" comes after "${last.id}", the last turn: move it before, or drop "last" there`,
        });
        return;
      }
    }
  });

/** The text a turn sends. */
export function turnText(turn: UserTurn): string {
  return turn.compact === true ? COMPACT_COMMAND : (turn.say ?? COMPACT_COMMAND);
}

/** Whether a turn asks the engine to compact its context. */
export function compactTurn(turn: UserTurn): boolean {
  return turnText(turn).trim() === COMPACT_COMMAND;
}

/** The turn to send after a reply, by its matching rule; `sent` holds the ids already sent. */
export function turnAfterReply(
  turns: readonly UserTurn[],
  sent: ReadonlySet<string>,
  reply: string,
  kind: 'conditional' | 'unconditional',
): UserTurn | undefined {
  return turns.find(
    (turn) =>
      !sent.has(turn.id) &&
      (kind === 'conditional'
        ? turn.after !== undefined && new RegExp(turn.after, 'i').test(reply)
        : turn.after === undefined),
  );
}
