import { chmod, lstat, readdir, rm } from 'node:fs/promises';
import path from 'node:path';

/** Give the owner full access to every directory under `dir` (symlinks are not followed). */
export async function openDirectoriesToOwner(dir: string): Promise<void> {
  let stats: Awaited<ReturnType<typeof lstat>>;
  try {
    stats = await lstat(dir);
  } catch {
    return;
  }
  if (!stats.isDirectory()) return;
  if ((stats.mode & 0o700) !== 0o700) await chmod(dir, stats.mode | 0o700).catch(() => undefined);
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  for (const entry of entries) {
    if (entry.isDirectory()) await openDirectoriesToOwner(path.join(dir, entry.name));
  }
}

/** Let everyone read every file and enter every directory under `dir` (symlinks are not followed). */
export async function openToReaders(dir: string): Promise<void> {
  const stats = await lstat(dir).catch(() => undefined);
  if (stats === undefined || stats.isSymbolicLink()) return;
  const wanted = stats.mode | (stats.isDirectory() ? 0o555 : 0o444);
  if (wanted !== stats.mode) await chmod(dir, wanted & 0o7777).catch(() => undefined);
  if (!stats.isDirectory()) return;
  const entries = await readdir(dir).catch(() => [] as string[]);
  for (const entry of entries) await openToReaders(path.join(dir, entry));
}

/**
 * Remove a directory tree that may hold read-only directories (the skill
 * copies redgreen makes for sessions). Root ignores file modes; any other
 * owner cannot delete entries of a directory without write permission, so
 * on a permission error the tree's directories are opened to their owner
 * first. A missing tree is not an error.
 */
export async function removeTree(target: string): Promise<void> {
  try {
    await rm(target, { recursive: true, force: true });
    return;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'EACCES' && code !== 'EPERM') throw error;
  }
  await openDirectoriesToOwner(target);
  await rm(target, { recursive: true, force: true });
}
