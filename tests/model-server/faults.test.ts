/**
 * Fault injection, seen through the real SDK client: what the runner's
 * reliability code will meet (rate limits it must wait out, overload storms
 * that exhaust retries, server errors, streams cut off mid-answer, bodies it
 * cannot parse, slow turns), and the spec syntax the CLI takes.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type FaultRuleInput,
  type ModelServer,
  parseFaultSpec,
  startModelServer,
} from '../../harness/model-server/index.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { claudeCodeTools } from './support/local-tools.js';
import { campaignPrompt } from './support/prompt.js';
import { sdkClient } from './support/tool-loop.js';

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface LoggedRequest {
  readonly status: number;
  readonly action: string;
  readonly session: string;
  readonly turn: number;
}

/** A server with these faults; `log()` closes it (flushing every line) and reads its request log. */
async function serveWithFaults(
  faults: readonly FaultRuleInput[],
  seed?: number,
): Promise<{ server: ModelServer; log: () => Promise<LoggedRequest[]> }> {
  const logFile = path.join(makeTempDir(), 'requests.jsonl');
  const started = await startModelServer({
    policy: 'structural',
    faults,
    logFile,
    ...(seed === undefined ? {} : { seed }),
  });
  server = started;
  return {
    server: started,
    log: async () => {
      await started.close();
      return readFileSync(logFile, 'utf8')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as LoggedRequest);
    },
  };
}

const request: Anthropic.MessageCreateParamsNonStreaming = {
  model: 'claude-sonnet-5-5',
  max_tokens: 1024,
  tools: claudeCodeTools,
  messages: [{ role: 'user', content: campaignPrompt('/repo/widget', '/skills/sdd') }],
};

describe('HTTP error faults through the SDK retries', () => {
  it('429 twice with retry-after 0: the SDK waits it out and the third attempt succeeds', async () => {
    const { server, log } = await serveWithFaults([
      { kind: 'status', status: 429, times: 2, retryAfterSeconds: 0 },
    ]);
    const message = await sdkClient(server.baseUrl, { maxRetries: 2 }).messages.create(request);
    expect(message.stop_reason).toBe('tool_use');
    expect((await log()).map((entry) => entry.action)).toEqual([
      'fault:429',
      'fault:429',
      'tool_use:Read',
    ]);
  });

  it('429 twice is a RateLimitError when the client allows only one retry', async () => {
    const { server } = await serveWithFaults([
      { kind: 'status', status: 429, times: 2, retryAfterSeconds: 0 },
    ]);
    const error = await sdkClient(server.baseUrl, { maxRetries: 1 })
      .messages.create(request)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.RateLimitError);
    expect(
      (error as InstanceType<typeof Anthropic.RateLimitError>).headers?.get('retry-after'),
    ).toBe('0');
  });

  it('a 529 storm exhausts the retries and surfaces overloaded_error', async () => {
    const { server, log } = await serveWithFaults([
      { kind: 'status', status: 529, times: '*', retryAfterSeconds: 0 },
    ]);
    const error = await sdkClient(server.baseUrl, { maxRetries: 2 })
      .messages.create(request)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.InternalServerError);
    expect((error as InstanceType<typeof Anthropic.APIError>).status).toBe(529);
    expect((error as InstanceType<typeof Anthropic.APIError>).error).toMatchObject({
      error: { type: 'overloaded_error' },
    });
    expect((await log()).map((entry) => entry.status)).toEqual([529, 529, 529]);
  });

  it('a single 500 api_error is retried through', async () => {
    const { server, log } = await serveWithFaults([
      { kind: 'status', status: 500, retryAfterSeconds: 0 },
    ]);
    const message = await sdkClient(server.baseUrl, { maxRetries: 1 }).messages.create(request);
    expect(message.content[0]?.type).toBe('tool_use');
    expect((await log()).map((entry) => entry.status)).toEqual([500, 200]);
  });

  it('a 500 with no retries allowed is an InternalServerError', async () => {
    const { server } = await serveWithFaults([
      { kind: 'status', status: 500, retryAfterSeconds: 0 },
    ]);
    const error = await sdkClient(server.baseUrl)
      .messages.create(request)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.InternalServerError);
  });
});

