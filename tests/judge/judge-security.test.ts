/**
 * A live judge (a canary key, a real model id) against redgreen's local model
 * server behind a recording proxy: the key reaches the configured endpoint
 * only, and no file, transcript or output; a live judge is never sent the
 * checks' outcomes; its cost is priced and counted with the sessions' toward
 * --max-cost; `judge --max-cost` stops starting judgements once reached.
 */

import { readFileSync } from 'node:fs';
import http, { type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type ModelServer, startModelServer } from '../../harness/model-server/index.js';
import {
  filesUnder,
  readJson,
  repLines,
  runCampaignCli,
  writeCampaign,
} from '../campaign/support.js';
import { cleanEnv, runCli } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';

const CANARY = 'sk-ant-canary-judge-0123456789abcdef-do-not-leak';

interface Seen {
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** A proxy in front of the model server that records every request it forwards. */
async function recordingProxy(
  target: ModelServer,
): Promise<{ url: string; seen: Seen[]; close(): Promise<void> }> {
  const seen: Seen[] = [];
  const upstream = new URL(target.baseUrl);
  const proxy = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      seen.push({ url: request.url ?? '', headers: request.headers, body: body.toString('utf8') });
      const forward = http.request(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: request.method,
          path: request.url,
          headers: request.headers,
        },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        },
      );
      forward.end(body);
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        proxy.closeAllConnections();
        proxy.close(() => resolve());
      }),
  };
}

let server: ModelServer | undefined;
let proxy: Awaited<ReturnType<typeof recordingProxy>> | undefined;
afterEach(async () => {
  await proxy?.close();
  await server?.close();
  proxy = undefined;
  server = undefined;
});

const isJudgeRequest = (entry: Seen): boolean => entry.body.includes('"record_judgement"');

describe('a live judge and the API key', () => {
  it('run --judge: the key goes to the endpoint only, the checks never do, and judging is priced into the run’s cost', async () => {
    server = await startModelServer({ policy: 'structural' });
    proxy = await recordingProxy(server);
    const out = path.join(makeTempDir(), 'out');
    const run = await runCampaignCli(
      [
        writeCampaign({ reps: 1, backend: 'messages', gates: [] }),
        '--judge',
        '--concurrency',
        '1',
        '--json',
        '--out',
        out,
      ],
      { ANTHROPIC_API_KEY: CANARY, ANTHROPIC_BASE_URL: proxy.url },
    );
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr).toContain('live run with claude-sonnet-5-5');

    const judged = proxy.seen.filter(isJudgeRequest);
    expect(judged).toHaveLength(4);
    for (const entry of proxy.seen) {
      // The SDK sends the key as x-api-key or as a bearer token, to the configured endpoint.
      const carried =
        entry.headers['x-api-key'] ?? entry.headers.authorization?.replace(/^Bearer /, '');
      expect(carried, entry.url).toBe(CANARY);
    }
    for (const entry of judged) {
      expect(entry.headers['x-redgreen-judge-checks']).toBeUndefined();
      expect(JSON.parse(entry.body).model).toBe('claude-sonnet-5-5');
      expect(entry.body.includes(CANARY)).toBe(false);
    }

    for (const file of filesUnder(out)) {
      expect(readFileSync(file, 'utf8').includes(CANARY), file).toBe(false);
    }
    expect(`${run.stdout}${run.stderr}`.includes(CANARY)).toBe(false);

    let sessions = 0;
    let judging = 0;
    for (const line of repLines(out)) {
      const meta = readJson<{ costUsd: number }>(path.join(out, line.dir ?? '', 'meta.json'));
      const judgement = readJson<{
        costUsd: number | null;
        model: { scripted: boolean };
        items: { verdict: string }[];
      }>(path.join(out, line.dir ?? '', 'judge.json'));
      expect(judgement.model.scripted).toBe(false);
      // Without redgreen's header the server's judge cannot see the checks: unsure throughout.
      expect(judgement.items.every((item) => item.verdict === 'unsure')).toBe(true);
      expect(judgement.costUsd).toBeGreaterThan(0);
      sessions += meta.costUsd;
      judging += judgement.costUsd ?? 0;
    }
    const events = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; costUsd?: number | null });
    expect(events.filter((event) => event.type === 'rep-judged')).toHaveLength(4);
    const end = events.find((event) => event.type === 'run-end');
    expect(judging).toBeGreaterThan(0);
    expect(end?.costUsd).toBeCloseTo(sessions + judging, 10);
  });

  it('judge --max-cost: starts no judgement once the priced cost reaches the cap, and says so (exit 1)', async () => {
    server = await startModelServer({ policy: 'structural' });
    const out = path.join(makeTempDir(), 'out');
    const env = { ANTHROPIC_API_KEY: CANARY, ANTHROPIC_BASE_URL: server.baseUrl };
    const run = await runCampaignCli(
      [writeCampaign({ reps: 1, backend: 'messages', gates: [] }), '--out', out, '--quiet'],
      env,
    );
    expect(run.exitCode, run.stderr).toBe(0);
    const judged = await runCli(['judge', out, '--max-cost', '0.000001', '--concurrency', '1'], {
      env: cleanEnv(env),
    });
    expect(judged.exitCode, judged.stderr).toBe(1);
    expect(judged.stdout).toMatch(
      /judged 1 rep\(s\) with claude-sonnet-5-5; 0 already current; cost \$0\.\d{4}/,
    );
    expect(judged.stderr).toContain('--max-cost reached; 3 rep(s) not judged');
    for (const file of filesUnder(out)) {
      expect(readFileSync(file, 'utf8').includes(CANARY), file).toBe(false);
    }
  });
});

describe('a live judge that cannot be reached', () => {
  it('is bad input before any judgement is asked: judge exits 2 naming the key, and writes nothing', async () => {
    const out = path.join(makeTempDir(), 'out');
    const offline = await runCampaignCli([
      writeCampaign({ reps: 1, backend: 'messages', gates: [] }),
      '--out',
      out,
      '--quiet',
      '--only',
      'scenario=s2,arm=red',
    ]);
    expect(offline.exitCode, offline.stderr).toBe(0);
    server = await startModelServer({
      policy: 'structural',
      faults: [{ kind: 'status', status: 401, times: '*' }],
    });
    const refused = await runCli(['judge', out, '--model', 'claude-sonnet-5-5'], {
      env: cleanEnv({ ANTHROPIC_API_KEY: CANARY, ANTHROPIC_BASE_URL: server.baseUrl }),
    });
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr).toContain('ANTHROPIC_API_KEY:');
    expect(refused.stderr).toContain('refused the key');
    expect(refused.stderr.includes(CANARY)).toBe(false);
    expect(filesUnder(out).some((file) => file.endsWith('judge.json'))).toBe(false);
  });
});
