/**
 * What the runner captures for a scenario's checks, end to end through the
 * real CLI: command-succeeds commands run in the tools' sandbox before and
 * after the session (recorded in commands.json, read back by a rescore; a
 * command that cannot start is undecided, never a pass), file contents a
 * check names or the session changed (files-after.json), the branch in the
 * snapshots, and a failing pre-check that stops a rep before its session.
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RepScore } from '../../harness/score/score-rep.js';
import { repoRoot, runCli } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { readJson, repLines, runCampaignCli } from './support.js';

const PLAN = 'docs/plans/2026-07-06-widget-export.md';
const planScoped = path.join(repoRoot, 'skills-under-test/sdd-plan-scoped');

function scenario(
  id: string,
  checks: { pre: unknown[]; post: unknown[] },
  observe: unknown[] = [],
): unknown {
  return {
    id,
    title: `${id}: evidence captured at rep time`,
    packs: ['sdd'],
    fixture: { recipe: 'widget-v3', scenario: 's2' },
    plan: PLAN,
    prompt: 'compaction-resume',
    plans: {
      [PLAN]: {
        tasks: {
          '1': 'Export data model',
          '2': 'CSV serializer',
          '3': 'JSON serializer',
          '4': 'CLI flag',
          '5': 'End-to-end test',
        },
      },
    },
    report: {
      done: { label: 'TASKS ALREADY COMPLETE', extract: 'tasks' },
      next: { label: 'FIRST DISPATCH', extract: { kind: 'task', after: 'done' } },
    },
    checks,
    observe,
    calibration: {
      mustPass: [{ policy: 'structural', skill: planScoped, layout: 'scoped' }],
      mustFail: [
        { policy: 'always-redo', skill: planScoped, layout: 'scoped', failing: ['next-task'] },
      ],
    },
  };
}

/** A campaign folder with the given scenarios, one green arm on the scoped layout. */
function campaignWith(scenarios: Record<string, unknown>): string {
  const root = path.join(makeTempDir(), 'scenarios');
  mkdirSync(root, { recursive: true });
  cpSync(path.join(repoRoot, 'scenarios/prompts'), path.join(root, 'prompts'), { recursive: true });
  for (const [id, body] of Object.entries(scenarios)) {
    mkdirSync(path.join(root, id));
    writeFileSync(path.join(root, id, 'scenario.json'), JSON.stringify(body, null, 2));
  }
  const file = path.join(root, 'evidence.campaign.json');
  writeFileSync(
    file,
    JSON.stringify({
      id: 'evidence',
      title: 'evidence captured at rep time',
      arms: [
        { name: 'green', role: 'green', label: 'plan-scoped', skill: planScoped, layout: 'scoped' },
      ],
      scenarios: Object.keys(scenarios),
      reps: 1,
      model: 'claude-sonnet-5-5',
      offlineModel: 'scripted:structural',
      backend: 'messages',
      concurrency: 1,
    }),
  );
  return file;
}

