/**
 * The plan-scoped skill's scripts, run as a session would run them: one
 * workspace per plan under <root>/.superpowers/sdd/, hidden from git by the
 * parent's self-ignoring .gitignore. Covers every assertion of the seed's
 * test-sdd-workspace.sh and the error paths around them.
 */
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  listTree,
  parseBriefLine,
  parsePackageLine,
  planA,
  planB,
  ScriptSandbox,
} from './script-sandbox.js';

let box: ScriptSandbox;
let sdd: string;

beforeEach(async () => {
  box = await ScriptSandbox.create('sdd-plan-scoped');
  sdd = path.join(box.repo, '.superpowers', 'sdd');
  writeFileSync(path.join(box.repo, 'plan-a.md'), planA);
  writeFileSync(path.join(box.repo, 'plan-b.md'), planB);
});

afterEach(() => box.dispose());

/** Two commits on top of the plans' commit; returns [base, head] where base..head holds both. */
async function twoCommits(): Promise<[string, string]> {
  const base = await box.commitAll(box.repo, 'c0: plans');
  writeFileSync(path.join(box.repo, 'f'), 'y\n');
  await box.commitAll(box.repo, 'c1: add f');
  writeFileSync(path.join(box.repo, 'g'), 'z\n');
  const head = await box.commitAll(box.repo, 'c2: add g');
  return [base, head];
}

