/**
 * A place to run the reference skills' scripts the way a session would: a
 * read-only copy of the skill directory, a real git repository in a temp
 * directory, and a git environment that owes nothing to the host (temp HOME,
 * no global or system config, no GIT_* variables from the caller).
 */
import {
  chmodSync,
  cpSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  realpathSync,
  rmSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { isolatedGitEnv } from '../../harness/lib/git-env.js';
import { repoRoot } from '../helpers/cli.js';

export const skillsUnderTest = path.join(repoRoot, 'skills-under-test');

export type SkillName = 'sdd-released' | 'sdd-plan-scoped';

export interface RunResult {
  readonly exitCode: number | undefined;
  readonly stdout: string;
  readonly stderr: string;
}

/** Identity flags for commits made by the tests themselves (never needed by the scripts). */
const commitIdentity = [
  '-c',
  'user.name=Skill Test',
  '-c',
  'user.email=skill-test@example.com',
  '-c',
  'commit.gpgsign=false',
];

export class ScriptSandbox {
  /** Physical path of the sandbox root (git reports physical paths). */
  readonly root: string;
  readonly home: string;
  /** The main repository's working tree. */
  readonly repo: string;
  /** The read-only copy of the skill directory the scripts run from. */
  readonly skillDir: string;
  readonly env: Record<string, string>;

  private constructor(root: string, skill: SkillName) {
    this.root = root;
    this.home = path.join(root, 'home');
    this.repo = path.join(root, 'repo');
    this.skillDir = path.join(root, 'skill', skill);
    this.env = isolatedGitEnv(this.home);
  }

  /** A fresh sandbox with an empty repository on branch `main`; call `dispose()` when done. */
  static async create(skill: SkillName): Promise<ScriptSandbox> {
    const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'redgreen-skill-')));
    const sandbox = new ScriptSandbox(root, skill);
    mkdirSync(sandbox.home);
    cpSync(path.join(skillsUnderTest, skill), sandbox.skillDir, { recursive: true });
    makeReadOnly(sandbox.skillDir);
    await sandbox.git(root, ['init', '-q', '-b', 'main', sandbox.repo]);
    return sandbox;
  }

  dispose(): void {
    makeWritable(path.join(this.root, 'skill'));
    rmSync(this.root, { recursive: true, force: true });
  }

  scriptPath(script: 'sdd-workspace' | 'task-brief' | 'review-package'): string {
    return path.join(this.skillDir, 'scripts', script);
  }

  /** Run one of the skill's scripts as a subprocess; never throws on a non-zero exit. */
  async run(
    script: 'sdd-workspace' | 'task-brief' | 'review-package',
    args: readonly string[],
    cwd: string = this.repo,
  ): Promise<RunResult> {
    const result = await execa(this.scriptPath(script), args, {
      cwd,
      env: this.env,
      extendEnv: false,
      reject: false,
      timeout: 30_000,
    });
    return { exitCode: result.exitCode, stdout: result.stdout, stderr: result.stderr };
  }

  /** Run git in the isolated environment; throws on failure (a broken test setup is a bug). */
  async git(cwd: string, args: readonly string[]): Promise<string> {
    const result = await execa('git', args, { cwd, env: this.env, extendEnv: false });
    return result.stdout;
  }

  /** Stage everything in `cwd`'s working tree and commit it. Returns the new HEAD. */
  async commitAll(cwd: string, message: string): Promise<string> {
    await this.git(cwd, ['add', '-A']);
    await this.git(cwd, [...commitIdentity, 'commit', '-q', '--allow-empty', '-m', message]);
    return this.git(cwd, ['rev-parse', 'HEAD']);
  }
}

function makeReadOnly(dir: string): void {
  chmodTree(dir, (isDir, mode) => (isDir ? 0o555 : mode & 0o555));
}

function makeWritable(dir: string): void {
  chmodTree(dir, (isDir, mode) => (isDir ? 0o755 : mode | 0o200));
}

function chmodTree(dir: string, modeFor: (isDir: boolean, mode: number) => number): void {
  const entries = listTree(dir);
  // Files first, directories deepest first, so a read-only parent never blocks a child.
  for (const entry of entries.filter((e) => !e.isDir))
    chmodSync(entry.path, modeFor(false, entry.mode));
  for (const entry of entries.filter((e) => e.isDir).reverse()) {
    chmodSync(entry.path, modeFor(true, entry.mode));
  }
}

export interface TreeEntry {
  readonly path: string;
  readonly isDir: boolean;
  readonly mode: number;
}

/** Every entry under `dir` (itself included), parents before children. */
export function listTree(dir: string): TreeEntry[] {
  const out: TreeEntry[] = [];
  const visit = (current: string): void => {
    const stat = lstatSync(current);
    out.push({ path: current, isDir: stat.isDirectory(), mode: stat.mode & 0o7777 });
    if (!stat.isDirectory()) return;
    for (const name of readdirSync(current).sort()) visit(path.join(current, name));
  };
  visit(dir);
  return out;
}

/** Plan A and plan B: two small plans whose tasks share numbers, as follow-up plans do. */
export const planA = `# Plan A

## Task 1: First thing

Do the first thing.

## Task 2: Second thing

Do the second thing.
`;

export const planB = `# Plan B

## Task 1: Other thing

Do the other thing.
`;

/** The `wrote PATH: L lines` line task-brief prints, taken apart; undefined when it does not match. */
export function parseBriefLine(stdout: string): { path: string; lines: number } | undefined {
  const match = /^wrote (.+): (\d+) lines$/.exec(stdout.trim());
  if (match?.[1] === undefined || match[2] === undefined) return undefined;
  return { path: match[1], lines: Number(match[2]) };
}

/** The `wrote PATH: K commit(s), B bytes` line review-package prints, taken apart. */
export function parsePackageLine(
  stdout: string,
): { path: string; commits: number; bytes: number } | undefined {
  const match = /^wrote (.+): (\d+) commit\(s\), (\d+) bytes$/.exec(stdout.trim());
  if (match?.[1] === undefined || match[2] === undefined || match[3] === undefined) {
    return undefined;
  }
  return { path: match[1], commits: Number(match[2]), bytes: Number(match[3]) };
}
