/**
 * The assistant message a turn answers with, in the public Messages API shape
 * (the fields `@anthropic-ai/sdk` types as `Message`), plus a `redgreen` field
 * that says which scripted policy wrote it and that its usage is estimated.
 */
import { estimateTokens, type usageLabel } from './usage-estimate.js';

export type AssistantBlock =
  | { readonly type: 'text'; readonly text: string }
  | {
      readonly type: 'tool_use';
      readonly id: string;
      readonly name: string;
      readonly input: Readonly<Record<string, unknown>>;
    };

export type StopReason = 'end_turn' | 'tool_use';

export interface RedgreenMetadata {
  /** `scripted:<policy>`: the brain behind this message. Never a model. */
  readonly policy: string;
  /** Always `estimated`: no tokenizer stands behind the usage numbers. */
  readonly usage: typeof usageLabel;
  readonly session: string;
  /** The assistant turn this answers, counted from 1. */
  readonly turn: number;
}

export interface AssistantUsage {
  readonly input_tokens: number;
  readonly output_tokens: number;
  readonly cache_creation_input_tokens: number;
  readonly cache_read_input_tokens: number;
  readonly cache_creation: null;
  readonly server_tool_use: null;
  readonly service_tier: null;
  readonly output_tokens_details: null;
  readonly inference_geo: null;
  readonly speed: null;
}

export interface AssistantMessage {
  readonly id: string;
  readonly type: 'message';
  readonly role: 'assistant';
  readonly model: string;
  readonly content: readonly AssistantBlock[];
  readonly stop_reason: StopReason;
  readonly stop_sequence: null;
  readonly stop_details: null;
  readonly container: null;
  readonly diagnostics: null;
  readonly usage: AssistantUsage;
  readonly redgreen: RedgreenMetadata;
}

export function assistantMessage(parts: {
  readonly id: string;
  readonly model: string;
  readonly content: readonly AssistantBlock[];
  readonly inputTokens: number;
  readonly redgreen: RedgreenMetadata;
}): AssistantMessage {
  const usesTools = parts.content.some((block) => block.type === 'tool_use');
  return {
    id: parts.id,
    type: 'message',
    role: 'assistant',
    model: parts.model,
    content: parts.content,
    stop_reason: usesTools ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    stop_details: null,
    container: null,
    diagnostics: null,
    usage: usage(parts.inputTokens, estimateTokens(parts.content)),
    redgreen: parts.redgreen,
  };
}

export function usage(inputTokens: number, outputTokens: number): AssistantUsage {
  return {
    input_tokens: inputTokens,
    output_tokens: outputTokens,
    cache_creation_input_tokens: 0,
    cache_read_input_tokens: 0,
    cache_creation: null,
    server_tool_use: null,
    service_tier: null,
    output_tokens_details: null,
    inference_geo: null,
    speed: null,
  };
}
