/**
 * Policies that act: when the prompt does not forbid dispatching, each SDD
 * policy ends by dispatching the first task it chose through the offered
 * subagent tool (Agent, else Task), with an input shaped like a real
 * controller's; when the prompt forbids it (every campaign prompt in the
 * repository does), or no subagent tool is offered, or nothing is left to
 * dispatch, it writes the three-part report as before. Driven by the real SDK
 * client against the real server, tools executed for real.
 */
import path from 'node:path';
import type Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type ModelServer,
  scriptedModelId,
  startModelServer,
} from '../../harness/model-server/index.js';
import { loadPromptTemplate } from '../../harness/scenario/prompt-template.js';
import { repoRoot } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { type Layout, type Scenario, widgetFixture } from './support/fixture.js';
import { agentTool, claudeCodeTools } from './support/local-tools.js';
import { campaignPrompt, reportSections } from './support/prompt.js';
import { runSession, type SessionRecord, sdkClient } from './support/tool-loop.js';

const releasedSkill = path.join(repoRoot, 'skills-under-test', 'sdd-released');
const planScopedSkill = path.join(repoRoot, 'skills-under-test', 'sdd-plan-scoped');
const plan = 'docs/plans/2026-07-06-widget-export.md';

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const withAgent: Anthropic.Tool[] = [...claudeCodeTools, agentTool];
const withTask: Anthropic.Tool[] = [...claudeCodeTools, { ...agentTool, name: 'Task' }];

/** The continue template: the compaction-resume framing without the scope limit or the report. */
async function continuePrompt(repo: string, skillDir: string): Promise<string> {
  const template = await loadPromptTemplate(
    path.join(repoRoot, 'scenarios', 'prompts', 'compaction-resume-continue.hbs'),
    'compaction-resume-continue',
  );
  if (!template.ok) throw new Error(template.error.problem);
  return template.value.render({ fixtureRepo: repo, skillDir, planPath: plan });
}

async function play(options: {
  readonly policy: string;
  readonly repo: string;
  readonly prompt: string;
  readonly tools?: readonly Anthropic.Tool[];
  readonly sessionKey?: string;
}): Promise<SessionRecord> {
  server ??= await startModelServer({ policy: options.policy });
  return runSession({
    baseUrl: server.baseUrl,
    model: scriptedModelId(options.policy),
    prompt: options.prompt,
    cwd: options.repo,
    home: makeTempDir('redgreen-ms-home-'),
    stream: true,
    tools: options.tools ?? withAgent,
    stopAtTools: ['Agent', 'Task'],
    ...(options.sessionKey === undefined ? {} : { sessionKey: options.sessionKey }),
  });
}

const calls = (record: SessionRecord): string[] =>
  record.toolCalls.map((call) => `${call.name} ${JSON.stringify(call.input)}`);

describe('a policy under a prompt that does not forbid dispatching', () => {
  it.each<[string, Scenario, Layout, string, string]>([
    ['skill-reader', 's1', 'scoped', planScopedSkill, '.superpowers/sdd/2026-07-06-widget-export'],
    ['structural', 's2', 'scoped', planScopedSkill, '.superpowers/sdd/2026-07-06-widget-export'],
    ['always-redo', 's2', 'scoped', planScopedSkill, '.superpowers/sdd/2026-07-06-widget-export'],
    ['literal', 's2', 'flat', releasedSkill, '.superpowers/sdd'],
    ['forensic', 's2', 'flat', releasedSkill, '.superpowers/sdd'],
  ])(
    '%s (%s-%s) dispatches the task its report would name, after the same calls',
    async (policy, scenario, layout, skill, workspace) => {
      const repo = await widgetFixture(scenario, layout);
      const reported = await play({ policy, repo, prompt: campaignPrompt(repo, skill) });
      const decided = reportSections(reported.finalText)?.dispatch ?? '';
      const [, number, title] = /^Task (\d+) \((.+)\)\.$/.exec(decided) ?? [];
      expect(number).toBeDefined();

      const acted = await play({ policy, repo, prompt: await continuePrompt(repo, skill) });
      expect(calls(acted)).toEqual(calls(reported));
      expect(acted.stoppedAt?.name).toBe('Agent');
      expect(acted.stoppedAt?.input).toEqual({
        description: `Implement Task ${number}: ${title}`,
        prompt: [
          `Implement Task ${number} (${title}) of the plan ${plan}.`,
          '',
          `Your brief is ${path.join(repo, workspace, `task-${number}-brief.md`)}: read it first; it holds the task's full text.`,
          `Work in ${repo}: follow the brief, test what you build, commit it, and report back with what you did, the commit hash and any concerns.`,
        ].join('\n'),
        subagent_type: 'general-purpose',
      });
    },
  );

  it('uses Task when the request offers Task and not Agent', async () => {
    const repo = await widgetFixture('s1', 'scoped');
    const record = await play({
      policy: 'structural',
      repo,
      prompt: await continuePrompt(repo, planScopedSkill),
      tools: withTask,
    });
    expect(record.stoppedAt?.name).toBe('Task');
    expect(record.stoppedAt?.input).toMatchObject({
      description: 'Implement Task 1: Export data model',
    });
  });

  it('reports when no subagent tool is offered', async () => {
    const repo = await widgetFixture('s1', 'scoped');
    const record = await play({
      policy: 'structural',
      repo,
      prompt: await continuePrompt(repo, planScopedSkill),
      tools: claudeCodeTools,
    });
    expect(record.stoppedAt).toBeUndefined();
    expect(reportSections(record.finalText)?.dispatch).toBe('Task 1 (Export data model).');
  });

  it('reports when nothing is left to dispatch (literal adopts all of plan A’s tasks in S1)', async () => {
    const repo = await widgetFixture('s1', 'flat');
    const record = await play({
      policy: 'literal',
      repo,
      prompt: await continuePrompt(repo, releasedSkill),
    });
    expect(record.stoppedAt).toBeUndefined();
    expect(reportSections(record.finalText)?.dispatch).toBe('none — all tasks complete.');
  });

  it('ends with its report when the dispatch is refused and the session goes on', async () => {
    server = await startModelServer({ policy: 'structural' });
    const repo = await widgetFixture('s1', 'scoped');
    const first = await play({
      policy: 'structural',
      repo,
      prompt: await continuePrompt(repo, planScopedSkill),
    });
    const dispatch = first.stoppedAt;
    if (dispatch === undefined) throw new Error('no dispatch');
    const client = sdkClient(server.baseUrl);
    const reply = await client.messages.create({
      model: scriptedModelId('structural'),
      max_tokens: 1024,
      tools: withAgent,
      messages: [
        ...first.messages,
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: dispatch.id,
              content: 'Subagent dispatch is not available in this session.',
              is_error: true,
            },
          ],
        },
      ],
    });
    const text = reply.content.map((block) => (block.type === 'text' ? block.text : '')).join('');
    expect(reportSections(text)?.dispatch).toBe('Task 1 (Export data model).');
  });

  it('makes the same dispatch, with the same id, every time for the same session', async () => {
    const repo = await widgetFixture('s1', 'scoped');
    const prompt = await continuePrompt(repo, planScopedSkill);
    const one = await play({ policy: 'structural', repo, prompt, sessionKey: 'rep/a' });
    const two = await play({ policy: 'structural', repo, prompt, sessionKey: 'rep/a' });
    expect(one.stoppedAt).toEqual(two.stoppedAt);
    expect(one.stoppedAt?.id).toMatch(/^toolu_rg[0-9a-f]{22}$/);
  });
});

