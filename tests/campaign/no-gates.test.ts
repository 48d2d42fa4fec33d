/**
 * A campaign that declares no gates checks nothing, so it cannot pass:
 * `gate` says so loudly and exits 2, unless `--allow-no-gates` says that is
 * what the user wants. `run` warns at the start.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { runCampaignCli, writeCampaign } from './support.js';

describe('a campaign without gates', () => {
  it('is not a pass: gate exits 2 unless --allow-no-gates', async () => {
    const campaign = writeCampaign({ gates: [], reps: 1 });
    const out = path.join(makeTempDir(), 'out');
    const run = await runCampaignCli([campaign, '--out', out]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(`${run.stdout}${run.stderr}`).toMatch(/declares no gates/);

    const gate = await runCli(['gate', out]);
    expect(gate.exitCode, gate.stdout).toBe(2);
    expect(gate.stdout).toMatch(/NO GATES.*declares no gates.*--allow-no-gates/);

    const allowed = await runCli(['gate', out, '--allow-no-gates']);
    expect(allowed.exitCode, allowed.stdout).toBe(0);
    expect(allowed.stdout).toMatch(/declares no gates/);
  });

  it('--allow-no-gates does not turn missing reps into a pass', async () => {
    const campaign = writeCampaign({ gates: [], reps: 1 });
    const out = path.join(makeTempDir(), 'out');
    const run = await runCampaignCli([campaign, '--shard', '1/4', '--out', out]);
    expect(run.exitCode, run.stderr).toBe(0);
    const allowed = await runCli(['gate', out, '--allow-no-gates']);
    expect(allowed.exitCode).toBe(2);
  });
});
