/**
 * The relnotes fixture recipe of the full-session scenarios, built through the
 * real CLI (`redgreen fixture --all`, sanity gate included), and its suite run
 * at the moments a session passes through: at HEAD (passes, as the recipe
 * claims), after an implementer wrote a brief's files (the planted defect
 * makes `npm test` fail; the other variants still pass), and after the
 * review's findings were applied with the scripted fixer's own shell commands
 * (passes again; the defect, the missing export or the extra file is gone).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedGitEnv } from '../../harness/lib/git-env.js';
import { type Finding, findingsIn, fixCommands } from '../../packs/sdd/brains/review-findings.js';
import { runCli } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';

const createBlock = /^Create `([^`]+)`:\s*\n+```[^\n]*\n([\s\S]*?)\n```/gm;

/** Write every file a brief gives, as the scripted implementer does. */
function implement(repo: string, brief: string): string[] {
  const text = readFileSync(path.join(repo, brief), 'utf8');
  return [...text.matchAll(createBlock)].map((match) => {
    const file = match[1] ?? '';
    mkdirSync(path.dirname(path.join(repo, file)), { recursive: true });
    writeFileSync(path.join(repo, file), `${match[2] ?? ''}\n`);
    return file;
  });
}

/** Commit the work tree as an implementer would. */
function commitAll(repo: string, home: string, message: string): void {
  const env = {
    ...isolatedGitEnv(home),
    GIT_AUTHOR_NAME: 'Test',
    GIT_AUTHOR_EMAIL: 'test@redgreen.invalid',
    GIT_COMMITTER_NAME: 'Test',
    GIT_COMMITTER_EMAIL: 'test@redgreen.invalid',
  };
  execFileSync('git', ['add', '-A'], { cwd: repo, env, stdio: 'ignore' });
  execFileSync('git', ['commit', '-q', '-m', message], { cwd: repo, env, stdio: 'ignore' });
}

/** Apply findings with the scripted fixer's shell commands, in bash, in the repository. */
function applyFindings(repo: string, home: string, findings: readonly Finding[]): void {
  const { commands } = fixCommands(findings);
  execFileSync('bash', ['-c', commands.join(' && ')], {
    cwd: repo,
    env: { ...isolatedGitEnv(home), PATH: process.env.PATH ?? '/usr/bin:/bin' },
  });
}

