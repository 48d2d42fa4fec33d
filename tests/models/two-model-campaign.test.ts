import {
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resultsSchema } from '../../harness/report/results-schema.js';
import { readJson, repLines, runCampaignCli } from '../campaign/support.js';
import { cleanEnv, runCli } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';

/**
 * The two-model offline campaign (scenarios/plan-scoped-workspace-models),
 * through the real CLI and the real SDK (messages backend; the claude-code
 * engine runs in endpoints.test.ts): sonnet's stand-in follows the skill
 * text, opus's trusts whatever ledger the text points at. It must produce
 * the per-model tables, the interaction (the change helps on one model,
 * hurts on the other), gates by model with a planted failing `every`, a
 * CSV/JSON that name each rep's model, report.html faceted by model, and a
 * layout that resume, --only, shards and merge cover.
 */
const CAMPAIGN = 'scenarios/plan-scoped-workspace-models.campaign.json';
const COMMON = [CAMPAIGN, '--backend', 'messages', '--concurrency', '2'];

let root = '';
let out = '';

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'redgreen-models-'));
  out = path.join(root, 'run');
  const run = await runCampaignCli([...COMMON, '--out', out]);
  if (run.exitCode !== 0) throw new Error(`the two-model run failed: ${run.stderr}`);
}, 300_000);

afterAll(() => {
  if (root !== '') rmSync(root, { recursive: true, force: true });
});

