/**
 * One seat's tool loop on `@anthropic-ai/sdk`, as the `messages` backend runs
 * it for the controller and for every subagent: ask the model (streamed, with
 * prompt caching), record the reply, run the tool calls it makes, send their
 * results back, until the model replies without a tool call, the seat's turn
 * budget is spent, or the caller says stop after a tool turn (a captured
 * dispatch, an exceeded seat limit). Every message it records carries the
 * seat that made it and, for a subagent, the dispatch that created it
 * (`parent_tool_use_id`), as Claude Code's stream-json marks them.
 *
 * API errors, timeouts and aborts are thrown: the session that owns the loop
 * turns them into an indeterminate outcome, whichever seat met them.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type { SeatRecord } from '../score/seat-record.js';
import type { ToolOutput } from './tools/index.js';
import type { TranscriptSink } from './transcript-sink.js';

export const MAX_TOKENS_PER_TURN = 8192;

export interface ToolLoopInput {
  readonly client: Anthropic;
  readonly modelId: string;
  readonly system: string;
  readonly tools: readonly Anthropic.Tool[];
  /** The seat's conversation so far; the loop appends to it (a resume continues it). */
  readonly messages: Anthropic.MessageParam[];
  /** The most turns this run may take. */
  readonly maxTurns: number;
  readonly seat: SeatRecord;
  /** For a subagent, the tool_use id of the dispatch that created it; null for the controller. */
  readonly parentToolUseId: string | null;
  readonly transcript: TranscriptSink;
  readonly sessionId: string;
  readonly signal: AbortSignal;
  /** Receives each reply's usage and the model it names (every seat's usage counts for the rep). */
  readonly onReply: (message: Anthropic.Message) => void;
  readonly answer: (call: Anthropic.ToolUseBlock) => Promise<ToolOutput>;
  /** Asked after each tool turn: true ends the loop there, without another model request. */
  readonly stopAfterToolTurn: () => boolean;
}

export type ToolLoopEnd =
  /** The model replied without a tool call; `cutShort` says why that reply is not a whole one. */
  | { readonly kind: 'reply'; readonly text: string; readonly cutShort: string | undefined }
  /** The caller stopped the loop after a tool turn; `text` is that turn's text. */
  | { readonly kind: 'stopped'; readonly text: string }
  | { readonly kind: 'turn-limit' };

export interface ToolLoopResult {
  readonly end: ToolLoopEnd;
  /** Model requests this run made. */
  readonly turns: number;
  /** The last reply's stop_reason. */
  readonly stopReason: string | null;
}

/**
 * Mark the conversation for prompt caching: tools and system prompt are
 * cached once, and a moving breakpoint on the newest user block makes each
 * turn read the whole earlier conversation from the cache (three of the four
 * breakpoints the API allows).
 */
function withCacheBreakpoint(messages: Anthropic.MessageParam[]): Anthropic.MessageParam[] {
  return messages.map((message, index) => {
    if (index !== messages.length - 1 || typeof message.content === 'string') return message;
    const blocks = message.content.map((block, blockIndex) =>
      blockIndex === message.content.length - 1
        ? ({ ...block, cache_control: { type: 'ephemeral' } } as typeof block)
        : block,
    );
    return { ...message, content: blocks } as Anthropic.MessageParam;
  });
}

/** The text blocks of an assistant message, joined. */
export function textOf(message: Anthropic.Message): string {
  return message.content
    .filter((block): block is Anthropic.TextBlock => block.type === 'text')
    .map((block) => block.text)
    .join('');
}

export async function runToolLoop(input: ToolLoopInput): Promise<ToolLoopResult> {
  let turns = 0;
  let stopReason: string | null = null;
  const stamp = { parent_tool_use_id: input.parentToolUseId, session_id: input.sessionId };
  while (turns < input.maxTurns) {
    turns += 1;
    const stream = input.client.messages.stream(
      {
        model: input.modelId,
        max_tokens: MAX_TOKENS_PER_TURN,
        system: [{ type: 'text', text: input.system, cache_control: { type: 'ephemeral' } }],
        tools: [...input.tools],
        messages: withCacheBreakpoint(input.messages),
      },
      { signal: input.signal },
    );
    const reply = await stream.finalMessage();
    input.transcript.write({ type: 'assistant', message: reply, ...stamp, seat: input.seat });
    input.onReply(reply);
    stopReason = reply.stop_reason;
    input.messages.push({ role: 'assistant', content: reply.content });
    const toolUses = reply.content.filter(
      (block): block is Anthropic.ToolUseBlock => block.type === 'tool_use',
    );
    if (reply.stop_reason === 'tool_use' && toolUses.length > 0) {
      const results: Anthropic.ToolResultBlockParam[] = [];
      const followUps: Anthropic.TextBlockParam[] = [];
      for (const call of toolUses) {
        const output = await input.answer(call);
        results.push({
          type: 'tool_result',
          tool_use_id: call.id,
          content: output.content,
          is_error: output.isError,
        });
        if (output.followUp !== undefined) followUps.push({ type: 'text', text: output.followUp });
      }
      input.transcript.write({
        type: 'user',
        message: { role: 'user', content: results },
        ...stamp,
        seat: input.seat,
      });
      // Text the engine adds beside the results (a loaded skill), recorded as Claude Code records it.
      for (const followUp of followUps) {
        input.transcript.write({
          type: 'user',
          message: { role: 'user', content: [followUp] },
          ...stamp,
          seat: input.seat,
          isSynthetic: true,
        });
      }
      input.messages.push({ role: 'user', content: [...results, ...followUps] });
      if (input.stopAfterToolTurn()) {
        return { end: { kind: 'stopped', text: textOf(reply) }, turns, stopReason };
      }
      continue;
    }
    if (reply.stop_reason === 'pause_turn') continue;
    const cutShort =
      reply.stop_reason === 'max_tokens'
        ? `the reply was cut off at the ${MAX_TOKENS_PER_TURN}-token output limit`
        : reply.stop_reason === 'refusal'
          ? 'the model refused to answer'
          : undefined;
    return { end: { kind: 'reply', text: textOf(reply), cutShort }, turns, stopReason };
  }
  return { end: { kind: 'turn-limit' }, turns, stopReason };
}
