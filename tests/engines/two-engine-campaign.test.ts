import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJson, repLines, runCampaignCli, writeCampaign } from '../campaign/support.js';
import type { CliResult } from '../helpers/cli.js';
import { codexSkipReason } from '../helpers/codex-skip.js';

/**
 * The shipped two-engine campaign (scenarios/plan-scoped-workspace-engines)
 * at --reps 1 through the real Claude Code and Codex CLI binaries: reps laid
 * out per engine with each rep run on its own engine, the verdicts of the
 * default campaign's calibration on both, per-engine tables and the
 * interaction, and a resume that will not take the reps as another engine's.
 * Then the planted negative: a policy that reads the skill on one engine and
 * trusts the released ledger on Codex makes `engine: every` fail (exit 1),
 * and the same run with the skill reader on both holds (exit 0).
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
    expect(markdown).toContain('## Across models');
    expect(markdown).toMatch(/GREEN helps on none of the 2 engines/);
    expect(markdown).toMatch(/on every model \(Holm across 2 models × 2 scenarios/);
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
      /S2 GREEN passes at least 1\/1 on every model \| messages: 1\/1 [^|]*; codex: 0\/1 [^|]* \| FAILS \|/,
    );
    const clean = await runCampaignCli(args('skill-reader', 'clean'));
    expect(clean.exitCode, clean.stderr).toBe(0);
  });
});