describe('broken bodies', () => {
  it('drop mid-stream: the client gets message_start, then the connection dies', async () => {
    const { server, log } = await serveWithFaults([{ kind: 'drop', turn: 1 }]);
    const stream = sdkClient(server.baseUrl).messages.stream(request);
    const events: string[] = [];
    stream.on('streamEvent', (event) => events.push(event.type));
    const error = await stream.finalMessage().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    expect(events).toEqual(['message_start']);
    expect((await log()).map((entry) => entry.action)).toEqual(['fault:drop']);
  });

  it('drop on a non-streaming request is a connection error the SDK retries through', async () => {
    const { server, log } = await serveWithFaults([{ kind: 'drop', turn: 1 }]);
    const message = await sdkClient(server.baseUrl, { maxRetries: 1 }).messages.create(request);
    expect(message.stop_reason).toBe('tool_use');
    expect((await log()).map((entry) => entry.action)).toEqual(['fault:drop', 'tool_use:Read']);
  });

  it('drop with no retries allowed is an APIConnectionError', async () => {
    const { server } = await serveWithFaults([{ kind: 'drop' }]);
    const error = await sdkClient(server.baseUrl)
      .messages.create(request)
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.APIConnectionError);
  });

  it('malformed: invalid JSON breaks both the JSON answer and the stream', async () => {
    const { server } = await serveWithFaults([{ kind: 'malformed', times: 2 }]);
    const client = sdkClient(server.baseUrl);
    await expect(client.messages.create(request)).rejects.toThrow();
    await expect(client.messages.stream(request).finalMessage()).rejects.toThrow(/JSON/);
    const healthy = await client.messages.create(request);
    expect(healthy.stop_reason).toBe('tool_use');
  });

  it('truncated: the JSON body stops partway; the stream ends without message_stop', async () => {
    const { server } = await serveWithFaults([{ kind: 'truncated', times: 2 }]);
    const client = sdkClient(server.baseUrl);
    await expect(client.messages.create(request)).rejects.toThrow();
    const raw = await fetch(`${server.baseUrl}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ ...request, stream: true }),
    });
    const text = await raw.text();
    expect(text).toContain('event: message_start');
    expect(text).not.toContain('message_stop');
    expect(text.endsWith('\n\n')).toBe(false);
  });
});

describe('delays', () => {
  it('a fixed delay holds the answer at least that long', async () => {
    const { server } = await serveWithFaults([{ kind: 'delay', minMs: 150, maxMs: 150 }]);
    const started = performance.now();
    await sdkClient(server.baseUrl).messages.create(request);
    expect(performance.now() - started).toBeGreaterThanOrEqual(145);
  });

  it('a random delay is drawn from the seed, the session and the turn', async () => {
    const parsed = parseFaultSpec('delay=0-1000ms');
    expect(parsed.ok && parsed.value).toEqual({ kind: 'delay', minMs: 0, maxMs: 1000 });
    const { createFaultBook } = await import('../../harness/model-server/faults.js');
    if (!parsed.ok) throw new Error('spec did not parse');
    const book = createFaultBook([parsed.value], '7');
    const again = createFaultBook([parsed.value], '7');
    const other = createFaultBook([parsed.value], '8');
    const draws = ['a', 'b', 'c', 'd'].map((key) => book.decide(key, 1).delayMs);
    expect(['a', 'b', 'c', 'd'].map((key) => again.decide(key, 1).delayMs)).toEqual(draws);
    expect(['a', 'b', 'c', 'd'].map((key) => other.decide(key, 1).delayMs)).not.toEqual(draws);
    expect(new Set(draws).size).toBeGreaterThan(1);
    for (const draw of draws) expect(draw).toBeGreaterThanOrEqual(0);
    for (const draw of draws) expect(draw).toBeLessThanOrEqual(1000);
  });
});

describe('fault scope and counters', () => {
  it('counts per session: each session gets its own 429s; a glob limits which sessions', async () => {
    const { server, log } = await serveWithFaults([
      { kind: 'status', status: 429, times: 1, retryAfterSeconds: 0, session: 'slow-*' },
    ]);
    for (const key of ['slow-1', 'slow-2', 'fast-1']) {
      await sdkClient(server.baseUrl, { maxRetries: 1, sessionKey: key }).messages.create(request);
    }
    expect((await log()).map((entry) => `${entry.session}:${entry.status}`)).toEqual([
      'slow-1:429',
      'slow-1:200',
      'slow-2:429',
      'slow-2:200',
      'fast-1:200',
    ]);
  });

  it('counter=server: one count for the whole server', async () => {
    const { server, log } = await serveWithFaults([
      { kind: 'status', status: 500, times: 1, retryAfterSeconds: 0, counter: 'server' },
    ]);
    for (const key of ['one', 'two']) {
      await sdkClient(server.baseUrl, { maxRetries: 1, sessionKey: key }).messages.create(request);
    }
    expect((await log()).map((entry) => `${entry.session}:${entry.status}`)).toEqual([
      'one:500',
      'one:200',
      'two:200',
    ]);
  });

  it('@turn: a fault on turn 2 leaves turn 1 alone', async () => {
    const { server, log } = await serveWithFaults([
      { kind: 'status', status: 529, times: '*', turn: 2, retryAfterSeconds: 0 },
    ]);
    const client = sdkClient(server.baseUrl);
    const first = await client.messages.create(request);
    const use = first.content[0];
    if (use?.type !== 'tool_use') throw new Error('expected a tool_use');
    const second = await client.messages
      .create({
        ...request,
        messages: [
          ...request.messages,
          { role: 'assistant', content: first.content },
          {
            role: 'user',
            content: [{ type: 'tool_result', tool_use_id: use.id, content: '# skill' }],
          },
        ],
      })
      .catch((caught: unknown) => caught);
    expect(second).toBeInstanceOf(Anthropic.InternalServerError);
    expect((await log()).map((entry) => `${entry.turn}:${entry.status}`)).toEqual([
      '1:200',
      '2:529',
    ]);
  });
});

describe('the --fault spec syntax', () => {
  it.each([
    ['429x2', { kind: 'status', status: 429, times: 2, retryAfterSeconds: 1, counter: 'session' }],
    [
      '429x2:retry-after=0',
      { kind: 'status', status: 429, times: 2, retryAfterSeconds: 0, counter: 'session' },
    ],
    [
      '529x*',
      { kind: 'status', status: 529, times: '*', retryAfterSeconds: 1, counter: 'session' },
    ],
    ['500x1', { kind: 'status', status: 500, times: 1, retryAfterSeconds: 1, counter: 'session' }],
    ['delay=200ms', { kind: 'delay', minMs: 200, maxMs: 200 }],
    ['delay=1s', { kind: 'delay', minMs: 1000, maxMs: 1000 }],
    ['delay=50-300ms', { kind: 'delay', minMs: 50, maxMs: 300 }],
    ['drop@2', { kind: 'drop', turn: 2, times: 1, counter: 'session' }],
    ['malformed@1', { kind: 'malformed', turn: 1, times: 1, counter: 'session' }],
    ['truncated@3x*', { kind: 'truncated', turn: 3, times: '*', counter: 'session' }],
    [
      '429x3:session=rep-*:counter=server',
      {
        kind: 'status',
        status: 429,
        times: 3,
        retryAfterSeconds: 1,
        session: 'rep-*',
        counter: 'server',
      },
    ],
  ])('parses %s', (spec, rule) => {
    const parsed = parseFaultSpec(spec);
    expect(parsed).toEqual({ ok: true, value: rule });
  });

  it.each([
    '418',
    '429x0',
    '429xx',
    'drop@0',
    'drop@1@2',
    'delay=300-50ms',
    'delay=fast',
    '429:retry-after=soon',
    'drop:retry-after=1',
    '429:colour=red',
    '429:session=',
    'delay=5ms:counter=server',
    '',
  ])('rejects %j with a one-line error naming the spec', (spec) => {
    const parsed = parseFaultSpec(spec);
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.error.input).toBe(`--fault ${spec}`);
    expect(parsed.error.fix).toContain('429x2');
  });
});
