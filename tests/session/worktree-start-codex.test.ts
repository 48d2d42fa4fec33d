/**
 * A session started in a worktree beside its repository, through the real
 * Codex CLI binary inside redgreen's bubblewrap: `scenario lint --backend
 * codex` of a scenario on slugkit's `beside-worktree`, whose policies write,
 * without a `cd` of their own, where the shell runs (`pwd`, git's top level,
 * the branch) into `where.txt` of the checkout the session started in. The
 * must-pass policy records the worktree on branch slugify; the planted
 * must-fail one records the main checkout beside it, and fails the check, so
 * the check can fail. Skipped, with the reason printed, where the binary or a
 * working bubblewrap is absent.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { codexSkipReason } from '../helpers/codex-skip.js';
import { makeTempDir } from '../helpers/temp-dir.js';

const skip = await codexSkipReason('codex worktree start test');

const WHERE = '{ pwd; git rev-parse --show-toplevel --abbrev-ref HEAD; }';

const scenario = {
  id: 'codex-start-worktree',
  title: 'Where a session started in a worktree runs its shell',
  description: 'The session writes where its shell runs, without a cd of its own.',
  fixture: { recipe: 'slugkit', scenario: 'beside-worktree' },
  prompt: { template: 'prompt.hbs', variables: {} },
  checks: {
    post: [
      {
        id: 'shell-in-worktree',
        verb: 'file-contains',
        path: 'where.txt',
        // pwd and git's top level are one path, the worktree beside the repository, on slugify.
        pattern: '^(/\\S*/slugkit-slugify)\\n\\1\\nslugify\\n$',
        caseSensitive: true,
      },
    ],
  },
  calibration: {
    mustPass: [
      { policy: 'where-here', library: 'devflow', layout: 'default', why: 'records its shell' },
    ],
    mustFail: [
      {
        policy: 'where-main',
        library: 'devflow',
        layout: 'default',
        failing: ['shell-in-worktree'],
        why: 'planted: records the main checkout beside the worktree',
      },
    ],
  },
};

const policy = (summary: string, command: string): string =>
  `summary: ${summary}\nsteps:\n  - tool: Bash\n    input:\n      command: ${JSON.stringify(command)}\n      description: Where am I\n  - reply: Done.\n`;

describe.skipIf(skip !== undefined)('codex starting in a beside worktree', () => {
  it('runs its shell in the worktree, where a session in the main checkout fails the check', async () => {
    const root = makeTempDir('redgreen-codex-worktree-');
    const dir = path.join(root, 'codex-start-worktree');
    mkdirSync(path.join(dir, 'policies'), { recursive: true });
    writeFileSync(path.join(dir, 'scenario.json'), `${JSON.stringify(scenario, null, 2)}\n`);
    writeFileSync(path.join(dir, 'prompt.hbs'), 'Write down where you are.\n');
    writeFileSync(
      path.join(dir, 'policies', 'where-here.yaml'),
      policy('records where its shell runs', `${WHERE} > where.txt`),
    );
    writeFileSync(
      path.join(dir, 'policies', 'where-main.yaml'),
      policy(
        'records the main checkout',
        `cd ../slugkit && ${WHERE} > ../slugkit-slugify/where.txt`,
      ),
    );
    const keep = path.join(root, 'keep');
    const result = await runCli(['scenario', 'lint', dir, '--backend', 'codex', '--keep', keep], {
      timeoutMs: 120_000,
    });
    expect(result.stdout).toContain(
      '| calibration | where-here on devflow/default | pass | pass | yes |',
    );
    expect(result.stdout).toContain(
      '| calibration | where-main on devflow/default | fail (shell-in-worktree) | fail (shell-in-worktree) | yes |',
    );
    expect(result.exitCode, result.stderr).toBe(0);
    // The engine itself reports the worktree as its working directory.
    const reps = path.join(keep, '1-where-here', 'reps');
    const [arm] = readdirSync(reps);
    const [rep] = readdirSync(path.join(reps, String(arm)));
    const init = JSON.parse(
      readFileSync(path.join(reps, String(arm), String(rep), 'transcript.jsonl'), 'utf8').split(
        '\n',
      )[0] ?? '{}',
    ) as { cwd?: string; engine?: string };
    expect(init.engine).toMatch(/^codex-cli /);
    expect(init.cwd).toMatch(/\/slugkit-slugify$/);
  }, 120_000);
});
