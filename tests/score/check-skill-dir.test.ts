/**
 * `redgreen check` and the skill under test: skill-read counts only reads of
 * the skill the session was given, known from `--skill-dir` or, failing
 * that, from the session's prompt in the transcript (matched against the
 * scenario's own template). Another skill's SKILL.md is not it; with neither
 * the reading is undecided, never a pass.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CheckReport } from '../../harness/check/check-session.js';
import { loadPromptTemplate } from '../../harness/scenario/prompt-template.js';
import { repoRoot, runCli } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';

const SKILL = '/srv/session/skills/subagent-driven-development';
const OTHER = '/home/dev/.claude/skills/brainstorming';

function transcript(reads: readonly string[], prompt?: string): string {
  const lines: unknown[] = [
    {
      type: 'system',
      subtype: 'init',
      model: 'claude-sonnet-5-5',
      tools: ['Read'],
      session_id: 's',
    },
    ...(prompt === undefined
      ? []
      : [{ type: 'user', parent_tool_use_id: null, message: { role: 'user', content: prompt } }]),
    {
      type: 'assistant',
      parent_tool_use_id: null,
      message: {
        id: 'msg_1',
        content: reads.map((file, index) => ({
          type: 'tool_use',
          id: `toolu_${index}`,
          name: 'Read',
          input: { file_path: file },
        })),
      },
    },
    { type: 'result', subtype: 'success', is_error: false, num_turns: 2, result: 'done' },
  ];
  const file = path.join(makeTempDir(), 'session.jsonl');
  writeFileSync(file, `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
  return file;
}

async function readTheSkill(args: readonly string[]) {
  const run = await runCli(['check', 'resume-audit', ...args, '--json']);
  expect(run.stderr).toBe('');
  expect(run.exitCode).toBe(0);
  const report = JSON.parse(run.stdout) as CheckReport & {
    sources: { skillDir: { path: string; from: string } | null };
  };
  return { report, seen: report.score.observations.find((o) => o.id === 'read-the-skill') };
}

describe('skill-read in a session scored elsewhere', () => {
  it('--skill-dir: the named skill’s SKILL.md passes, another skill’s fails', async () => {
    const own = await readTheSkill([
      '--transcript',
      transcript([`${SKILL}/SKILL.md`]),
      '--skill-dir',
      SKILL,
    ]);
    expect(own.seen?.outcome).toBe('pass');
    expect(own.report.sources.skillDir).toEqual({ path: SKILL, from: '--skill-dir' });
    const other = await readTheSkill([
      '--transcript',
      transcript([`${OTHER}/SKILL.md`]),
      '--skill-dir',
      SKILL,
    ]);
    expect(other.seen?.outcome).toBe('fail');
  });

  it('reads the skill directory from the session’s prompt, as the scenario’s template places it', async () => {
    const template = await loadPromptTemplate(
      path.join(repoRoot, 'scenarios/resume-audit/prompt.hbs'),
      'prompt',
    );
    if (!template.ok) throw new Error(template.error.problem);
    const prompt = template.value.render({
      skillDir: SKILL,
      fixtureRepo: '/srv/session/repo',
      planPath: 'docs/plans/2026-07-06-widget-export.md',
    });
    const own = await readTheSkill(['--transcript', transcript([`${SKILL}/SKILL.md`], prompt)]);
    expect(own.seen?.outcome).toBe('pass');
    expect(own.report.sources.skillDir).toEqual({ path: SKILL, from: 'prompt' });
    const other = await readTheSkill(['--transcript', transcript([`${OTHER}/SKILL.md`], prompt)]);
    expect(other.seen?.outcome).toBe('fail');
  });

  it('is undecided, never a pass, when the skill directory is not known', async () => {
    const { report, seen } = await readTheSkill([
      '--transcript',
      transcript([`${OTHER}/SKILL.md`, `${SKILL}/SKILL.md`]),
    ]);
    expect(seen?.outcome).toBe('undecided');
    expect(report.sources.skillDir).toBeNull();
  });
});
