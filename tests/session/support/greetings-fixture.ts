/**
 * A small fixture for full sessions: a git repository holding a two-task
 * plan (`docs/plan.md`) and a brief per task in the format the scripted seats
 * read (packs/sdd/brains/seat-programs.ts). Task 1's brief is
 * sound; task 2's file misses one of its review requirements (the planted
 * defect), so a reviewer reports an issue and a fix round follows. Built with
 * an isolated git environment (no host identity, fixed dates).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { isolatedGitEnv } from '../../../harness/lib/git-env.js';
import { makeTempDir } from '../../helpers/temp-dir.js';

const FENCE = '```';

const files: Readonly<Record<string, string>> = {
  'README.md': '# greetings\n\nTwo small functions, built task by task from docs/plan.md.\n',
  'docs/plan.md': [
    '# Plan: greetings',
    '',
    '### Task 1: Greeting function',
    'Brief: docs/briefs/task-1.md',
    '',
    '### Task 2: Farewell function',
    'Brief: docs/briefs/task-2.md',
    '',
  ].join('\n'),
  'docs/briefs/task-1.md': [
    '# Task 1: Greeting function',
    '',
    'Create `src/greet.js`:',
    '',
    `${FENCE}js`,
    'export function greet(name) {',
    "  return 'Hello, ' + name + '!';",
    '}',
    FENCE,
    '',
    'Test: `grep -q "export function greet" src/greet.js`',
    '',
    '## Review requirements',
    '- `src/greet.js` must contain: export function greet(name)',
    '',
  ].join('\n'),
  'docs/briefs/task-2.md': [
    '# Task 2: Farewell function',
    '',
    'Create `src/farewell.js`:',
    '',
    `${FENCE}js`,
    'export function farewell(name) {',
    "  return 'Goodbye, ' + (name || 'friend') + '!';",
    '}',
    FENCE,
    '',
    '## Review requirements',
    '- `src/farewell.js` must contain: export function farewell(name)',
    '- `src/farewell.js` must contain: // An empty name is greeted as "friend".',
    '',
  ].join('\n'),
};

/** The planted defect's requirement line, as the reviewer reports it. */
export const PLANTED_FINDING =
  '- `src/farewell.js` must contain: // An empty name is greeted as "friend".';

/** Build the fixture in a fresh temp directory; returns the repository's path. */
export function greetingsFixture(): string {
  const root = makeTempDir('redgreen-greetings-');
  const repo = path.join(root, 'repo');
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(repo, file)), { recursive: true });
    writeFileSync(path.join(repo, file), text);
  }
  const env = {
    ...isolatedGitEnv(path.join(root, 'home')),
    GIT_AUTHOR_NAME: 'Fixture',
    GIT_AUTHOR_EMAIL: 'fixture@redgreen.invalid',
    GIT_COMMITTER_NAME: 'Fixture',
    GIT_COMMITTER_EMAIL: 'fixture@redgreen.invalid',
    GIT_AUTHOR_DATE: '2026-07-06T09:00:00Z',
    GIT_COMMITTER_DATE: '2026-07-06T09:00:00Z',
  };
  mkdirSync(path.join(root, 'home'), { recursive: true });
  const git = (...args: string[]): void => {
    execFileSync('git', args, { cwd: repo, env, stdio: 'ignore' });
  };
  git('init', '-q', '-b', 'main');
  git('add', '-A');
  git('commit', '-q', '-m', 'greetings: plan and briefs');
  return repo;
}

/** The controller's prompt for a full session on the fixture. */
export function greetingsPrompt(repo: string): string {
  return [
    'Execute the plan with subagents: for each task dispatch an implementer, then a reviewer; resume the implementer to fix what the reviewer finds. Report when done.',
    `Plan: ${path.join(repo, 'docs', 'plan.md')}`,
    `Repository: ${repo}`,
  ].join('\n');
}
