/**
 * Ownership of the directories a sandbox writes in, when bubblewrap runs as
 * an unprivileged host user (redgreen started by root): the fixture copy and
 * the session's TMPDIR are that user's, and so is every file the engine
 * itself writes there (its Write and Edit tools run as root), so the
 * session's commands can go on changing them. Symlinks are never followed:
 * a symlink itself is re-owned, never its target.
 */
import { lchown, lstat, readdir } from 'node:fs/promises';
import path from 'node:path';

export interface TreeOwner {
  readonly uid: number;
  readonly gid: number;
}

/** Give every entry under `dir` (and `dir` itself) to `owner`. */
export async function handOverTree(dir: string, owner: TreeOwner): Promise<void> {
  const stats = await lstat(dir).catch(() => undefined);
  if (stats === undefined) return;
  if (stats.uid !== owner.uid || stats.gid !== owner.gid)
    await lchown(dir, owner.uid, owner.gid).catch(() => undefined);
  if (!stats.isDirectory()) return;
  const entries = await readdir(dir).catch(() => [] as string[]);
  for (const entry of entries) await handOverTree(path.join(dir, entry), owner);
}

/**
 * Give `file` and every directory between it and `root` to `owner` (a file
 * the engine just wrote, and the directories it made for it). Nothing
 * outside `root` is touched; a path that leaves it is ignored.
 */
export async function handOverPath(root: string, file: string, owner: TreeOwner): Promise<void> {
  const relative = path.relative(root, path.resolve(root, file));
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return;
  let current = root;
  for (const part of relative.split(path.sep)) {
    current = path.join(current, part);
    const stats = await lstat(current).catch(() => undefined);
    if (stats === undefined) return;
    if (stats.uid !== owner.uid || stats.gid !== owner.gid)
      await lchown(current, owner.uid, owner.gid).catch(() => undefined);
    if (!stats.isDirectory()) return;
  }
}
