/**
 * Scripted seats on the local model server: the server tells a subagent's
 * requests from the controller's by the dispatch prompt the subagent's
 * conversation starts from, and answers each with its seat's program (an
 * implementer that writes and commits what the brief asks for and fixes what
 * a resume lists, a reviewer that reads the diff and reports Approved or
 * Issues). The controller policies dispatch implementer then reviewer per
 * task: full-controller resumes the implementer with SendMessage on a
 * finding, full-fresh-fixer (its calibration twin) dispatches a fresh one.
 * Run on the messages backend (`stop: complete`) through the real SDK.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { isolatedGitEnv } from '../../harness/lib/git-env.js';
import { scriptedModelId, startModelServer } from '../../harness/model-server/index.js';
import { subagentReport } from '../../packs/sdd/brains/full-session.js';
import { seatPromptOf } from '../../packs/sdd/brains/seat-programs.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import {
  greetingsFixture,
  greetingsPrompt,
  PLANTED_FINDING,
} from '../session/support/greetings-fixture.js';
import {
  controllerToolUses,
  runBackendSession,
  toolResults,
} from '../session/support/run-session.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function fullSession(
  policy: 'full-controller' | 'full-fresh-fixer',
  stop: 'complete' | 'report' = 'complete',
) {
  const server = await startModelServer({ policy: 'structural' });
  closers.push(() => server.close());
  const repo = greetingsFixture();
  const run = await runBackendSession({
    backend: 'messages',
    stop,
    baseUrl: server.baseUrl,
    model: scriptedModelId(policy),
    prompt: greetingsPrompt(repo),
    fixtureRepo: repo,
    repId: `test/${policy}`,
  });
  return { repo, run };
}

function git(repo: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd: repo,
    env: isolatedGitEnv(makeTempDir()),
    encoding: 'utf8',
  });
}

describe('scripted seats of a full session', () => {
  it('full-controller: implementer then reviewer per task, the planted finding fixed by resuming the implementer', async () => {
    const { repo, run } = await fullSession('full-controller');
    expect(run.outcome.status).toEqual({ kind: 'completed' });
    expect(run.outcome.finalReply).toBe(
      [
        'Plan executed with subagents.',
        'Task 1 (Greeting function): approved after 1 review round(s).',
        'Task 2 (Farewell function): approved after 2 review round(s).',
      ].join('\n'),
    );
    const controller = controllerToolUses(run.transcript);
    const dispatches = controller.filter((use) => use.name !== 'Bash' && use.name !== 'Read');
    expect(
      dispatches.map((use) => {
        const input = use.input as Record<string, string>;
        return `${use.name} ${input.description ?? `to ${input.to}`}`;
      }),
    ).toEqual([
      'Agent Implement Task 1: Greeting function',
      'Agent Review Task 1: Greeting function',
      'Agent Implement Task 2: Farewell function',
      'Agent Review Task 2: Farewell function',
      'SendMessage to agent-3',
      'Agent Review Task 2: Farewell function',
    ]);
    const results = toolResults(run.transcript);
    const [, review1, , review2, resume, review3] = dispatches.map(
      (use) => results.get(use.id)?.text ?? '',
    );
    expect(review1).toMatch(/^Approved\. Task 1 meets its 1 review requirement/);
    expect(review2).toBe(
      `Issues:\n${PLANTED_FINDING}\n\nagentId: agent-4 (use SendMessage with to: 'agent-4' to continue this agent)`,
    );
    expect(resume).toMatch(
      /^Fixed 1 finding\(s\) of Task 2: src\/farewell\.js\. commit [0-9a-f]{7}/,
    );
    expect(review3).toMatch(/^Approved\. Task 2 meets its 2 review requirement/);
    expect(JSON.stringify(dispatches[4]?.input)).toContain(
      JSON.stringify(PLANTED_FINDING).slice(1, -1),
    );

    // The work tree is real: three commits by the implementer seats, the fix applied.
    expect(git(repo, 'log', '--format=%an %s').trim().split('\n')).toEqual([
      'Scripted-Implementer Task 2: fix review findings (round 1)',
      'Scripted-Implementer Task 2: Farewell function',
      'Scripted-Implementer Task 1: Greeting function',
      'Fixture greetings: plan and briefs',
    ]);
    expect(readFileSync(path.join(repo, 'src/farewell.js'), 'utf8')).toContain(
      '// An empty name is greeted as "friend".',
    );
    expect(git(repo, 'status', '--porcelain')).toBe('');
  });

  it('full-fresh-fixer: the fix goes to a fresh implementer, never a SendMessage', async () => {
    const { repo, run } = await fullSession('full-fresh-fixer');
    expect(run.outcome.status).toEqual({ kind: 'completed' });
    const controller = controllerToolUses(run.transcript);
    expect(controller.some((use) => use.name === 'SendMessage')).toBe(false);
    expect(
      controller
        .filter((use) => use.name === 'Agent')
        .map((use) => (use.input as { description: string }).description),
    ).toEqual([
      'Implement Task 1: Greeting function',
      'Review Task 1: Greeting function',
      'Implement Task 2: Farewell function',
      'Review Task 2: Farewell function',
      'Fix Task 2: Farewell function',
      'Review Task 2: Farewell function',
    ]);
    expect(readFileSync(path.join(repo, 'src/farewell.js'), 'utf8')).toContain(
      '// An empty name is greeted as "friend".',
    );
  });

  it('under stop: report no subagent runs: the dispatches are refused and nothing is committed', async () => {
    const { repo, run } = await fullSession('full-controller', 'report');
    expect(run.outcome.status).toEqual({ kind: 'completed' });
    expect(run.transcript.some((m) => m.parent_tool_use_id != null)).toBe(false);
    expect(git(repo, 'log', '--format=%s').trim().split('\n')).toEqual([
      'greetings: plan and briefs',
    ]);
  });

  it('subagentReport reads a report from either backend’s Agent result', () => {
    expect(
      subagentReport(
        "Approved. Fine.\n\nagentId: agent-2 (use SendMessage with to: 'agent-2' to continue this agent)",
      ),
    ).toBe('Approved. Fine.');
    expect(
      subagentReport(
        "[Subagent hand-back] The text below is the final report. The report follows:\n  Issues:\n  - `a` must contain: b\nagentId: a1 (use SendMessage with to: 'a1', summary: '<recap>' to continue this agent)\n<usage>tool_uses: 3</usage>",
      ),
    ).toBe('Issues:\n- `a` must contain: b');
  });

  it('tells a seat prompt from any other prompt', () => {
    expect(
      seatPromptOf(
        'Implement Task 1 (X) of the plan docs/p.md.\n\nYour brief is /w/task-1-brief.md: read it first',
      ),
    ).toBeUndefined();
    expect(
      seatPromptOf('You are the reviewer of Task 2 (Farewell).\nBrief: /r/b.md\nRepository: /r'),
    ).toBeUndefined();
    expect(
      seatPromptOf(
        'You are the reviewer of Task 2 (Farewell).\nBrief: /r/b.md\nRepository: /r\nReview range: abc1234..HEAD\nReview round: 2',
      ),
    ).toEqual({
      role: 'reviewer',
      task: 2,
      title: 'Farewell',
      brief: '/r/b.md',
      repo: '/r',
      base: 'abc1234',
      round: 2,
    });
    // Claude Code may put other text before the prompt in a subagent's first message.
    expect(
      seatPromptOf(
        '<context>…</context>\nYou are the implementer of Task 1 (X).\nBrief: /b.md\nRepository: /r',
      )?.role,
    ).toBe('implementer');
  });
});
