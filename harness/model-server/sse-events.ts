/**
 * An assistant message as the public streaming event sequence:
 * `message_start`, `ping`, then per content block `content_block_start`,
 * `content_block_delta` (`text_delta`, or `input_json_delta` with the input's
 * JSON split into a few chunks), `content_block_stop`; then `message_delta`
 * (stop_reason and usage) and `message_stop`.
 */
import type { AssistantBlock, AssistantMessage } from './assistant-message.js';

export interface SseEvent {
  readonly event: string;
  readonly data: Readonly<Record<string, unknown>>;
}

const textChunkCodePoints = 64;
const jsonChunks = 3;

export function messageEvents(message: AssistantMessage): readonly SseEvent[] {
  const events: SseEvent[] = [
    {
      event: 'message_start',
      data: {
        type: 'message_start',
        message: {
          ...message,
          content: [],
          stop_reason: null,
          usage: { ...message.usage, output_tokens: 0 },
        },
      },
    },
    { event: 'ping', data: { type: 'ping' } },
  ];
  message.content.forEach((block, index) => {
    events.push({
      event: 'content_block_start',
      data: { type: 'content_block_start', index, content_block: emptyBlock(block) },
    });
    for (const delta of blockDeltas(block)) {
      events.push({
        event: 'content_block_delta',
        data: { type: 'content_block_delta', index, delta },
      });
    }
    events.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
  });
  events.push(
    {
      event: 'message_delta',
      data: {
        type: 'message_delta',
        delta: { stop_reason: message.stop_reason, stop_sequence: null, stop_details: null },
        usage: {
          input_tokens: message.usage.input_tokens,
          output_tokens: message.usage.output_tokens,
          cache_creation_input_tokens: 0,
          cache_read_input_tokens: 0,
        },
      },
    },
    { event: 'message_stop', data: { type: 'message_stop' } },
  );
  return events;
}

export function formatSse(event: SseEvent): string {
  return `event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`;
}

function emptyBlock(block: AssistantBlock): Readonly<Record<string, unknown>> {
  return block.type === 'text'
    ? { type: 'text', text: '', citations: null }
    : { type: 'tool_use', id: block.id, name: block.name, input: {} };
}

function blockDeltas(block: AssistantBlock): readonly Readonly<Record<string, unknown>>[] {
  if (block.type === 'text') {
    return splitCodePoints(block.text, textChunkCodePoints).map((text) => ({
      type: 'text_delta',
      text,
    }));
  }
  const json = JSON.stringify(block.input);
  const size = Math.max(1, Math.ceil([...json].length / jsonChunks));
  return splitCodePoints(json, size).map((partial) => ({
    type: 'input_json_delta',
    partial_json: partial,
  }));
}

function splitCodePoints(text: string, size: number): readonly string[] {
  const points = [...text];
  const chunks: string[] = [];
  for (let start = 0; start < points.length; start += size) {
    chunks.push(points.slice(start, start + size).join(''));
  }
  return chunks.length === 0 ? [''] : chunks;
}
