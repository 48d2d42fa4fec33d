/**
 * Reading a file that must lie inside a directory, from input nobody vouches
 * for (a results directory, a recipe's content files): the path stays inside
 * the directory, no component of it is a symlink (none is followed), and
 * only a regular file is read (a FIFO would block the reader forever, a
 * device would never end). Opening never blocks: O_NONBLOCK, and the file
 * type is checked on the open descriptor before anything is read.
 */
import { closeSync, constants, fstatSync, lstatSync, openSync, readSync } from 'node:fs';
import { lstat, open } from 'node:fs/promises';
import path from 'node:path';

export type ContainedRead =
  | { readonly ok: true; readonly bytes: Buffer }
  | {
      readonly ok: false;
      /** What is wrong, for a message: "is a symlink (not followed)". */
      readonly problem: string;
      /** True when the file (or a directory on its way) does not exist. */
      readonly absent: boolean;
    };

const OPEN_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;

function refused(problem: string, absent = false): ContainedRead {
  return { ok: false, problem, absent };
}

/** The path's components under `root`, or a problem when it would leave `root`. */
function components(relative: string): string[] | string {
  if (relative === '' || path.isAbsolute(relative)) return `${relative} is not a relative path`;
  const parts = relative.split(/[/\\]+/).filter((part) => part !== '' && part !== '.');
  if (parts.length === 0 || parts.includes('..')) return `${relative} leaves its directory`;
  return parts;
}

function kindOf(stats: { isSymbolicLink(): boolean; isDirectory(): boolean }): string {
  if (stats.isSymbolicLink()) return 'a symlink (not followed)';
  if (stats.isDirectory()) return 'a directory';
  return 'not a regular file (a pipe, socket or device)';
}

/** Why `relative` is not a real directory inside `root` (no component a symlink), or undefined. */
export async function containedDirectoryProblem(
  root: string,
  relative: string,
): Promise<{ readonly problem: string; readonly absent: boolean } | undefined> {
  const parts = components(relative);
  if (typeof parts === 'string') return { problem: parts, absent: false };
  let current = root;
  for (const part of parts) {
    current = path.join(current, part);
    const stats = await lstat(current).catch(() => undefined);
    if (stats === undefined) return { problem: `${current} does not exist`, absent: true };
    if (!stats.isDirectory())
      return { problem: `${current} is ${kindOf(stats)}, not a directory`, absent: false };
  }
  return undefined;
}

function parentProblemSync(root: string, parts: readonly string[]): ContainedRead | undefined {
  let current = root;
  for (const part of parts.slice(0, -1)) {
    current = path.join(current, part);
    let stats: ReturnType<typeof lstatSync>;
    try {
      stats = lstatSync(current);
    } catch {
      return refused(`${current} does not exist`, true);
    }
    if (!stats.isDirectory()) return refused(`${current} is ${kindOf(stats)}, not a directory`);
  }
  return undefined;
}

/** Read `root/relative` as described above (synchronously), at most `maxBytes`. */
export function readContainedSync(
  root: string,
  relative: string,
  maxBytes = Number.MAX_SAFE_INTEGER,
): ContainedRead {
  const parts = components(relative);
  if (typeof parts === 'string') return refused(parts);
  const parent = parentProblemSync(root, parts);
  if (parent !== undefined) return parent;
  const file = path.join(root, ...parts);
  let fd: number;
  try {
    fd = openSync(file, OPEN_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return refused(`${file} does not exist`, true);
    if (code === 'ELOOP') return refused(`${file} is a symlink (not followed)`);
    return refused(`${file} cannot be read (${code ?? String(error)})`);
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return refused(`${file} is ${kindOf(stats)}`);
    if (stats.size > maxBytes) return refused(`${file} is larger than ${maxBytes} bytes`);
    const bytes = Buffer.alloc(stats.size);
    let read = 0;
    while (read < bytes.length) {
      const got = readSync(fd, bytes, read, bytes.length - read, read);
      if (got === 0) break;
      read += got;
    }
    return { ok: true, bytes: bytes.subarray(0, read) };
  } finally {
    closeSync(fd);
  }
}

/** A file refused by `readRegularFile`; `code` is ENOENT when it does not exist. */
export class IrregularFileError extends Error {
  constructor(
    message: string,
    readonly code: 'ENOENT' | 'ELOOP' | 'ENOTREG' | 'EUNREADABLE',
  ) {
    super(message);
  }
}

/**
 * Read a file only when it is a regular file: a symlink at its name is not
 * followed, a FIFO or device is refused without blocking. Throws an
 * IrregularFileError (code ENOENT when the file does not exist).
 */
export async function readRegularFile(
  file: string,
  maxBytes = Number.MAX_SAFE_INTEGER,
): Promise<Buffer> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(file, OPEN_FLAGS);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new IrregularFileError(`${file} does not exist`, 'ENOENT');
    if (code === 'ELOOP')
      throw new IrregularFileError(`${file} is a symlink (not followed)`, 'ELOOP');
    throw new IrregularFileError(
      `${file} cannot be read (${code ?? String(error)})`,
      'EUNREADABLE',
    );
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) throw new IrregularFileError(`${file} is ${kindOf(stats)}`, 'ENOTREG');
    if (stats.size > maxBytes)
      throw new IrregularFileError(`${file} is larger than ${maxBytes} bytes`, 'EUNREADABLE');
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/** `readRegularFile` as UTF-8 text. */
export async function readRegularText(file: string): Promise<string> {
  return (await readRegularFile(file)).toString('utf8');
}
