/**
 * The server speaks the public Messages API: the real `@anthropic-ai/sdk`
 * client gets typed results from `messages.create` and `messages.stream`, the
 * SSE events come in the public order, errors have the API's shape and
 * surface as the SDK's typed APIError subclasses, and what Claude Code sends
 * (system-role messages, beta fields, cache_control) is accepted.
 */
import Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import {
  brainFailureIn,
  isScriptedModel,
  type ModelServer,
  scriptedModelId,
  startModelServer,
} from '../../harness/model-server/index.js';
import { claudeCodeTools } from './support/local-tools.js';
import { campaignPrompt } from './support/prompt.js';
import { sdkClient, testApiKey } from './support/tool-loop.js';

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function start(): Promise<ModelServer> {
  server = await startModelServer({ policy: 'structural' });
  return server;
}

function firstTurn(prompt = campaignPrompt('/repo/widget', '/skills/sdd')) {
  return {
    model: 'claude-sonnet-5-5',
    max_tokens: 1024,
    tools: claudeCodeTools,
    messages: [{ role: 'user' as const, content: prompt }],
  };
}

async function postJson(baseUrl: string, route: string, body: unknown): Promise<Response> {
  return fetch(`${baseUrl}${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-api-key': testApiKey },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

describe('messages.create through the real SDK', () => {
  it('returns a typed tool_use message, echoing the model id, with estimated usage marked', async () => {
    const { baseUrl } = await start();
    const { data: message, response } = await sdkClient(baseUrl)
      .messages.create(firstTurn())
      .withResponse();
    expect(message.type).toBe('message');
    expect(message.role).toBe('assistant');
    expect(message.model).toBe('claude-sonnet-5-5');
    expect(message.stop_reason).toBe('tool_use');
    const [block] = message.content;
    expect(block?.type).toBe('tool_use');
    if (block?.type !== 'tool_use') throw new Error('expected a tool_use block');
    expect(block.name).toBe('Read');
    expect(block.input).toEqual({ file_path: '/skills/sdd/SKILL.md' });
    expect(block.id).toMatch(/^toolu_/);
    expect(message.usage.input_tokens).toBeGreaterThan(0);
    expect(message.usage.output_tokens).toBeGreaterThan(0);
    expect(response.headers.get('x-redgreen-usage')).toBe('estimated');
    expect(response.headers.get('x-redgreen-policy')).toBe('scripted:structural');
    expect((message as unknown as { redgreen: unknown }).redgreen).toMatchObject({
      policy: 'scripted:structural',
      usage: 'estimated',
      turn: 1,
    });
  });

  it('lets a scripted:<policy> model id choose the policy, and echoes it', async () => {
    const { baseUrl } = await start();
    const message = await sdkClient(baseUrl).messages.create({
      ...firstTurn(),
      model: scriptedModelId('literal'),
    });
    expect(message.model).toBe('scripted:literal');
    expect(isScriptedModel(message.model)).toBe(true);
    expect(isScriptedModel('claude-sonnet-5-5')).toBe(false);
    expect((message as unknown as { redgreen: { policy: string } }).redgreen.policy).toBe(
      'scripted:literal',
    );
  });

  it('refuses a session turn whose prompt it cannot play as a brain failure (400) naming the policy, what it lacks and what to run instead', async () => {
    const { baseUrl } = await start();
    const client = sdkClient(baseUrl);
    const refused = await client.messages
      .create(firstTurn('Please add a slugify helper to src/.'))
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    expect(refused).toBeInstanceOf(Anthropic.BadRequestError);
    const message = (refused as InstanceType<typeof Anthropic.BadRequestError>).message;
    expect(brainFailureIn(message)).toMatch(
      /^scripted:structural cannot play this session: it plays an SDD controller's prompt, and this prompt does not give the fixture repository path \(expected .*\)\. No verdict: for this skill, write a policy file policies\/<name>\.yaml .*--model scripted:<name> .*, or run a live model$/,
    );
  });

  it("answers a probe (no tools: the endpoint preflight's one-token ping) as before, with text, never a refusal", async () => {
    const { baseUrl } = await start();
    const message = await sdkClient(baseUrl).messages.create({
      model: 'claude-sonnet-5-5',
      max_tokens: 1,
      messages: [{ role: 'user', content: 'ping' }],
    });
    expect(message.stop_reason).toBe('end_turn');
    const [block] = message.content;
    expect(block?.type === 'text' && block.text).toContain(
      'could not find the fixture repository path',
    );
  });

  it('says it cannot act when the request offers none of the tools it needs', async () => {
    const { baseUrl } = await start();
    const message = await sdkClient(baseUrl).messages.create({ ...firstTurn(), tools: [] });
    const [block] = message.content;
    expect(block?.type === 'text' && block.text).toMatch(/cannot act: the request offers no Read/);
  });
});

describe('messages.stream through the real SDK', () => {
  it('streams the same turn as the JSON answer, assembled by the SDK into a typed Message', async () => {
    const { baseUrl } = await start();
    const client = sdkClient(baseUrl);
    const plain = await client.messages.create(firstTurn());
    const streamed = await client.messages.stream(firstTurn()).finalMessage();
    expect(streamed.content).toEqual(plain.content);
    expect(streamed.id).toBe(plain.id);
    expect(streamed.stop_reason).toBe('tool_use');
    expect(streamed.usage.output_tokens).toBe(plain.usage.output_tokens);
  });

  it('emits the public event sequence, with tool input split across input_json_delta chunks', async () => {
    const { baseUrl } = await start();
    const response = await postJson(baseUrl, '/v1/messages?beta=true', {
      ...firstTurn(),
      stream: true,
    });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const events = parseSse(await response.text());
    const types = events.map((event) => event.event);
    expect(types[0]).toBe('message_start');
    expect(types.slice(-2)).toEqual(['message_delta', 'message_stop']);
    expect(types.filter((type) => type !== 'ping' && type !== 'content_block_delta')).toEqual([
      'message_start',
      'content_block_start',
      'content_block_stop',
      'message_delta',
      'message_stop',
    ]);
    for (const event of events) expect(event.data.type).toBe(event.event);
    const deltas = events.filter((event) => event.event === 'content_block_delta');
    expect(deltas.length).toBeGreaterThan(1);
    const json = deltas
      .map((event) => (event.data.delta as { partial_json: string }).partial_json)
      .join('');
    expect(JSON.parse(json)).toEqual({ file_path: '/skills/sdd/SKILL.md' });
    const messageDelta = events.find((event) => event.event === 'message_delta');
    expect(messageDelta?.data.delta).toMatchObject({ stop_reason: 'tool_use' });
    expect(messageDelta?.data.usage).toMatchObject({ output_tokens: expect.any(Number) });
  });

  it('streams a final text answer as text_delta events', async () => {
    const { baseUrl } = await start();
    // A request offering no tools is answered with text saying so.
    const stream = sdkClient(baseUrl).messages.stream({ ...firstTurn(), tools: [] });
    const pieces: string[] = [];
    stream.on('text', (text) => pieces.push(text));
    const message = await stream.finalMessage();
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.join('')).toBe(
      message.content[0]?.type === 'text' ? message.content[0].text : '',
    );
    expect(message.stop_reason).toBe('end_turn');
  });
});

describe('errors in the API shape', () => {
  it('answers an unknown route with 404 not_found_error, which the SDK types as NotFoundError', async () => {
    const { baseUrl } = await start();
    const response = await fetch(`${baseUrl}/v1/models`, { headers: { 'x-api-key': testApiKey } });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      type: 'error',
      error: { type: 'not_found_error', message: expect.stringContaining('/v1/models') },
    });
    const client = sdkClient(baseUrl);
    await expect(client.models.list()).rejects.toBeInstanceOf(Anthropic.NotFoundError);
  });

  it('answers an unknown scripted policy as an unknown model (404)', async () => {
    const { baseUrl } = await start();
    const error = await sdkClient(baseUrl)
      .messages.create({ ...firstTurn(), model: 'scripted:nonsense' })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.NotFoundError);
    expect((error as InstanceType<typeof Anthropic.NotFoundError>).error).toMatchObject({
      type: 'error',
      error: { type: 'not_found_error' },
    });
  });

  it('answers malformed JSON with 400 invalid_request_error', async () => {
    const { baseUrl } = await start();
    const response = await postJson(baseUrl, '/v1/messages', '{"model": "x", "messages": [');
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error', message: expect.stringContaining('not valid JSON') },
    });
  });

  it('answers a request without messages with 400, which the SDK types as BadRequestError', async () => {
    const { baseUrl } = await start();
    const raw = await postJson(baseUrl, '/v1/messages', { model: 'x', max_tokens: 5 });
    expect(raw.status).toBe(400);
    expect(await raw.json()).toMatchObject({
      error: { type: 'invalid_request_error', message: expect.stringContaining('messages') },
    });
    const error = await sdkClient(baseUrl)
      .messages.create({ model: 'x', max_tokens: 5, messages: [] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
  });

  it('rejects a tool_result whose id is not a tool_use of the preceding assistant message', async () => {
    const { baseUrl } = await start();
    const client = sdkClient(baseUrl);
    const first = await client.messages.create(firstTurn());
    const error = await client.messages
      .create({
        ...firstTurn(),
        messages: [
          ...firstTurn().messages,
          { role: 'assistant', content: first.content },
          {
            role: 'user',
            content: [{ type: 'tool_result', tool_use_id: 'toolu_made_up', content: 'x' }],
          },
        ],
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect(String((error as Error).message)).toContain('toolu_made_up');
  });

  it('rejects a history whose tool turn this policy did not ask for (replay divergence)', async () => {
    const { baseUrl } = await start();
    const error = await sdkClient(baseUrl)
      .messages.create({
        ...firstTurn(),
        messages: [
          ...firstTurn().messages,
          {
            role: 'assistant',
            content: [
              { type: 'tool_use', id: 'toolu_foreign', name: 'Bash', input: { command: 'ls' } },
            ],
          },
          {
            role: 'user',
            content: [{ type: 'tool_result', tool_use_id: 'toolu_foreign', content: '' }],
          },
        ],
      })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Anthropic.BadRequestError);
    expect(String((error as Error).message)).toContain(
      'is not the one scripted:structural asks for',
    );
  });

  it('rejects a block of a known type with the wrong shape, but accepts unknown block types', async () => {
    const { baseUrl } = await start();
    const bad = await postJson(baseUrl, '/v1/messages', {
      ...firstTurn(),
      messages: [{ role: 'user', content: [{ type: 'text' }] }],
    });
    expect(bad.status).toBe(400);
    const unknownBlock = await postJson(baseUrl, '/v1/messages', {
      ...firstTurn(),
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AA==' } },
            { type: 'text', text: campaignPrompt('/repo/widget', '/skills/sdd') },
          ],
        },
      ],
    });
    expect(unknownBlock.status).toBe(200);
  });
});

describe('what Claude Code sends', () => {
  it('accepts a Claude Code-shaped request: system-role message, beta fields, cache_control, deferred tools', async () => {
    const { baseUrl } = await start();
    const body = {
      model: 'claude-opus-5-5',
      max_tokens: 128000,
      stream: true,
      thinking: { type: 'adaptive', display: 'updates' },
      context_management: { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] },
      output_config: { effort: 'medium' },
      metadata: {
        user_id: JSON.stringify({ device_id: 'd', account_uuid: '', session_id: 'cc-session-1' }),
      },
      system: [
        { type: 'text', text: 'x-anthropic-billing-header: cc_version=2.1.332;' },
        { type: 'text', text: 'You are an agent.', cache_control: { type: 'ephemeral' } },
        {
          type: 'text',
          text: 'More instructions.',
          cache_control: { type: 'ephemeral', ttl: '1h' },
        },
      ],
      tools: [
        ...claudeCodeTools,
        {
          name: 'DeferredToolPlaceholder',
          description: 'never call',
          input_schema: { type: 'object', properties: {} },
          defer_loading: true,
        },
      ],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: '<system-reminder>\ngit status\n</system-reminder>' },
            { type: 'text', text: '<system-reminder>\nattribution\n</system-reminder>\n' },
            {
              type: 'text',
              text: campaignPrompt('/repo/widget', '/skills/sdd'),
              cache_control: { type: 'ephemeral' },
            },
          ],
        },
        { role: 'system', content: [{ type: 'text', text: '## Bash command sandbox\n...' }] },
      ],
    };
    const response = await fetch(`${baseUrl}/v1/messages?beta=true`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-api-key': testApiKey,
        'anthropic-version': '2023-06-01',
        'anthropic-beta':
          'claude-code-20250219,interleaved-thinking-2025-05-14,context-management-2025-06-27',
        'x-claude-code-session-id': 'cc-session-1',
      },
      body: JSON.stringify(body),
    });
    expect(response.status).toBe(200);
    const events = parseSse(await response.text());
    const opening = events[0]?.data.message as { model: string; redgreen: { session: string } };
    expect(opening.model).toBe('claude-opus-5-5');
    expect(opening.redgreen.session).toBe('cc-session-1');
    expect(events.at(-1)?.event).toBe('message_stop');
  });
});

describe('count_tokens', () => {
  it('returns an estimated input_tokens count through the SDK', async () => {
    const { baseUrl } = await start();
    const counted = await sdkClient(baseUrl).messages.countTokens({
      model: 'claude-sonnet-5-5',
      messages: firstTurn().messages,
      tools: claudeCodeTools,
    });
    expect(counted.input_tokens).toBeGreaterThan(10);
    const raw = await postJson(baseUrl, '/v1/messages/count_tokens', {
      model: 'claude-sonnet-5-5',
      messages: firstTurn().messages,
    });
    expect(raw.headers.get('x-redgreen-usage')).toBe('estimated');
    const longer = await sdkClient(baseUrl).messages.countTokens({
      model: 'claude-sonnet-5-5',
      messages: [{ role: 'user', content: 'x'.repeat(4000) }],
    });
    expect(longer.input_tokens).toBeGreaterThan(counted.input_tokens);
  });

  it('rejects a count_tokens request without messages', async () => {
    const { baseUrl } = await start();
    const raw = await postJson(baseUrl, '/v1/messages/count_tokens', { model: 'x' });
    expect(raw.status).toBe(400);
  });
});

describe('robustness', () => {
  it('survives a client that disconnects mid-request and mid-delay, and keeps serving', async () => {
    server = await startModelServer({
      policy: 'structural',
      faults: [{ kind: 'delay', minMs: 300, maxMs: 300 }],
    });
    const { baseUrl } = server;
    const controller = new AbortController();
    const pending = fetch(`${baseUrl}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(firstTurn()),
      signal: controller.signal,
    }).catch((caught: unknown) => caught);
    setTimeout(() => controller.abort(), 50);
    expect(await pending).toBeInstanceOf(Error);
    const { Socket } = await import('node:net');
    await new Promise<void>((resolve) => {
      const socket = new Socket();
      socket.connect(server?.port ?? 0, '127.0.0.1', () => {
        socket.write('POST /v1/messages HTTP/1.1\r\nhost: x\r\ncontent-length: 1000\r\n\r\n{"mod');
        socket.destroy();
        resolve();
      });
    });
    const message = await sdkClient(baseUrl).messages.create(firstTurn());
    expect(message.stop_reason).toBe('tool_use');
  });

  it('refuses a body over the size limit with 413', async () => {
    server = await startModelServer({ policy: 'structural', maxBodyBytes: 1000 });
    const response = await postJson(server.baseUrl, '/v1/messages', {
      ...firstTurn(),
      messages: [{ role: 'user', content: 'x'.repeat(5000) }],
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: { type: 'request_too_large' } });
  });

  it('closes promptly even with idle keep-alive connections open', async () => {
    const { baseUrl } = await start();
    await sdkClient(baseUrl).messages.create(firstTurn());
    await server?.close();
    server = undefined;
    await expect(fetch(`${baseUrl}/v1/messages`, { method: 'POST' })).rejects.toThrow();
  });
});

interface ParsedEvent {
  readonly event: string;
  readonly data: Record<string, unknown>;
}

function parseSse(text: string): ParsedEvent[] {
  return text
    .split('\n\n')
    .filter((chunk) => chunk.trim() !== '')
    .map((chunk) => {
      const event = /^event: (.*)$/m.exec(chunk)?.[1] ?? '';
      const data = /^data: (.*)$/m.exec(chunk)?.[1] ?? '{}';
      return { event, data: JSON.parse(data) as Record<string, unknown> };
    });
}
