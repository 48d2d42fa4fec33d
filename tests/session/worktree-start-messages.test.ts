/**
 * A session whose recipe starts it in a linked worktree, on the messages
 * backend with a script brain: its shell runs in the worktree (on the
 * feature branch), the transcript's init names the worktree as its cwd, and
 * it can still reach the repository's own checkout, mounted with it.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildFixture } from '../../harness/fixture/build.js';
import type { AssistantBlock } from '../../harness/model-server/assistant-message.js';
import { repoRoot } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { runBackendSession, toolResults } from './support/run-session.js';
import { startScriptBrain } from './support/script-brain.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

const bash = (id: string, command: string): AssistantBlock => ({
  type: 'tool_use',
  id,
  name: 'Bash',
  input: { command },
});

describe('a session that starts in a linked worktree', () => {
  it('runs its commands there, on the worktree branch, with the main checkout mounted too', async () => {
    const out = makeTempDir('redgreen-worktree-session-');
    const repo = path.join(out, 'fixture');
    const built = await buildFixture({
      recipeDir: path.join(repoRoot, 'fixtures', 'slugkit'),
      scenario: 'feature-worktree',
      layout: 'default',
      dest: repo,
    });
    if (!built.ok) throw new Error(JSON.stringify(built.error));
    const worktree = path.join(repo, '.worktrees', 'slugify');
    const served = await startScriptBrain([
      [bash('toolu_1', 'pwd && git rev-parse --abbrev-ref HEAD')],
      [bash('toolu_2', 'echo kept >> ../../README.md && git -C ../.. status --porcelain')],
      [{ type: 'text', text: 'Done.' }],
    ]);
    closers.push(() => served.close());
    const run = await runBackendSession({
      backend: 'messages',
      stop: 'report',
      baseUrl: served.baseUrl,
      model: 'scripted:script',
      prompt: 'Look around.',
      fixtureRepo: repo,
      startDir: worktree,
    });
    expect(run.outcome.status).toEqual({ kind: 'completed' });
    const init = run.transcript.find((line) => line.type === 'system');
    expect(init?.cwd).toBe(worktree);
    const results = toolResults(run.transcript);
    expect(results.get('toolu_1')?.text).toBe(`${worktree}\nslugify\n`);
    // The repository's own checkout is inside the mount: the session could write it.
    expect(results.get('toolu_2')?.text).toContain('M README.md');
    expect(readFileSync(path.join(repo, 'README.md'), 'utf8')).toContain('kept');
  });
});
