/**
 * A rep's transcript.jsonl in conversation order, as an ATIF export needs it:
 * the main session's assistant turns (several SDK messages sharing
 * `message.id` form one turn) with their text, thinking, tool_use ids, usage
 * and timestamp; user text messages; the `system/init` and last `result`
 * facts; and counts of what is not mapped (other message types, subagent
 * lines).
 *
 * Read for one subagent seat instead (`seat`), it is that seat's
 * conversation: the lines made inside it (`parent_tool_use_id` = the
 * dispatch that created it), with a `resume` turn where the controller's
 * SendMessage to it appears; every other line counts as outside.
 *
 * What the tool calls were and what came back is not read here: that is
 * score/transcripts/claude-messages.ts (`readTranscript`), which the exporter joins by
 * tool_use id, so the calls an export lists are exactly the ones redgreen
 * counted as tool_uses.
 */
import { z } from 'zod';
import type { TokenUsage } from '../session/session-types.js';
import { ISO_TIMESTAMP } from './atif-document.js';

const usageSchema = z.looseObject({
  input_tokens: z.number().int().nonnegative().nullish(),
  output_tokens: z.number().int().nonnegative().nullish(),
  cache_creation_input_tokens: z.number().int().nonnegative().nullish(),
  cache_read_input_tokens: z.number().int().nonnegative().nullish(),
});
const blockSchema = z.looseObject({ type: z.string() });
const textBlockSchema = z.looseObject({ type: z.literal('text'), text: z.string() });
const thinkingBlockSchema = z.looseObject({ type: z.literal('thinking'), thinking: z.string() });
const toolUseBlockSchema = z.looseObject({ type: z.literal('tool_use'), id: z.string().min(1) });

const assistantLineSchema = z.looseObject({
  type: z.literal('assistant'),
  message: z.looseObject({
    id: z.string().min(1).optional(),
    model: z.string().optional(),
    content: z.array(blockSchema),
    stop_reason: z.string().nullish(),
    usage: usageSchema.nullish(),
  }),
  parent_tool_use_id: z.string().nullish(),
  timestamp: z.string().optional(),
  /** Set on messages the engine made up for a failed API call (their text is the error). */
  error: z.string().optional(),
});
const userLineSchema = z.looseObject({
  type: z.literal('user'),
  message: z.looseObject({ content: z.union([z.string(), z.array(blockSchema)]) }),
  parent_tool_use_id: z.string().nullish(),
  isSynthetic: z.boolean().optional(),
  timestamp: z.string().optional(),
});
const systemLineSchema = z.looseObject({
  type: z.literal('system'),
  subtype: z.string().optional(),
  session_id: z.string().optional(),
  model: z.string().optional(),
  claude_code_version: z.string().optional(),
  tools: z.array(z.string()).optional(),
});
const resultLineSchema = z.looseObject({
  type: z.literal('result'),
  subtype: z.string(),
  is_error: z.boolean().optional(),
  result: z.string().optional(),
  usage: usageSchema.nullish(),
  total_cost_usd: z.number().nullish(),
});

/** One API turn of the main session. */
export interface AgentTurn {
  readonly kind: 'agent';
  /** `message.id`, when the engine gave one. */
  readonly messageId: string | undefined;
  /** The timestamp of the turn's first message, when it carries one. */
  readonly timestamp: string | undefined;
  readonly model: string | undefined;
  /** Text blocks in order (identical repeats within the turn kept once). */
  readonly texts: string[];
  readonly thinking: string[];
  redactedThinking: number;
  /** tool_use block ids in order, each only at its first appearance in the transcript. */
  readonly toolUseIds: string[];
  /** Block types this export does not map (server tools, images…), counted. */
  readonly otherBlocks: Record<string, number>;
  /** The engine's error kind when it made this turn up for a failed API call. */
  error: string | undefined;
  /** Field-wise largest usage any of the turn's messages reported; undefined when none did. */
  usage: TokenUsage | undefined;
  /**
   * True when a message of the turn carried a stop_reason: its output token
   * count is then the final one. Streamed engine messages (stop_reason null)
   * report usage from the start of the response, before the output is known.
   */
  usageFinal: boolean;
}

/** Where the controller resumed the seat being read: its SendMessage call and the message sent. */
export interface ResumeTurn {
  readonly kind: 'resume';
  /** The tool_use id of the SendMessage call. */
  readonly via: string;
  readonly message: string;
  readonly timestamp: string | undefined;
}

