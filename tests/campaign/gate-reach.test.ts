/**
 * A `min-pass-rate` gate the planned reps cannot meet (review finding 13:
 * "3 of 3" with reps 2 only said so after the whole run) is named before
 * the run: in the dry run and in the run's start notices. Planted
 * negative: with enough reps there is no note.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { gatesOutOfReach } from '../../harness/run/gate-reach.js';
import { repoRoot, runCli } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { defaultCampaign, runCampaignCli } from './support.js';

const gate = {
  kind: 'min-pass-rate',
  arm: 'green',
  scenario: 's1',
  passes: 3,
  of: 3,
} as const;

describe('gates the planned reps cannot meet', () => {
  it('names a min-pass-rate gate whose "of" exceeds the reps per cell, and no other', () => {
    expect(gatesOutOfReach({ gates: [gate], reps: 2 })).toEqual([
      'gate green/s1 at least 3/3 needs 3 decided reps in its cell, but the run schedules 2 per cell: it can never hold, at best it stays undecided (run with --reps 3 or more)',
    ]);
    expect(gatesOutOfReach({ gates: [gate], reps: 3 })).toEqual([]);
    expect(
      gatesOutOfReach({ gates: [{ kind: 'max-indeterminate-share', share: 0.2 }], reps: 1 }),
    ).toEqual([]);
  });

  it('names a green-better or no-regression gate the reps per arm cannot decide, with the reps that can', () => {
    const better = { kind: 'green-better', scenario: 's1', alpha: 0.05 } as const;
    const [note] = gatesOutOfReach({ gates: [better], reps: 3 });
    expect(note).toMatch(
      /cannot be decided with 3 rep\(s\) per cell: even all against none is not below α = 0\.05, so it stays undecided \(run with --reps 4 or more\)$/,
    );
    expect(gatesOutOfReach({ gates: [better], reps: 4 })).toEqual([]);
    const strict = { kind: 'no-regression', scenario: 's1', alpha: 0.01 } as const;
    expect(gatesOutOfReach({ gates: [strict], reps: 4 })[0]).toMatch(/run with --reps 5 or more/);
    expect(gatesOutOfReach({ gates: [strict], reps: 5 })).toEqual([]);
  });

  it('the dry run says so under --reps 2 and not under the campaign’s 5', async () => {
    const campaign = path.join(repoRoot, 'scenarios/fix-loop-breaker.campaign.json');
    const short = await runCli(['run', campaign, '--reps', '2', '--dry-run']);
    expect(short.exitCode, short.stderr).toBe(0);
    expect(short.stdout).toMatch(
      /note: gate green\/breaker-at-cap at least 4\/5 needs 5 decided reps in its cell, but the run schedules 2 per cell/,
    );
    const planned = await runCli(['run', campaign, '--dry-run']);
    expect(planned.exitCode, planned.stderr).toBe(0);
    expect(planned.stdout).not.toMatch(/needs \d+ decided reps/);
  });

  it('a run says so before its first rep', async () => {
    const out = path.join(makeTempDir(), 'short');
    const run = await runCampaignCli([
      defaultCampaign,
      '--reps',
      '1',
      '--only',
      'scenario=s1,arm=green',
      '--out',
      out,
    ]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/note: gate green\/s1 at least \d+\/\d+ needs \d+ decided reps/);
  });
});
