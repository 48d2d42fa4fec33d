/**
 * What the Responses face answers: output items (an assistant message, or
 * function calls, namespaced for the multi-agent tools), the response object
 * that carries them with its usage, the SSE events Codex reads
 * (`response.created`, `response.output_item.added` / `.done` per item,
 * `response.completed`), and errors in the OpenAI API's shape
 * (`{error: {message, type, param, code}}`).
 */
import { sha256Hex } from '../../lib/hash.js';
import type { ApiError } from '../api-error.js';
import { formatSse } from '../sse-events.js';
import type { CodexCall } from './codex-tools.js';

export type OutputItem =
  | {
      readonly type: 'message';
      readonly id: string;
      readonly role: 'assistant';
      readonly status: 'completed';
      readonly content: readonly [
        { readonly type: 'output_text'; readonly text: string; readonly annotations: [] },
      ];
    }
  | {
      readonly type: 'function_call';
      readonly id: string;
      readonly call_id: string;
      readonly name: string;
      readonly namespace?: string;
      readonly arguments: string;
      readonly status: 'completed';
    };

export function textItem(responseId: string, text: string): OutputItem {
  return {
    type: 'message',
    id: `msg_${responseId.slice('resp_'.length)}`,
    role: 'assistant',
    status: 'completed',
    content: [{ type: 'output_text', text, annotations: [] }],
  };
}

export function callItems(calls: readonly CodexCall[]): OutputItem[] {
  return calls.map((call) => ({
    type: 'function_call',
    id: `fc_${sha256Hex(call.callId).slice(0, 24)}`,
    call_id: call.callId,
    name: call.name,
    ...(call.namespace === undefined ? {} : { namespace: call.namespace }),
    arguments: JSON.stringify(call.arguments),
    status: 'completed',
  }));
}

export interface ResponseObject {
  readonly id: string;
  readonly object: 'response';
  readonly status: 'completed' | 'in_progress';
  readonly model: string;
  readonly output: readonly OutputItem[];
  readonly usage: {
    readonly input_tokens: number;
    readonly input_tokens_details: { readonly cached_tokens: number };
    readonly output_tokens: number;
    readonly output_tokens_details: { readonly reasoning_tokens: number };
    readonly total_tokens: number;
  } | null;
  /** Which scripted policy answered, and that the usage is estimated: never a model. */
  readonly metadata: { readonly redgreen_policy: string; readonly redgreen_usage: 'estimated' };
}

export function responseObject(options: {
  readonly id: string;
  readonly model: string;
  readonly output: readonly OutputItem[];
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly policy: string;
}): ResponseObject {
  return {
    id: options.id,
    object: 'response',
    status: 'completed',
    model: options.model,
    output: options.output,
    usage: {
      input_tokens: options.inputTokens,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: options.outputTokens,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: options.inputTokens + options.outputTokens,
    },
    metadata: { redgreen_policy: options.policy, redgreen_usage: 'estimated' },
  };
}

/** The SSE chunks of a response, in order; the last is `response.completed`. */
export function responseEvents(response: ResponseObject): string[] {
  const events: { type: string; [key: string]: unknown }[] = [
    {
      type: 'response.created',
      response: { ...response, status: 'in_progress', output: [], usage: null },
    },
  ];
  response.output.forEach((item, index) => {
    events.push({ type: 'response.output_item.added', output_index: index, item });
    events.push({ type: 'response.output_item.done', output_index: index, item });
  });
  events.push({ type: 'response.completed', response });
  return events.map((event, sequence) =>
    formatSse({ event: event.type, data: { ...event, sequence_number: sequence } }),
  );
}

/** An error in the OpenAI API's shape, with the status the Messages face would use. */
export function responsesError(error: ApiError): { status: number; body: unknown } {
  return {
    status: error.status,
    body: {
      error: {
        message: error.body.error.message,
        type: error.body.error.type,
        param: null,
        code: error.body.error.type,
      },
    },
  };
}