function nodeTests(repo: string): { ok: boolean; output: string } {
  const run = spawnSync(process.execPath, ['--test'], {
    cwd: repo,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { ok: run.status === 0, output: `${run.stdout}${run.stderr}` };
}

/** Build one variant (scoped layout) through the CLI; its repository and a private HOME for git. */
async function build(variant: string): Promise<{ repo: string; home: string }> {
  const root = makeTempDir('redgreen-relnotes-');
  const repo = path.join(root, variant);
  const home = path.join(root, 'home');
  mkdirSync(home);
  const result = await runCli([
    'fixture',
    '--recipe',
    'packs/sdd/fixtures/relnotes',
    variant,
    'scoped',
    repo,
  ]);
  expect(result.exitCode, result.stderr).toBe(0);
  return { repo, home };
}

describe('the relnotes fixture recipe', () => {
  it('builds its three variants through the sanity gate, each with its plan and briefs', async () => {
    const root = makeTempDir('redgreen-relnotes-');
    const built = path.join(root, 'built');
    const all = await runCli([
      'fixture',
      '--recipe',
      'packs/sdd/fixtures/relnotes',
      '--all',
      built,
    ]);
    expect(all.exitCode, all.stderr).toBe(0);
    for (const [variant, plan] of [
      ['resume-fix', 'docs/plans/2026-10-14-render-notes.md'],
      ['planted-defect', 'docs/plans/2026-10-15-duplicate-entries.md'],
      ['extra-features', 'docs/plans/2026-10-16-breaking-changes.md'],
    ] as const) {
      const repo = path.join(built, `${variant}-scoped`);
      expect(existsSync(path.join(repo, plan)), variant).toBe(true);
      const planText = readFileSync(path.join(repo, plan), 'utf8');
      for (const brief of planText.matchAll(/^Brief: (\S+)$/gm)) {
        expect(existsSync(path.join(repo, brief[1] ?? '')), brief[1]).toBe(true);
      }
      expect(nodeTests(repo).ok, variant).toBe(true);
    }
  });

  it('planted-defect: Task 1 as briefed passes its own test but breaks `npm test`; the review finding fixes it', async () => {
    const { repo, home } = await build('planted-defect');
    const brief = 'docs/briefs/duplicate-entries/task-1.md';
    implement(repo, brief);
    const ownTest = spawnSync(process.execPath, ['--test', 'test/unique.test.js'], {
      cwd: repo,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      encoding: 'utf8',
    });
    expect(ownTest.status, ownTest.stdout).toBe(0);
    const suite = nodeTests(repo);
    expect(suite.ok).toBe(false);
    expect(suite.output).toContain("entries keep the log's order");
    commitAll(repo, home, 'Task 1: drop repeated entries');
    // What a thorough reviewer reports: the requirements src/sections.js breaks at HEAD.
    const committed = readFileSync(path.join(repo, 'src/sections.js'), 'utf8');
    const broken = findingsIn(readFileSync(path.join(repo, brief), 'utf8')).filter((finding) =>
      finding.kind === 'absent'
        ? committed.includes(finding.text)
        : finding.kind === 'contain' && !committed.includes(finding.text),
    );
    expect(broken.map((finding) => finding.kind)).toEqual(['absent', 'contain']);
    applyFindings(repo, home, broken);
    const fixed = readFileSync(path.join(repo, 'src/sections.js'), 'utf8');
    expect(fixed).not.toContain('.sort()');
    expect(fixed).toContain('  return [...new Set(entries)];');
    expect(nodeTests(repo).ok).toBe(true);
  });

  it('resume-fix: Task 2 as briefed misses its UNRELEASED export; the appended finding adds it', async () => {
    const { repo, home } = await build('resume-fix');
    implement(repo, 'docs/briefs/render-notes/task-1.md');
    implement(repo, 'docs/briefs/render-notes/task-2.md');
    expect(nodeTests(repo).ok).toBe(true);
    const heading = path.join(repo, 'src/heading.js');
    expect(readFileSync(heading, 'utf8')).not.toContain('UNRELEASED');
    const findings = findingsIn(
      readFileSync(path.join(repo, 'docs/briefs/render-notes/task-2.md'), 'utf8'),
    );
    applyFindings(
      repo,
      home,
      findings.filter(
        (finding) => finding.kind === 'contain' && finding.text.includes('UNRELEASED'),
      ),
    );
    const module = (await import(heading)) as { UNRELEASED?: string };
    expect(module.UNRELEASED).toBe('Unreleased');
    expect(nodeTests(repo).ok).toBe(true);
  });

  it('extra-features: an implementer that writes every file of Task 2’s brief adds one the plan never names; removing it keeps the suite green', async () => {
    const { repo, home } = await build('extra-features');
    implement(repo, 'docs/briefs/breaking-changes/task-1.md');
    const written = implement(repo, 'docs/briefs/breaking-changes/task-2.md');
    expect(written).toEqual(['src/breaking.js', 'test/breaking.test.js', 'src/render-html.js']);
    const plan = readFileSync(path.join(repo, 'docs/plans/2026-10-16-breaking-changes.md'), 'utf8');
    expect(plan).not.toContain('render-html');
    expect(nodeTests(repo).ok).toBe(true);
    commitAll(repo, home, 'Task 2: breaking changes list');
    applyFindings(repo, home, [{ kind: 'remove', path: 'src/render-html.js', task: 2 }]);
    expect(existsSync(path.join(repo, 'src/render-html.js'))).toBe(false);
    expect(existsSync(path.join(repo, 'src/breaking.js'))).toBe(true);
    expect(nodeTests(repo).ok).toBe(true);
  });
});
