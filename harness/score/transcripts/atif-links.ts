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

/** Each linked trajectory of an ATIF document read from `file` (`-`: stdin), by its trajectory_path. */
export async function readLinkedTrajectories(
  document: unknown,
  file: string,
): Promise<Map<string, LinkedFile>> {
  const base = file === '-' ? process.cwd() : path.dirname(path.resolve(file));
  const linked = new Map<string, LinkedFile>();
  for (const link of linkedTrajectoryPaths(document)) {
    if (path.isAbsolute(link)) {
      linked.set(link, {
        problem: "is an absolute path; a link is read only relative to the transcript's directory",
      });
      continue;
    }
    const read = await readRegularFileInside(base, path.resolve(base, link), LINKED_MAX_BYTES);
    linked.set(link, read.ok ? { text: read.value } : { problem: read.error });
  }
  return linked;
}
