/**
 * A directory tree taken as data from input nobody vouches for (a results
 * directory's rep, the skill copy a run kept): only directories and regular
 * files. A symlink would hand its target to every later reader, a FIFO would
 * block one forever.
 */
import { constants } from 'node:fs';
import { copyFile, mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';

export interface IrregularEntry {
  readonly file: string;
  /** What it is, for a message: "a symlink". */
  readonly kind: string;
}

/** The first entry under `dir` that is neither a directory nor a regular file, if any. */
export async function irregularEntryIn(dir: string): Promise<IrregularEntry | undefined> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      const inner = await irregularEntryIn(file);
      if (inner !== undefined) return inner;
    } else if (!entry.isFile()) {
      return { file, kind: entry.isSymbolicLink() ? 'a symlink' : 'not a regular file' };
    }
  }
  return undefined;
}

/**
 * Copy a tree's directories and regular files (anything else is skipped:
 * check it with irregularEntryIn first); an existing file is never replaced.
 */
export async function copyDataTree(from: string, to: string): Promise<void> {
  await mkdir(to, { recursive: true });
  for (const entry of await readdir(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isDirectory()) await copyDataTree(source, target);
    else if (entry.isFile()) await copyFile(source, target, constants.COPYFILE_EXCL);
  }
}
