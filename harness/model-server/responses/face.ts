/**
 * The Responses-API face of the model server (`POST /v1/responses`, what
 * Codex CLI calls): a request is validated, read into the conversation view
 * (input-view.ts), answered by the same scripted brains as the Messages face
 * (the server hands in `answer`), and the answer is mapped back to Codex's
 * items through the tool map (codex-tools.ts). A compaction request is
 * answered with a summary text; a wait the tool map owes is answered without
 * asking the brain. Faults are the server's fault rules, shaped for this API:
 * a status code with an OpenAI error body, a stream dropped after
 * `response.created`, a malformed event, or a stream that ends before
 * `response.completed`.
 *
 * This module decides what to send; the server writes it.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { sha256Hex } from '../../lib/hash.js';
import { err, ok, type Result } from '../../lib/result.js';
import { type ApiError, apiError } from '../api-error.js';
import { type CreateMessageRequest, describeIssues } from '../api-schema.js';
import type { AssistantBlock } from '../assistant-message.js';
import { type ConversationHistory, readConversation } from '../conversation.js';
import { type Failure, type FaultBook, statusFaultError } from '../faults.js';
import { estimateInputTokens, estimateTokens } from '../usage-estimate.js';
import { type CodexRequestFacts, codexRequestFacts } from './codex-request.js';
import { type CodexCall, codexCallsOf } from './codex-tools.js';
import { type ResponsesView, readResponsesRequest } from './input-view.js';
import type { IssuedCall } from './issued-calls.js';
import { CreateResponseRequestSchema } from './request-schema.js';
import {
  callItems,
  type ResponseObject,
  responseEvents,
  responseObject,
  responsesError,
  textItem,
} from './response-events.js';

/** The brains' answer to a conversation, as the Messages face computes it. */
export type AnswerTurn = (input: {
  readonly message: CreateMessageRequest;
  readonly history: ConversationHistory;
  readonly headers: IncomingHttpHeaders;
  readonly sessionKey: string;
  readonly turn: number;
}) => Result<{ readonly policy: string; readonly content: readonly AssistantBlock[] }, ApiError>;

/** What to send back, and what the request log says of it. */
export interface FaceReply {
  readonly delayMs: number;
  readonly send:
    | {
        readonly kind: 'json';
        readonly status: number;
        readonly body: unknown;
        readonly retryAfter?: number;
      }
    | {
        readonly kind: 'stream';
        readonly chunks: readonly string[];
        /** Destroy the connection after the chunks instead of ending the response. */
        readonly drop: boolean;
      };
  /** The calls this answer issues, for the server's record (issued-calls.ts); none on a fault. */
  readonly issued?: {
    readonly session: string;
    readonly token: string;
    readonly thread: string | null;
    readonly calls: readonly IssuedCall[];
  };
  readonly log: {
    readonly session: string | null;
    readonly sessionSource: string | null;
    readonly thread: string | null;
    readonly requestKind: string | null;
    readonly turn: number | null;
    readonly model: string | null;
    readonly policy: string | null;
    readonly messages: number | null;
    readonly stream: boolean | null;
    readonly action: string;
  };
}

