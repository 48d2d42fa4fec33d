/**
 * The subagent trajectories an ATIF v1.4 file links to, read from disk so
 * that its seats can be read back (transcript-atif.ts): every
 * `subagent_trajectory_ref.trajectory_path` its observation results name,
 * resolved against the file's own directory (the current directory for
 * stdin). A path that cannot be read is left out; the reader then marks
 * that seat's calls unknown. Text that is not an ATIF document links to
 * nothing.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';

function parse(text: string): unknown {
  try {
    return JSON.parse(text.replace(/^\uFEFF/, '')) as unknown;
  } catch {
    return undefined;
  }
}

/** The trajectory_path of every subagent link in an ATIF document's steps, once each. */
export function linkedTrajectoryPaths(text: string): string[] {
  const document = parse(text);
  if (typeof document !== 'object' || document === null || !('schema_version' in document)) {
    return [];
  }
  const steps = (document as { steps?: unknown }).steps;
  const paths = new Set<string>();
  for (const step of Array.isArray(steps) ? steps : []) {
    const results = (step as { observation?: { results?: unknown } } | null)?.observation?.results;
    for (const result of Array.isArray(results) ? results : []) {
      const refs = (result as { subagent_trajectory_ref?: unknown } | null)
        ?.subagent_trajectory_ref;
      for (const ref of Array.isArray(refs) ? refs : []) {
        const file = (ref as { trajectory_path?: unknown } | null)?.trajectory_path;
        if (typeof file === 'string' && file !== '') paths.add(file);
      }
    }
  }
  return [...paths];
}

/** The linked trajectories' text by trajectory_path, for an ATIF file read from `file` (`-`: stdin). */
export async function readAtifSubTrajectories(
  text: string,
  file: string,
): Promise<Map<string, string>> {
  const base = file === '-' ? process.cwd() : path.dirname(path.resolve(file));
  const texts = new Map<string, string>();
  for (const linked of linkedTrajectoryPaths(text)) {
    try {
      texts.set(linked, await readFile(path.resolve(base, linked), 'utf8'));
    } catch {
      // Not readable: the reader reports the seat's calls as unknown.
    }
  }
  return texts;
}