describe('evidence captured at rep time', () => {
  it('runs commands in the sandbox, captures files and the branch, and a rescore reads them back', async () => {
    const file = campaignWith({
      evidence: scenario(
        'evidence',
        {
          pre: [
            { id: 'has-history', verb: 'command-succeeds', command: 'git rev-parse --verify HEAD' },
            {
              id: 'plan-has-task-3',
              verb: 'file-contains',
              path: '{{ownPlan}}',
              pattern: '^## Task 3',
              caseSensitive: true,
            },
          ],
          post: [
            { id: 'next-task', verb: 'reply-is-task', section: 'next', task: 3 },
            {
              id: 'model-in-place',
              verb: 'command-succeeds',
              command: 'grep -q ExportRow src/export_model.py',
            },
            {
              id: 'model-text',
              verb: 'file-contains',
              path: 'src/export_model.py',
              pattern: 'class exportrow',
              caseSensitive: false,
            },
            { id: 'on-branch', verb: 'git-branch', name: '{{branch}}' },
          ],
        },
        [
          { id: 'false-fails', verb: 'command-succeeds', command: 'false' },
          { id: 'missing-program', verb: 'command-succeeds', command: 'no-such-program-redgreen' },
          {
            id: 'not-missing-program',
            not: { verb: 'command-succeeds', command: 'no-such-program-redgreen' },
          },
        ],
      ),
    });
    const out = path.join(makeTempDir(), 'out');
    const run = await runCampaignCli([file, '--out', out]);
    expect(run.exitCode, run.stderr).toBe(0);
    const [line] = repLines(out);
    const dir = path.join(out, line?.dir ?? '');
    const score = readJson<RepScore>(path.join(dir, 'score.json'));
    expect(score.pre.map((check) => [check.id, check.outcome])).toEqual([
      ['has-history', 'pass'],
      ['plan-has-task-3', 'pass'],
    ]);
    expect(score.checks.map((check) => [check.id, check.outcome])).toEqual([
      ['next-task', 'pass'],
      ['model-in-place', 'pass'],
      ['model-text', 'pass'],
      ['on-branch', 'pass'],
    ]);
    expect(score.verdict).toBe('pass');
    const observed = Object.fromEntries(score.observations.map((o) => [o.id, o.outcome]));
    expect(observed).toEqual({
      'false-fails': 'fail',
      'missing-program': 'undecided',
      'not-missing-program': 'undecided',
    });

    const commands = readJson<{ commands: { phase: string; command: string; exitCode: number }[] }>(
      path.join(dir, 'commands.json'),
    );
    expect(commands.commands.map((c) => [c.phase, c.command, c.exitCode])).toEqual([
      ['pre', 'git rev-parse --verify HEAD', 0],
      ['post', 'grep -q ExportRow src/export_model.py', 0],
      ['post', 'false', 1],
      ['post', 'no-such-program-redgreen', 127],
    ]);
    const filesBefore = readJson<{ files: Record<string, { text?: string }> }>(
      path.join(dir, 'files-before.json'),
    );
    expect(filesBefore.files[PLAN]?.text).toContain('## Task 3');
    const filesAfter = readJson<{ files: Record<string, { text?: string }> }>(
      path.join(dir, 'files-after.json'),
    );
    expect(filesAfter.files['src/export_model.py']?.text).toContain('class ExportRow');
    expect(readJson<{ branch?: string }>(path.join(dir, 'snapshot-after.json')).branch).toBe(
      'main',
    );

    // A rescore reads the recorded outcomes back: same verdicts, nothing rerun.
    const rescore = await runCli(['score', out]);
    expect(rescore.exitCode, rescore.stderr).toBe(0);
    expect(rescore.stdout).toContain('rescored 1 rep(s); 0 verdict(s) changed');

    // Planted negative: a recorded failure of the post command fails the rep on rescore.
    const record = readJson<{ commands: { command: string; exitCode: number; output: string }[] }>(
      path.join(dir, 'commands.json'),
    );
    for (const command of record.commands) {
      if (command.command.startsWith('grep')) {
        command.exitCode = 1;
        command.output = 'no ExportRow here';
      }
    }
    writeFileSync(path.join(dir, 'commands.json'), JSON.stringify(record));
    const failed = await runCli(['score', out]);
    expect(failed.stdout).toContain('evidence-rep1: pass -> fail');
    const rescored = readJson<RepScore>(path.join(dir, 'score.json'));
    expect(rescored.reasons).toEqual([
      'model-in-place: `grep -q ExportRow src/export_model.py` exited 1: no ExportRow here',
    ]);
  });

  it('knows the skill under test: skill-read counts the session’s own skill copy, on the run and on rescore', async () => {
    const file = campaignWith({
      skilled: scenario(
        'skilled',
        { pre: [], post: [{ id: 'next-task', verb: 'reply-is-task', section: 'next', task: 3 }] },
        [{ id: 'read-the-skill', verb: 'skill-read', seat: 'controller' }],
      ),
    });
    const out = path.join(makeTempDir(), 'out');
    const run = await runCampaignCli([file, '--out', out]);
    expect(run.exitCode, run.stderr).toBe(0);
    const [line] = repLines(out);
    const dir = path.join(out, line?.dir ?? '');
    const observed = () =>
      readJson<RepScore>(path.join(dir, 'score.json')).observations.find(
        (o) => o.id === 'read-the-skill',
      );
    expect(observed()).toMatchObject({ outcome: 'pass', observed: '1' });
    const rescore = await runCli(['score', out]);
    expect(rescore.exitCode, rescore.stderr).toBe(0);
    expect(observed()).toMatchObject({ outcome: 'pass', observed: '1' });
  });

  it('stops a rep whose pre-check fails before its session: indeterminate, the fixture is wrong', async () => {
    const file = campaignWith({
      premise: scenario('premise', {
        pre: [{ id: 'needs-a-missing-plan', verb: 'file-exists', path: 'docs/plans/not-there.md' }],
        post: [{ id: 'next-task', verb: 'reply-is-task', section: 'next', task: 3 }],
      }),
    });
    const out = path.join(makeTempDir(), 'out');
    const run = await runCampaignCli([file, '--out', out]);
    expect(run.exitCode, run.stderr).toBe(0);
    const [line] = repLines(out);
    expect(line).toMatchObject({ verdict: 'indeterminate', status: 'indeterminate' });
    const dir = path.join(out, line?.dir ?? '');
    const meta = readJson<{
      turns: number;
      toolUses: number;
      status: { stage: string; reason: string };
    }>(path.join(dir, 'meta.json'));
    expect(meta.turns).toBe(0);
    expect(meta.toolUses).toBe(0);
    expect(meta.status.stage).toBe('pre-check');
    expect(meta.status.reason).toMatch(
      /no session was run \(the fixture is wrong\): needs-a-missing-plan: docs\/plans\/not-there\.md does not exist/,
    );
    expect(readFileSync(path.join(dir, 'transcript.jsonl'), 'utf8')).toBe('');
    const score = readJson<RepScore>(path.join(dir, 'score.json'));
    expect(score.verdict).toBe('indeterminate');
    expect(score.pre[0]?.outcome).toBe('fail');
  });
});
