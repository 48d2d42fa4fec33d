/**
 * The released-style skill's scripts, run as a session would run them: one
 * flat workspace per working tree at <root>/.superpowers/sdd/, hidden from git
 * by its own self-ignoring .gitignore. The counterparts of the plan-scoped
 * tests, plus the ways the two script sets must not be confused.
 */
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../helpers/temp-dir.js';
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
  box = await ScriptSandbox.create('sdd-released');
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

describe('sdd-workspace (no arguments)', () => {
  it('prints <root>/.superpowers/sdd and creates it, from the root or a subdirectory', async () => {
    const fromRoot = await box.run('sdd-workspace', []);
    expect(fromRoot.exitCode).toBe(0);
    expect(fromRoot.stdout).toBe(sdd);
    expect(statSync(sdd).isDirectory()).toBe(true);

    mkdirSync(path.join(box.repo, 'src'));
    const fromSubdir = await box.run('sdd-workspace', [], path.join(box.repo, 'src'));
    expect(fromSubdir.stdout).toBe(sdd);
  });

  it('rejects a plan argument (the plan-scoped form) with exit 2 and creates nothing', async () => {
    const result = await box.run('sdd-workspace', ['plan-a.md']);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('usage: sdd-workspace');
    expect(existsSync(path.join(box.repo, '.superpowers'))).toBe(false);
  });

  it('exits 2 outside a git working tree', async () => {
    const outside = path.join(box.root, 'not-a-repo');
    mkdirSync(outside);
    const result = await box.run('sdd-workspace', [], outside);
    expect(result.exitCode).toBe(2);
    expect(result.stderr).toContain('not inside a git working tree');
  });

  it("writes the self-ignoring .gitignore ('*') inside the workspace", async () => {
    await box.run('sdd-workspace', []);
    expect(readFileSync(path.join(sdd, '.gitignore'), 'utf8')).toBe('*\n');
  });

  it('keeps the workspace out of git status and out of git add -A', async () => {
    await box.run('sdd-workspace', []);
    writeFileSync(
      path.join(sdd, 'progress.md'),
      'Task 1: complete (commits abc1234, review clean)\n',
    );
    writeFileSync(path.join(sdd, 'task-1-report.md'), 'DONE\n');

    const status = await box.git(box.repo, ['status', '--porcelain', '--untracked-files=all']);
    expect(status).toContain('plan-a.md');
    expect(status).not.toContain('.superpowers');

    await box.git(box.repo, ['add', '-A']);
    const staged = await box.git(box.repo, ['diff', '--cached', '--name-only']);
    expect(staged).toContain('plan-a.md');
    expect(staged).not.toContain('.superpowers');
  });

  it("resolves a linked worktree's own distinct workspace, invisible to its git status", async () => {
    await box.commitAll(box.repo, 'c1: plans');
    const mainDir = (await box.run('sdd-workspace', [])).stdout;
    const worktree = path.join(box.root, 'wt');
    await box.git(box.repo, ['worktree', 'add', '-q', worktree, '-b', 'wt-feature']);

    const result = await box.run('sdd-workspace', [], worktree);
    expect(result.stdout).toBe(path.join(worktree, '.superpowers', 'sdd'));
    expect(result.stdout).not.toBe(mainDir);

    writeFileSync(path.join(result.stdout, 'artifact.md'), 'y\n');
    const status = await box.git(worktree, ['status', '--porcelain', '--untracked-files=all']);
    expect(status).toBe('');
  });
});

