/**
 * A kept work dir's repository after a hostile session: git run there by a
 * person must run nothing the session planted, whichever way it sends git
 * to a config of its own (the top config and hooks are covered end to end
 * in work-dirs.test.ts; these are the other ways).
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { neutraliseKeptRepository } from '../../harness/results/kept-repository.js';
import { makeTempDir } from '../helpers/temp-dir.js';

/** git with none of the host's configuration. */
function git(cwd: string, args: readonly string[]): { status: number | null; stderr: string } {
  const result = spawnSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: cwd, GIT_CONFIG_NOSYSTEM: '1' },
    encoding: 'utf8',
  });
  return { status: result.status, stderr: result.stderr };
}

/** A repository with one commit, and a copy of its config as the fixture built it. */
function fixtureRepo(): { repo: string; pristine: string } {
  const base = makeTempDir();
  const repo = path.join(base, 'repo');
  mkdirSync(repo);
  git(repo, ['init', '-q']);
  writeFileSync(path.join(repo, 'README.md'), 'hello\n');
  git(repo, ['add', 'README.md']);
  git(repo, ['commit', '-q', '-m', 'init']);
  const pristine = path.join(base, 'pristine-config');
  copyFileSync(path.join(repo, '.git/config'), pristine);
  return { repo, pristine };
}

/** A program that records it ran, for a planted `core.fsmonitor`. */
function monitor(repo: string, marker: string): string {
  const script = path.join(repo, 'monitor.sh');
  writeFileSync(script, `#!/bin/sh\necho ran >> ${marker}\nexit 1\n`, { mode: 0o755 });
  return script;
}

/** Whether a person's `git status` at the top of the repository runs the planted program. */
function statusRunsPlanted(repo: string, marker: string): boolean {
  rmSync(marker, { force: true });
  git(repo, ['status', '--porcelain']);
  return existsSync(marker);
}

describe('a kept repository runs nothing the session planted', () => {
  it('a .git/commondir naming a repository of the session’s is set aside (git would read its config instead)', async () => {
    const { repo, pristine } = fixtureRepo();
    const marker = path.join(makeTempDir(), 'ran');
    const script = monitor(repo, marker);
    // The session copies the repository, plants an fsmonitor in the copy and points .git at it.
    spawnSync('cp', ['-r', path.join(repo, '.git'), path.join(repo, '.common')]);
    git(repo, ['--git-dir=.common', 'config', 'core.fsmonitor', script]);
    writeFileSync(path.join(repo, '.git/commondir'), '../.common\n');
    // Planted negative: git status does run it.
    expect(statusRunsPlanted(repo, marker)).toBe(true);
    const moved = await neutraliseKeptRepository(repo, pristine);
    expect(moved).toContain('.git/commondir.from-session');
    expect(statusRunsPlanted(repo, marker)).toBe(false);
    expect(git(repo, ['status', '--porcelain']).status).toBe(0);
  });

  it('a submodule whose .git file points at a git dir of the session’s is cut off (git status recurses into it)', async () => {
    const { repo, pristine } = fixtureRepo();
    const marker = path.join(makeTempDir(), 'ran');
    const script = monitor(repo, marker);
    // A repository inside, added as a gitlink, its git dir moved out under another name.
    const inner = path.join(repo, 'vendor/lib');
    mkdirSync(inner, { recursive: true });
    git(inner, ['init', '-q']);
    git(inner, ['commit', '-q', '--allow-empty', '-m', 'inner']);
    git(repo, ['add', 'vendor/lib']);
    spawnSync('mv', [path.join(inner, '.git'), path.join(repo, 'docs-cache')]);
    writeFileSync(path.join(inner, '.git'), 'gitdir: ../../docs-cache\n');
    git(repo, ['--git-dir=docs-cache', 'config', 'core.worktree', inner]);
    git(repo, ['--git-dir=docs-cache', 'config', 'core.fsmonitor', script]);
    expect(statusRunsPlanted(repo, marker)).toBe(true);
    const moved = await neutraliseKeptRepository(repo, pristine);
    expect(moved).toContain('vendor/lib/.git.from-session');
    expect(statusRunsPlanted(repo, marker)).toBe(false);
  });
});
