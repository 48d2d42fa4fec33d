/**
 * A Codex session's rollouts (its root thread's and its subagents'), as read
 * by the Codex rollout reader, written as redgreen's transcript.jsonl: the
 * stream-json message shapes the other backends write, so scoring, reports,
 * `redgreen transcript` and exports read a codex rep like any other.
 *
 * - an init line naming the engine (`codex-cli <version>`), the model and
 *   the working directory;
 * - the prompt as the first user message;
 * - each call as an assistant `tool_use` (Claude Code's name where Codex did
 *   the same thing, `recorded_as` keeping Codex's own; a whole read of an
 *   installed SKILL.md is the skill's load, a `Skill` call) and a user
 *   `tool_result`, a subagent's calls under its dispatch
 *   (`parent_tool_use_id`), every seat begun by a `subagent_start` event and
 *   each message sent to it by a `subagent_resume` event (seat-record.ts);
 * - the reply as the last assistant text, then a `result` line saying how
 *   the session ended.
 *
 * Pure: a SessionTranscript in, the lines out.
 */
import { CONTROLLER_SEAT, type SeatEvent, type SubagentSeat } from '../score/seat-record.js';
import type { ToolCall } from '../score/tool-call.js';
import type { SessionTranscript } from '../score/transcripts/session-transcript.js';
import { asSkillLoad } from './codex-skill-loads.js';
import type { TokenUsage } from './session-types.js';

export interface CodexTranscriptContext {
  readonly sessionId: string;
  /** `codex-cli 0.169.0`. */
  readonly engine: string;
  readonly model: string;
  readonly cwd: string;
  readonly prompt: string;
  readonly sandbox: string;
  /** `$CODEX_HOME/skills`: a whole read of a SKILL.md there is the skill's load (codex-skill-loads.ts). */
  readonly skillsDir: string;
  /** How the session ended, for the result line. */
  readonly ending: { readonly ok: boolean; readonly error?: string | undefined };
  readonly turns: number;
  readonly usage: TokenUsage | null;
  readonly durationMs: number;
}

function seatOf(seat: SessionTranscript['seats'][number]): SubagentSeat | undefined {
  if (seat.agentId === null) return undefined;
  return {
    kind: 'subagent',
    agentId: seat.agentId,
    dispatch: seat.dispatch,
    tool: seat.tool,
    subagentType: seat.subagentType,
    model: seat.model,
    description: seat.description,
  };
}

function callLines(call: ToolCall, sessionId: string): unknown[] {
  const parent = call.parentToolUseId ?? null;
  return [
    {
      type: 'assistant',
      message: {
        id: `msg_${call.id}`,
        role: 'assistant',
        ...(call.model === undefined ? {} : { model: call.model }),
        content: [
          {
            type: 'tool_use',
            id: call.id,
            name: call.name,
            input: call.input,
            ...(call.recordedAs === undefined ? {} : { recorded_as: call.recordedAs }),
          },
        ],
      },
      parent_tool_use_id: parent,
      session_id: sessionId,
    },
    ...(call.output === undefined
      ? []
      : [
          {
            type: 'user',
            message: {
              role: 'user',
              content: [
                {
                  type: 'tool_result',
                  tool_use_id: call.id,
                  content: call.output,
                  ...(call.isError === true ? { is_error: true } : {}),
                },
              ],
            },
            parent_tool_use_id: parent,
            session_id: sessionId,
          },
        ]),
  ];
}

/** The transcript.jsonl lines of a Codex session read from its rollouts. */
export function codexTranscriptLines(
  read: SessionTranscript,
  context: CodexTranscriptContext,
): unknown[] {
  const { sessionId } = context;
  const seats = new Map<string, SubagentSeat>();
  for (const seat of read.seats) {
    const record = seatOf(seat);
    if (record !== undefined) seats.set(seat.dispatch, record);
  }
  const resumedBy = new Map<string, SubagentSeat>();
  for (const seat of read.seats) {
    const record = seats.get(seat.dispatch);
    if (record !== undefined) for (const via of seat.resumes) resumedBy.set(via, record);
  }
  const lines: unknown[] = [
    {
      type: 'system',
      subtype: 'init',
      session_id: sessionId,
      cwd: context.cwd,
      model: context.model,
      engine: context.engine,
      sandbox: context.sandbox,
    },
    {
      type: 'user',
      message: { role: 'user', content: [{ type: 'text', text: context.prompt }] },
      parent_tool_use_id: null,
      seat: CONTROLLER_SEAT,
      session_id: sessionId,
    },
  ];
  for (const call of read.toolCalls) {
    lines.push(...callLines(asSkillLoad(call, context.skillsDir, context.cwd), sessionId));
    const started = seats.get(call.id);
    if (started !== undefined) {
      const event: SeatEvent = { type: 'system', subtype: 'subagent_start', seat: started };
      lines.push(event);
    }
    const resumed = resumedBy.get(call.id);
    if (resumed !== undefined) {
      const event: SeatEvent = {
        type: 'system',
        subtype: 'subagent_resume',
        seat: resumed,
        via: call.id,
      };
      lines.push(event);
    }
  }
  if (read.reply !== undefined && read.reply.trim() !== '') {
    lines.push({
      type: 'assistant',
      message: {
        id: `msg_${sessionId}_reply`,
        role: 'assistant',
        ...(read.model === undefined ? {} : { model: read.model }),
        content: [{ type: 'text', text: read.reply }],
      },
      parent_tool_use_id: null,
      session_id: sessionId,
    });
  }
  const usage = context.usage;
  lines.push({
    type: 'result',
    subtype: context.ending.ok ? 'success' : 'error_during_execution',
    is_error: !context.ending.ok,
    num_turns: context.turns,
    result: read.reply ?? '',
    duration_ms: context.durationMs,
    ...(usage === null
      ? {}
      : {
          usage: {
            input_tokens: usage.input,
            output_tokens: usage.output,
            cache_creation_input_tokens: usage.cacheWrite,
            cache_read_input_tokens: usage.cacheRead,
          },
        }),
    total_cost_usd: null,
    errors: context.ending.error === undefined ? [] : [context.ending.error],
    session_id: sessionId,
  });
  return lines;
}