describe('sdd-workspace PLAN_FILE', () => {
  it('prints <root>/.superpowers/sdd/<plan-basename> and creates it', async () => {
    const result = await box.run('sdd-workspace', ['plan-a.md']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(path.join(sdd, 'plan-a'));
    expect(statSync(path.join(sdd, 'plan-a')).isDirectory()).toBe(true);
  });

  it('names the workspace after the file name only, wherever the plan lives', async () => {
    mkdirSync(path.join(box.repo, 'docs', 'plans'), { recursive: true });
    writeFileSync(path.join(box.repo, 'docs/plans/2026-07-06-widget-export.md'), planB);
    const fromRoot = await box.run('sdd-workspace', ['docs/plans/2026-07-06-widget-export.md']);
    const fromSubdir = await box.run(
      'sdd-workspace',
      ['2026-07-06-widget-export.md'],
      path.join(box.repo, 'docs', 'plans'),
    );
    expect(fromRoot.stdout).toBe(path.join(sdd, '2026-07-06-widget-export'));
    expect(fromSubdir.stdout).toBe(fromRoot.stdout);
  });

  it('exits 2 without a plan argument, and with more than one', async () => {
    const none = await box.run('sdd-workspace', []);
    const two = await box.run('sdd-workspace', ['plan-a.md', 'plan-b.md']);
    expect(none.exitCode).toBe(2);
    expect(none.stderr).toContain('usage: sdd-workspace PLAN_FILE');
    expect(two.exitCode).toBe(2);
    expect(existsSync(sdd)).toBe(false);
  });

  it('exits 2 on a missing plan file and creates nothing', async () => {
    const result = await box.run('sdd-workspace', ['no-such-plan.md']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('no-such-plan.md');
    expect(result.stdout).toBe('');
    expect(existsSync(path.join(box.repo, '.superpowers'))).toBe(false);
  });

  it.each([
    ['.md', 'empty'],
    ['..md', '"."'],
    ['...md', '".."'],
  ])('exits 2 on plan file %s, whose workspace name would be %s', async (file) => {
    writeFileSync(path.join(box.repo, file), planA);
    const result = await box.run('sdd-workspace', [file]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('cannot name a workspace');
    expect(existsSync(path.join(box.repo, '.superpowers'))).toBe(false);
  });

  it('exits 2 outside a git working tree', async () => {
    const outside = path.join(box.root, 'not-a-repo');
    mkdirSync(outside);
    writeFileSync(path.join(outside, 'plan-a.md'), planA);
    const result = await box.run('sdd-workspace', ['plan-a.md'], outside);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('not inside a git working tree');
  });

  it('resolves two plans to two distinct directories', async () => {
    const a = await box.run('sdd-workspace', ['plan-a.md']);
    const b = await box.run('sdd-workspace', ['plan-b.md']);
    expect(a.stdout).not.toBe(b.stdout);
    expect(statSync(a.stdout).isDirectory()).toBe(true);
    expect(statSync(b.stdout).isDirectory()).toBe(true);
  });

  it("writes the self-ignoring .gitignore ('*') at .superpowers/sdd/, the plans' parent", async () => {
    await box.run('sdd-workspace', ['plan-a.md']);
    expect(readFileSync(path.join(sdd, '.gitignore'), 'utf8')).toBe('*\n');
    expect(existsSync(path.join(sdd, 'plan-a', '.gitignore'))).toBe(false);
  });

  it('keeps every workspace out of git status and out of git add -A', async () => {
    const a = (await box.run('sdd-workspace', ['plan-a.md'])).stdout;
    const b = (await box.run('sdd-workspace', ['plan-b.md'])).stdout;
    writeFileSync(path.join(a, 'artifact.md'), 'x\n');
    writeFileSync(path.join(b, 'progress.md'), '# SDD ledger — plan: plan-b.md\n');
    writeFileSync(
      path.join(sdd, 'progress.md'),
      'Task 1: complete (commits abc1234, review clean)\n',
    );

    const status = await box.git(box.repo, ['status', '--porcelain', '--untracked-files=all']);
    // The plans themselves are untracked on purpose: they prove status does list files.
    expect(status).toContain('plan-a.md');
    expect(status).not.toContain('.superpowers');

    await box.git(box.repo, ['add', '-A']);
    const staged = await box.git(box.repo, ['diff', '--cached', '--name-only']);
    expect(staged).toContain('plan-a.md');
    expect(staged).not.toContain('.superpowers');
  });

  it("resolves a linked worktree's own distinct workspace, invisible to its git status", async () => {
    await box.commitAll(box.repo, 'c1: plans');
    const mainDir = (await box.run('sdd-workspace', ['plan-a.md'])).stdout;
    const worktree = path.join(box.root, 'wt');
    await box.git(box.repo, ['worktree', 'add', '-q', worktree, '-b', 'wt-feature']);

    const result = await box.run('sdd-workspace', ['plan-a.md'], worktree);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe(path.join(worktree, '.superpowers', 'sdd', 'plan-a'));
    expect(result.stdout).not.toBe(mainDir);

    writeFileSync(path.join(result.stdout, 'artifact.md'), 'y\n');
    const status = await box.git(worktree, ['status', '--porcelain', '--untracked-files=all']);
    expect(status).toBe('');
  });
});

describe('task-brief PLAN_FILE N [OUTFILE]', () => {
  it("writes the task's section into its plan's workspace and prints 'wrote PATH: L lines'", async () => {
    const result = await box.run('task-brief', ['plan-a.md', '1']);
    expect(result.exitCode).toBe(0);
    const line = parseBriefLine(result.stdout);
    expect(line).toEqual({ path: path.join(sdd, 'plan-a', 'task-1-brief.md'), lines: 3 });
    expect(readFileSync(path.join(sdd, 'plan-a', 'task-1-brief.md'), 'utf8')).toBe(
      '## Task 1: First thing\n\nDo the first thing.\n',
    );
  });

  it("keeps two plans' same-numbered briefs apart", async () => {
    const a = parseBriefLine((await box.run('task-brief', ['plan-a.md', '1'])).stdout);
    const b = parseBriefLine((await box.run('task-brief', ['plan-b.md', '1'])).stdout);
    expect(a?.path).toBe(path.join(sdd, 'plan-a', 'task-1-brief.md'));
    expect(b?.path).toBe(path.join(sdd, 'plan-b', 'task-1-brief.md'));
    expect(readFileSync(path.join(sdd, 'plan-a', 'task-1-brief.md'), 'utf8')).toContain(
      'First thing',
    );
    expect(readFileSync(path.join(sdd, 'plan-b', 'task-1-brief.md'), 'utf8')).toContain(
      'Other thing',
    );
  });

  it('exits 3 when the plan has no such task, and writes nothing', async () => {
    const result = await box.run('task-brief', ['plan-a.md', '7']);
    expect(result.exitCode).toBe(3);
    expect(result.stderr).toContain('Task 7');
    expect(existsSync(sdd)).toBe(false);
  });

  it('exits 2 on a missing plan file, a task number that is not a number, or bad arity', async () => {
    expect((await box.run('task-brief', ['no-such-plan.md', '1'])).exitCode).toBe(2);
    expect((await box.run('task-brief', ['plan-a.md', 'one'])).exitCode).toBe(2);
    expect((await box.run('task-brief', ['plan-a.md'])).exitCode).toBe(2);
    expect(existsSync(sdd)).toBe(false);
  });

  it('honours an explicit OUTFILE', async () => {
    const out = path.join(box.root, 'brief.md');
    const result = await box.run('task-brief', ['plan-a.md', '2', out]);
    expect(parseBriefLine(result.stdout)).toEqual({ path: out, lines: 3 });
    expect(readFileSync(out, 'utf8')).toContain('## Task 2: Second thing');
  });
});

describe('review-package PLAN_FILE BASE HEAD [OUTFILE]', () => {
  it("writes the range into its plan's workspace and prints 'wrote PATH: K commit(s), B bytes'", async () => {
    const [base, head] = await twoCommits();
    const result = await box.run('review-package', ['plan-a.md', base, head]);
    expect(result.exitCode).toBe(0);
    const line = parsePackageLine(result.stdout);
    const expected = path.join(
      sdd,
      'plan-a',
      `review-${base.slice(0, 7)}..${head.slice(0, 7)}.diff`,
    );
    expect(line).toEqual({ path: expected, commits: 2, bytes: statSync(expected).size });
    const pkg = readFileSync(expected, 'utf8');
    expect(pkg).toContain('c1: add f');
    expect(pkg).toContain('c2: add g');
    expect(pkg).toContain('2 files changed, 2 insertions(+)');
    expect(pkg).toContain('diff --git a/f b/f');
    expect(pkg).not.toContain('c0: plans');
  });

  it('exits 2 without a plan (the released BASE HEAD form)', async () => {
    await twoCommits();
    const result = await box.run('review-package', ['HEAD~1', 'HEAD']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('usage: review-package PLAN_FILE BASE HEAD [OUTFILE]');
    expect(existsSync(sdd)).toBe(false);
  });

  it('exits 2 on a missing plan file', async () => {
    await twoCommits();
    const result = await box.run('review-package', ['no-such-plan.md', 'HEAD~1', 'HEAD']);
    expect(result.exitCode).toBe(2);
    expect(existsSync(sdd)).toBe(false);
  });

  it('honours an explicit OUTFILE', async () => {
    await twoCommits();
    const out = path.join(box.root, 'explicit.diff');
    const result = await box.run('review-package', ['plan-a.md', 'HEAD~1', 'HEAD', out]);
    expect(result.exitCode).toBe(0);
    expect(parsePackageLine(result.stdout)?.path).toBe(out);
    expect(statSync(out).size).toBeGreaterThan(0);
    expect(existsSync(sdd)).toBe(false);
  });

  it("reports 'bad BASE: X' and 'bad HEAD: X' with exit 2 and writes nothing", async () => {
    await twoCommits();
    const badBase = await box.run('review-package', ['plan-a.md', 'nope', 'HEAD']);
    expect(badBase.exitCode).toBe(2);
    expect(badBase.stderr.trim()).toBe('bad BASE: nope');
    const optionLike = await box.run('review-package', ['plan-a.md', '--all', 'HEAD']);
    expect(optionLike.stderr.trim()).toBe('bad BASE: --all');
    const badHead = await box.run('review-package', ['plan-a.md', 'HEAD', 'deadbeef']);
    expect(badHead.exitCode).toBe(2);
    expect(badHead.stderr.trim()).toBe('bad HEAD: deadbeef');
    expect(existsSync(sdd)).toBe(false);
  });
});

describe('the skill directory', () => {
  it('is never written to: every script runs from a read-only copy and leaves it as it was', async () => {
    const before = listTree(box.skillDir);
    await twoCommits();
    await box.run('sdd-workspace', ['plan-a.md']);
    await box.run('task-brief', ['plan-a.md', '1']);
    await box.run('review-package', ['plan-a.md', 'HEAD~1', 'HEAD']);
    expect(listTree(box.skillDir)).toEqual(before);
  });
});
