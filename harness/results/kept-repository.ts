/**
 * A work dir kept with `--keep-workdirs` is for a person to look into, with
 * git. But the session wrote its repository: its `.git/config` may name a
 * `core.fsmonitor`, filters, a pager or includes, its `.git/hooks` may hold
 * hooks, its `.git` may be a file pointing elsewhere, and a repository it
 * made inside the work tree has a config of its own; a `.git/commondir`
 * sends git to another directory's config and hooks, and a `.git` file
 * inside the work tree (a submodule's, which `git status` recurses into) to
 * a git dir of any name; plain `git status` would run all of that, as the
 * person, unconfined. So before the dir is left, every such config, hooks
 * directory and commondir is set aside under a name git does not read
 * (`config.from-session`, `hooks.from-session`, `commondir.from-session`),
 * every `.git` that is not a directory becomes `.git.from-session`, and the
 * repository gets back the config its fixture was built with. Nothing is
 * deleted: what the session wrote stays there to read.
 */
import { copyFile, lstat, readdir, rename } from 'node:fs/promises';
import path from 'node:path';

export const SET_ASIDE = '.from-session';

async function setAside(file: string): Promise<boolean> {
  if ((await lstat(file).catch(() => undefined)) === undefined) return false;
  await rename(file, `${file}${SET_ASIDE}`);
  return true;
}

/** What a git dir holds that makes git run a program or read another directory's. */
const GIT_DIR_ENTRIES = ['config', 'hooks', 'commondir'];

/**
 * Every entry named `.git` below the top of `repoDir` (repo-relative), found
 * without following symlinks: the session may have made any of them, after
 * the last snapshot too.
 */
async function nestedGitEntries(repoDir: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (relative: string): Promise<void> => {
    const entries = await readdir(path.join(repoDir, relative), { withFileTypes: true }).catch(
      () => [],
    );
    for (const entry of entries) {
      if (relative === '' && entry.name === '.git') continue;
      const child = relative === '' ? entry.name : `${relative}/${entry.name}`;
      if (entry.name === '.git') found.push(child);
      if (entry.isDirectory()) await walk(child);
    }
  };
  await walk('');
  return found;
}

/** Set aside what the git dir `gitDir` (repo-relative) would run, or the `.git` file itself. */
async function neutraliseGitEntry(repoDir: string, gitDir: string, moved: string[]): Promise<void> {
  const stats = await lstat(path.join(repoDir, gitDir)).catch(() => undefined);
  if (stats === undefined) return;
  if (!stats.isDirectory()) {
    // A `.git` file (or link) would send git to a git dir anywhere.
    await rename(path.join(repoDir, gitDir), path.join(repoDir, `${gitDir}${SET_ASIDE}`));
    moved.push(`${gitDir}${SET_ASIDE}`);
    return;
  }
  for (const name of GIT_DIR_ENTRIES)
    if (await setAside(path.join(repoDir, gitDir, name)))
      moved.push(`${gitDir}/${name}${SET_ASIDE}`);
}

/**
 * Neutralise the repository at `repoDir` and every repository inside its
 * work tree: returns what was set aside, repo-relative. `pristineConfig` is
 * the fixture's own `.git/config`.
 */
export async function neutraliseKeptRepository(
  repoDir: string,
  pristineConfig: string,
): Promise<string[]> {
  const moved: string[] = [];
  await neutraliseGitEntry(repoDir, '.git', moved);
  if ((await lstat(path.join(repoDir, '.git')).catch(() => undefined))?.isDirectory() === true)
    await copyFile(pristineConfig, path.join(repoDir, '.git', 'config'));
  for (const gitEntry of await nestedGitEntries(repoDir))
    await neutraliseGitEntry(repoDir, gitEntry, moved);
  return moved;
}
