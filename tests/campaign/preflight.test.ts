/**
 * Before a live run dispatches any rep it sends one cheap request: a key the
 * endpoint refuses (the local model server answering 401) or an endpoint
 * that cannot be reached (a closed port) is a one-line error naming the
 * endpoint and the fix, exit 2, with nothing run or created. `doctor
 * --check` asks the same. The key never appears in any output.
 */
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type ModelServer, startModelServer } from '../../harness/model-server/index.js';
import { cleanEnv, runCli } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { defaultCampaign } from './support.js';

const CANARY = 'sk-ant-canary-preflight-0123456789-do-not-leak';

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A port nothing listens on: bound once by us, then closed. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port');
  return address.port;
}

async function refusedRun(baseUrl: string, expected: RegExp): Promise<void> {
  const base = makeTempDir();
  const tmp = path.join(base, 'tmp');
  mkdirSync(tmp);
  const out = path.join(base, 'out');
  const run = await runCli(['run', defaultCampaign, '--reps', '1', '--out', out], {
    env: cleanEnv({ ANTHROPIC_API_KEY: CANARY, ANTHROPIC_BASE_URL: baseUrl, TMPDIR: tmp }),
    timeoutMs: 120_000,
  });
  expect(run.exitCode, run.stderr).toBe(2);
  const lines = run.stderr.trim().split('\n');
  expect(lines, run.stderr).toHaveLength(1);
  expect(lines[0]).toContain(baseUrl);
  expect(lines[0]).toMatch(expected);
  expect(`${run.stdout}${run.stderr}`).not.toContain(CANARY);
  expect(readdirSync(base).sort()).toEqual(['tmp']);
  expect(readdirSync(tmp)).toEqual([]);
}

describe('the endpoint preflight', () => {
  it('a key the endpoint refuses (401): one line naming the endpoint and the key, exit 2, nothing run', async () => {
    const log = path.join(makeTempDir(), 'requests.jsonl');
    server = await startModelServer({
      policy: 'structural',
      faults: [{ kind: 'status', status: 401, times: '*' }],
      logFile: log,
    });
    await refusedRun(server.baseUrl, /ANTHROPIC_API_KEY: .*refused the key.*set a valid key/);
    await server.close();
    server = undefined;
    // Exactly the one preflight request reached the endpoint: no session was started.
    const requests = readFileSync(log, 'utf8').trim().split('\n');
    expect(requests).toHaveLength(1);
  });

  it('an endpoint nobody listens on: one line naming it, exit 2, nothing run', async () => {
    const port = await closedPort();
    await refusedRun(`http://127.0.0.1:${port}`, /ANTHROPIC_BASE_URL: cannot reach/);
  });

  it('doctor --check reports a refused key and an unreachable endpoint, and passes a working one', async () => {
    server = await startModelServer({
      policy: 'structural',
      faults: [{ kind: 'status', status: 401, times: '*' }],
    });
    const refused = await runCli(['doctor', '--check'], {
      env: cleanEnv({ ANTHROPIC_API_KEY: CANARY, ANTHROPIC_BASE_URL: server.baseUrl }),
    });
    expect(refused.exitCode).toBe(1);
    expect(refused.stdout).toMatch(/WARN\s+endpoint\s+ANTHROPIC_API_KEY: .*refused the key/);
    expect(`${refused.stdout}${refused.stderr}`).not.toContain(CANARY);

    const port = await closedPort();
    const unreachable = await runCli(['doctor', '--check'], {
      env: cleanEnv({ ANTHROPIC_API_KEY: CANARY, ANTHROPIC_BASE_URL: `http://127.0.0.1:${port}` }),
    });
    expect(unreachable.exitCode).toBe(1);
    expect(unreachable.stdout).toMatch(/WARN\s+endpoint\s+.*cannot reach/);

    await server.close();
    server = await startModelServer({ policy: 'structural' });
    const working = await runCli(['doctor', '--check', '--json'], {
      env: cleanEnv({ ANTHROPIC_API_KEY: CANARY, ANTHROPIC_BASE_URL: server.baseUrl }),
    });
    const checks = (
      JSON.parse(working.stdout) as { checks: { name: string; ok: boolean; detail: string }[] }
    ).checks;
    expect(checks.find((check) => check.name === 'endpoint')).toMatchObject({
      ok: true,
      detail: expect.stringContaining('accepted the key'),
    });
    expect(working.stdout).not.toContain(CANARY);
  });
});
