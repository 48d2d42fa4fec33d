/**
 * A temporary directory a command works in, removed when the work is done,
 * and also when the command is interrupted (SIGINT, SIGTERM): while any such
 * directory exists a handler removes them all, synchronously, and then lets
 * the signal take its usual effect. Without it a Ctrl-C during
 * `scenario lint` or `check --layout` left its directory in the temp dir.
 *
 * Before removing, the handler ends the detached children still running
 * (git building a fixture would otherwise write into a removed directory and
 * recreate it), then removes the directories until they stay removed (see
 * removeUntilGone), at most about two seconds.
 *
 * The handlers are installed before the directory is made (a signal with no
 * listener ends the process at once), and the directory is made
 * synchronously, so no signal is handled between its creation and its
 * registration. A command that handles the signals itself
 * (`run`) keeps its own handling: the signal is re-raised only when no other
 * listener is left.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { killDetachedChildren } from './live-children.js';

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;
const live = new Set<string>();

function removeDirs(dirs: readonly string[]): void {
  for (const dir of dirs) {
    try {
      rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
    } catch {
      // Best effort: the process is stopping.
    }
  }
}

/** How often, and at most how long, the handler checks that the directories stay removed. */
const RECHECK_MS = 25;
const STAY_GONE_CHECKS = 4;
const GIVE_UP_MS = 2_000;

/** Block this thread for `ms` (no callback of the stopping command may run meanwhile). */
function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Remove `dirs` until they stay removed: file operations the command had
 * already handed to libuv's thread pool (a recursive mkdir under the work
 * dir, say) finish on their own threads even while this one is blocked and
 * can recreate a path after the first removal. No new one can start: this
 * thread does not return to the event loop before the process ends.
 */
function removeUntilGone(dirs: readonly string[]): void {
  let quiet = 0;
  for (let waited = 0; quiet < STAY_GONE_CHECKS && waited < GIVE_UP_MS; waited += RECHECK_MS) {
    const left = dirs.filter((dir) => existsSync(dir));
    if (left.length === 0) quiet += 1;
    else {
      quiet = 0;
      removeDirs(left);
    }
    sleepSync(RECHECK_MS);
  }
}

function onSignal(signal: NodeJS.Signals): void {
  const dirs = [...live];
  live.clear();
  killDetachedChildren();
  removeDirs(dirs);
  removeUntilGone(dirs);
  uninstall();
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
}

let installed = false;
function install(): void {
  if (installed) return;
  installed = true;
  for (const signal of SIGNALS) process.on(signal, onSignal);
}
function uninstall(): void {
  if (!installed) return;
  installed = false;
  for (const signal of SIGNALS) process.off(signal, onSignal);
}

/** Run `work` in a new directory under the system temp dir named `<prefix>XXXXXX`; it is always removed. */
export async function withTempWorkDir<T>(
  prefix: string,
  work: (dir: string) => Promise<T>,
): Promise<T> {
  // The handlers first: until a process listens for a signal, the signal's default action
  // ends it at once, and the directory would be left behind.
  install();
  let dir: string;
  try {
    dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  } catch (error) {
    if (live.size === 0) uninstall();
    throw error;
  }
  live.add(dir);
  try {
    return await work(dir);
  } finally {
    live.delete(dir);
    if (live.size === 0) uninstall();
    await rm(dir, { recursive: true, force: true });
  }
}
