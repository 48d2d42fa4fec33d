/**
 * The seats of a session read back from its stream-json transcript: each
 * subagent the controller started, named by the dispatch (the `Agent`/`Task`
 * tool_use id) that created it, with its agent id, subagent_type, requested
 * model and description, and the SendMessage calls that resumed it.
 *
 * redgreen's transcript records seats itself (see seat-record.ts): the
 * `subagent_start` / `subagent_resume` / `subagent_end` system events and a
 * `seat` on every assistant and user message; both are validated here, and a
 * record that does not match its schema, or a message whose seat disagrees
 * with its `parent_tool_use_id`, is a malformed line (never fatal). A
 * transcript without seat records (Claude Code stream-json) has its seats
 * derived: one for each dispatch whose result names an agent id or under
 * which calls were made, described by that dispatch's input.
 */

import { parseJsonLine } from '../../lib/json-line.js';
import { apiReportedModel } from '../reported-model.js';
import {
  SEAT_EVENT_SUBTYPES,
  type SubagentSeat,
  seatEventSchema,
  seatRecordSchema,
} from '../seat-record.js';
import {
  agentIdInResult,
  isInsideSubagent,
  isSubagentDispatch,
  refusedResume,
  stringField,
  type ToolCall,
} from '../tool-call.js';
import type { MalformedLine, TranscriptSeat } from './session-transcript.js';

export interface SeatsRead {
  readonly seats: readonly TranscriptSeat[];
  readonly malformed: readonly MalformedLine[];
}

function issueOf(error: { issues: readonly { path: PropertyKey[]; message: string }[] }): string {
  const issue = error.issues[0];
  if (issue === undefined) return 'does not match the expected shape';
  return `${issue.path.length === 0 ? '' : `${issue.path.map(String).join('.')}: `}${issue.message}`;
}

/**
 * Read the seats of transcript text whose tool calls `calls` were read from.
 * `derive`: when the text records no seat, derive them from the calls (a
 * Claude Code transcript); redgreen's own transcripts record every seat, so
 * theirs are never derived (a refused dispatch started none).
 */
export function readSeats(text: string, calls: readonly ToolCall[], derive: boolean): SeatsRead {
  const malformed: MalformedLine[] = [];
  const recorded = new Map<string, { seat: SubagentSeat; resumes: string[] }>();
  const modelUsedBySeat = new Map<string, string>();
  for (const [index, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (line === '') continue;
    const value = parseJsonLine(line);
    if (typeof value !== 'object' || value === null) continue;
    const message = value as Record<string, unknown>;
    const lineNumber = index + 1;
    if (
      message.type === 'system' &&
      (SEAT_EVENT_SUBTYPES as readonly unknown[]).includes(message.subtype)
    ) {
      const event = seatEventSchema.safeParse(message);
      if (!event.success) {
        malformed.push({
          line: lineNumber,
          problem: `${String(message.subtype)} event: ${issueOf(event.error)}`,
        });
        continue;
      }
      const known = recorded.get(event.data.seat.dispatch);
      if (event.data.subtype === 'subagent_start') {
        if (known === undefined)
          recorded.set(event.data.seat.dispatch, { seat: event.data.seat, resumes: [] });
      } else if (known === undefined) {
        malformed.push({
          line: lineNumber,
          problem: `${event.data.subtype} event for ${event.data.seat.agentId}, which no subagent_start began`,
        });
      } else if (event.data.subtype === 'subagent_resume') {
        known.resumes.push(event.data.via);
      }
      continue;
    }
    if (message.type === 'assistant' && typeof message.parent_tool_use_id === 'string') {
      const reported = (message.message as { model?: unknown } | undefined)?.model;
      const used = apiReportedModel(typeof reported === 'string' ? reported : null);
      if (used !== null) modelUsedBySeat.set(message.parent_tool_use_id, used);
    }
    if ((message.type === 'assistant' || message.type === 'user') && 'seat' in message) {
      const seat = seatRecordSchema.safeParse(message.seat);
      if (!seat.success) {
        malformed.push({
          line: lineNumber,
          problem: `${message.type} seat: ${issueOf(seat.error)}`,
        });
        continue;
      }
      const parent = message.parent_tool_use_id ?? null;
      const expected = seat.data.kind === 'subagent' ? seat.data.dispatch : null;
      if (parent !== expected) {
        malformed.push({
          line: lineNumber,
          problem: `${message.type} seat ${seat.data.kind === 'subagent' ? seat.data.agentId : 'controller'} disagrees with parent_tool_use_id ${String(parent)}`,
        });
      }
    }
  }

  const dispatchCalls = new Map(
    calls
      .filter((call) => !isInsideSubagent(call) && isSubagentDispatch(call))
      .map((call) => [call.id, call]),
  );
  const callsBySeat = new Map<string, number>();
  for (const call of calls) {
    if (!isInsideSubagent(call) || call.parentToolUseId == null) continue;
    callsBySeat.set(call.parentToolUseId, (callsBySeat.get(call.parentToolUseId) ?? 0) + 1);
  }
  const seats: TranscriptSeat[] = [...recorded.values()].map(({ seat, resumes }) => ({
    dispatch: seat.dispatch,
    agentId: seat.agentId,
    tool: seat.tool,
    subagentType: seat.subagentType,
    model: seat.model,
    modelUsed: modelUsedBySeat.get(seat.dispatch) ?? null,
    description: seat.description,
    resumes,
    toolCalls: callsBySeat.get(seat.dispatch) ?? 0,
    source: 'recorded',
  }));
  if (seats.length === 0 && derive) {
    const ran = [...dispatchCalls.values()]
      .filter((call) => agentIdInResult(call.output) !== null)
      .map((call) => call.id);
    const sendMessages = calls.filter(
      (call) => !isInsideSubagent(call) && call.name === 'SendMessage' && !refusedResume(call),
    );
    for (const dispatch of new Set([...ran, ...callsBySeat.keys()])) {
      const call = dispatchCalls.get(dispatch);
      const agentId = agentIdInResult(call?.output);
      seats.push({
        dispatch,
        agentId,
        tool: call?.name ?? 'unknown',
        subagentType:
          call === undefined ? null : (stringField(call.input, 'subagent_type') ?? null),
        model: call === undefined ? null : (stringField(call.input, 'model') ?? null),
        modelUsed: modelUsedBySeat.get(dispatch) ?? null,
        description: call === undefined ? null : (stringField(call.input, 'description') ?? null),
        resumes:
          agentId === null
            ? []
            : sendMessages
                .filter((send) => stringField(send.input, 'to') === agentId)
                .map((send) => send.id),
        toolCalls: callsBySeat.get(dispatch) ?? 0,
        source: 'derived',
      });
    }
  }
  return { seats, malformed };
}
