import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJson, repLines, runCampaignCli, writeCampaign } from '../campaign/support.js';
import { type CliResult, runCli } from '../helpers/cli.js';
import { codexSkipReason } from '../helpers/codex-skip.js';

/**
 * The shipped two-engine campaign (scenarios/plan-scoped-workspace-engines)
 * at --reps 1 through the real Claude Code and Codex CLI binaries: reps laid
 * out per engine with each rep run on its own engine, the verdicts of the
 * default campaign's calibration on both, per-engine tables and the
 * interaction, and a resume that will not take the reps as another engine's.
 * Then the planted negative: a policy that reads the skill on one engine and
 * trusts the released ledger on Codex makes `engine: every` fail (exit 1),
 * and the same run with the skill reader on both holds (exit 0). Last, the
 * interaction gates through `run --gate` on one small run of both arms: GREEN
 * regressing against RED on Codex only fails `no-scenario-regresses` on every
 * engine and `engines-agree` (exit 1, naming codex), and the same reps
 * re-gated with the questions whose answer is yes (messages' own regression
 * test, the engines' agreement on RED) hold (exit 0).
 */
const CAMPAIGN = 'scenarios/plan-scoped-workspace-engines.campaign.json';
const skip = await codexSkipReason('two-engine campaign tests');

let root = '';
let out = '';
let run: CliResult | undefined;

beforeAll(async () => {
  if (skip !== undefined) return;
  root = mkdtempSync(path.join(os.tmpdir(), 'redgreen-engines-'));
  out = path.join(root, 'run');
  run = await runCampaignCli([CAMPAIGN, '--reps', '1', '--concurrency', '4', '--out', out]);
}, 300_000);

afterAll(() => {
  if (root !== '') rmSync(root, { recursive: true, force: true });
});

