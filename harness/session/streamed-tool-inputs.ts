/**
 * Tool inputs exactly as the model streamed them, read from the raw API
 * events the Claude Code engine forwards when asked to
 * (`includePartialMessages`). The engine's own messages are not enough: for
 * some tools (SendMessage, in 2.1.332) it adds derived fields to the
 * tool_use block's input, in its hooks' view and in the assistant message it
 * emits alike. A capture must record what the model sent, so it reassembles
 * each controller tool_use block from `content_block_start` and its
 * `input_json_delta` chunks. Subagents' events are ignored.
 */
import type { SDKPartialAssistantMessage } from '@anthropic-ai/claude-agent-sdk';

interface OpenBlock {
  readonly id: string;
  readonly name: string;
  json: string;
}

export interface StreamedToolUse {
  readonly name: string;
  readonly input: unknown;
}

export class StreamedToolInputs {
  readonly #open = new Map<number, OpenBlock>();
  readonly #done = new Map<string, StreamedToolUse>();

  /** Feed one stream event, in arrival order. */
  add(message: SDKPartialAssistantMessage): void {
    if (message.parent_tool_use_id !== null) return;
    const event = message.event;
    if (event.type === 'message_start') {
      this.#open.clear();
    } else if (event.type === 'content_block_start') {
      const block = event.content_block;
      if (block.type === 'tool_use') {
        this.#open.set(event.index, { id: block.id, name: block.name, json: '' });
      }
    } else if (event.type === 'content_block_delta') {
      const open = this.#open.get(event.index);
      if (open !== undefined && event.delta.type === 'input_json_delta') {
        open.json += event.delta.partial_json;
      }
    } else if (event.type === 'content_block_stop') {
      const open = this.#open.get(event.index);
      if (open === undefined) return;
      this.#open.delete(event.index);
      const input = parseInput(open.json);
      if (input.ok) this.#done.set(open.id, { name: open.name, input: input.value });
    }
  }

  /** The tool_use block with this id as streamed, when it arrived whole. */
  get(toolUseId: string): StreamedToolUse | undefined {
    return this.#done.get(toolUseId);
  }
}

function parseInput(json: string): { ok: true; value: unknown } | { ok: false } {
  if (json.trim() === '') return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(json) as unknown };
  } catch {
    return { ok: false };
  }
}
