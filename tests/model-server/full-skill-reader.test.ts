/**
 * `full-skill-reader` on the messages backend through the real SDK: it reads
 * the SKILL.md its prompt's `Skill:` line names before anything else and
 * takes its fix rounds from the text (skill-mechanisms.ts): the breaker text
 * resumes the implementer with SendMessage; a text that names no fix-loop
 * mechanism (the plan-scoped one) gets a fresh fix subagent; a prompt without
 * a `Skill:` line runs no tool at all. Its reviewer calibration twins field
 * weaker reviewers on the same controller.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { scriptedModelId, startModelServer } from '../../harness/model-server/index.js';
import { repoRoot } from '../helpers/cli.js';
import { greetingsFixture, greetingsPrompt } from '../session/support/greetings-fixture.js';
import { controllerToolUses, runBackendSession } from '../session/support/run-session.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

const skill = (name: string): string => path.join(repoRoot, 'skills-under-test', name, 'SKILL.md');

async function session(policy: string, skillFile: string | undefined) {
  const server = await startModelServer({ policy: 'structural' });
  closers.push(() => server.close());
  const repo = greetingsFixture();
  const prompt =
    skillFile === undefined
      ? greetingsPrompt(repo)
      : `${greetingsPrompt(repo)}\nSkill: ${skillFile}`;
  const run = await runBackendSession({
    backend: 'messages',
    stop: 'complete',
    baseUrl: server.baseUrl,
    model: scriptedModelId(policy),
    prompt,
    fixtureRepo: repo,
    // The sandbox mounts the arm's skill directory: the one the Skill: line names.
    ...(skillFile === undefined ? {} : { skillDir: path.dirname(skillFile) }),
    repId: `test/${policy}`,
  });
  const controller = controllerToolUses(run.transcript);
  const moves = controller.map((use) => {
    const input = use.input as Record<string, string>;
    return use.name === 'Agent' || use.name === 'SendMessage'
      ? `${use.name} ${input.description ?? `to ${input.to}`}`
      : use.name;
  });
  return { run, controller, moves };
}

describe('full-skill-reader', () => {
  it('reads the skill first; the breaker text resumes the implementer for the fix', async () => {
    const { run, controller, moves } = await session(
      'full-skill-reader',
      skill('sdd-fix-loop-breaker'),
    );
    expect(run.outcome.status).toEqual({ kind: 'completed' });
    expect(controller[0]?.input).toEqual({ file_path: skill('sdd-fix-loop-breaker') });
    expect(moves.filter((move) => move.startsWith('SendMessage'))).toEqual([
      'SendMessage to agent-3',
    ]);
    expect(moves.some((move) => move.startsWith('Agent Fix'))).toBe(false);
  });

  it('a text with no fix-loop mechanism (plan-scoped) gets a fresh fix subagent', async () => {
    const { run, moves } = await session('full-skill-reader', skill('sdd-plan-scoped'));
    expect(run.outcome.status).toEqual({ kind: 'completed' });
    expect(moves.some((move) => move.startsWith('SendMessage'))).toBe(false);
    expect(moves).toContain('Agent Fix Task 2: Farewell function');
  });

  it('without a Skill: line it runs no tool and says what it needs', async () => {
    const { run, controller } = await session('full-skill-reader', undefined);
    expect(controller).toEqual([]);
    expect(run.outcome.finalReply).toMatch(/needs a "Skill: \/abs\/SKILL\.md" line/);
  });

  it('full-shallow-reviewer: the same controller, but its reviewer approves the planted finding', async () => {
    const { run, moves } = await session('full-shallow-reviewer', skill('sdd-fix-loop-breaker'));
    expect(run.outcome.status).toEqual({ kind: 'completed' });
    expect(moves.some((move) => move.startsWith('SendMessage'))).toBe(false);
    expect(run.outcome.finalReply).toContain(
      'Task 2 (Farewell function): approved after 1 review round(s).',
    );
  });
});
