/**
 * The request log: one JSON line per request with what happened, and never a
 * credential. A canary key sent every way a client could send it (x-api-key,
 * Authorization: Bearer, even pasted into the session header) must not reach
 * the log file.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startModelServer } from '../../harness/model-server/index.js';
import { credentialValues, scrub } from '../../harness/model-server/request-log.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { claudeCodeTools } from './support/local-tools.js';
import { campaignPrompt } from './support/prompt.js';
import { sdkClient } from './support/tool-loop.js';

const canary = 'sk-ant-canary-7f3e9b2c41d8a6e5';

const body = {
  model: 'claude-sonnet-5-5',
  max_tokens: 1024,
  tools: claudeCodeTools,
  messages: [{ role: 'user' as const, content: campaignPrompt('/repo/widget', '/skills/sdd') }],
};

describe('the request log', () => {
  it('writes one line per request with method, path, session, status, model, message count and action', async () => {
    const logFile = path.join(makeTempDir(), 'requests.jsonl');
    const server = await startModelServer({ policy: 'structural', logFile });
    try {
      await sdkClient(server.baseUrl, { sessionKey: 'rep-1' }).messages.create(body);
      await fetch(`${server.baseUrl}/v1/nothing`, { method: 'POST' });
    } finally {
      await server.close();
    }
    const lines = readFileSync(logFile, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    const [answered, missing] = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(answered).toMatchObject({
      method: 'POST',
      path: '/v1/messages',
      session: 'rep-1',
      sessionSource: 'header',
      turn: 1,
      status: 200,
      model: 'claude-sonnet-5-5',
      policy: 'scripted:structural',
      messages: 1,
      stream: false,
      action: 'tool_use:Read',
    });
    expect(missing).toMatchObject({
      path: '/v1/nothing',
      status: 404,
      action: 'error:not_found_error',
    });
  });

  it('never holds the API key, however the client sent it', async () => {
    const logFile = path.join(makeTempDir(), 'requests.jsonl');
    const server = await startModelServer({ policy: 'structural', logFile });
    try {
      await sdkClient(server.baseUrl, { apiKey: canary }).messages.create(body);
      await fetch(`${server.baseUrl}/v1/messages?beta=true`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${canary}`,
          'x-redgreen-session': `oops-${canary}`,
        },
        body: JSON.stringify({ ...body, stream: true }),
      }).then((response) => response.text());
      await fetch(`${server.baseUrl}/v1/messages/count_tokens`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': canary },
        body: '{not json',
      });
    } finally {
      await server.close();
    }
    const log = readFileSync(logFile, 'utf8');
    expect(log.trimEnd().split('\n')).toHaveLength(3);
    expect(log).not.toContain(canary);
    expect(log).not.toContain(canary.slice(7));
    expect(log).toContain('"session":"oops-[redacted]"');
  });

  it('has a scrubber that would catch the canary (planted negative for the guard itself)', () => {
    const secrets = credentialValues({ authorization: `Bearer ${canary}`, 'x-api-key': canary });
    expect(secrets).toContain(canary);
    const line = JSON.stringify({ note: `key ${canary} here` });
    expect(line).toContain(canary);
    expect(scrub(line, secrets)).not.toContain(canary);
    expect(scrub(line, [])).toContain(canary);
  });

  it('rejects a log path in a directory that does not exist', async () => {
    await expect(
      startModelServer({ policy: 'structural', logFile: '/nonexistent-dir/requests.jsonl' }),
    ).rejects.toThrow(/--log/);
  });
});
