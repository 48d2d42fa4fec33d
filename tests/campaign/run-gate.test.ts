/**
 * `run --gate`, for a CI job that calls only `run`: after the run it exits
 * with the code `redgreen gate` would give (0 every gate holds, 1 a gate
 * fails, 2 undecided), where a plain `run` exits 0 once every rep is
 * recorded whatever the gates say.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { runCampaignCli, writeCampaign } from './support.js';

/** One rep of one cell, gated 1/1: S1 RED fails under the default offline policy, S1 GREEN passes. */
function oneCellCampaign(arm: 'red' | 'green'): { file: string; only: string[] } {
  return {
    file: writeCampaign({
      reps: 1,
      gates: [{ kind: 'min-pass-rate', arm, scenario: 's1', passes: 1, of: 1 }],
    }),
    only: ['--only', `scenario=s1,arm=${arm}`],
  };
}

describe('run --gate', () => {
  it('exits 1 when a gate fails, where run alone exits 0; gate agrees', async () => {
    const { file, only } = oneCellCampaign('red');
    const plainOut = path.join(makeTempDir(), 'plain');
    const plain = await runCampaignCli([file, ...only, '--out', plainOut]);
    expect(plain.exitCode, plain.stderr).toBe(0);
    // It says so, and how to make it count.
    expect(plain.stderr).toMatch(
      /^redgreen: gates failed \(.+\); this run still exits 0: run with --gate .* to make a failed gate exit 1$/m,
    );
    const gated = await runCampaignCli([
      file,
      ...only,
      '--gate',
      '--out',
      path.join(makeTempDir(), 'gated'),
    ]);
    expect(gated.exitCode, gated.stderr).toBe(1);
    expect(gated.stdout).toMatch(/Gates: FAIL/);
    const gate = await runCli(['gate', plainOut]);
    expect(gate.exitCode).toBe(1);
  });

  it('exits 0 when every gate holds, and 2 when a gate cannot be decided', async () => {
    const { file, only } = oneCellCampaign('green');
    const holds = await runCampaignCli([
      file,
      ...only,
      '--gate',
      '--out',
      path.join(makeTempDir(), 'a'),
    ]);
    expect(holds.exitCode, holds.stderr).toBe(0);
    const plain = await runCampaignCli([file, ...only, '--out', path.join(makeTempDir(), 'c')]);
    expect(plain.exitCode, plain.stderr).toBe(0);
    expect(plain.stderr).not.toMatch(/gates failed|gates undecided/);
    const quiet = await runCampaignCli([
      file,
      ...only,
      '--gate',
      '--quiet',
      '--shard',
      '1/2',
      '--reps',
      '2',
      '--out',
      path.join(makeTempDir(), 'b'),
    ]);
    expect(quiet.exitCode, quiet.stderr).toBe(2);
    expect(quiet.stdout).toMatch(/shard/);
  });

  it('says on stderr which gate a plain run left undecided, and why', async () => {
    // One rep recorded where the gate needs two decided.
    const file = writeCampaign({
      reps: 1,
      gates: [{ kind: 'min-pass-rate', arm: 'green', scenario: 's1', passes: 2, of: 2 }],
    });
    const plain = await runCampaignCli([
      file,
      '--only',
      'scenario=s1,arm=green',
      '--out',
      path.join(makeTempDir(), 'undecided'),
    ]);
    expect(plain.exitCode, plain.stderr).toBe(0);
    expect(plain.stderr).toMatch(
      /^redgreen: gates undecided \(cannot decide: S1 GREEN passes at least 2\/2: .+\); this run still exits 0: more reps .*run with --gate to make an undecided gate exit 2$/m,
    );
  });
});
