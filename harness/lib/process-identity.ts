/**
 * Which process a recorded pid meant: its pid, when it started (field 22 of
 * /proc/<pid>/stat, clock ticks since boot) and the boot that count runs
 * from. A pid is reused once its process is gone; a live process with the
 * recorded pid but another start time (or boot) is another process.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { processAlive } from './process-alive.js';

export const processIdentitySchema = z
  .object({
    pid: z.number().int().positive(),
    /** The process's start time in clock ticks since boot, null where unknown. */
    started: z.number().int().nonnegative().nullable(),
    /** The boot the start time counts from (/proc/sys/kernel/random/boot_id), null where unknown. */
    boot: z.string().nullable(),
  })
  .strict();
export type ProcessIdentity = z.infer<typeof processIdentitySchema>;

export function bootId(): string | null {
  try {
    return readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
  } catch {
    return null;
  }
}

/** Field 22 of /proc/<pid>/stat: when the process started; tells a reused pid apart. */
export function startTime(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const value = Number(fields[19]);
    return Number.isInteger(value) ? value : null;
  } catch {
    return null;
  }
}

/** This process, as a lock or an owner file records it. */
export function ownIdentity(): ProcessIdentity {
  return { pid: process.pid, started: startTime(process.pid), boot: bootId() };
}

/**
 * Whether the recorded process still runs: its pid is alive (a process of
 * another user counts) and, where the record says when it started, it is
 * the process of this boot that started then (after a reboot, or with
 * another start time, the pid is another process's). A record without a
 * start time cannot tell a reused pid: alive counts.
 */
export function identityAlive(identity: ProcessIdentity): boolean {
  if (!processAlive(identity.pid)) return false;
  if (identity.started === null || identity.boot === null) return true;
  const boot = bootId();
  if (boot !== null && boot !== identity.boot) return false;
  const now = startTime(identity.pid);
  return now === null || now === identity.started;
}
