/**
 * The run's private temporary directory (`$TMPDIR/redgreen-run-*`): every
 * file a session makes stays inside it, the engine's messaging socket too
 * (Claude Code falls back to a shared /tmp/cc-socks-<uid> when the socket
 * path would be too long for a Unix socket); `--keep-workdirs` says where it
 * is kept, and sets aside what the session left in its repositories' git
 * configs and hooks, so a person's `git status` there runs nothing planted.
 */
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeTempDir } from '../helpers/temp-dir.js';
import { filesUnder, plantedSkill, runOneRep } from './support.js';

/** Every directory under `dir` (recursively) whose name is `name`. */
function directoriesNamed(dir: string, name: string): string[] {
  const found: string[] = [];
  const walk = (current: string): void => {
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const full = path.join(current, entry.name);
      if (entry.name === name) found.push(full);
      walk(full);
    }
  };
  walk(dir);
  return found;
}

describe('the private work directory', () => {
  it("holds the engine's socket directory even under a longish TMPDIR, and --keep-workdirs says where it is", async () => {
    // 50 characters: the socket path under the session's own TMPDIR would pass the 103-byte limit.
    const base = makeTempDir();
    const tmp = path.join(base, 'x'.repeat(Math.max(1, 50 - base.length - 1)));
    mkdirSync(tmp);
    expect(tmp.length).toBeGreaterThanOrEqual(50);
    // The session plants programs git would run for a person looking into the kept work dir:
    // an fsmonitor and a clean filter (git status runs both), a hook, a repository inside.
    const ran = path.join(makeTempDir('redgreen-kept-'), 'ran');
    const planted = plantedSkill(
      [
        `printf '#!/bin/sh\\necho fsmonitor >> ${ran}\\nexit 1\\n' > monitor.sh && chmod +x monitor.sh`,
        'git config core.fsmonitor "$PWD/monitor.sh"',
        `git config filter.planted.clean 'echo filter >> ${ran}; cat'`,
        "echo '* filter=planted' > .gitattributes && echo changed >> README.md",
        "mkdir -p .git/hooks && printf '#!/bin/sh\\n' > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit",
        'git init -q inner && git -C inner config core.fsmonitor "$PWD/monitor.sh"',
      ].join(' && '),
    );
    const { out, run } = await runOneRep('2/4', ['--keep-workdirs', '--arm', `green=${planted}`], {
      TMPDIR: tmp,
    });
    expect(run.exitCode, run.stderr).toBe(0);
    const [workRoot, ...others] = readdirSync(tmp).filter((entry) =>
      entry.startsWith('redgreen-run-'),
    );
    expect(others).toEqual([]);
    expect(workRoot).toBeDefined();
    const kept = path.join(tmp, workRoot ?? '');
    expect(`${run.stdout}${run.stderr}`).toContain(`work dirs kept in ${kept}`);
    expect(directoriesNamed(kept, 'cc-socks').length, filesUnder(kept).join('\n')).toBe(1);
    expect(existsSync(out)).toBe(true);
    expect(`${run.stdout}${run.stderr}`).toContain('.git/config.from-session');

    // The kept repository: what the session left is set aside, git runs none of it.
    const [repo] = directoriesNamed(kept, 'repo');
    expect(repo).toBeDefined();
    const keptRepo = repo ?? '';
    for (const aside of [
      '.git/config.from-session',
      '.git/hooks.from-session',
      'inner/.git/config.from-session',
    ])
      expect(existsSync(path.join(keptRepo, aside)), aside).toBe(true);
    // Positive control: the session did plant them.
    expect(readFileSync(path.join(keptRepo, '.git/config.from-session'), 'utf8')).toContain(
      'fsmonitor',
    );
    const status = spawnSync('git', ['status', '--porcelain'], {
      cwd: keptRepo,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: makeTempDir(),
        GIT_CONFIG_NOSYSTEM: '1',
      },
      encoding: 'utf8',
    });
    expect(status.status, status.stderr).toBe(0);
    expect(status.stdout).toContain('README.md');
    expect(existsSync(ran), existsSync(ran) ? readFileSync(ran, 'utf8') : '').toBe(false);
    // Planted negative: with the session's config back, the same git status runs its programs.
    copyFileSync(
      path.join(keptRepo, '.git/config.from-session'),
      path.join(keptRepo, '.git/config'),
    );
    spawnSync('git', ['status', '--porcelain'], {
      cwd: keptRepo,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: makeTempDir(),
        GIT_CONFIG_NOSYSTEM: '1',
      },
    });
    expect(readFileSync(ran, 'utf8')).toMatch(/fsmonitor|filter/);

    // A kept work dir is not a stale one: the next run leaves it alone.
    const next = await runOneRep('1/4', [], { TMPDIR: tmp });
    expect(next.run.exitCode, next.run.stderr).toBe(0);
    expect(existsSync(kept)).toBe(true);
    expect(next.run.stdout).not.toContain('stale work dir');
  });
});
