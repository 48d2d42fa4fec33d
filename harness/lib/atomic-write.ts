import { randomBytes } from 'node:crypto';
import { promises as fs } from 'node:fs';
import path from 'node:path';

/** A sibling temp path in the same directory, so the final rename is atomic. */
export function tempSiblingPath(target: string): string {
  const dir = path.dirname(target);
  const base = path.basename(target);
  return path.join(dir, `.${base}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
}

/**
 * Write a file so that readers see either the old content or the complete new
 * content, never a half-written file: write to a temp sibling, fsync, rename.
 */
export async function writeFileAtomic(target: string, data: string | Uint8Array): Promise<void> {
  const temp = tempSiblingPath(target);
  const handle = await fs.open(temp, 'wx');
  try {
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await fs.rename(temp, target);
  } catch (error) {
    // A full disk (say) leaves no temp file behind.
    await fs.rm(temp, { force: true });
    throw error;
  }
}

/**
 * Append one line with a single write on an O_APPEND descriptor, then fsync.
 * Concurrent appenders in one process never interleave within a line, and a
 * crash leaves at most a trailing partial line, which readers must ignore.
 */
export async function appendLineDurable(target: string, line: string): Promise<void> {
  if (line.includes('\n')) throw new Error('appendLineDurable: line must not contain a newline');
  const handle = await fs.open(target, 'a');
  try {
    await handle.write(`${line}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
}
