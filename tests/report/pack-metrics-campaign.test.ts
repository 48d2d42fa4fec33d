/**
 * The SDD pack's dispatches-per-task end to end on the messages backend
 * (real sessions against the local model server, scripted policies): the
 * fix-loop scenario of sdd-full-runs, RED (a fresh fix subagent: 6
 * dispatches over 2 tasks) and GREEN (the implementer resumed: 5 over 2),
 * then the planted fan-out, full-review-fanout (a second and a third
 * reviewer every round). The metric reaches score.json, results.csv and
 * results.md; through `redgreen gate` a cap of 3 holds on the normal
 * sessions and fails on the fan-out (exit 1), and GREEN at most 0.9 × RED
 * holds while at most 0.8 × RED fails (planted negative).
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gateJsonSchema } from '../../harness/report/command-json.js';
import { readJson, runCampaignCli } from '../campaign/support.js';
import { repoRoot, runCli } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';

const campaign = path.join(repoRoot, 'scenarios', 'sdd-full-runs.campaign.json');
const SCENARIO = 'fix-loop-resumes-implementer';
let root = '';
let normal = '';
let fanout = '';

beforeAll(async () => {
  // Kept for the whole file (makeTempDir's folders go after each test).
  root = mkdtempSync(path.join(os.tmpdir(), 'redgreen-per-task-'));
  normal = path.join(root, 'normal');
  fanout = path.join(root, 'fanout');
  const common = [campaign, '--backend', 'messages', '--quiet', '--only', `scenario=${SCENARIO}`];
  const [a, b] = await Promise.all([
    runCampaignCli([...common, '--reps', '2', '--out', normal]),
    runCampaignCli([
      ...common.slice(0, -1),
      `scenario=${SCENARIO},arm=green`,
      '--reps',
      '1',
      '--model',
      'scripted:full-review-fanout',
      '--out',
      fanout,
    ]),
  ]);
  expect(a.exitCode, a.stderr).toBe(0);
  expect(b.exitCode, b.stderr).toBe(0);
}, 240_000);

afterAll(() => {
  if (root !== '') rmSync(root, { recursive: true, force: true });
});

async function gate(dir: string, gates: unknown[]) {
  const copy = path.join(makeTempDir('redgreen-per-task-gate-'), 'run');
  cpSync(dir, copy, { recursive: true });
  const file = path.join(copy, 'campaign.json');
  const record = JSON.parse(readFileSync(file, 'utf8')) as { gates: unknown[] };
  record.gates = gates;
  writeFileSync(file, JSON.stringify(record));
  const run = await runCli(['gate', copy, '--json']);
  return { exitCode: run.exitCode, gates: gateJsonSchema.parse(JSON.parse(run.stdout)).gates };
}

const cap = { kind: 'metric-cap', metric: 'dispatches-per-task', max: 3 };

describe('dispatches-per-task on full SDD sessions', () => {
  it('is recorded per rep and shown by arm', () => {
    const perTask = (arm: string, dir: string, rep = 1) =>
      readJson<{ metrics?: Record<string, number | null> }>(
        path.join(dir, 'reps', arm, `${SCENARIO}-rep${rep}`, 'score.json'),
      ).metrics?.['dispatches-per-task'];
    expect([perTask('red', normal), perTask('red', normal, 2)]).toEqual([3, 3]);
    expect([perTask('green', normal), perTask('green', normal, 2)]).toEqual([2.5, 2.5]);
    expect(perTask('green', fanout)).toBe(5.5);
    const csv = readFileSync(path.join(normal, 'results.csv'), 'utf8').split('\n');
    expect(csv[0]).toMatch(/,metric_dispatches-per-task$/);
    expect(
      csv
        .slice(1)
        .filter((line) => line !== '')
        .map((line) => line.split(',').at(-1)),
    ).toEqual(expect.arrayContaining(['3', '2.5']));
    const markdown = readFileSync(path.join(normal, 'results.md'), 'utf8');
    expect(markdown).toMatch(/\| dispatches per task \|/);
    expect(markdown).toContain('dispatches-per-task, in dispatches per task:');
  });

  it('a cap of 3 holds on the normal sessions and fails on the planted fan-out', async () => {
    const held = await gate(normal, [cap]);
    expect(held.exitCode).toBe(0);
    expect(held.gates[0]).toMatchObject({ outcome: 'holds' });
    const failed = await gate(fanout, [cap]);
    expect(failed.exitCode).toBe(1);
    expect(failed.gates[0]).toMatchObject({
      outcome: 'fails',
      figure: `over 3: ${SCENARIO.toUpperCase()} GREEN (a rep up to 5.50)`,
    });
  });

  it("GREEN's median at most 0.9 × RED's holds; at most 0.8 × fails (planted negative)", async () => {
    const ratio = (bound: number) => ({
      kind: 'metric-ratio',
      metric: 'dispatches-per-task',
      scenario: SCENARIO,
      ratio: bound,
      minReps: 2,
    });
    const held = await gate(normal, [ratio(0.9)]);
    expect(held.gates[0]).toMatchObject({ outcome: 'holds' });
    expect(held.gates[0]?.figure).toContain('GREEN median 2.50 / RED 3 = 0.833');
    const failed = await gate(normal, [ratio(0.8)]);
    expect(failed.exitCode).toBe(1);
    expect(failed.gates[0]).toMatchObject({ outcome: 'fails' });
  });

  it("a results directory's score.json naming metrics no pack adds: they are left out of the report", async () => {
    const copy = path.join(makeTempDir('redgreen-per-task-bogus-'), 'run');
    cpSync(normal, copy, { recursive: true });
    const file = path.join(copy, 'reps', 'red', `${SCENARIO}-rep1`, 'score.json');
    const score = JSON.parse(readFileSync(file, 'utf8')) as { metrics?: Record<string, unknown> };
    score.metrics = { ...score.metrics, 'tool-calls': 99, '<b>x</b>': 3 };
    writeFileSync(file, JSON.stringify(score));
    const run = await runCli(['report', copy]);
    expect(run.exitCode, run.stderr).toBe(0);
    const header = readFileSync(path.join(copy, 'results.csv'), 'utf8').split('\n')[0] ?? '';
    expect(header).toContain('metric_dispatches-per-task');
    expect(header).not.toContain('metric_tool-calls');
    expect(header).not.toContain('<b>');
    expect(readFileSync(path.join(copy, 'results.md'), 'utf8')).not.toContain('<b>x</b>');
  });
});
