/**
 * The model server: a local Anthropic Messages API on 127.0.0.1 whose "model"
 * is a scripted policy. It answers `POST /v1/messages` (with or without
 * `?beta=true`) as plain JSON or, with `stream: true`, as SSE; it answers
 * `POST /v1/messages/count_tokens`; anything else is a 404 in the API's error
 * shape. It holds no conversation state: each answer is derived from the
 * request's own message history (see policies/next-turn.ts), so it serves many
 * sessions at once and can restart between turns. The only per-session state
 * is the fault counters (faults.ts).
 *
 * Which policy answers: a model id `scripted:<policy>` names it (as does
 * `scripted:<policy>@<tier>`, a subagent seat's model tier); any other
 * model id is echoed back as requested and answered by the server's default
 * policy, which the `redgreen` field and the `x-redgreen-policy` header name.
 */
import { randomUUID } from 'node:crypto';
import http, {
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import type { z } from 'zod';
import { sha256Hex } from '../lib/hash.js';
import { err, ok } from '../lib/result.js';
import { type ApiError, apiError } from './api-error.js';
import {
  CountTokensRequestSchema,
  type CreateMessageRequest,
  CreateMessageRequestSchema,
  contentBlocks,
  describeIssues,
  isTextBlock,
  type MessageParam,
} from './api-schema.js';
import {
  type AssistantBlock,
  type AssistantMessage,
  assistantMessage,
} from './assistant-message.js';
import { type Brain, brainFailureMessage, nextBrainTurn } from './brain.js';
import { readConversation } from './conversation.js';
import type { ConversationText } from './conversation-text.js';
import { compactionSummary, isEngineCompaction } from './engine-compaction.js';
import {
  createFaultBook,
  type Failure,
  type FaultBook,
  type FaultRuleInput,
  statusFaultError,
  validateFaultRules,
} from './faults.js';
import {
  isJudgePolicyName,
  isJudgeRequest,
  JUDGE_CHECKS_HEADER,
  JUDGE_TOOL_NAME,
  type JudgePolicyName,
  judgeTurn,
  materialOf,
  readChecksHeader,
  rubricIdsOf,
  rubricItemsOf,
} from './judge-policies.js';
import { policyAnswering, scriptedModelId } from './model-id.js';
import { nextPolicyTurn } from './policies/next-turn.js';
import { defaultExtraCallOptions, type ExtraCallOptions } from './policies/policy.js';
import { isPolicyName, policyByName } from './policies/registry.js';
import { openRequestLog, type RequestLog, type RequestLogEntry } from './request-log.js';
import { type AnswerTurn, answerResponses } from './responses/face.js';
import {
  createIssuedCallBook,
  ISSUED_CALLS_PATH,
  type IssuedCallBook,
} from './responses/issued-calls.js';
import { responsesError } from './responses/response-events.js';
import { sessionKeyOf } from './session-key.js';
import { formatSse, messageEvents } from './sse-events.js';
import { estimateInputTokens, usageHeader, usageLabel } from './usage-estimate.js';

export interface ModelServerOptions {
  /** The policy (built-in, or one of `brains`) that answers requests whose model id is not `scripted:<policy>`. */
  readonly policy: string;
  /** Brains that are data (policy files, replays), answering `scripted:<name>` beside the built-in policies. */
  readonly brains?: ReadonlyMap<string, Brain>;
  /** The scripted judge that answers a judge request whose model id is not `scripted:judge-…` (default judge-agree). */
  readonly judgePolicy?: JudgePolicyName;
  /** Default 127.0.0.1. */
  readonly host?: string;
  /** Default 0: the system picks a free port; read it back from the result. */
  readonly port?: number;
  /** Seeds the policies' optional extra calls and random delays. No seed: no extra calls. */
  readonly seed?: string | number;
  readonly extras?: Partial<ExtraCallOptions>;
  readonly faults?: readonly FaultRuleInput[];
  /** Append one JSON line per request to this file. */
  readonly logFile?: string;
  /** Largest request body accepted (default 32 MiB); larger gets 413. */
  readonly maxBodyBytes?: number;
}

export interface ModelServer {
  /** `http://127.0.0.1:<port>`: what ANTHROPIC_BASE_URL / `baseURL` should be. */
  readonly baseUrl: string;
  readonly port: number;
  readonly policy: string;
  /** Stop accepting, let in-flight responses finish briefly, then close every connection. */
  close(): Promise<void>;
}

const defaultMaxBodyBytes = 32 * 1024 * 1024;
const closeGraceMs = 2000;

/** Start a model server. Rejects only if the options are invalid or the port cannot be bound. */
export async function startModelServer(options: ModelServerOptions): Promise<ModelServer> {
  const brains = options.brains ?? new Map<string, Brain>();
  for (const name of brains.keys()) {
    if (isPolicyName(name)) throw new Error(`brain ${name} has the name of a built-in policy`);
  }
  if (!isPolicyName(options.policy) && !brains.has(options.policy)) {
    throw new Error(`unknown policy: ${String(options.policy)}`);
  }
  const rules = validateFaultRules(options.faults ?? []);
  if (!rules.ok) throw new Error(`${rules.error.input}: ${rules.error.problem}`);
  let log: RequestLog | undefined;
  if (options.logFile !== undefined) {
    const opened = await openRequestLog(options.logFile);
    if (!opened.ok) throw new Error(`${opened.error.input}: ${opened.error.problem}`);
    log = opened.value;
  }
  const seed = options.seed === undefined ? undefined : String(options.seed);
  const settings: Settings = {
    policy: options.policy,
    brains,
    judgePolicy: options.judgePolicy ?? 'judge-agree',
    seed,
    extras: { ...defaultExtraCallOptions, ...options.extras },
    faults: createFaultBook(rules.value, seed ?? ''),
    maxBodyBytes: options.maxBodyBytes ?? defaultMaxBodyBytes,
    log,
    issued: createIssuedCallBook(),
  };

  // Each request until its response has closed (and its log line is written).
  const open = new Set<Promise<void>>();
  const server = http.createServer((request, response) => {
    handle(settings, request, response).catch((error: unknown) => {
      // A bug in the server must not take the process down; answer 500 if we still can.
      process.stderr.write(`redgreen model server: internal error: ${String(error)}\n`);
      if (!response.headersSent && !response.destroyed) {
        sendJson(response, apiError('api_error', 'internal error in the model server'));
      } else {
        response.destroy();
      }
    });
    const closed = new Promise<void>((resolve) => response.once('close', () => resolve()));
    open.add(closed);
    void closed.then(() => open.delete(closed));
  });
  server.keepAliveTimeout = 60_000;
  server.headersTimeout = 65_000;
  server.on('clientError', (_error, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n');
    else socket.destroy();
  });

  const host = options.host ?? '127.0.0.1';
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port ?? 0, host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    await log?.close();
    throw error;
  }
  const port = (server.address() as AddressInfo).port;

  let closing: Promise<void> | undefined;
  return {
    baseUrl: `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
    port,
    policy: options.policy,
    close() {
      closing ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()));
        server.closeIdleConnections();
        await Promise.race([
          Promise.allSettled([...open]),
          new Promise((resolve) => setTimeout(resolve, closeGraceMs).unref()),
        ]);
        server.closeAllConnections();
        await Promise.allSettled([...open]);
        await closed;
        await log?.close();
      })();
      return closing;
    },
  };
}

interface Settings {
  readonly policy: string;
  readonly brains: ReadonlyMap<string, Brain>;
  readonly judgePolicy: JudgePolicyName;
  readonly seed: string | undefined;
  readonly extras: ExtraCallOptions;
  readonly faults: FaultBook;
  readonly maxBodyBytes: number;
  readonly log: RequestLog | undefined;
  readonly issued: IssuedCallBook;
}

/** What the log line for a request says, filled in as handling proceeds. */
interface LogFacts {
  session: string | null;
  sessionSource: string | null;
  turn: number | null;
  model: string | null;
  policy: string | null;
  messages: number | null;
  stream: boolean | null;
  action: string;
  /** Responses face only: Codex's thread and request kind (turn, subagent, compaction). */
  thread?: string | null;
  requestKind?: string | null;
}

async function handle(
  settings: Settings,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const started = performance.now();
  const url = new URL(request.url ?? '/', 'http://model-server.invalid');
  const facts: LogFacts = {
    session: null,
    sessionSource: null,
    turn: null,
    model: null,
    policy: null,
    messages: null,
    stream: null,
    action: 'none',
  };
  response.on('error', () => {
    // The client went away mid-write; nothing to do but not crash.
  });
  response.once('close', () => {
    if (!response.writableFinished && facts.action === 'none') facts.action = 'client-aborted';
    const entry: RequestLogEntry = {
      time: new Date().toISOString(),
      method: request.method ?? '',
      path: `${url.pathname}${url.search}`,
      status: response.headersSent ? response.statusCode : 0,
      ...facts,
      durationMs: Math.round(performance.now() - started),
    };
    settings.log?.write(entry, request.headers);
  });
  response.setHeader('request-id', `req_redgreen_${randomUUID().replace(/-/g, '')}`);

  const route = `${request.method} ${url.pathname.replace(/\/+$/, '')}`;
  if (route === 'POST /v1/messages') return handleMessages(settings, request, response, facts);
  if (route === 'POST /v1/responses') return handleResponses(settings, request, response, facts);
  if (route === `GET ${ISSUED_CALLS_PATH}`) {
    request.resume();
    return issuedCallsOf(settings, url, response, facts);
  }
  if (route === 'POST /v1/messages/count_tokens') {
    return handleCountTokens(request, response, facts, settings.maxBodyBytes);
  }
  request.resume();
  return fail(
    response,
    facts,
    apiError('not_found_error', `no such endpoint: ${request.method} ${url.pathname}`),
  );
}

async function handleMessages(
  settings: Settings,
  request: IncomingMessage,
  response: ServerResponse,
  facts: LogFacts,
): Promise<void> {
  const body = await readJsonBody(request, settings.maxBodyBytes);
  if (body.kind === 'aborted') {
    facts.action = 'client-aborted';
    return;
  }
  if (body.kind === 'error') return fail(response, facts, body.error);
  const parsed = parseWith(CreateMessageRequestSchema, body.value);
  if (!parsed.ok) return fail(response, facts, parsed.error);
  const message = parsed.value;
  facts.model = message.model;
  facts.messages = message.messages.length;
  facts.stream = message.stream === true;

  const history = readConversation(message.messages);
  if (!history.ok) return fail(response, facts, history.error);
  const session = sessionKeyOf(request.headers, message);
  const turn = history.value.assistantMessages + 1;
  facts.session = session.key;
  facts.sessionSource = session.source;
  facts.turn = turn;

  // The engine's compaction request (engine-compaction.ts) is answered with a summary.
  const compaction = isEngineCompaction(message.messages);
  if (compaction) facts.requestKind = 'compaction';
  const answered = compaction
    ? ok(compactionAnswer(settings, message))
    : scriptedAnswer(settings, {
        message,
        history: history.value,
        headers: request.headers,
        sessionKey: session.key,
        turn,
      });
  if (!answered.ok) return fail(response, facts, answered.error);
  const { policy, content } = answered.value;
  facts.policy = scriptedModelId(policy);
  response.setHeader('x-redgreen-policy', scriptedModelId(policy));

  const decision = settings.faults.decide(session.key, turn);
  if (decision.delayMs > 0) {
    const waited = await waitUnlessClosed(response, decision.delayMs);
    if (!waited) {
      facts.action = 'client-aborted';
      return;
    }
  }

  const reply = assistantMessage({
    id: `msg_rg${sha256Hex([session.key, policy, String(turn)].join('\u0000')).slice(0, 22)}`,
    model: message.model,
    content,
    inputTokens: estimateInputTokens(message),
    redgreen: { policy: scriptedModelId(policy), usage: usageLabel, session: session.key, turn },
  });

  if (decision.failure !== undefined) {
    facts.action = `fault:${decision.failure.kind === 'status' ? decision.failure.status : decision.failure.kind}`;
    return injectFailure(response, decision.failure, reply, message);
  }
  response.setHeader(usageHeader, usageLabel);
  const calls = content.flatMap((block) => (block.type === 'tool_use' ? [block.name] : []));
  facts.action = calls.length === 0 ? 'text' : `tool_use:${calls.join(',')}`;
  if (message.stream === true) {
    await writeStream(response, messageEvents(reply).map(formatSse));
  } else {
    sendJson(response, { status: 200, body: reply });
  }
}

/**
 * `GET /v1/redgreen/issued-calls?session=<key>&token=<token>`: the calls the
 * Responses face issued on each thread of a session under that record token
 * (responses/issued-calls.ts; no token reads the page of requests that sent none).
 */
function issuedCallsOf(
  settings: Settings,
  url: URL,
  response: ServerResponse,
  facts: LogFacts,
): void {
  const session = url.searchParams.get('session');
  if (session === null || session === '') {
    fail(
      response,
      facts,
      apiError('invalid_request_error', 'issued-calls: give ?session=<session key>'),
    );
    return;
  }
  facts.session = session;
  facts.action = 'issued-calls';
  const token = url.searchParams.get('token') ?? '';
  sendJson(response, { status: 200, body: settings.issued.of(session, token) });
}

/** `POST /v1/responses` (Codex CLI): the Responses face (responses/face.ts) decides, this writes. */
async function handleResponses(
  settings: Settings,
  request: IncomingMessage,
  response: ServerResponse,
  facts: LogFacts,
): Promise<void> {
  const body = await readJsonBody(request, settings.maxBodyBytes);
  if (body.kind === 'aborted') {
    facts.action = 'client-aborted';
    return;
  }
  if (body.kind === 'error') {
    facts.action = `error:${body.error.body.error.type}`;
    sendJson(response, responsesError(body.error));
    return;
  }
  const reply = answerResponses(body.value, request.headers, {
    faults: settings.faults,
    answer: (input) => {
      const answered = scriptedAnswer(settings, input);
      return answered.ok
        ? ok({ ...answered.value, policy: scriptedModelId(answered.value.policy) })
        : answered;
    },
  });
  Object.assign(facts, reply.log);
  if (reply.log.policy !== null) response.setHeader('x-redgreen-policy', reply.log.policy);
  if (reply.delayMs > 0 && !(await waitUnlessClosed(response, reply.delayMs))) {
    facts.action = 'client-aborted';
    return;
  }
  // Recorded as the answer goes out (after its delay: a client gone during it was sent nothing).
  const send = reply.send;
  if (reply.issued !== undefined) {
    settings.issued.record(
      reply.issued.session,
      reply.issued.token,
      reply.issued.thread,
      reply.issued.calls,
    );
  }
  if (send.kind === 'json') {
    if (send.retryAfter !== undefined) response.setHeader('retry-after', String(send.retryAfter));
    if (send.status === 200) response.setHeader(usageHeader, usageLabel);
    sendJson(response, { status: send.status, body: send.body });
    return;
  }
  response.setHeader(usageHeader, usageLabel);
  await writeStream(response, send.chunks, { end: !send.drop });
  if (send.drop) response.socket?.destroy();
}

/**
 * The summary a compaction request gets: the policy's own (`summarise`) when
 * the model id names a policy that writes one, else the server's.
 */
function compactionAnswer(
  settings: Settings,
  message: CreateMessageRequest,
): { policy: string; content: AssistantBlock[] } {
  const named = policyAnswering(message.model) ?? settings.policy;
  const summarise = policyByName(named)?.summarise;
  const text =
    summarise === undefined
      ? compactionSummary(message.messages)
      : summarise(promptTextOf(message.messages.slice(0, -1)));
  return {
    policy: summarise === undefined ? 'redgreen:compaction' : named,
    content: [{ type: 'text', text }],
  };
}

/**
 * The scripted brains' answer to a conversation (in the Messages shapes):
 * the policy, data brain or judge the model id names, else the default
 * policy. Both faces (Messages, Responses) answer through it.
 */
function scriptedAnswer(
  settings: Settings,
  input: Parameters<AnswerTurn>[0],
): ReturnType<AnswerTurn> {
  const { message, history, headers, sessionKey, turn } = input;
  const requested = policyAnswering(message.model);
  // A judge request is answered by a scripted judge: the one its model id
  // names, or for any other model id the server's default judge.
  const judge =
    requested === undefined
      ? isJudgeRequest(message)
        ? settings.judgePolicy
        : undefined
      : isJudgePolicyName(requested)
        ? requested
        : undefined;
  if (
    requested !== undefined &&
    judge === undefined &&
    !isPolicyName(requested) &&
    !settings.brains.has(requested)
  ) {
    return err(apiError('not_found_error', `model: ${message.model} (no such scripted policy)`));
  }
  const policy = judge ?? requested ?? settings.policy;

  let content: AssistantBlock[];
  const brain = judge === undefined ? settings.brains.get(policy) : undefined;
  if (brain !== undefined) {
    const next = nextBrainTurn(brain, {
      sessionKey: sessionKey,
      conversation: conversationTextOf(message),
      history: history,
      offeredTools: new Set((message.tools ?? []).map((tool) => tool.name)),
    });
    if (!next.ok) {
      return err(apiError('invalid_request_error', next.error.message));
    }
    if (next.value.kind === 'done' && next.value.value.kind === 'failure') {
      return err(apiError('invalid_request_error', brainFailureMessage(next.value.value.message)));
    }
    content =
      next.value.kind === 'done'
        ? [{ type: 'text', text: next.value.value.kind === 'reply' ? next.value.value.text : '' }]
        : next.value.calls.map((call) => ({
            type: 'tool_use',
            id: call.id,
            name: call.name,
            input: call.input,
          }));
  } else if (judge === undefined) {
    const next = nextPolicyTurn({
      policy,
      sessionKey: sessionKey,
      promptText: promptTextOf(message.messages),
      conversation: conversationTextOf(message),
      offeredTools: new Set((message.tools ?? []).map((tool) => tool.name)),
      exchanges: history.exchanges,
      seed: settings.seed,
      extras: settings.extras,
    });
    if (!next.ok) {
      return err(apiError('invalid_request_error', next.error.message));
    }
    // A session its policy cannot play gets no verdict: a brain failure, as a data brain's.
    if (next.value.kind === 'cannot-play') {
      return err(apiError('invalid_request_error', brainFailureMessage(next.value.reason)));
    }
    content =
      next.value.kind === 'text'
        ? [{ type: 'text', text: next.value.text }]
        : next.value.calls.map((call) => ({
            type: 'tool_use',
            id: call.id,
            name: call.name,
            input: call.input,
          }));
  } else {
    content = judgeContent(judge, message, headers, sessionKey, turn, settings.seed);
  }

  return ok({ policy, content });
}

async function handleCountTokens(
  request: IncomingMessage,
  response: ServerResponse,
  facts: LogFacts,
  maxBodyBytes: number,
): Promise<void> {
  const body = await readJsonBody(request, maxBodyBytes);
  if (body.kind === 'aborted') {
    facts.action = 'client-aborted';
    return;
  }
  if (body.kind === 'error') return fail(response, facts, body.error);
  const parsed = parseWith(CountTokensRequestSchema, body.value);
  if (!parsed.ok) return fail(response, facts, parsed.error);
  const history = readConversation(parsed.value.messages);
  if (!history.ok) return fail(response, facts, history.error);
  facts.model = parsed.value.model;
  facts.messages = parsed.value.messages.length;
  facts.action = 'count_tokens';
  response.setHeader(usageHeader, usageLabel);
  sendJson(response, {
    status: 200,
    body: { input_tokens: estimateInputTokens(parsed.value), redgreen: { usage: usageLabel } },
  });
}

/** A scripted judge's answer: one call of the judge's tool, or text. */
function judgeContent(
  judge: JudgePolicyName,
  message: CreateMessageRequest,
  headers: IncomingHttpHeaders,
  sessionKey: string,
  turn: number,
  seed: string | undefined,
): AssistantBlock[] {
  const answer = judgeTurn({
    policy: judge,
    sessionKey,
    seed,
    turn,
    checks: readChecksHeader(headers[JUDGE_CHECKS_HEADER]),
    itemIds: rubricIdsOf(message.tools ?? []),
    material: materialOf(promptTextOf(message.messages)),
    rubric: rubricItemsOf(conversationTextOf(message).system),
  });
  if (answer.kind === 'text') return [{ type: 'text', text: answer.text }];
  const id = `toolu_judge_${sha256Hex([sessionKey, judge, String(turn)].join('\u0000')).slice(0, 20)}`;
  return [{ type: 'tool_use', id, name: JUDGE_TOOL_NAME, input: answer.input }];
}

/** The system prompt and `system` messages' text, and each user message's text blocks. */
function conversationTextOf(message: CreateMessageRequest): ConversationText {
  const system =
    message.system === undefined
      ? []
      : typeof message.system === 'string'
        ? [message.system]
        : message.system.map((block) => block.text);
  const systemMessages = message.messages
    .filter((entry) => entry.role === 'system')
    .flatMap((entry) => contentBlocks(entry).filter(isTextBlock))
    .map((block) => block.text);
  return {
    system: [...system, ...systemMessages].join('\n\n'),
    userMessages: message.messages
      .filter((entry) => entry.role === 'user')
      .map((entry) =>
        contentBlocks(entry)
          .filter(isTextBlock)
          .map((block) => block.text),
      ),
  };
}

/** The user's own words: every text block of the user messages, in order. */
function promptTextOf(messages: readonly MessageParam[]): string {
  return messages
    .filter((message) => message.role === 'user')
    .flatMap((message) => contentBlocks(message).filter(isTextBlock))
    .map((block) => block.text)
    .join('\n\n');
}

async function injectFailure(
  response: ServerResponse,
  failure: Failure,
  reply: AssistantMessage,
  request: CreateMessageRequest,
): Promise<void> {
  switch (failure.kind) {
    case 'status': {
      if (failure.status !== 401) {
        response.setHeader('retry-after', String(failure.retryAfterSeconds));
      }
      sendJson(response, statusFaultError(failure.status));
      return;
    }
    case 'drop': {
      if (request.stream !== true) {
        response.socket?.destroy();
        return;
      }
      const [start, ping] = messageEvents(reply).map(formatSse);
      await writeStream(response, [start ?? '', ping ?? ''], { end: false });
      response.socket?.destroy();
      return;
    }
    case 'malformed': {
      if (request.stream !== true) {
        sendRaw(response, 200, 'application/json', `${JSON.stringify(reply).slice(0, 40)},,}`);
        return;
      }
      const [start] = messageEvents(reply).map(formatSse);
      await writeStream(response, [
        start ?? '',
        'event: content_block_start\ndata: {"type":"content_block_start",,"index":0}\n\n',
      ]);
      return;
    }
    case 'truncated': {
      if (request.stream !== true) {
        const whole = JSON.stringify(reply);
        sendRaw(response, 200, 'application/json', whole.slice(0, Math.floor(whole.length / 2)));
        return;
      }
      const events = messageEvents(reply).map(formatSse);
      const kept = events.slice(0, Math.max(2, events.length - 3));
      const cut = events[kept.length] ?? '';
      await writeStream(response, [...kept, cut.slice(0, Math.floor(cut.length / 2))]);
      return;
    }
  }
}

type BodyRead =
  | { readonly kind: 'ok'; readonly value: unknown }
  | { readonly kind: 'error'; readonly error: ApiError }
  | { readonly kind: 'aborted' };

function readJsonBody(request: IncomingMessage, maxBytes: number): Promise<BodyRead> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (result: BodyRead): void => {
      if (settled) return;
      settled = true;
      resolve(result);
    };
    request.on('data', (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size > maxBytes) {
        request.resume();
        settle({
          kind: 'error',
          error: apiError('request_too_large', `request body exceeds ${maxBytes} bytes`),
        });
        return;
      }
      chunks.push(chunk);
    });
    request.on('error', () => settle({ kind: 'aborted' }));
    request.on('aborted', () => settle({ kind: 'aborted' }));
    request.on('close', () => {
      if (!request.complete) settle({ kind: 'aborted' });
    });
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      if (text.trim() === '') {
        settle({
          kind: 'error',
          error: apiError('invalid_request_error', 'request body is empty'),
        });
        return;
      }
      try {
        settle({ kind: 'ok', value: JSON.parse(text) as unknown });
      } catch (error) {
        settle({
          kind: 'error',
          error: apiError(
            'invalid_request_error',
            `request body is not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
          ),
        });
      }
    });
  });
}

