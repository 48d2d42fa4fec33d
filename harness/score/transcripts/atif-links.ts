/**
 * The subagent trajectories an ATIF file links to, read from disk so that
 * its seats can be read back (atif.ts): every
 * `subagent_trajectory_ref.trajectory_path` its observation results name.
 * A linked file is untrusted input, so it is read only when the path is
 * relative, resolves inside the ATIF file's own directory (the current
 * directory for stdin), is a regular file (a FIFO would hang the read) and
 * is at most LINKED_MAX_BYTES; otherwise it is left unread with the reason,
 * which the reader reports as that seat's calls being unknown.
 */
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { readRegularFileInside } from '../../lib/regular-file.js';
import { type LinkedFile, recordOf } from './format-reader.js';

/** The largest linked trajectory read: a subagent's trajectory is a fraction of a session's. */
export const LINKED_MAX_BYTES = 64 * 1024 * 1024;

/** The trajectory_path of every subagent link in an ATIF document's steps, once each. */
export function linkedTrajectoryPaths(document: unknown): string[] {
  const steps = recordOf(document)?.steps;
  const paths = new Set<string>();
  for (const step of Array.isArray(steps) ? steps : []) {
    const results = recordOf(recordOf(step)?.observation)?.results;
    for (const result of Array.isArray(results) ? results : []) {
      const refs = recordOf(result)?.subagent_trajectory_ref;
      for (const ref of Array.isArray(refs) ? refs : []) {
        const file = recordOf(ref)?.trajectory_path;
        if (typeof file === 'string' && file !== '') paths.add(file);
      }
    }
  }
  return [...paths];
}

/** The most a document's linked trajectories are read, together. */
export const LINKED_TOTAL_BYTES = 256 * 1024 * 1024;

/**
 * Each linked trajectory of an ATIF document read from `file` (`-`: stdin),
 * by its trajectory_path. A file two links name (spelled two ways) is read
 * for the first only: the others are refused, as one trajectory cannot be
 * two subagents. Past LINKED_TOTAL_BYTES in all, further links are refused.
 */
export async function readLinkedTrajectories(
  document: unknown,
  file: string,
): Promise<Map<string, LinkedFile>> {
  const base = file === '-' ? process.cwd() : path.dirname(path.resolve(file));
  const linked = new Map<string, LinkedFile>();
  const readAs = new Map<string, string>();
  let total = 0;
  for (const link of linkedTrajectoryPaths(document)) {
    if (path.isAbsolute(link)) {
      linked.set(link, {
        problem: "is an absolute path; a link is read only relative to the transcript's directory",
      });
      continue;
    }
    const target = path.resolve(base, link);
    const real = await realpath(target).catch(() => target);
    const first = readAs.get(real);
    if (first !== undefined) {
      linked.set(link, {
        problem: `is the file linked trajectory ${first} names; one trajectory is not two subagents`,
      });
      continue;
    }
    readAs.set(real, link);
    const size = (await stat(real).catch(() => undefined))?.size ?? 0;
    if (total + size > LINKED_TOTAL_BYTES) {
      linked.set(link, {
        problem: `would take the linked trajectories read past ${LINKED_TOTAL_BYTES / 1024 / 1024} MiB in all`,
      });
      continue;
    }
    const read = await readRegularFileInside(base, target, LINKED_MAX_BYTES);
    if (read.ok) total += Buffer.byteLength(read.value);
    linked.set(link, read.ok ? { text: read.value } : { problem: read.error });
  }
  return linked;
}