/** Which seat's conversation to read: the dispatch that created it and the SendMessage calls that resumed it. */
export interface SeatSelector {
  readonly dispatch: string;
  readonly resumes: readonly string[];
}

/** A main-session user message with text (not only tool results). */
export interface UserTurn {
  readonly kind: 'user';
  readonly text: string;
  readonly timestamp: string | undefined;
  readonly synthetic: boolean;
}

export interface SessionResult {
  readonly subtype: string;
  readonly isError: boolean;
  readonly reply: string | undefined;
  readonly usage: TokenUsage | undefined;
  /** The engine's own cost estimate; null or undefined when it gave none. */
  readonly engineCostUsd: number | null | undefined;
}

export interface TranscriptSequence {
  readonly turns: (AgentTurn | UserTurn | ResumeTurn)[];
  readonly init: {
    readonly sessionId: string | undefined;
    readonly model: string | undefined;
    readonly claudeCodeVersion: string | undefined;
    readonly tools: readonly string[] | undefined;
  };
  /** The last `result` message, when there is one. */
  readonly result: SessionResult | undefined;
  /** Lines of message types this export does not map, by `type` (`system/<subtype>` for system). */
  readonly skipped: Record<string, number>;
  /** Assistant and user lines made outside the conversation read (inside subagents, for the main one). */
  readonly subagentLines: number;
  /** Lines that are not JSON or do not have the shape their type needs. */
  readonly unreadableLines: number;
}

function toUsage(raw: z.infer<typeof usageSchema> | null | undefined): TokenUsage | undefined {
  if (raw === null || raw === undefined) return undefined;
  return {
    input: raw.input_tokens ?? 0,
    output: raw.output_tokens ?? 0,
    cacheWrite: raw.cache_creation_input_tokens ?? 0,
    cacheRead: raw.cache_read_input_tokens ?? 0,
  };
}

function largerUsage(a: TokenUsage | undefined, b: TokenUsage | undefined): TokenUsage | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  return {
    input: Math.max(a.input, b.input),
    output: Math.max(a.output, b.output),
    cacheWrite: Math.max(a.cacheWrite, b.cacheWrite),
    cacheRead: Math.max(a.cacheRead, b.cacheRead),
  };
}

function validTimestamp(value: string | undefined): string | undefined {
  return value !== undefined && ISO_TIMESTAMP.test(value) && !Number.isNaN(Date.parse(value))
    ? value
    : undefined;
}

function addOnce(list: string[], value: string): void {
  if (!list.includes(value)) list.push(value);
}

/** The `message` a SendMessage tool_use block sends, or '' when it names none. */
function sentMessage(block: unknown): string {
  const input = (block as { input?: unknown }).input;
  if (typeof input !== 'object' || input === null) return '';
  const message = (input as Record<string, unknown>).message;
  return typeof message === 'string' ? message : '';
}

/**
 * Walk transcript text (JSON lines) in order: the main session's
 * conversation, or with `seat` one subagent seat's. Pure; never throws on
 * bad lines.
 */
