/**
 * The per-seat tool counts a rep records in meta.json (`seats`): one entry
 * per subagent seat the controller started, read from the rep's transcript
 * with readSessionTranscript (score/transcripts/, the one source of seat
 * facts): the dispatch that created it, its agent id, subagent_type,
 * requested model and description, how often it was resumed, and how many
 * tool calls it made (over its first run and every resume). The
 * controller's own calls are meta.json's `toolUses`.
 *
 * Runs without subagents record `[]`; files written before per-seat counts
 * have no `seats` (absent), and `redgreen score` adds them from the kept
 * transcript (refreshedSeatCounts).
 */
import { z } from 'zod';
import { readSessionTranscript } from '../score/transcripts/read-transcript.js';

export const seatCountSchema = z
  .object({
    /** The tool_use id of the controller's dispatch that created the seat. */
    dispatch: z.string().min(1),
    /** The id a SendMessage addresses it by (`agent-1`); null when the transcript names none. */
    agentId: z.string().nullable(),
    subagentType: z.string().nullable(),
    /** The model tier the dispatch asked for; null: the controller's. */
    model: z.string().nullable(),
    description: z.string().nullable(),
    /** SendMessage calls that resumed the seat. */
    resumes: z.number().int().nonnegative(),
    /** Tool calls the seat made, over its first run and every resume. */
    toolCalls: z.number().int().nonnegative(),
  })
  .strict();
export type SeatCount = z.infer<typeof seatCountSchema>;

export const seatCountsSchema = z.array(seatCountSchema);

/**
 * The subagent seats of a transcript (any format readSessionTranscript
 * reads), in the order they started; undefined when the transcript cannot be
 * read at all (then nothing is recorded rather than a guess).
 */
export function seatCountsOf(transcriptText: string): SeatCount[] | undefined {
  const read = readSessionTranscript(transcriptText, 'transcript.jsonl');
  if (!read.ok) return undefined;
  const counts: SeatCount[] = [];
  for (const seat of read.value.seats) {
    // A seat whose calls the transcript does not hold gets no count rather than a guess.
    if (seat.toolCalls === null) return undefined;
    counts.push({
      dispatch: seat.dispatch,
      agentId: seat.agentId,
      subagentType: seat.subagentType,
      model: seat.model,
      description: seat.description,
      resumes: seat.resumes.length,
      toolCalls: seat.toolCalls,
    });
  }
  return counts;
}

/**
 * The seat counts a rescore should record for a rep whose meta.json holds
 * `recorded` (undefined: none yet), read again from its transcript; undefined
 * when nothing needs writing (they agree, or the transcript cannot be read).
 */
export function refreshedSeatCounts(
  recorded: readonly SeatCount[] | undefined,
  transcriptText: string,
): SeatCount[] | undefined {
  const fresh = seatCountsOf(transcriptText);
  if (fresh === undefined) return undefined;
  return recorded !== undefined && JSON.stringify(recorded) === JSON.stringify(fresh)
    ? undefined
    : fresh;
}

/** meta.json's `seats` field for a fresh rep: absent only when the transcript cannot be read. */
export function seatsField(transcriptText: string): { seats?: SeatCount[] } {
  const seats = seatCountsOf(transcriptText);
  return seats === undefined ? {} : { seats };
}