describe('a two-model offline campaign', () => {
  it('lays reps out under reps/<model>/<arm>/ with the model in every id, ledger line and meta.json', () => {
    const lines = repLines(out);
    expect(lines).toHaveLength(40);
    expect(readdirSync(path.join(out, 'reps')).sort()).toEqual(['opus', 'sonnet']);
    const line = lines.find((candidate) => candidate.id === 'opus/green/s2-rep1') as
      | (Record<string, unknown> & { dir: string })
      | undefined;
    expect(line).toMatchObject({ model: 'opus', dir: 'reps/opus/green/s2-rep1' });
    const meta = readJson<{ model: Record<string, unknown> }>(
      path.join(out, line?.dir ?? '', 'meta.json'),
    );
    expect(meta.model).toEqual({
      requested: 'scripted:literal',
      reported: 'scripted:literal',
      scripted: true,
      name: 'opus',
    });
    const record = readJson<{ models: { name: string; id: string; standsInFor: string }[] }>(
      path.join(out, 'campaign.json'),
    );
    expect(record.models.map((model) => [model.name, model.id, model.standsInFor])).toEqual([
      ['sonnet', 'scripted:skill-reader', 'claude-sonnet-5-5'],
      ['opus', 'scripted:literal', 'claude-opus-5-5'],
    ]);
  });

  it('results.md: a Models table, a Model column in every per-cell table, and the interaction across models', () => {
    const markdown = readFileSync(path.join(out, 'results.md'), 'utf8');
    expect(markdown).toContain('## Models');
    expect(markdown).toMatch(
      /\| sonnet \| scripted:skill-reader \(scripted, standing in for claude-sonnet-5-5\) \| scripted:skill-reader \| default \| 20\/20 \|/,
    );
    expect(markdown).toMatch(/\| Model \| Arm \| Text under test \| Fixture \| PASS \| Notes \|/);
    expect(markdown).toMatch(
      /\| sonnet \| S1 GREEN \| plan-scoped workspace \| widget-v3 s1 scoped \| 5\/5 \|/,
    );
    expect(markdown).toMatch(
      /\| opus \| S1 GREEN \| plan-scoped workspace \| widget-v3 s1 scoped \| 0\/5 \|/,
    );
    expect(markdown).toMatch(/\| Model \| Cell \| Text \| tool_uses per decided rep/);
    expect(markdown).toMatch(/\| Model \| Scenario \| RED pass \| GREEN pass \|/);
    expect(markdown).toMatch(/\| sonnet \| S1 \| 0\/5 \| 5\/5 \| 0\.0079 \| 0\.0040 \|/);
    expect(markdown).toContain('## Across models');
    expect(markdown).toContain(
      '- **S1**: GREEN helps on 1 of 2 models (sonnet); no clear effect on opus; the effect depends on the model; GREEN−RED is +100 pts on sonnet and 0 pts on opus, 100 pts apart.',
    );
    expect(markdown).toContain(
      '- **S2**: GREEN helps on none of the 2 models; hurts on opus; the effect depends on the model; GREEN−RED is 0 pts on sonnet and -100 pts on opus, 100 pts apart.',
    );
    expect(markdown).toMatch(
      /\| S1 \| sonnet \| 0\/5 \| 5\/5 \| \+100 pts \| 0\.0040 \| 0\.0079 \| 1\.0000 \| 1\.0000 \| helps \|/,
    );
    expect(markdown).toMatch(
      /\| S2 \| opus \| 5\/5 \| 0\/5 \| -100 pts \| 1\.0000 \| 1\.0000 \| 0\.0040 \| 0\.0079 \| hurts \|/,
    );
  });

  it('results.json carries each model, the interaction and per-model cells; the CSV a model column', () => {
    const results = resultsSchema.parse(readJson(path.join(out, 'results.json')));
    expect(results.models?.map((model) => [model.name, model.pass, model.fail])).toEqual([
      ['sonnet', 15, 5],
      ['opus', 5, 15],
    ]);
    expect(results.cells).toHaveLength(8);
    expect(
      results.comparisons.map((comparison) => `${comparison.model}/${comparison.scenario}`),
    ).toEqual(['sonnet/s1', 'opus/s1', 'sonnet/s2', 'opus/s2']);
    expect(results.interaction?.map((entry) => entry.rows.map((row) => row.effect))).toEqual([
      ['helps', 'no clear effect'],
      ['no clear effect', 'hurts'],
    ]);
    const csv = readFileSync(path.join(out, 'results.csv'), 'utf8').trim().split('\n');
    expect(csv).toHaveLength(41);
    const header = (csv[0] ?? '').split(',');
    const at = header.indexOf('model');
    expect(header.slice(at, at + 4)).toEqual([
      'model',
      'model_requested',
      'model_reported',
      'scripted_model',
    ]);
    // The model named, then what was requested and what the API reported back, per rep.
    expect(csv.find((line) => line.startsWith('opus/red/s1-rep2,'))).toContain(
      ',opus,scripted:literal,scripted:literal,true,',
    );
  });

  it('gates by model: a named model and every hold as declared; gate --json names each model', async () => {
    const gate = await runCli(['gate', out, '--json']);
    expect(gate.exitCode, gate.stdout).toBe(0);
    const json = JSON.parse(gate.stdout) as {
      models: { name: string; requested: string }[];
      gates: {
        gate: string;
        outcome: string;
        model: string;
        perModel: { model: string; outcome: string; figure: string }[];
      }[];
    };
    expect(json.models.map((model) => model.name)).toEqual(['sonnet', 'opus']);
    expect(json.gates.map((entry) => [entry.gate, entry.outcome])).toEqual([
      ['S1 GREEN passes at least 5/5 on sonnet', 'holds'],
      ['S2 RED passes at least 4/5 on every model', 'holds'],
      ['S2: no GREEN regression against RED (one-sided Fisher, α = 0.05) on sonnet', 'holds'],
      ['indeterminate reps at most 20% of those recorded on every model', 'holds'],
    ]);
    // Each gate's model, and each judged model's own outcome, as data rather than prose.
    expect(
      json.gates.map((entry) => [entry.model, entry.perModel.map((one) => one.model)]),
    ).toEqual([
      ['sonnet', ['sonnet']],
      ['every', ['sonnet', 'opus']],
      ['sonnet', ['sonnet']],
      ['every', ['sonnet', 'opus']],
    ]);
    expect(json.gates[1]?.perModel[1]).toEqual({
      model: 'opus',
      outcome: 'holds',
      figure: '5/5 decided reps passed (needs at least 4 of 5 decided)',
    });
  });

  it('planted negatives: no-regression and green-better on every model fail (opus regresses), exit 1', async () => {
    const copy = path.join(makeTempDir(), 'copy');
    cpSync(out, copy, { recursive: true });
    const file = path.join(copy, 'campaign.json');
    const record = readJson<Record<string, unknown>>(file);
    record.gates = [
      { kind: 'no-regression', scenario: 's2', alpha: 0.05, model: 'every' },
      { kind: 'green-better', scenario: 's1', alpha: 0.05 },
      { kind: 'green-better', scenario: 's1', alpha: 0.05, model: 'sonnet' },
      { kind: 'no-scenario-regresses', alpha: 0.05, correction: 'holm' },
    ];
    writeFileSync(file, JSON.stringify(record, null, 2));
    const gate = await runCli(['gate', copy]);
    expect(gate.exitCode, gate.stdout).toBe(1);
    const json = JSON.parse((await runCli(['gate', copy, '--json'])).stdout) as {
      gates: { model: string; perModel: { model: string; outcome: string }[] }[];
    };
    // Which model failed, as data: opus regresses on S2; opus shows no S1 gain.
    expect(
      json.gates.map((entry) => [
        entry.model,
        entry.perModel.map((one) => `${one.model} ${one.outcome}`),
      ]),
    ).toEqual([
      ['every', ['sonnet holds', 'opus fails']],
      ['every', ['sonnet holds', 'opus fails']],
      ['sonnet', ['sonnet holds']],
      ['every', ['sonnet holds', 'opus fails']],
    ]);
    expect(gate.stdout).toMatch(
      /FAILS\s+no scenario regresses: .* on every model \(Holm across 2 models × 2 scenarios: 4 tests\): sonnet: 2 scenario\(s\), none regresses.*; opus: regresses: S2 \(RED 5\/5, GREEN 0\/5; p = 0\.0040 below 0\.0125\)/,
    );
    expect(gate.stdout).toMatch(
      /FAILS\s+S2: no GREEN regression .* on every model \(Holm across 2 models\): .*opus: RED 5\/5, GREEN 0\/5; RED better than GREEN: p = 0\.0040, Holm 0\.0079/,
    );
    expect(gate.stdout).toMatch(
      /FAILS\s+S1: GREEN passes more often .* on every model: sonnet: .*; opus: RED 0\/5, GREEN 0\/5/,
    );
    expect(gate.stdout).toMatch(
      /HOLDS\s+S1: GREEN passes more often .* on sonnet: sonnet: RED 0\/5, GREEN 5\/5; p = 0\.0040/,
    );
  });

  it('report.html: charts faceted by model, the interaction plot, the Models table', () => {
    const page = readFileSync(path.join(out, 'report.html'), 'utf8');
    expect(page).toContain('id="models"');
    expect(page).toContain('id="interaction-chart"');
    expect(page).toContain('Across models: does the change help on every model?');
    // One row of panels per model in both cell charts: each model name is a row header.
    const passRate = page.slice(
      page.indexOf('id="pass-rate-chart"'),
      page.indexOf('</figure>', page.indexOf('id="pass-rate-chart"')),
    );
    expect(passRate).toMatch(/>sonnet</);
    expect(passRate).toMatch(/>opus</);
    expect(passRate).toContain('sonnet · S1 GREEN: 5/5 passed');
    const interaction = page.slice(page.indexOf('id="interaction-chart"'));
    expect(interaction).toContain('S2 GREEN on opus: 0/5 passed (0%); effect on this model: hurts');
    // Reps filter by model too.
    expect(page).toContain('data-cell="opus/s2/green"');
  });

  it('export --atif keeps each model’s trajectories apart: one file per rep', async () => {
    const atif = path.join(makeTempDir(), 'atif');
    const exported = await runCli(['export', '--atif', out, '--out', atif]);
    expect(exported.exitCode, exported.stderr).toBe(0);
    const index = readJson<{ trajectories: { file: string; rep_id: string }[] }>(
      path.join(atif, 'index.json'),
    );
    expect(index.trajectories).toHaveLength(40);
    expect(new Set(index.trajectories.map((entry) => entry.file)).size).toBe(40);
    expect(index.trajectories.find((entry) => entry.rep_id === 'opus/red/s1-rep1')?.file).toBe(
      'opus/red/s1-rep1.json',
    );
    expect(existsSync(path.join(atif, 'sonnet/red/s1-rep1.json'))).toBe(true);
  });

  it('diff of a two-model run against itself compares every arm × scenario × model cell', async () => {
    const diff = await runCli(['diff', out, out, '--json']);
    expect(diff.exitCode, diff.stderr).toBe(0);
    const json = JSON.parse(diff.stdout) as {
      cells: { model: string; arm: string; scenario: string }[];
    };
    expect(json.cells).toHaveLength(8);
    expect(json.cells[0]).toMatchObject({ model: 'sonnet', arm: 'red', scenario: 's1' });
  });
});

