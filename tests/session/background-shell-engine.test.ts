/**
 * A session's result ends its rep on the claude-code backend even when the
 * engine keeps a background shell running: the engine would hold its
 * process (and the held result) open for the shell up to the session
 * timeout, and the rep came out indeterminate (`timeout`) instead of what
 * the session did (here: the turn limit). The shell ends with the session.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { allProcesses } from '../helpers/process-tree.js';
import { widgetFixture } from '../model-server/support/fixture.js';
import { engineUnavailable, runBackendSession } from './support/run-session.js';
import { startScriptBrain } from './support/script-brain.js';

const unavailable = engineUnavailable();
if (unavailable !== undefined) process.stdout.write(`engine tests skipped: ${unavailable}\n`);

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

describe.skipIf(unavailable !== undefined)('a background shell on the claude-code backend', () => {
  it('does not keep the rep to the session timeout: the turn limit is reported, the shell is gone', async () => {
    const marker = `redgreen-background-${process.pid}`;
    const brain = await startScriptBrain([
      [
        {
          type: 'tool_use',
          id: 'toolu_background',
          name: 'Bash',
          input: { command: `exec -a ${marker} sleep 600`, run_in_background: true },
        },
      ],
      [{ type: 'text', text: 'TASKS ALREADY COMPLETE: none\nFIRST DISPATCH: Task 1' }],
    ]);
    closers.push(() => brain.close());
    const run = await runBackendSession({
      backend: 'claude-code',
      stop: 'report',
      baseUrl: brain.baseUrl,
      model: 'claude-sonnet-5-5',
      prompt: 'Continue the plan.',
      fixtureRepo: await widgetFixture('s1', 'scoped'),
      limits: { maxTurns: 1, sessionTimeoutSeconds: 120 },
    });
    expect(run.outcome.status).toMatchObject({ kind: 'indeterminate', stage: 'limit' });
    expect(run.outcome.stopReason).toBe('error_max_turns');
    // The shell really ran in the background (positive control), and did not outlive the session.
    expect(JSON.stringify(run.transcript)).toContain('Command running in background');
    expect(allProcesses().filter((info) => info.command.includes(marker))).toEqual([]);
  });
});
