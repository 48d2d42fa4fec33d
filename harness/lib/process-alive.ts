import { readFileSync } from 'node:fs';

/**
 * Whether a process runs: it exists (a process of another user counts) and
 * has not ended. A process that ended but was never reaped (a zombie, as a
 * killed run whose parent died too stays where nothing reaps orphans) is
 * gone for every purpose here: it holds no lock and owns no work dir.
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  return !ended(pid);
}

/** /proc's word that the process has ended and waits only to be reaped; false where /proc cannot tell. */
function ended(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
    return state === 'Z' || state === 'X';
  } catch {
    return false;
  }
}