describe('final-reviewer: trusts the flat ledger, and with every task done dispatches a final reviewer', () => {
  it('dispatches a whole-branch reviewer in S1 (plan A’s ledger lists every task done)', async () => {
    const repo = await widgetFixture('s1', 'flat');
    const record = await play({
      policy: 'final-reviewer',
      repo,
      prompt: await continuePrompt(repo, releasedSkill),
    });
    expect(record.stoppedAt?.name).toBe('Agent');
    expect(record.stoppedAt?.input).toMatchObject({
      description: 'Final whole-branch review',
      subagent_type: 'general-purpose',
    });
    expect(String((record.stoppedAt?.input as { prompt?: unknown } | undefined)?.prompt)).toMatch(
      new RegExp(`Review the whole branch against ${plan}`),
    );
  });

  it('reports none under a prompt that forbids dispatching, and dispatches the next task when one is left', async () => {
    const s1 = await widgetFixture('s1', 'flat');
    const reported = await play({
      policy: 'final-reviewer',
      repo: s1,
      prompt: campaignPrompt(s1, releasedSkill),
    });
    expect(reported.stoppedAt).toBeUndefined();
    expect(reportSections(reported.finalText)?.dispatch).toBe('none — all tasks complete.');
    const s2 = await widgetFixture('s2', 'flat');
    const acted = await play({
      policy: 'final-reviewer',
      repo: s2,
      prompt: await continuePrompt(s2, releasedSkill),
    });
    expect(acted.stoppedAt?.input).toMatchObject({
      description: 'Implement Task 3: JSON serializer',
    });
  });
});

describe('a policy under a prompt that forbids dispatching', () => {
  it('writes its report even with Agent offered, as every campaign prompt asks', async () => {
    const repo = await widgetFixture('s1', 'scoped');
    const record = await play({
      policy: 'structural',
      repo,
      prompt: campaignPrompt(repo, planScopedSkill),
    });
    expect(record.stoppedAt).toBeUndefined();
    expect(record.toolCalls.some((call) => call.name === 'Agent')).toBe(false);
    expect(reportSections(record.finalText)?.dispatch).toBe('Task 1 (Export data model).');
  });
});

describe('a policy as the subagent it dispatched', () => {
  it('reads the brief the dispatch prompt points at and says it implemented nothing', async () => {
    const repo = await widgetFixture('s1', 'scoped');
    const dispatched = await play({
      policy: 'structural',
      repo,
      prompt: await continuePrompt(repo, planScopedSkill),
    });
    const dispatchPrompt = String(
      (dispatched.stoppedAt?.input as { prompt?: string } | undefined)?.prompt,
    );
    const record = await play({ policy: 'structural', repo, prompt: dispatchPrompt });
    const brief = path.join(repo, '.superpowers/sdd/2026-07-06-widget-export/task-1-brief.md');
    expect(record.toolCalls.map((call) => [call.name, call.input])).toEqual([
      ['Read', { file_path: brief }],
    ]);
    expect(record.finalText).toContain(`could not read the brief at ${brief}`);
    expect(record.finalText).toContain('Nothing was implemented');
  });
});
