/**
 * A campaign names its scenarios by id (a folder beside the campaign file, or
 * one redgreen ships) or by the path of a scenario folder, relative to the
 * campaign file: a maintainer runs the shipped S1 beside a scenario of their
 * own without copying folders, and `redgreen score` finds both again.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, runCli } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { defaultCampaign, readJson, repLines, runCampaignCli } from './support.js';

/** A campaign file in a folder of its own, its arms pointing at the reference skills. */
function campaignElsewhere(scenarios: unknown[], gates: unknown[] = []): string {
  const dir = path.join(makeTempDir(), 'campaigns');
  mkdirSync(dir);
  const campaign = readJson<Record<string, unknown>>(path.join(repoRoot, defaultCampaign));
  campaign.arms = (campaign.arms as { skill: string }[]).map((arm) => ({
    ...arm,
    skill: path.resolve(repoRoot, 'scenarios', arm.skill),
  }));
  const file = path.join(dir, 'mine.campaign.json');
  writeFileSync(file, JSON.stringify({ ...campaign, scenarios, gates }, null, 2));
  return file;
}

describe('scenarios a campaign names', () => {
  it('by path beside a shipped id: the run, the gates and a rescore find both', async () => {
    const file = campaignElsewhere(
      ['s1', '../own/my-probe'],
      [{ kind: 'min-pass-rate', arm: 'green', scenario: 'my-probe', passes: 1, of: 1 }],
    );
    const own = path.join(path.dirname(file), '..', 'own');
    mkdirSync(own);
    const scaffold = await runCli(['scenario', 'new', 'my-probe', '--dir', own]);
    expect(scaffold.exitCode, scaffold.stderr).toBe(0);

    const dry = await runCampaignCli([file, '--reps', '1', '--dry-run']);
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/cell S1 RED/);
    expect(dry.stdout).toMatch(/cell MY-PROBE GREEN/);

    const out = path.join(makeTempDir(), 'out');
    const run = await runCampaignCli([file, '--reps', '1', '--out', out]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(
      repLines(out)
        .map((line) => line.id)
        .sort(),
    ).toEqual(['green/my-probe-rep1', 'green/s1-rep1', 'red/my-probe-rep1', 'red/s1-rep1']);
    const rescore = await runCli(['score', out]);
    expect(rescore.exitCode, rescore.stderr).toBe(0);
    expect(readFileSync(path.join(out, 'results.md'), 'utf8')).toContain('my-probe');
  });

  it('neither an id nor a path: the error says what an entry may be', async () => {
    const file = campaignElsewhere(['s1', 'My Probe']);
    const run = await runCampaignCli([file, '--dry-run']);
    expect(run.exitCode).toBe(2);
    const lines = run.stderr.trim().split('\n');
    expect(lines, run.stderr).toHaveLength(1);
    expect(lines[0]).toMatch(/scenarios\[1\].*a scenario id.*or the path of a scenario folder/);
  });

  it('the same scenario by id and by path is listed twice', async () => {
    const file = campaignElsewhere(['s1', `${path.join(repoRoot, 'scenarios', 's1')}`]);
    const run = await runCampaignCli([file, '--dry-run']);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(/scenarios\[1\]: scenario "s1" is listed twice/);
  });
});
