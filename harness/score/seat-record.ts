/**
 * Seats in a transcript: who made a message (and so every tool call in it).
 * The controller is the session the campaign started; a subagent seat is the
 * nested session one controller dispatch (an `Agent` or `Task` call) created,
 * named by that call's tool_use id, with the agent id a `SendMessage`
 * addresses it by, its subagent_type and requested model. A leaf module: the
 * session room writes these records (harness/session/subagent-seats.ts) and
 * the score room reads them back (transcripts/claude-message-seats.ts).
 *
 * In redgreen's transcript.jsonl every assistant and user message carries a
 * `seat`, and a subagent's messages carry `parent_tool_use_id` = the dispatch
 * that created it (as Claude Code's stream-json marks them). A seat's life is
 * told by `system` events of their own: `subagent_start` (the dispatch),
 * `subagent_resume` (a SendMessage to it: its own event, naming the
 * SendMessage call) and `subagent_end` (after each run: turns, and whether it
 * replied or hit a limit).
 */
import { z } from 'zod';

export const subagentSeatSchema = z
  .object({
    kind: z.literal('subagent'),
    /** The id a SendMessage `to` names (`agent-1`, `agent-2`, … in dispatch order). */
    agentId: z.string().min(1),
    /** The tool_use id of the controller's `Agent`/`Task` call that created the seat. */
    dispatch: z.string().min(1),
    /** The tool the controller called (`Agent` or `Task`). */
    tool: z.string().min(1),
    subagentType: z.string().nullable(),
    /** The model tier the dispatch asked for (`sonnet`, …), or null: the controller's. */
    model: z.string().nullable(),
    description: z.string().nullable(),
  })
  .strict();
export type SubagentSeat = z.infer<typeof subagentSeatSchema>;

export const seatRecordSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('controller') }).strict(),
  subagentSeatSchema,
]);
export type SeatRecord = z.infer<typeof seatRecordSchema>;

export const CONTROLLER_SEAT: SeatRecord = { kind: 'controller' };

/** The `system` event subtypes that tell a subagent seat's life. */
export const SEAT_EVENT_SUBTYPES = ['subagent_start', 'subagent_resume', 'subagent_end'] as const;

export const seatEventSchema = z.discriminatedUnion('subtype', [
  z.looseObject({
    type: z.literal('system'),
    subtype: z.literal('subagent_start'),
    seat: subagentSeatSchema,
  }),
  z.looseObject({
    type: z.literal('system'),
    subtype: z.literal('subagent_resume'),
    seat: subagentSeatSchema,
    /** The tool_use id of the SendMessage call that resumed it. */
    via: z.string().min(1),
  }),
  z.looseObject({
    type: z.literal('system'),
    subtype: z.literal('subagent_end'),
    seat: subagentSeatSchema,
    /** The `Agent`/`Task` or SendMessage call this run answered. */
    via: z.string().min(1),
    /** The seat's turns so far (a resume continues the count). */
    turns: z.number().int().nonnegative(),
    /** `limit`: a time or cost limit (seat or rep) was met during this run. */
    outcome: z.enum(['replied', 'turn-limit', 'cut-short', 'limit']),
  }),
]);
export type SeatEvent = z.infer<typeof seatEventSchema>;
