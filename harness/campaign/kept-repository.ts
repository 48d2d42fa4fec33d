/**
 * A work dir kept with `--keep-workdirs` is for a person to look into, with
 * git. But the session wrote its repository: its `.git/config` may name a
 * `core.fsmonitor`, filters, a pager or includes, its `.git/hooks` may hold
 * hooks, its `.git` may be a file pointing elsewhere, and a repository it
 * made inside the work tree has a config of its own; plain `git status`
 * would run all of that, as the person, unconfined. So before the dir is
 * left, every such config and hooks directory is set aside under a name git
 * does not read (`config.from-session`, `hooks.from-session`, a `.git` file
 * as `.git.from-session`), and the repository gets back the config its
 * fixture was built with. Nothing is deleted: what the session wrote stays
 * there to read.
 */
import { copyFile, lstat, rename } from 'node:fs/promises';
import path from 'node:path';

export const SET_ASIDE = '.from-session';

async function setAside(file: string): Promise<boolean> {
  if ((await lstat(file).catch(() => undefined)) === undefined) return false;
  await rename(file, `${file}${SET_ASIDE}`);
  return true;
}

/**
 * Neutralise the repository at `repoDir` (and those nested in it, `nested`
 * naming their `.git` directories relative to it): returns what was set
 * aside, repo-relative. `pristineConfig` is the fixture's own `.git/config`.
 */
export async function neutraliseKeptRepository(
  repoDir: string,
  pristineConfig: string,
  nested: readonly string[],
): Promise<string[]> {
  const moved: string[] = [];
  const top = path.join(repoDir, '.git');
  const topStats = await lstat(top).catch(() => undefined);
  if (topStats !== undefined && !topStats.isDirectory()) {
    // A `.git` file (or link) would send git to a repository outside the work dir.
    await rename(top, `${top}${SET_ASIDE}`);
    moved.push(`.git${SET_ASIDE}`);
  } else if (topStats !== undefined) {
    if (await setAside(path.join(top, 'config'))) moved.push(`.git/config${SET_ASIDE}`);
    await copyFile(pristineConfig, path.join(top, 'config'));
    if (await setAside(path.join(top, 'hooks'))) moved.push(`.git/hooks${SET_ASIDE}`);
  }
  for (const gitDir of nested) {
    for (const name of ['config', 'hooks']) {
      const file = path.join(repoDir, gitDir, name);
      if (await setAside(file)) moved.push(`${gitDir}/${name}${SET_ASIDE}`);
    }
  }
  return moved;
}