describe('task-brief PLAN_FILE N [OUTFILE]', () => {
  it("writes the task's section into the flat workspace and prints 'wrote PATH: L lines'", async () => {
    const result = await box.run('task-brief', ['plan-a.md', '2']);
    expect(result.exitCode).toBe(0);
    expect(parseBriefLine(result.stdout)).toEqual({
      path: path.join(sdd, 'task-2-brief.md'),
      lines: 3,
    });
    expect(readFileSync(path.join(sdd, 'task-2-brief.md'), 'utf8')).toBe(
      '## Task 2: Second thing\n\nDo the second thing.\n',
    );
  });

  it("lets a second plan's same-numbered brief overwrite the first (the flat layout's collision)", async () => {
    await box.run('task-brief', ['plan-a.md', '1']);
    const second = parseBriefLine((await box.run('task-brief', ['plan-b.md', '1'])).stdout);
    expect(second?.path).toBe(path.join(sdd, 'task-1-brief.md'));
    expect(readFileSync(path.join(sdd, 'task-1-brief.md'), 'utf8')).toContain('Other thing');
  });

  it('exits 3 when the plan has no such task, and writes nothing', async () => {
    const result = await box.run('task-brief', ['plan-b.md', '2']);
    expect(result.exitCode).toBe(3);
    expect(existsSync(sdd)).toBe(false);
  });

  it('exits 2 on a missing plan file or bad arity', async () => {
    expect((await box.run('task-brief', ['no-such-plan.md', '1'])).exitCode).toBe(2);
    expect((await box.run('task-brief', ['plan-a.md'])).exitCode).toBe(2);
    expect((await box.run('task-brief', ['plan-a.md', '1', 'x', 'y'])).exitCode).toBe(2);
  });

  it('honours an explicit OUTFILE', async () => {
    const out = path.join(box.root, 'brief.md');
    const result = await box.run('task-brief', ['plan-a.md', '1', out]);
    expect(parseBriefLine(result.stdout)).toEqual({ path: out, lines: 3 });
    expect(existsSync(sdd)).toBe(false);
  });
});

describe('review-package BASE HEAD [OUTFILE]', () => {
  it("writes the range into the flat workspace and prints 'wrote PATH: K commit(s), B bytes'", async () => {
    const [base, head] = await twoCommits();
    const result = await box.run('review-package', [base, head]);
    expect(result.exitCode).toBe(0);
    const expected = path.join(sdd, `review-${base.slice(0, 7)}..${head.slice(0, 7)}.diff`);
    expect(parsePackageLine(result.stdout)).toEqual({
      path: expected,
      commits: 2,
      bytes: statSync(expected).size,
    });
    const pkg = readFileSync(expected, 'utf8');
    expect(pkg).toContain('c1: add f');
    expect(pkg).toContain('c2: add g');
    expect(pkg).toContain('2 files changed, 2 insertions(+)');
    expect(pkg).toContain('diff --git a/g b/g');
    expect(pkg).not.toContain('c0: plans');
  });

  it('rejects a leading plan argument (the plan-scoped form): HEAD is not a file path', async () => {
    await twoCommits();
    const result = await box.run('review-package', ['plan-a.md', 'HEAD~1', 'HEAD']);
    // Three arguments read as BASE HEAD OUTFILE, so the plan lands in the BASE slot.
    expect(result.exitCode).toBe(2);
    expect(result.stderr.trim()).toBe('bad BASE: plan-a.md');
  });

  it('honours an explicit OUTFILE', async () => {
    await twoCommits();
    const out = path.join(box.root, 'explicit.diff');
    const result = await box.run('review-package', ['HEAD~1', 'HEAD', out]);
    expect(parsePackageLine(result.stdout)).toEqual({
      path: out,
      commits: 1,
      bytes: statSync(out).size,
    });
    expect(existsSync(sdd)).toBe(false);
  });

  it("reports 'bad BASE: X' and 'bad HEAD: X' with exit 2 and writes nothing", async () => {
    await twoCommits();
    const badBase = await box.run('review-package', ['nope', 'HEAD']);
    expect(badBase.exitCode).toBe(2);
    expect(badBase.stderr.trim()).toBe('bad BASE: nope');
    const badHead = await box.run('review-package', ['HEAD', 'nope']);
    expect(badHead.exitCode).toBe(2);
    expect(badHead.stderr.trim()).toBe('bad HEAD: nope');
    expect(existsSync(sdd)).toBe(false);
  });

  it('exits 2 on bad arity', async () => {
    expect((await box.run('review-package', ['HEAD'])).exitCode).toBe(2);
    expect((await box.run('review-package', ['a', 'b', 'c', 'd'])).exitCode).toBe(2);
  });
});

describe('the skill directory', () => {
  it('is never written to: every script runs from a read-only copy and leaves it as it was', async () => {
    const before = listTree(box.skillDir);
    await twoCommits();
    await box.run('sdd-workspace', []);
    await box.run('task-brief', ['plan-a.md', '1']);
    await box.run('review-package', ['HEAD~1', 'HEAD']);
    expect(listTree(box.skillDir)).toEqual(before);
  });

  it('the listing comparison notices a file written next to a script (planted negative)', () => {
    const dir = makeTempDir();
    mkdirSync(path.join(dir, 'scripts'));
    const before = listTree(dir);
    writeFileSync(path.join(dir, 'scripts', '.stray'), 'x');
    expect(listTree(dir)).not.toEqual(before);
  });
});