export function readTranscriptSequence(jsonl: string, seat?: SeatSelector): TranscriptSequence {
  const own = seat?.dispatch ?? null;
  const turns: (AgentTurn | UserTurn | ResumeTurn)[] = [];
  const turnById = new Map<string, AgentTurn>();
  const seenToolUses = new Set<string>();
  const skipped: Record<string, number> = {};
  let init: TranscriptSequence['init'] = {
    sessionId: undefined,
    model: undefined,
    claudeCodeVersion: undefined,
    tools: undefined,
  };
  let result: SessionResult | undefined;
  let subagentLines = 0;
  let unreadableLines = 0;

  for (const [index, raw] of jsonl.split('\n').entries()) {
    const line = raw.trim();
    if (line === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      unreadableLines++;
      continue;
    }
    const type =
      typeof value === 'object' && value !== null ? (value as { type?: unknown }).type : undefined;
    if (type === 'assistant') {
      const parsed = assistantLineSchema.safeParse(value);
      if (!parsed.success) {
        unreadableLines++;
        continue;
      }
      const data = parsed.data;
      if ((data.parent_tool_use_id ?? null) !== own) {
        subagentLines++;
        if (seat !== undefined && (data.parent_tool_use_id ?? null) === null) {
          for (const block of data.message.content) {
            const toolUse = toolUseBlockSchema.safeParse(block);
            if (toolUse.success && seat.resumes.includes(toolUse.data.id)) {
              if (seenToolUses.has(toolUse.data.id)) continue;
              seenToolUses.add(toolUse.data.id);
              turns.push({
                kind: 'resume',
                via: toolUse.data.id,
                message: sentMessage(block),
                timestamp: validTimestamp(data.timestamp),
              });
            }
          }
        }
        continue;
      }
      const key = data.message.id ?? `line-${index + 1}`;
      let turn = turnById.get(key);
      if (turn === undefined) {
        turn = {
          kind: 'agent',
          messageId: data.message.id,
          timestamp: validTimestamp(data.timestamp),
          model: data.message.model,
          texts: [],
          thinking: [],
          redactedThinking: 0,
          toolUseIds: [],
          otherBlocks: {},
          usage: undefined,
          usageFinal: false,
          error: undefined,
        };
        turnById.set(key, turn);
        turns.push(turn);
      }
      turn.usage = largerUsage(turn.usage, toUsage(data.message.usage));
      turn.error ??= data.error;
      if (data.message.stop_reason !== null && data.message.stop_reason !== undefined) {
        turn.usageFinal = true;
      }
      for (const block of data.message.content) {
        const text = textBlockSchema.safeParse(block);
        if (text.success) {
          if (text.data.text !== '') addOnce(turn.texts, text.data.text);
          continue;
        }
        const thinking = thinkingBlockSchema.safeParse(block);
        if (thinking.success) {
          if (thinking.data.thinking !== '') addOnce(turn.thinking, thinking.data.thinking);
          continue;
        }
        const toolUse = toolUseBlockSchema.safeParse(block);
        if (toolUse.success) {
          if (!seenToolUses.has(toolUse.data.id)) {
            seenToolUses.add(toolUse.data.id);
            turn.toolUseIds.push(toolUse.data.id);
          }
          continue;
        }
        if (block.type === 'redacted_thinking') {
          turn.redactedThinking++;
          continue;
        }
        turn.otherBlocks[block.type] = (turn.otherBlocks[block.type] ?? 0) + 1;
      }
    } else if (type === 'user') {
      const parsed = userLineSchema.safeParse(value);
      if (!parsed.success) {
        unreadableLines++;
        continue;
      }
      const data = parsed.data;
      if ((data.parent_tool_use_id ?? null) !== own) {
        subagentLines++;
        continue;
      }
      const content = data.message.content;
      const texts =
        typeof content === 'string'
          ? [content]
          : content.flatMap((block) => {
              const text = textBlockSchema.safeParse(block);
              return text.success ? [text.data.text] : [];
            });
      const text = texts.join('\n\n');
      if (text.trim() === '') continue;
      turns.push({
        kind: 'user',
        text,
        timestamp: validTimestamp(data.timestamp),
        synthetic: data.isSynthetic === true,
      });
    } else if (type === 'system') {
      const parsed = systemLineSchema.safeParse(value);
      if (!parsed.success) {
        unreadableLines++;
        continue;
      }
      if (parsed.data.subtype === 'init') {
        init = {
          sessionId: parsed.data.session_id ?? init.sessionId,
          model: parsed.data.model ?? init.model,
          claudeCodeVersion: parsed.data.claude_code_version ?? init.claudeCodeVersion,
          tools: parsed.data.tools ?? init.tools,
        };
      } else {
        const name = `system/${parsed.data.subtype ?? '(none)'}`;
        skipped[name] = (skipped[name] ?? 0) + 1;
      }
    } else if (type === 'result') {
      const parsed = resultLineSchema.safeParse(value);
      if (!parsed.success) {
        unreadableLines++;
        continue;
      }
      result = {
        subtype: parsed.data.subtype,
        isError: parsed.data.is_error === true,
        reply: parsed.data.result,
        usage: toUsage(parsed.data.usage),
        engineCostUsd: parsed.data.total_cost_usd,
      };
    } else if (typeof type === 'string') {
      skipped[type] = (skipped[type] ?? 0) + 1;
    } else {
      unreadableLines++;
    }
  }

  return { turns, init, result, skipped, subagentLines, unreadableLines };
}
