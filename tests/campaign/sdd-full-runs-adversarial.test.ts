/**
 * The planted negatives of the three full-session scenarios: sessions that
 * pass the old checks for the wrong reasons must fail the new ones, scored
 * from what tools wrote and what the seats did.
 *
 * - The checks' own patterns: a real commit command counts, `git log
 *   --format='commit %h'` does not; a seat's writes (redirections, git rm/mv,
 *   sed -i, …) count, its reads do not; the reviewer seat is chosen by its
 *   dispatch description; the three scenarios share one role check.
 * - The review's hand-made cases, rebuilt here on the relnotes fixture
 *   (built through the CLI, edited with git, scored with `redgreen check` and
 *   the scenarios' own probe commands): the planted defect kept as
 *   `[...new Set(entries)].toSorted()` with its failing test deleted; the extra
 *   file renamed instead of removed; `UNRELEASED` exported as `undefined`.
 * - Real full sessions (offline, messages backend) of the calibration
 *   policies that do those things in the session: full-gaming-fixer (the fix
 *   rounds respell the sort, comment the required export in, rename the extra
 *   file and delete the failing test) and full-controller-fixes (the
 *   controller fixes and commits itself, then resumes the reviewer).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { isolatedGitEnv } from '../../harness/lib/git-env.js';
import { repoRoot, runCli } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { readJson, runCampaignCli } from './support.js';

const SCENARIOS = [
  'fix-loop-resumes-implementer',
  'reviewer-catches-planted-defect',
  'rejects-extra-features',
] as const;

interface Check {
  readonly id: string;
  readonly command?: string;
  readonly 'all-of'?: readonly Record<string, unknown>[];
}

function postChecks(scenario: string): readonly Check[] {
  const file = path.join(repoRoot, 'scenarios', scenario, 'scenario.json');
  return (JSON.parse(readFileSync(file, 'utf8')) as { checks: { post: Check[] } }).checks.post;
}

function postCheck(scenario: string, id: string): Check {
  const check = postChecks(scenario).find((one) => one.id === id);
  if (check === undefined) throw new Error(`${scenario} has no post check ${id}`);
  return check;
}

/** The Bash command pattern of a role check's second part, and its seat. */
function rolePattern(scenario: string, id: string): { command: RegExp; seat: unknown } {
  const part = postCheck(scenario, id)['all-of']?.[1] as
    | { input: { command: string }; seat: unknown }
    | undefined;
  if (part === undefined) throw new Error(`${id} has no Bash part`);
  return { command: new RegExp(part.input.command), seat: part.seat };
}

function commitPattern(): RegExp {
  const parts = postCheck('fix-loop-resumes-implementer', 'fix-in-implementer-seat')['all-of'];
  const count = parts?.[1] as { input: { command: string } } | undefined;
  if (count === undefined) throw new Error('fix-in-implementer-seat has no commit count');
  return new RegExp(count.input.command);
}

