/**
 * Read a file a document points at (a linked trajectory, a subagent's log
 * beside a session log), which is untrusted input: only a regular file,
 * only inside `root` (after symlinks are resolved), at most `maxBytes`,
 * UTF-8 text. A FIFO, a device or a directory is refused without opening it
 * for a blocking read (a FIFO with no writer would hang the read forever),
 * and the file is opened non-blocking and checked again once open, so one
 * swapped in between cannot hang it either. Each refusal is a value: the
 * problem, worded to follow the file's name.
 */
import { constants } from 'node:fs';
import { open, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { err, ok, type Result } from './result.js';

/** Why a file was not read, worded to follow its name ("… is a FIFO, not a regular file"). */
export type RegularFileProblem = string;

function kindOf(stats: { isFIFO(): boolean; isDirectory(): boolean; isSocket(): boolean }): string {
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isDirectory()) return 'a directory';
  if (stats.isSocket()) return 'a socket';
  return 'a device';
}

/** Whether `inner` is `root` or inside it (both already resolved). */
export function isInside(root: string, inner: string): boolean {
  const relative = path.relative(root, inner);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** The text of `file`, a regular file inside `root`, of at most `maxBytes`. */
export async function readRegularFileInside(
  root: string,
  file: string,
  maxBytes: number,
): Promise<Result<string, RegularFileProblem>> {
  let realRoot: string;
  let real: string;
  try {
    realRoot = await realpath(root);
    real = await realpath(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return err(code === 'ENOENT' ? 'does not exist' : `cannot be read (${code ?? String(error)})`);
  }
  if (!isInside(realRoot, real)) {
    return err('resolves outside the directory of the file that names it');
  }
  const before = await stat(real).catch(() => undefined);
  if (before === undefined) return err('cannot be read');
  if (!before.isFile()) return err(`is ${kindOf(before)}, not a regular file`);
  if (before.size > maxBytes) return err(`is larger than ${mib(maxBytes)} (${before.size} bytes)`);
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(real, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    return err(`cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  try {
    const opened = await handle.stat();
    if (!opened.isFile()) return err(`is ${kindOf(opened)}, not a regular file`);
    if (opened.size > maxBytes) {
      return err(`is larger than ${mib(maxBytes)} (${opened.size} bytes)`);
    }
    const buffer = Buffer.alloc(Math.min(opened.size, maxBytes) + 1);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    if (bytesRead > maxBytes) return err(`is larger than ${mib(maxBytes)}`);
    const bytes = buffer.subarray(0, bytesRead);
    if (bytes.includes(0)) return err('is not text (it holds NUL bytes)');
    try {
      return ok(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    } catch {
      return err('is not text (not valid UTF-8)');
    }
  } catch (error) {
    return err(`cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  } finally {
    await handle.close();
  }
}

function mib(bytes: number): string {
  return `${Math.round(bytes / (1024 * 1024))} MiB`;
}
