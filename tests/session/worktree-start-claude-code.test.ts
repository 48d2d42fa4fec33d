/**
 * A session started in a worktree beside its repository, through the real
 * Claude Code binary with a script brain: its shell runs in the worktree (on
 * the feature branch, git's top level the worktree), and the repository
 * beside it is mounted read-write with it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildFixture } from '../../harness/fixture/build.js';
import { repoRoot } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { engineUnavailable, runBackendSession, toolResults } from './support/run-session.js';
import { startScriptBrain } from './support/script-brain.js';

const unavailable = engineUnavailable();
if (unavailable !== undefined) process.stdout.write(`engine tests skipped: ${unavailable}\n`);

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

describe.skipIf(unavailable !== undefined)('claude-code starting in a beside worktree', () => {
  it('runs its shell in the worktree, with the repository beside it writable', async () => {
    const root = path.join(makeTempDir('redgreen-beside-claude-'), 'fixture');
    const built = await buildFixture({
      recipeDir: path.join(repoRoot, 'fixtures', 'slugkit'),
      scenario: 'beside-worktree',
      layout: 'default',
      dest: root,
    });
    if (!built.ok) throw new Error(JSON.stringify(built.error));
    const worktree = path.join(root, 'slugkit-slugify');
    const brain = await startScriptBrain([
      [
        {
          type: 'tool_use',
          id: 'toolu_where',
          name: 'Bash',
          input: {
            command: 'pwd && git rev-parse --show-toplevel --abbrev-ref HEAD',
            description: 'where am I',
          },
        },
      ],
      [
        {
          type: 'tool_use',
          id: 'toolu_beside',
          name: 'Bash',
          input: { command: 'echo kept >> ../slugkit/README.md', description: 'write beside' },
        },
      ],
      [{ type: 'text', text: 'Done.' }],
    ]);
    closers.push(() => brain.close());
    const run = await runBackendSession({
      backend: 'claude-code',
      stop: 'report',
      baseUrl: brain.baseUrl,
      model: 'claude-sonnet-5-5',
      prompt: 'Look around.',
      fixtureRepo: root,
      startDir: worktree,
    });
    expect(run.outcome.status).toEqual({ kind: 'completed' });
    const results = toolResults(run.transcript);
    expect(results.get('toolu_where')?.text.trim().split('\n')).toEqual([
      worktree,
      worktree,
      'slugify',
    ]);
    expect(readFileSync(path.join(root, 'slugkit', 'README.md'), 'utf8')).toContain('kept');
  });
});
