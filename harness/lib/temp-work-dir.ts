/**
 * A temporary directory a command works in, removed when the work is done,
 * and also when the command is interrupted (SIGINT, SIGTERM): while any such
 * directory exists a handler removes them all, synchronously, and then lets
 * the signal take its usual effect. Without it a Ctrl-C during
 * `scenario lint` or `check --layout` left its directory in the temp dir.
 *
 * Before removing, the handler ends the detached children still running
 * (git building a fixture would otherwise write into a removed directory and
 * recreate it), removes the directories, and removes them once more a moment
 * later, for a child that finished one last write as it died.
 *
 * The directory is made synchronously, so no signal can arrive between its
 * creation and its registration. A command that handles the signals itself
 * (`run`) keeps its own handling: the signal is re-raised only when no other
 * listener is left.
 */
import { mkdtempSync, rmSync } from 'node:fs';
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

/** How long after the first removal the second one runs. */
const SECOND_PASS_MS = 50;

/** Block this thread for `ms` (no callback of the stopping command may run meanwhile). */
function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function onSignal(signal: NodeJS.Signals): void {
  const dirs = [...live];
  live.clear();
  killDetachedChildren();
  removeDirs(dirs);
  sleepSync(SECOND_PASS_MS);
  removeDirs(dirs);
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
  const dir = mkdtempSync(path.join(os.tmpdir(), prefix));
  live.add(dir);
  install();
  try {
    return await work(dir);
  } finally {
    live.delete(dir);
    if (live.size === 0) uninstall();
    await rm(dir, { recursive: true, force: true });
  }
}
