/**
 * `redgreen check --repo --layout` refuses evidence it cannot vouch for
 * (R9): a `--repo` that is no git repository, a `--layout` without `--repo`
 * (it would be silently ignored), a repository whose history does not
 * contain the fixture's HEAD, and a layout the repository plainly is not
 * (its files are another layout's, untouched). With the right layout an
 * untouched fixture is judged and passes a right reply.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { testGitEnv } from '../helpers/git-env.js';
import { makeTempDir } from '../helpers/temp-dir.js';

const RIGHT_REPLY =
  '1. LEDGERS CHECKED: `.superpowers/sdd/progress.md` — plan A’s ledger, not mine; ignored.\n2. TASKS ALREADY COMPLETE: none\n3. FIRST DISPATCH: Task 1 (Export data model)\n';

function reply(): string {
  const file = path.join(makeTempDir(), 'reply.md');
  writeFileSync(file, RIGHT_REPLY);
  return file;
}

async function fixture(scenario: string, layout: string): Promise<string> {
  const dir = path.join(makeTempDir(), 'repo');
  const built = await runCli(['fixture', scenario, layout, dir]);
  expect(built.exitCode, built.stderr).toBe(0);
  return dir;
}

describe('check --repo / --layout refuse what they cannot vouch for', () => {
  it('judges an untouched fixture with its own layout, and passes a right reply', async () => {
    const repo = await fixture('s1', 'flat');
    const run = await runCli([
      'check',
      's1',
      '--reply',
      reply(),
      '--repo',
      repo,
      '--layout',
      'flat',
    ]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^verdict: pass$/m);
  });

  it('refuses a layout the repository is not: its files are another layout’s, untouched', async () => {
    const flat = await fixture('s1', 'flat');
    const wrong = await runCli([
      'check',
      's1',
      '--reply',
      reply(),
      '--repo',
      flat,
      '--layout',
      'scoped',
    ]);
    expect(wrong.exitCode).toBe(2);
    expect(wrong.stdout).toBe('');
    expect(wrong.stderr.trim().split('\n')).toHaveLength(1);
    expect(wrong.stderr).toMatch(/--layout scoped: .*flat/);
    const scoped = await fixture('s1', 'scoped');
    const narrower = await runCli([
      'check',
      's1',
      '--reply',
      reply(),
      '--repo',
      scoped,
      '--layout',
      'flat',
    ]);
    expect(narrower.exitCode).toBe(2);
    expect(narrower.stderr).toMatch(/--layout flat: .*scoped/);
  });

  it('refuses a repository whose history does not hold the fixture’s HEAD', async () => {
    const dir = path.join(makeTempDir(), 'other');
    mkdirSync(dir);
    const git = (...args: string[]) =>
      execFileSync('git', ['-C', dir, ...args], { env: testGitEnv(dir) });
    git('init', '-q', '-b', 'main');
    writeFileSync(path.join(dir, 'README.md'), 'unrelated\n');
    git('add', '.');
    git('commit', '-q', '-m', 'unrelated');
    const run = await runCli([
      'check',
      's1',
      '--reply',
      reply(),
      '--repo',
      dir,
      '--layout',
      'flat',
    ]);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(/--repo .*history does not contain the fixture's HEAD/);
  });

  it('refuses a --repo that is no git repository, and a --layout without --repo', async () => {
    const plain = makeTempDir();
    writeFileSync(path.join(plain, 'notes.txt'), 'x');
    const notRepo = await runCli(['check', 's1', '--reply', reply(), '--repo', plain]);
    expect(notRepo.exitCode).toBe(2);
    expect(notRepo.stderr).toMatch(/is not a git repository/);
    const loose = await runCli(['check', 's1', '--reply', reply(), '--layout', 'flat']);
    expect(loose.exitCode).toBe(2);
    expect(loose.stderr).toMatch(/--layout: .*only with --repo/);
  });
});
