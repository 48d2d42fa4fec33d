/**
 * Finished `redgreen run`s that several tests, in one file or in several, start
 * with the same arguments: each is run ONCE PER VITEST RUN into the run's
 * shared directory (tests/global-setup.ts). The first worker to want a run
 * takes its lock file and builds it; a worker that wants it meanwhile waits for
 * the result instead of building it again. A test gets a fresh copy of the
 * results directory, to resume, damage, gate or read, and the run's own result
 * to assert on as if it had launched it.
 */
import { createHash, randomUUID } from 'node:crypto';
import {
  chmodSync,
  closeSync,
  cpSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  unlinkSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
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

interface Built {
  /** The results directory as the run left it; never written to after. */
  readonly pristine: string;
  readonly run: CliResult;
}

/** The longest a worker waits for another worker's build (runCli's own limit is 240 s). */
const WAIT_LIMIT_MS = 300_000;

const building = new Map<string, Promise<Built>>();

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readIfPresent(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** Takes the lock file (its content: the owner's pid); false when another process holds it. */
function takeLock(lock: string): boolean {
  let fd: number;
  try {
    fd = openSync(lock, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  writeSync(fd, String(process.pid));
  closeSync(fd);
  return true;
}

/** A lock whose owner died (its file ended mid-build) is removed, so a waiter can take over. */
function clearStaleLock(lock: string): void {
  const owner = readIfPresent(lock);
  if (owner === undefined || owner === '') return;
  if (alive(Number(owner))) return;
  if (readIfPresent(lock) === owner) {
    try {
      unlinkSync(lock);
    } catch {
      // another waiter removed it first
    }
  }
}

async function buildLocked(args: readonly string[], home: string): Promise<Built> {
  // Each build has its own directory, so a build by a worker that took over
  // from a dead one never shares files with it; result.json, written whole by
  // a rename, names the finished one.
  const dir = path.join(home, `build-${process.pid}-${randomUUID().slice(0, 8)}`);
  mkdirSync(dir);
  chmodSync(dir, 0o711);
  const pristine = path.join(dir, 'out');
  const run = await runCli(['run', ...args, '--out', pristine], {
    env: cleanEnv(),
    timeoutMs: 240_000,
  });
  const built: Built = { pristine, run };
  const partial = path.join(dir, 'result.json.partial');
  writeFileSync(partial, JSON.stringify(built));
  renameSync(partial, path.join(home, 'result.json'));
  return built;
}

async function build(args: readonly string[]): Promise<Built> {
  const key = createHash('sha256').update(JSON.stringify(args)).digest('hex').slice(0, 16);
  const home = path.join(inject('sharedRunsDir'), key);
  mkdirSync(home, { recursive: true });
  chmodSync(home, 0o711);
  const resultFile = path.join(home, 'result.json');
  const lock = path.join(home, 'lock');
  const started = Date.now();
  for (;;) {
    const done = readIfPresent(resultFile);
    if (done !== undefined) return JSON.parse(done) as Built;
    if (takeLock(lock)) {
      try {
        // The owner before us may have finished between our read and our lock.
        const late = readIfPresent(resultFile);
        if (late !== undefined) return JSON.parse(late) as Built;
        return await buildLocked(args, home);
      } finally {
        unlinkSync(lock);
      }
    }
    clearStaleLock(lock);
    if (Date.now() - started > WAIT_LIMIT_MS) {
      throw new Error(`shared run ${JSON.stringify(args)}: still locked by ${lock} after 300 s`);
    }
    await sleep(250);
  }
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
