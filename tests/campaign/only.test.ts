/**
 * `run --only scenario=<id>,arm=<name>` runs a subset of a campaign's cells.
 * The subset is part of the campaign identity (a resume keeps it, another
 * subset or the full campaign is another identity), campaign.json records
 * it, and gates about cells left out are dropped, and said to be.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeTempDir } from '../helpers/temp-dir.js';
import { defaultCampaign, readJson, repLines, runCampaignCli, sharedWholeRun } from './support.js';

function identityOf(out: string): string {
  return (
    JSON.parse(readFileSync(path.join(out, 'ledger.jsonl'), 'utf8').split('\n')[0] ?? '{}') as {
      identity: string;
    }
  ).identity;
}

describe('run --only', () => {
  it('runs the selected cells only, records the subset in the identity, and drops the gates it leaves out', async () => {
    const out = path.join(makeTempDir(), 'only');
    const run = await runCampaignCli([
      defaultCampaign,
      '--reps',
      '1',
      '--only',
      'scenario=s2,arm=green',
      '--out',
      out,
    ]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(repLines(out).map((line) => line.id)).toEqual(['green/s2-rep1']);
    const record = readJson<{
      arms: { name: string }[];
      scenarios: { id: string }[];
      gates: { kind: string }[];
      invocation: { only: { arms: string[]; scenarios: string[] } | null };
    }>(path.join(out, 'campaign.json'));
    expect(record.arms.map((arm) => arm.name)).toEqual(['green']);
    expect(record.scenarios.map((scenario) => scenario.id)).toEqual(['s2']);
    expect(record.invocation.only).toEqual({ arms: ['green'], scenarios: ['s2'] });
    // Kept: S2 GREEN's own gate and the indeterminate share; the rest need cells left out.
    expect(record.gates.map((gate) => gate.kind)).toEqual([
      'min-pass-rate',
      'max-indeterminate-share',
    ]);
    expect(run.stdout).toMatch(/--only leaves out 3 gate\(s\)/);

    const { out: full, run: whole } = await sharedWholeRun('full');
    expect(whole.exitCode, whole.stderr).toBe(0);
    expect(identityOf(out)).not.toBe(identityOf(full));

    const resumed = await runCampaignCli(['--resume', out]);
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain('running 0 of 1 scheduled rep (1 already done)');
    const other = await runCampaignCli(['--resume', out, '--only', 'scenario=s1']);
    expect(other.exitCode).toBe(2);
    expect(other.stderr).toMatch(/different campaign identity/);
  });

  it('refuses repeated --only flags whose cells the merged selection would not match', async () => {
    for (const flags of [
      ['--only', 'scenario=s1,arm=red', '--only', 'scenario=s2,arm=green'],
      ['--only', 'scenario=s1', '--only', 'arm=green'],
      ['--only', 'scenario=s1', '--only', 'scenario=s2,arm=red'],
      ['--only', 'arm=red,model=opus', '--only', 'arm=green,model=sonnet'],
    ]) {
      const out = path.join(makeTempDir(), 'out');
      const run = await runCampaignCli([defaultCampaign, ...flags, '--dry-run', '--out', out]);
      expect(run.exitCode, flags.join(' ')).toBe(2);
      const lines = run.stderr.trim().split('\n');
      expect(lines, run.stderr).toHaveLength(1);
      expect(lines[0]).toMatch(/^redgreen: --only .*crossed with.*give one --only/);
    }
    // Repeats that mean what they merge to are fine.
    for (const [flags, cells] of [
      [['--only', 'scenario=s1', '--only', 'scenario=s2'], 4],
      [['--only', 'scenario=s1,arm=red', '--only', 'scenario=s2,arm=red'], 2],
      [['--only', 'arm=red,scenario=s1', '--only', 'arm=green,scenario=s1'], 2],
    ] as const) {
      const run = await runCampaignCli([defaultCampaign, ...flags, '--reps', '1', '--dry-run']);
      expect(run.exitCode, `${flags.join(' ')}: ${run.stderr}`).toBe(0);
      expect(run.stdout.match(/^ {2}cell /gm) ?? []).toHaveLength(cells);
    }
  });

  it('refuses a name the campaign lacks and a key it does not know, in one line', async () => {
    for (const [spec, pattern] of [
      ['arm=blue', /--only arm=blue: the campaign has no arm "blue"; use one of red, green/],
      ['scenario=s9', /--only scenario=s9: the campaign has no scenario "s9"; use one of s1, s2/],
      ['colour=red', /--only colour=red: .*scenario=<id>,arm=<name>/],
      ['scenario=', /--only scenario=: .*scenario=<id>,arm=<name>/],
    ] as const) {
      const out = path.join(makeTempDir(), 'out');
      const run = await runCampaignCli([defaultCampaign, '--only', spec, '--out', out], {}, 30_000);
      expect(run.exitCode, spec).toBe(2);
      const lines = run.stderr.trim().split('\n');
      expect(lines, run.stderr).toHaveLength(1);
      expect(lines[0]).toMatch(pattern);
    }
  });
});
