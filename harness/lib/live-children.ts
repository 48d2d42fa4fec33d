/**
 * The detached children (each the leader of its own process group) this
 * process has running, so a command stopping on a signal can end them before
 * it cleans up after them. A detached child does not get the terminal's
 * Ctrl-C and outlives its parent; left running, a git command could write
 * into a work directory after the interrupted command removed it.
 */
import type { ChildProcess } from 'node:child_process';

const live = new Set<number>();

/** Remember `child` until it exits. */
export function trackDetachedChild(child: ChildProcess): void {
  const pid = child.pid;
  if (pid === undefined) return;
  live.add(pid);
  child.once('exit', () => live.delete(pid));
}

/** SIGKILL every tracked child's process group (it is gone, or going, when this returns). */
export function killDetachedChildren(): void {
  for (const pid of live) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
  live.clear();
}