export function answerResponses(
  body: unknown,
  headers: IncomingHttpHeaders,
  deps: { readonly answer: AnswerTurn; readonly faults: FaultBook },
): FaceReply {
  const noFacts = {
    session: null,
    sessionSource: null,
    thread: null,
    requestKind: null,
    turn: null,
    model: null,
    policy: null,
    messages: null,
    stream: null,
  };
  const parsed = CreateResponseRequestSchema.safeParse(body);
  if (!parsed.success) {
    return failure(noFacts, apiError('invalid_request_error', describeIssues(parsed.error)));
  }
  const request = parsed.data;
  const stream = request.stream === true;
  const view = readResponsesRequest(request);
  const partial = {
    ...noFacts,
    model: request.model,
    messages: Array.isArray(request.input) ? request.input.length : 1,
    stream,
  };
  if (!view.ok) return failure(partial, view.error);
  const facts: CodexRequestFacts = codexRequestFacts(
    headers,
    view.value.firstUserText,
    view.value.lastUserText,
  );
  const turn = view.value.responses + 1;
  const known = {
    ...partial,
    session: facts.session.key,
    sessionSource: facts.session.source,
    thread: facts.thread,
    requestKind: facts.kind,
    turn,
  };

  const answered = answerOf(view.value, facts, turn, headers, deps);
  if (!answered.ok) return failure(known, answered.error);
  const { policy, output } = answered.value;
  const responseId = `resp_rg${sha256Hex([facts.session.key, facts.thread ?? '', policy, String(turn)].join('\u0000')).slice(0, 24)}`;
  const items =
    output.kind === 'text' ? [textItem(responseId, output.text)] : callItems(output.calls);
  const response = responseObject({
    id: responseId,
    model: request.model,
    output: items,
    inputTokens: estimateInputTokens(view.value.message),
    outputTokens: estimateTokens(items),
    policy,
  });
  const logged = {
    ...known,
    policy,
    action:
      output.kind === 'text'
        ? 'text'
        : `tool_use:${output.calls.map((call) => call.name).join(',')}`,
  };
  const decision = deps.faults.decide(facts.session.key, turn);
  if (decision.failure !== undefined) {
    return {
      delayMs: decision.delayMs,
      send: faultReply(decision.failure, response, stream),
      log: {
        ...logged,
        action: `fault:${decision.failure.kind === 'status' ? decision.failure.status : decision.failure.kind}`,
      },
    };
  }
  return {
    delayMs: decision.delayMs,
    send: stream
      ? { kind: 'stream', chunks: responseEvents(response), drop: false }
      : { kind: 'json', status: 200, body: response },
    issued: {
      session: facts.session.key,
      token: facts.recordToken,
      thread: facts.thread,
      calls: items.flatMap((item) =>
        item.type === 'function_call'
          ? [
              {
                call_id: item.call_id,
                name: item.name,
                ...(item.namespace === undefined ? {} : { namespace: item.namespace }),
                arguments: item.arguments,
              },
            ]
          : [],
      ),
    },
    log: logged,
  };
}

type FaceOutput =
  | { readonly kind: 'text'; readonly text: string }
  | { readonly kind: 'calls'; readonly calls: readonly CodexCall[] };

function answerOf(
  view: ResponsesView,
  facts: CodexRequestFacts,
  turn: number,
  headers: IncomingHttpHeaders,
  deps: { readonly answer: AnswerTurn },
): Result<{ policy: string; output: FaceOutput }, ApiError> {
  const { message, pendingWaits } = view;
  if (pendingWaits.length > 0) {
    return ok({ policy: 'redgreen:tool-map', output: { kind: 'calls', calls: pendingWaits } });
  }
  const history = readConversation(message.messages);
  if (!history.ok) return history;
  if (facts.kind === 'compaction') {
    return ok({
      policy: 'redgreen:compaction',
      output: {
        kind: 'text',
        text: `Summary of the session so far (scripted): ${history.value.exchanges.length} tool turns, ${history.value.assistantMessages} assistant turns. Continue from the user's request.`,
      },
    });
  }
  const answered = deps.answer({
    message,
    history: history.value,
    headers,
    sessionKey: facts.session.key,
    turn,
  });
  if (!answered.ok) return answered;
  const calls = answered.value.content.flatMap((block) =>
    block.type === 'tool_use' ? [block] : [],
  );
  if (calls.length === 0) {
    const text = answered.value.content
      .map((block) => (block.type === 'text' ? block.text : ''))
      .join('');
    return ok({ policy: answered.value.policy, output: { kind: 'text', text } });
  }
  const mapped = codexCallsOf(calls, view.skills, message.model);
  if (!mapped.ok) {
    return err(apiError('invalid_request_error', `${answered.value.policy}: ${mapped.error}`));
  }
  return ok({ policy: answered.value.policy, output: { kind: 'calls', calls: mapped.value } });
}

function failure(log: Omit<FaceReply['log'], 'action'>, error: ApiError): FaceReply {
  const shaped = responsesError(error);
  return {
    delayMs: 0,
    send: { kind: 'json', status: shaped.status, body: shaped.body },
    log: { ...log, action: `error:${error.body.error.type}` },
  };
}

function faultReply(
  failure: Failure,
  response: ResponseObject,
  stream: boolean,
): FaceReply['send'] {
  const events = responseEvents(response);
  switch (failure.kind) {
    case 'status': {
      const shaped = responsesError(statusFaultError(failure.status));
      return {
        kind: 'json',
        status: failure.status,
        body: shaped.body,
        ...(failure.status === 401 ? {} : { retryAfter: failure.retryAfterSeconds }),
      };
    }
    case 'drop':
      return { kind: 'stream', chunks: stream ? events.slice(0, 1) : [], drop: true };
    case 'malformed':
      return {
        kind: 'stream',
        chunks: [
          ...events.slice(0, 1),
          'event: response.output_item.done\ndata: {"type":"response.output_item.done",,}\n\n',
        ],
        drop: false,
      };
    case 'truncated':
      return { kind: 'stream', chunks: events.slice(0, -1), drop: false };
  }
}
