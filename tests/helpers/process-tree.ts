import { readdirSync, readFileSync } from 'node:fs';

/**
 * The processes of this machine as /proc shows them (Linux), for tests that
 * check who is in which process group and session: a terminal signals its
 * foreground process group, so that is where a process must not be to be
 * safe from a Ctrl-C.
 */
export interface ProcessInfo {
  readonly pid: number;
  readonly ppid: number;
  /** Process group. */
  readonly pgrp: number;
  readonly session: number;
  /** The foreground process group of the process's controlling terminal (-1 without one). */
  readonly tpgid: number;
  /** R running, S sleeping, Z ended but not yet reaped, ... */
  readonly state: string;
  readonly command: string;
}

function readProcess(pid: number): ProcessInfo | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
    return {
      pid,
      state: fields[0] ?? '',
      ppid: Number(fields[1]),
      pgrp: Number(fields[2]),
      session: Number(fields[3]),
      tpgid: Number(fields[5]),
      command,
    };
  } catch {
    return undefined; // gone between the listing and the read
  }
}

/** One process, or undefined when it is gone. */
export function processInfo(pid: number): ProcessInfo | undefined {
  return readProcess(pid);
}

/** Whether a process still runs: not gone, and not ended awaiting a reaper (a zombie). */
export function running(pid: number): boolean {
  const info = readProcess(pid);
  return info !== undefined && info.state !== 'Z' && info.state !== 'X';
}

/** Every process of this machine (that this user can see). */
export function allProcesses(): ProcessInfo[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .map((entry) => readProcess(Number(entry)))
    .filter((info): info is ProcessInfo => info !== undefined);
}

/** Every process below `root` (not `root` itself), parents before children. */
export function descendants(root: number): ProcessInfo[] {
  const all = allProcesses();
  const found: ProcessInfo[] = [];
  const frontier = [root];
  while (frontier.length > 0) {
    const parent = frontier.shift() as number;
    for (const info of all) {
      if (info.ppid === parent) {
        found.push(info);
        frontier.push(info.pid);
      }
    }
  }
  return found;
}
