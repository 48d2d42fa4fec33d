/**
 * Ownership of the directories a sandbox writes in, when confined commands
 * run as an unprivileged host user (redgreen started by root): the fixture
 * copy and the session's TMPDIR are that user's, and so is every file the
 * engine itself writes there (its Write and Edit tools run as root), so the
 * session's commands can go on changing them. Symlinks are never followed,
 * at any depth: a symlink itself is re-owned, never its target.
 *
 * The walk is coreutils' `chown -R`, which moves through the tree by
 * directory descriptors: a confined command still running while it walks (a
 * background shell; a process the fallback's command left behind) may swap
 * a directory it owns for a symlink to a host directory, and a walk by path
 * names (lstat, then lchown of `dir/entry`) would then re-own the host's
 * file of that name (`/etc/shadow`) to the sandbox's user.
 */
import { execFile } from 'node:child_process';
import { lstat } from 'node:fs/promises';

export interface TreeOwner {
  readonly uid: number;
  readonly gid: number;
}

const CHOWN = '/bin/chown';

/** Give every entry under `dir` (and `dir` itself) to `owner`; entries it cannot change are left. */
export async function handOverTree(dir: string, owner: TreeOwner): Promise<void> {
  if ((await lstat(dir).catch(() => undefined)) === undefined) return;
  await new Promise<void>((resolve) => {
    // -P: no symlink traversed; -h: a symlink is re-owned itself. Errors leave that entry as it was.
    execFile(CHOWN, ['-R', '-P', '-h', `${owner.uid}:${owner.gid}`, '--', dir], () => resolve());
  });
}