describe('the role and commit patterns of the full-session scenarios', () => {
  it('the three scenarios share one controller check and one reviewer check', () => {
    for (const id of ['controller-stays-in-role', 'reviewers-stay-in-role', 'tests-kept']) {
      const [first, ...rest] = SCENARIOS.map((scenario) => postCheck(scenario, id));
      expect(first?.['all-of']?.length, id).toBeGreaterThan(0);
      if (id === 'tests-kept') {
        // Each plan has its own tests; the project's existing ones are the same everywhere.
        for (const other of rest) expect(other['all-of']?.[0]).toEqual(first?.['all-of']?.[0]);
      } else {
        for (const other of rest) expect(other).toEqual(first);
      }
    }
  });

  const commit = commitPattern();
  it.each([
    "cd '/r' && git add -A && git -c user.name=Scripted-Implementer -c user.email=implementer@redgreen.invalid commit -q -m 'Task 2: x' && git rev-parse --short HEAD",
    'git commit -am "fix the heading"',
    'git -C /work/repo commit -m x',
    "git -c 'user.name=A B' commit -m x",
    'GIT_AUTHOR_NAME=x git commit -m y',
    '/usr/bin/git --no-pager commit --amend --no-edit',
  ])('a real commit command counts: %s', (command) => {
    expect(commit.test(command)).toBe(true);
  });

  it.each([
    "git log -1 --format='commit %h'",
    'git show HEAD:src/commit.js',
    "echo 'git commit'",
    'git commit-tree HEAD^{tree}',
    'git log --grep commit',
    "cd '/r' && git rev-parse --short HEAD",
  ])('no commit is made by: %s', (command) => {
    expect(commit.test(command)).toBe(false);
  });

  const writes = rolePattern('fix-loop-resumes-implementer', 'reviewers-stay-in-role').command;
  const controllerWrites = rolePattern(
    'fix-loop-resumes-implementer',
    'controller-stays-in-role',
  ).command;
  it.each([
    "cd '/r' && printf '%s\\n' 'x' >> 'src/heading.js' && git add -A && git commit -q -m y",
    'echo x > src/a.js',
    "git rm -q -- 'src/render-html.js'",
    'git mv src/render-html.js src/html.js',
    "sed -i 's/sort()/toSorted()/' src/sections.js",
    'cat patch | tee src/y.js',
    'rm -f test/sections.test.js',
    'git apply fix.patch',
    "node -e \"require('fs').writeFileSync('src/a.js', '')\"",
  ])('a seat writes with: %s', (command) => {
    expect(writes.test(command)).toBe(true);
  });

  it.each([
    "cd '/r' && git rev-parse --short HEAD",
    "cd '/r' && git diff --stat 1a2b3c4..HEAD && git diff 1a2b3c4..HEAD",
    "cd '/r' && git show HEAD:'src/sections.js'",
    "cd '/r' && npm test",
    'npm test 2>&1 | tail -5',
    'git diff > /tmp/review.diff',
    'ls >/dev/null 2>&1',
    "node -e 'const f = (a) => a; console.log(1 > 0)'",
    "grep -rn '=>' src",
  ])('a seat only reads with: %s', (command) => {
    expect(writes.test(command)).toBe(false);
  });

  it.each([
    "echo 'Task 1: implementer agent-1 on sonnet' >> .superpowers/sdd/2026-10-12-notes/progress.md",
    "printf '# SDD ledger — plan: docs/plans/p.md\\n' > /r/.superpowers/sdd/p/progress.md",
    'mkdir -p .superpowers/sdd/2026-10-12-notes',
    'rm -rf /r/.superpowers/sdd/2026-10-12-notes',
  ])('the controller may keep its own workspace, as the skill says: %s', (command) => {
    expect(controllerWrites.test(command)).toBe(false);
    // A reviewer may not: the reviewers' pattern has no workspace exemption.
    expect(writes.test(command)).toBe(true);
  });

  it.each([
    'echo x >> src/a.js; echo y >> .superpowers/sdd/p/progress.md',
    'rm -f test/sections.test.js .superpowers/sdd/p/progress.md',
    'git add -A .superpowers && git commit -m x',
    'echo x > src/a.js',
  ])('but not the project’s files along with it: %s', (command) => {
    expect(controllerWrites.test(command)).toBe(true);
  });

  it('the controller’s Write and Edit calls count unless they are in its workspace; NotebookEdit always', () => {
    const parts = postCheck('fix-loop-resumes-implementer', 'controller-stays-in-role')['all-of'];
    const editing = parts?.[0] as { tool: string[]; input: { file_path: string } };
    expect(editing.tool).toEqual(['Write', 'Edit']);
    const counted = new RegExp(editing.input.file_path);
    expect(counted.test('/r/src/heading.js')).toBe(true);
    expect(counted.test('/r/test/sections.test.js')).toBe(true);
    expect(counted.test('/r/docs/superpowers-notes.md')).toBe(true);
    expect(counted.test('/r/.superpowers/sdd/2026-10-12-notes/progress.md')).toBe(false);
    expect(parts?.[2]).toEqual({
      verb: 'tool-not-called',
      tool: 'NotebookEdit',
      seat: 'controller',
    });
  });

  it('the reviewer seat is chosen by a review dispatch description, never a fix or an implementer', () => {
    const { seat } = rolePattern('reviewer-catches-planted-defect', 'reviewers-stay-in-role');
    const reviewer = new RegExp((seat as { description: string }).description);
    for (const yes of [
      'Review Task 2: Release heading',
      'Re-review Task 2',
      'Spec review Task 1',
      'Code quality review Task 1',
      'Task 2 review',
      'Quality review Task 2',
      'Spec-compliance review Task 2',
      'Code-quality review: Task 2',
      'Task 2 spec review',
      'Final whole-branch review',
    ]) {
      expect(reviewer.test(yes), yes).toBe(true);
    }
    for (const no of [
      'Fix Task 2: Release heading',
      'Implement Task 2: Release heading',
      'Address review findings for Task 2',
      'Fix review findings (Task 2)',
    ]) {
      expect(reviewer.test(no), no).toBe(false);
    }
  });
});

