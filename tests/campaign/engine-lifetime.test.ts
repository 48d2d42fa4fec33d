/**
 * Engines die with the harness. Each engine runs in a process group of its
 * own (so a terminal's Ctrl-C reaches only redgreen), which meant a
 * redgreen killed with SIGKILL left its engines running: they finished
 * their sessions (paid ones, when live) against an endpoint that was still
 * there. With a parent-death signal the engine goes when redgreen goes, and
 * its sandboxed commands with it.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { type ModelServer, startModelServer } from '../../harness/model-server/index.js';
import { locateClaudeCodeBinary } from '../../harness/session/locate-engine.js';
import { cleanEnv, cliPath, repoRoot } from '../helpers/cli.js';
import { allProcesses, running } from '../helpers/process-tree.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { lockHolderPid, oneRepArgs } from './support.js';

async function waitFor(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`${what}: not reached in time`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const binary = locateClaudeCodeBinary();
if (binary === undefined) console.log('engine lifetime test skipped: the engine is not installed');

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe.skipIf(binary === undefined)('an engine whose redgreen was killed with SIGKILL', () => {
  it('dies with it, mid-session, though its endpoint is still up', async () => {
    // The endpoint outlives redgreen (it is this test's) and answers a session's second turn only
    // after a minute (its first, and the run's preflight request, at once).
    server = await startModelServer({
      policy: 'structural',
      faults: [{ kind: 'delay', minMs: 60_000, maxMs: 60_000, turn: 2 }],
    });
    const out = path.join(makeTempDir(), 'out');
    // Its own TMPDIR: its engines are the ones whose arguments name a fixture there.
    const tmp = makeTempDir('redgreen-lifetime-tmp-');
    const run = execa(
      process.execPath,
      [cliPath, 'run', ...oneRepArgs('2/4', out, ['--backend', 'claude-code'])],
      {
        cwd: repoRoot,
        env: cleanEnv({
          ANTHROPIC_API_KEY: 'sk-ant-lifetime-test-0123456789',
          ANTHROPIC_BASE_URL: server.baseUrl,
          TMPDIR: tmp,
        }),
        extendEnv: false,
        reject: false,
        detached: true,
      },
    );
    const engines = (): number[] =>
      allProcesses()
        .filter((info) => info.command.startsWith(binary ?? '') && info.command.includes(tmp))
        .map((info) => info.pid);
    await waitFor(
      () => existsSync(path.join(out, '.redgreen.lock')) && engines().length > 0,
      120_000,
      'an engine',
    );
    const started = engines();
    // Both processes of the run: the one doing the work (the engine's parent) and the launcher.
    const worker = lockHolderPid(out);
    process.kill(worker, 'SIGKILL');
    if (run.pid !== undefined) process.kill(-run.pid, 'SIGKILL');
    await run;
    await waitFor(() => started.every((pid) => !running(pid)), 15_000, 'the engines ending');
    expect(started.filter((pid) => running(pid))).toEqual([]);
  });
});