describe.skipIf(skip !== undefined)('a two-engine campaign through the real engines', () => {
  it('runs every cell on each engine, under reps/<engine>/, each rep on its own engine', () => {
    expect(run?.exitCode, run?.stderr).toBe(0);
    expect(readdirSync(path.join(out, 'reps')).sort()).toEqual(['claude-code', 'codex']);
    const lines = repLines(out);
    expect(lines.map((line) => line.id).sort()).toEqual(
      ['claude-code', 'codex'].flatMap((engine) =>
        ['green/s1', 'green/s2', 'red/s1', 'red/s2'].map((cell) => `${engine}/${cell}-rep1`),
      ),
    );
    for (const { id = '', dir = '' } of lines) {
      const meta = readJson<{ backend: string }>(path.join(out, dir, 'meta.json'));
      expect(meta.backend, id).toBe(id.split('/')[0]);
    }
    const record = readJson<{
      models: { name: string; engine: string }[];
      invocation: { engines: string[] };
      engine: string;
    }>(path.join(out, 'campaign.json'));
    expect(record.models.map((model) => [model.name, model.engine])).toEqual([
      ['claude-code', 'claude-code'],
      ['codex', 'codex'],
    ]);
    expect(record.invocation.engines).toEqual(['claude-code', 'codex']);
    expect(record.engine).toMatch(/^claude-code \d+\.\d+\.\d+; codex-cli \d+\.\d+\.\d+$/);
  });

  it('holds the calibration on both engines, in per-engine tables with the interaction', () => {
    const markdown = readFileSync(path.join(out, 'results.md'), 'utf8');
    for (const engine of ['claude-code', 'codex']) {
      expect(markdown).toMatch(
        new RegExp(`\\| ${engine} \\| S1 RED \\| [^|]+ \\| [^|]+ \\| 0/1 \\|`),
      );
      expect(markdown).toMatch(
        new RegExp(`\\| ${engine} \\| S1 GREEN \\| [^|]+ \\| [^|]+ \\| 1/1 \\|`),
      );
      expect(markdown).toMatch(
        new RegExp(`\\| ${engine} \\| S2 RED \\| [^|]+ \\| [^|]+ \\| 1/1 \\|`),
      );
      expect(markdown).toMatch(
        new RegExp(`\\| ${engine} \\| S2 GREEN \\| [^|]+ \\| [^|]+ \\| 1/1 \\|`),
      );
    }
    expect(markdown).toContain('## Across engines');
    expect(markdown).toMatch(/GREEN helps on none of the 2 engines/);
    expect(markdown).toMatch(/on every engine \(Holm across 2 engines × 2 scenarios/);
  });

  it('a resume with another engine is another campaign: refused, nothing run', async () => {
    const resumed = await runCampaignCli(['--resume', out, '--engine', 'claude-code,messages']);
    expect(resumed.exitCode).toBe(2);
    expect(resumed.stderr).toMatch(/campaign identity|another campaign|was made by/i);
    expect(repLines(out)).toHaveLength(8);
  });

  it('one engine regressing fails a gate on every engine (exit 1); neither regressing holds (exit 0)', async () => {
    const file = writeCampaign({
      backend: undefined,
      engines: ['messages', 'codex'],
      reps: 1,
      gates: [{ kind: 'min-pass-rate', arm: 'green', scenario: 's2', passes: 1, of: 1 }],
    });
    const args = (policy: string, dir: string) => [
      file,
      '--model',
      `scripted:${policy}`,
      '--only',
      'scenario=s2,arm=green',
      '--gate',
      '--out',
      path.join(root, dir),
    ];
    const planted = await runCampaignCli(args('reader-except-on-codex', 'planted'));
    expect(planted.exitCode, planted.stderr).toBe(1);
    expect(planted.stdout).toMatch(
      /S2 GREEN passes at least 1\/1 on every engine \| messages: 1\/1 [^|]*; codex: 0\/1 [^|]* \| FAILS \|/,
    );
    const clean = await runCampaignCli(args('skill-reader', 'clean'));
    expect(clean.exitCode, clean.stderr).toBe(0);
  });

  it('GREEN regressing on one engine only fails the interaction gates through run --gate (exit 1, naming codex); the same reps re-gated hold (exit 0)', async () => {
    // S2, both arms, 4 reps on messages and codex: reader-except-on-codex passes every
    // cell but GREEN on codex (0/4). RED 4/4 against GREEN 0/4 is one-sided p = 0.0143,
    // below the first Holm threshold over the 2 engines (0.025); GREEN 4/4 on messages
    // against 0/4 on codex is two-sided p = 0.0286, below α = 0.05 for the one pair.
    const file = writeCampaign({
      backend: undefined,
      engines: ['messages', 'codex'],
      reps: 4,
      gates: [
        { kind: 'no-scenario-regresses', scenarios: ['s2'], engine: 'every' },
        { kind: 'engines-agree', scenarios: ['s2'], arms: ['green'] },
      ],
    });
    const dir = path.join(root, 'interaction');
    const planted = await runCampaignCli([
      file,
      '--model',
      'scripted:reader-except-on-codex',
      '--only',
      'scenario=s2',
      '--gate',
      '--out',
      dir,
    ]);
    expect(planted.exitCode, planted.stderr).toBe(1);
    expect(planted.stdout).toMatch(
      /messages: 1 scenario\(s\), none regresses[^;|]*; codex: regresses: S2 \(RED 4\/4, GREEN 0\/4; p = 0\.0143 below 0\.0250\) \| FAILS \|/,
    );
    // The tables name the engines as engines; results.csv ends with each rep's engine.
    const markdown = readFileSync(path.join(dir, 'results.md'), 'utf8');
    for (const heading of ['## Engines', '## Across engines', '| Engine | Arm |']) {
      expect(markdown).toContain(heading);
    }
    expect(markdown).not.toMatch(/## Models|## Across models|\| Model \|/);
    expect(markdown).toMatch(
      /^- Engines: messages, codex \(redgreen-messages [^)]*\), codex-cli \d/m,
    );
    const csv = readFileSync(path.join(dir, 'results.csv'), 'utf8').trim().split('\n');
    expect(csv[0]).toMatch(
      /^rep_id,arm,role,scenario,.*,model,model_requested,.*,obs_[^,]+(,metric_[^,]+)*,engine$/,
    );
    const engines = csv.slice(1).map((line) => line.split(',').at(-1));
    expect(engines.filter((engine) => engine === 'codex')).toHaveLength(8);
    expect(engines.filter((engine) => engine === 'messages')).toHaveLength(8);
    const page = readFileSync(path.join(dir, 'report.html'), 'utf8');
    expect(page).toMatch(/<dt>Engines<\/dt><dd>messages, codex \(/);
    expect(page).toContain('Across engines: does the change help on every engine?');
    expect(planted.stdout).toMatch(
      /the engines disagree: S2 GREEN \(messages 4\/4, codex 0\/4: 100 pts apart; p = 0\.0286 below 0\.0500\) [^|]*\| FAILS \|/,
    );
    // The positive control on the same reps (gates are no part of the campaign identity):
    // a copy whose recorded gates ask what holds, gated again without running a session.
    const control = path.join(root, 'interaction-control');
    cpSync(dir, control, { recursive: true });
    const recordFile = path.join(control, 'campaign.json');
    const record = readJson<Record<string, unknown>>(recordFile);
    record.gates = [
      {
        kind: 'no-scenario-regresses',
        scenarios: ['s2'],
        alpha: 0.05,
        correction: 'holm',
        model: 'messages',
      },
      {
        kind: 'engines-agree',
        scenarios: ['s2'],
        arms: ['red'],
        maxGapPts: 0,
        alpha: 0.05,
        correction: 'holm',
      },
    ];
    writeFileSync(recordFile, `${JSON.stringify(record, null, 2)}\n`);
    const holds = await runCli(['gate', control]);
    expect(holds.exitCode, holds.stdout + holds.stderr).toBe(0);
    expect(holds.stdout).toMatch(
      /HOLDS +the engines agree: in S2, RED[^\n]*: the same pass rate on every engine/,
    );
  }, 120_000);
});