describe('the model axis through resume, --only, shards and merge', () => {
  it('--resume reruns only a damaged rep of one model, under the same identity and models', async () => {
    const copy = path.join(makeTempDir(), 'copy');
    cpSync(out, copy, { recursive: true });
    rmSync(path.join(copy, 'reps/opus/green/s2-rep3'), { recursive: true });
    const dry = await runCampaignCli(['--resume', copy, '--dry-run']);
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/1 left to run of 40/);
    expect(dry.stdout).toMatch(/model opus \(scripted:literal\): 1 session\(s\)/);
    expect(dry.stdout).toMatch(/model sonnet \(scripted:skill-reader\): 0 session\(s\)/);
    const resumed = await runCampaignCli(['--resume', copy]);
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    const lines = repLines(copy);
    expect(lines).toHaveLength(41);
    expect(lines.at(-1)).toMatchObject({
      id: 'opus/green/s2-rep3',
      attempt: 2,
      dir: 'reps/opus/green/s2-rep3.attempt2',
    });
  });

  it('--only model= runs one model’s cells, keeps the model in the ids, and drops gates about the other', async () => {
    const only = path.join(makeTempDir(), 'only');
    const run = await runCampaignCli([
      ...COMMON,
      '--reps',
      '1',
      '--only',
      'model=opus',
      '--out',
      only,
    ]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(`${run.stdout}${run.stderr}`).toMatch(/--only leaves out 2 gate\(s\).*on sonnet/);
    expect(
      repLines(only)
        .map((line) => line.id ?? '')
        .sort(),
    ).toEqual(['opus/green/s1-rep1', 'opus/green/s2-rep1', 'opus/red/s1-rep1', 'opus/red/s2-rep1']);
    const results = resultsSchema.parse(readJson(path.join(only, 'results.json')));
    expect(results.models?.map((model) => model.name)).toEqual(['opus']);
  });

  it('shards of a two-model run are disjoint and merge into the whole plan', async () => {
    const dir = makeTempDir();
    const shards = [1, 2].map((index) => path.join(dir, `shard${index}`));
    const runs = await Promise.all(
      ['1/2', '2/2'].map((shard, index) =>
        runCampaignCli([...COMMON, '--reps', '1', '--shard', shard, '--out', shards[index] ?? '']),
      ),
    );
    for (const run of runs) expect(run.exitCode, run.stderr).toBe(0);
    const [first = [], second = []] = shards.map((shard) =>
      repLines(shard).map((line) => line.id ?? ''),
    );
    expect(first.filter((id) => second.includes(id))).toEqual([]);
    expect(first.length + second.length).toBe(8);
    // Each shard keeps RED and GREEN of a scenario and model together.
    for (const id of first)
      expect(first).toContain(
        id.replace(/\/(red|green)\//, (_, arm) => `/${arm === 'red' ? 'green' : 'red'}/`),
      );
    const merged = path.join(dir, 'merged');
    const merge = await runCli(['merge', ...shards, '--out', merged]);
    expect(merge.exitCode, merge.stderr).toBe(0);
    expect(repLines(merged)).toHaveLength(8);
    const report = await runCli(['report', merged]);
    expect(report.exitCode, report.stderr).toBe(0);
    expect(existsSync(path.join(merged, 'reps/sonnet/red/s1-rep1/meta.json'))).toBe(true);
  });

  it('--dry-run prints each model’s sessions, cost and smallest detectable effect', async () => {
    const dry = await runCli(['run', CAMPAIGN, '--dry-run'], { env: cleanEnv() });
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/OFFLINE: each of its 2 "models" is a scripted policy/);
    expect(dry.stdout).toMatch(
      /model sonnet \(scripted:skill-reader standing in for claude-sonnet-5-5\): 20 session\(s\), no API cost; even RED 20% → GREEN 100% is detected with probability below 0\.8 at 5 rep\(s\) per arm/,
    );
    const more = await runCli(['run', CAMPAIGN, '--dry-run', '--reps', '20'], { env: cleanEnv() });
    expect(more.stdout).toMatch(
      /model opus .*: 80 session\(s\), no API cost; smallest detectable effect RED 20% → GREEN \d+%/,
    );
  });
});
