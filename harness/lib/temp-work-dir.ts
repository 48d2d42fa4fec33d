/**
 * A temporary directory a command works in, removed when the work is done,
 * and also when the command is interrupted (SIGINT, SIGTERM): while any such
 * directory exists a handler removes them all, synchronously, and then lets
 * the signal take its usual effect. Without it a Ctrl-C during
 * `scenario lint` or `check --layout` left its directory in the temp dir.
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

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;
const live = new Set<string>();

function removeAll(): void {
  for (const dir of live) {
    try {
      rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
    } catch {
      // Best effort: the process is stopping.
    }
  }
  live.clear();
}

function onSignal(signal: NodeJS.Signals): void {
  removeAll();
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