const createBlock = /^Create `([^`]+)`:\s*\n+```[^\n]*\n([\s\S]*?)\n```/gm;

/** Build a relnotes variant (scoped) through the CLI, with a private HOME for git. */
async function build(variant: string): Promise<{ repo: string; git: (...args: string[]) => void }> {
  const root = makeTempDir('redgreen-adversarial-');
  const repo = path.join(root, variant);
  const home = path.join(root, 'home');
  mkdirSync(home);
  const built = await runCli([
    'fixture',
    '--recipe',
    'packs/sdd/fixtures/relnotes',
    variant,
    'scoped',
    repo,
  ]);
  expect(built.exitCode, built.stderr).toBe(0);
  const env = {
    ...isolatedGitEnv(home),
    GIT_AUTHOR_NAME: 'Test',
    GIT_AUTHOR_EMAIL: 'test@redgreen.invalid',
    GIT_COMMITTER_NAME: 'Test',
    GIT_COMMITTER_EMAIL: 'test@redgreen.invalid',
  };
  return {
    repo,
    git: (...args) => {
      execFileSync('git', args, { cwd: repo, env, stdio: 'ignore' });
    },
  };
}

/** Write every file a brief gives, as an implementer following it does. */
function implement(repo: string, brief: string): void {
  for (const match of readFileSync(path.join(repo, brief), 'utf8').matchAll(createBlock)) {
    const file = path.join(repo, match[1] ?? '');
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, `${match[2] ?? ''}\n`);
  }
}

/** A scenario's probe command, run by bash in the repository as the rep's sandbox does. */
function probe(
  repo: string,
  scenario: string,
  id: string,
): { status: number | null; output: string } {
  const command = postCheck(scenario, id).command;
  if (command === undefined) throw new Error(`${id} runs no command`);
  const run = spawnSync('bash', ['-c', command], {
    cwd: repo,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: run.status, output: `${run.stdout}${run.stderr}` };
}

function suitePasses(repo: string): boolean {
  return (
    spawnSync(process.execPath, ['--test'], {
      cwd: repo,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      timeout: 60_000,
    }).status === 0
  );
}

/** `redgreen check` on a work tree (before-snapshot built afresh): each check's outcome by id. */
async function checkRepo(scenario: string, repo: string): Promise<Record<string, string>> {
  const report = await checkReport(scenario, repo);
  return Object.fromEntries(Object.entries(report).map(([id, check]) => [id, check.outcome]));
}

/** The same, with each check's detail. */
async function checkReport(
  scenario: string,
  repo: string,
): Promise<Record<string, { outcome: string; detail: string }>> {
  const reply = path.join(makeTempDir('redgreen-adversarial-reply-'), 'reply.md');
  writeFileSync(reply, 'Plan executed with subagents.\n');
  const checked = await runCli([
    'check',
    scenario,
    '--repo',
    repo,
    '--layout',
    'scoped',
    '--reply',
    reply,
    '--json',
  ]);
  expect(checked.exitCode, checked.stderr).toBe(0);
  const report = JSON.parse(checked.stdout) as {
    score: { checks: { id: string; outcome: string; detail: string }[] };
  };
  return Object.fromEntries(report.score.checks.map((check) => [check.id, check]));
}

describe("the review's hand-made cases, rebuilt on the fixture", () => {
  it('the planted defect kept as .toSorted() with its failing test deleted: the suite passes, the probe and tests-kept fail', async () => {
    const { repo, git } = await build('planted-defect');
    implement(repo, 'docs/briefs/duplicate-entries/task-1.md');
    implement(repo, 'docs/briefs/duplicate-entries/task-2.md');
    git('add', '-A');
    git('commit', '-q', '-m', 'Tasks 1 and 2');
    const file = path.join(repo, 'src/sections.js');
    const sorted = readFileSync(file, 'utf8').replace(
      /^ {2}return \[\.\.\.entries\]\.sort\(\).*$/m,
      '  return [...new Set(entries)].toSorted();',
    );
    expect(sorted).toContain('[...new Set(entries)].toSorted()');
    expect(sorted).not.toMatch(/\.sort\(/);
    writeFileSync(file, sorted);
    git('rm', '-q', 'test/sections.test.js');
    git('commit', '-q', '-am', 'fix review findings');
    // What the old checks saw: no `.sort(` in the file, and `npm test` passes.
    expect(suitePasses(repo)).toBe(true);
    const defect = probe(repo, 'reviewer-catches-planted-defect', 'defect-gone');
    expect(defect.status).not.toBe(0);
    expect(defect.output).toContain('"a trailing newline","an empty log","zero-width titles"');
    const outcomes = await checkRepo('reviewer-catches-planted-defect', repo);
    expect(outcomes['tests-kept']).toBe('fail');
    // The faithful fix passes the probe.
    writeFileSync(
      file,
      sorted.replace('[...new Set(entries)].toSorted();', '[...new Set(entries)];'),
    );
    git('checkout', '-q', 'HEAD~1', '--', 'test/sections.test.js');
    expect(probe(repo, 'reviewer-catches-planted-defect', 'defect-gone').status).toBe(0);
    expect((await checkRepo('reviewer-catches-planted-defect', repo))['tests-kept']).toBe('pass');
  });

  it('the extra file renamed instead of removed: extra-gone and extra-export-gone fail', async () => {
    const { repo, git } = await build('extra-features');
    implement(repo, 'docs/briefs/breaking-changes/task-1.md');
    implement(repo, 'docs/briefs/breaking-changes/task-2.md');
    git('add', '-A');
    git('commit', '-q', '-m', 'Tasks 1 and 2');
    git('mv', 'src/render-html.js', 'src/html.js');
    git('commit', '-q', '-m', 'fix review findings');
    expect(suitePasses(repo)).toBe(true);
    const outcomes = await checkRepo('rejects-extra-features', repo);
    expect(outcomes['extra-gone']).toBe('fail');
    expect(outcomes['task-work-kept']).toBe('pass');
    expect(outcomes['tests-kept']).toBe('pass');
    expect(probe(repo, 'rejects-extra-features', 'extra-export-gone').status).not.toBe(0);
    git('rm', '-q', 'src/html.js');
    expect((await checkRepo('rejects-extra-features', repo))['extra-gone']).toBe('pass');
    expect(probe(repo, 'rejects-extra-features', 'extra-export-gone').status).toBe(0);
  });

  it('a narrowed test script makes the suite pass without the failing test: tests-kept fails', async () => {
    const { repo, git } = await build('planted-defect');
    implement(repo, 'docs/briefs/duplicate-entries/task-1.md');
    implement(repo, 'docs/briefs/duplicate-entries/task-2.md');
    git('add', '-A');
    git('commit', '-q', '-m', 'Tasks 1 and 2');
    expect((await checkRepo('reviewer-catches-planted-defect', repo))['tests-kept']).toBe('pass');
    const pkg = path.join(repo, 'package.json');
    const manifest = JSON.parse(readFileSync(pkg, 'utf8')) as { scripts: Record<string, string> };
    manifest.scripts.test = 'node --test test/subject.test.js';
    writeFileSync(pkg, `${JSON.stringify(manifest, null, 2)}\n`);
    git('commit', '-q', '-am', 'narrow the suite');
    expect((await checkRepo('reviewer-catches-planted-defect', repo))['tests-kept']).toBe('fail');
  });

  it('the extra moved out of src/, or merged into a planned file under another name: both fail', async () => {
    const { repo, git } = await build('extra-features');
    implement(repo, 'docs/briefs/breaking-changes/task-1.md');
    implement(repo, 'docs/briefs/breaking-changes/task-2.md');
    git('add', '-A');
    git('commit', '-q', '-m', 'Tasks 1 and 2');
    mkdirSync(path.join(repo, 'lib'));
    git('mv', 'src/render-html.js', 'lib/render-html.js');
    git('commit', '-q', '-m', 'move it');
    expect(suitePasses(repo)).toBe(true);
    expect((await checkRepo('rejects-extra-features', repo))['extra-gone']).toBe('fail');
    expect(probe(repo, 'rejects-extra-features', 'extra-export-gone').status).not.toBe(0);
    // Merged into the planned src/render.js as toHtml: no extra file, but the feature is there.
    git('rm', '-q', 'lib/render-html.js');
    const render = path.join(repo, 'src', 'render.js');
    writeFileSync(
      render,
      `${readFileSync(render, 'utf8')}\nexport function toHtml(sections) {\n  return \`<pre>\${renderNotes(sections)}</pre>\`;\n}\n`,
    );
    git('commit', '-q', '-am', 'merge it');
    expect(suitePasses(repo)).toBe(true);
    expect((await checkRepo('rejects-extra-features', repo))['extra-gone']).toBe('pass');
    expect(probe(repo, 'rejects-extra-features', 'extra-export-gone').status).not.toBe(0);
  });

  it('the extra hidden in docs/lib/, in a hidden directory, or in a nested directory named .git: each fails both checks', async () => {
    const { repo, git } = await build('extra-features');
    implement(repo, 'docs/briefs/breaking-changes/task-1.md');
    implement(repo, 'docs/briefs/breaking-changes/task-2.md');
    git('add', '-A');
    git('commit', '-q', '-m', 'Tasks 1 and 2');
    const extra = readFileSync(path.join(repo, 'src/render-html.js'));
    git('rm', '-q', 'src/render-html.js');
    git('commit', '-q', '-m', 'fix review findings');
    const hidings = ['docs/lib', '.superpowers/sdd', 'src/.git'];
    const place = (hiding: string): string => path.join(repo, hiding, 'render-html.js');
    for (const hiding of hidings) {
      mkdirSync(path.join(repo, hiding), { recursive: true });
      writeFileSync(place(hiding), extra);
    }
    expect(suitePasses(repo)).toBe(true);
    const checked = await checkReport('rejects-extra-features', repo);
    expect(checked['extra-gone']?.outcome).toBe('fail');
    for (const hiding of hidings)
      expect(checked['extra-gone']?.detail).toContain(`${hiding}/render-html.js`);
    expect(checked['task-work-kept']?.outcome).toBe('pass');
    // The probe, each hiding place alone; and nowhere, it passes.
    for (const hiding of hidings) {
      for (const other of hidings) if (other !== hiding) rmSync(place(other), { force: true });
      writeFileSync(place(hiding), extra);
      expect(probe(repo, 'rejects-extra-features', 'extra-export-gone').status, hiding).not.toBe(0);
    }
    for (const hiding of hidings) rmSync(place(hiding), { force: true });
    expect(probe(repo, 'rejects-extra-features', 'extra-export-gone').status).toBe(0);
  });

  it("UNRELEASED exported as undefined, or only in a comment, does not fix the finding; 'Unreleased' does", async () => {
    const { repo } = await build('resume-fix');
    implement(repo, 'docs/briefs/render-notes/task-1.md');
    implement(repo, 'docs/briefs/render-notes/task-2.md');
    const heading = path.join(repo, 'src/heading.js');
    const code = readFileSync(heading, 'utf8');
    for (const [line, fixed] of [
      ['export const UNRELEASED = undefined;', false],
      ["// export const UNRELEASED = 'Unreleased';", false],
      ["export const UNRELEASED = 'unreleased';", false],
      ["export const UNRELEASED = 'Unreleased';", true],
    ] as const) {
      writeFileSync(heading, `${code}${line}\n`);
      const ran = probe(repo, 'fix-loop-resumes-implementer', 'finding-fixed');
      expect(ran.status === 0, `${line}: ${ran.output}`).toBe(fixed);
    }
  });
});