function parseWith<S extends z.ZodType>(
  schema: S,
  value: unknown,
): { ok: true; value: z.output<S> } | { ok: false; error: ApiError } {
  const parsed = schema.safeParse(value);
  return parsed.success
    ? { ok: true, value: parsed.data }
    : { ok: false, error: apiError('invalid_request_error', describeIssues(parsed.error)) };
}

function fail(response: ServerResponse, facts: LogFacts, error: ApiError): void {
  facts.action = `error:${error.body.error.type}`;
  sendJson(response, error);
}

function sendJson(response: ServerResponse, reply: { status: number; body: unknown }): void {
  sendRaw(response, reply.status, 'application/json', JSON.stringify(reply.body));
}

function sendRaw(response: ServerResponse, status: number, type: string, body: string): void {
  if (response.headersSent || response.destroyed) return;
  response.writeHead(status, {
    'content-type': type,
    'content-length': Buffer.byteLength(body),
  });
  response.end(body);
}

/** Write SSE chunks in order; resolves when written (or the client is gone). */
async function writeStream(
  response: ServerResponse,
  chunks: readonly string[],
  options: { end: boolean } = { end: true },
): Promise<void> {
  if (response.destroyed) return;
  if (!response.headersSent) {
    response.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
    });
  }
  for (const chunk of chunks) {
    if (response.destroyed) return;
    await untilWrittenOrClosed(response, (done) => response.write(chunk, done));
  }
  if (options.end && !response.destroyed) {
    await untilWrittenOrClosed(response, (done) => response.end(done));
  }
}

function untilWrittenOrClosed(
  response: ServerResponse,
  write: (done: () => void) => void,
): Promise<void> {
  return new Promise((resolve) => {
    const finish = (): void => {
      response.off('close', finish);
      resolve();
    };
    response.once('close', finish);
    write(finish);
  });
}

/** Wait, unless the client disconnects first; true if the wait completed. */
function waitUnlessClosed(response: ServerResponse, ms: number): Promise<boolean> {
  return new Promise((resolve) => {
    const onClose = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      response.off('close', onClose);
      resolve(true);
    }, ms);
    response.once('close', onClose);
  });
}
