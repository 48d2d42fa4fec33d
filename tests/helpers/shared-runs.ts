/**
 * Finished `redgreen run`s that several tests, in one file or in several, start
 * with the same arguments: each is run once per vitest worker (files of one
 * worker run one after another) into the run's shared directory
 * (tests/global-setup.ts). A test gets a fresh copy of the results directory,
 * to resume, damage, gate or read, and the run's own result to assert on as
 * if it had launched it.
 */
import { createHash } from 'node:crypto';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';
import { type CliResult, cleanEnv, runCli } from './cli.js';
import { makeTempDir } from './temp-dir.js';

declare module 'vitest' {
  export interface ProvidedContext {
    sharedRunsDir: string;
  }
}

export interface SharedRun {
  /** The copy this test owns. */
  readonly out: string;
  /** What `redgreen run` printed and exited with when the shared run was made. */
  readonly run: CliResult;
}

const building = new Map<string, Promise<{ pristine: string; run: CliResult }>>();

async function build(args: readonly string[]): Promise<{ pristine: string; run: CliResult }> {
  const key = createHash('sha256').update(JSON.stringify(args)).digest('hex').slice(0, 16);
  const worker = path.join(inject('sharedRunsDir'), `worker-${process.env.VITEST_POOL_ID ?? '0'}`);
  const home = path.join(worker, key);
  const pristine = path.join(home, 'out');
  const resultFile = path.join(home, 'result.json');
  if (existsSync(resultFile)) {
    return { pristine, run: JSON.parse(readFileSync(resultFile, 'utf8')) as CliResult };
  }
  // A file of this worker that stopped mid-build left a partial run: start it again.
  rmSync(home, { recursive: true, force: true });
  mkdirSync(home, { recursive: true });
  chmodSync(worker, 0o711);
  chmodSync(home, 0o711);
  const run = await runCli(['run', ...args, '--out', pristine], {
    env: cleanEnv(),
    timeoutMs: 240_000,
  });
  writeFileSync(resultFile, JSON.stringify(run));
  return { pristine, run };
}

/**
 * `redgreen run <args> --out <dir>` (offline, clean environment, as
 * runCampaignCli runs it), shared: a copy of its results directory in a temp
 * dir of the current test, named `name`.
 */
export async function sharedRun(args: readonly string[], name = 'out'): Promise<SharedRun> {
  const key = JSON.stringify(args);
  let made = building.get(key);
  if (made === undefined) {
    made = build(args);
    building.set(key, made);
  }
  const { pristine, run } = await made;
  const out = path.join(makeTempDir(), name);
  if (existsSync(pristine)) cpSync(pristine, out, { recursive: true });
  return { out, run };
}