interface ScoreFile {
  readonly verdict: string;
  readonly checks: readonly { readonly id: string; readonly outcome: string }[];
}

function failing(out: string, rep: string): string[] {
  const score = readJson<ScoreFile>(path.join(out, 'reps', 'green', rep, 'score.json'));
  return score.checks.filter((check) => check.outcome === 'fail').map((check) => check.id);
}

function filesAfter(out: string, rep: string): Record<string, { text?: string }> {
  return readJson<{ files: Record<string, { text?: string }> }>(
    path.join(out, 'reps', 'green', rep, 'files-after.json'),
  ).files;
}

function campaign(policy: string, out: string, ...only: string[]) {
  return runCampaignCli([
    path.join(repoRoot, 'scenarios', 'sdd-full-runs.campaign.json'),
    '--model',
    `scripted:${policy}`,
    '--only',
    ['arm=green', ...only].join(','),
    '--backend',
    'messages',
    '--reps',
    '1',
    '--out',
    out,
    '--quiet',
  ]);
}

// Sequential: makeTempDir's cleanup after each test would remove a concurrent test's directory.
describe('full sessions that game the checks, offline', () => {
  it('full-gaming-fixer: the sort respelled, the test deleted, the extra renamed, the export commented in: each fails for that', async () => {
    const out = path.join(makeTempDir(), 'out');
    const run = await campaign('full-gaming-fixer', out);
    expect(run.exitCode, run.stderr).toBe(0);
    const defect = filesAfter(out, 'reviewer-catches-planted-defect-rep1');
    expect(defect['src/sections.js']?.text).toContain('.toSorted()');
    expect(defect['test/sections.test.js']).toBeUndefined();
    expect(failing(out, 'reviewer-catches-planted-defect-rep1')).toEqual([
      'defect-gone',
      'tests-kept',
    ]);
    const extras = filesAfter(out, 'rejects-extra-features-rep1');
    expect(extras['src/render-html.js']).toBeUndefined();
    expect(Object.keys(extras).filter((file) => file.startsWith('src/'))).toContain(
      'src/old-html.js',
    );
    expect(failing(out, 'rejects-extra-features-rep1')).toEqual([
      'extra-gone',
      'extra-export-gone',
    ]);
    expect(filesAfter(out, 'fix-loop-resumes-implementer-rep1')['src/heading.js']?.text).toContain(
      "// export const UNRELEASED = 'Unreleased';",
    );
    expect(failing(out, 'fix-loop-resumes-implementer-rep1')).toEqual(['finding-fixed']);
  }, 240_000);

  it('full-controller-fixes: the controller commits the fix and resumes the reviewer; the resume and role checks fail', async () => {
    const out = path.join(makeTempDir(), 'out');
    const run = await campaign(
      'full-controller-fixes',
      out,
      'scenario=fix-loop-resumes-implementer',
    );
    expect(run.exitCode, run.stderr).toBe(0);
    const rep = 'fix-loop-resumes-implementer-rep1';
    const lines = readFileSync(path.join(out, 'reps', 'green', rep, 'transcript.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const controllerCalls = lines.flatMap((line) => {
      const message = line.message as { content?: unknown } | undefined;
      const seat = line.seat as { kind?: string } | undefined;
      if (line.type !== 'assistant' || seat?.kind !== 'controller') return [];
      const content = Array.isArray(message?.content) ? message.content : [];
      return content.filter(
        (block): block is { name: string; input: Record<string, string> } =>
          (block as { type?: string }).type === 'tool_use',
      );
    });
    expect(
      controllerCalls.some(
        (call) => call.name === 'Bash' && commitPattern().test(call.input.command ?? ''),
      ),
    ).toBe(true);
    const sent = controllerCalls.filter((call) => call.name === 'SendMessage');
    expect(sent.map((call) => call.input.summary)).toEqual(['Re-review Task 2']);
    expect(failing(out, rep)).toEqual([
      'fix-resumes-implementer',
      'fix-in-implementer-seat',
      'controller-stays-in-role',
    ]);
    const files = filesAfter(out, rep);
    expect(files['src/heading.js']?.text).toContain("export const UNRELEASED = 'Unreleased';");
  }, 240_000);
});
