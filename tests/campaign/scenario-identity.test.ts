/**
 * Results that cannot silently mix (issue 27, item 1): every rep records
 * the hash of the scenario it was scored with, the campaign identity covers
 * the scenario files, a resume after a check was edited is refused with
 * what changed and the rescore command, `redgreen score` says which file it
 * used and warns when it differs, records the rescore per rep and in
 * results.md, and never reads a scenario from another folder of the same
 * id when the one the run read is gone.
 */
import { cpSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, runCli } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { defaultCampaign, readJson, repLines, runCampaignCli } from './support.js';

interface ScoreFile {
  verdict: string;
  scoredWith?: { scenario: string; rescoredAt?: string };
}

/** A campaign in a folder of its own that names a copy of S1 by path (`../own/s1`). */
function campaignWithOwnS1(): { file: string; own: string } {
  const root = makeTempDir('redgreen-identity-');
  const campaigns = path.join(root, 'campaigns');
  const own = path.join(root, 'own', 's1');
  mkdirSync(campaigns);
  cpSync(path.join(repoRoot, 'scenarios/s1'), own, { recursive: true });
  const campaign = readJson<Record<string, unknown>>(path.join(repoRoot, defaultCampaign));
  campaign.arms = (campaign.arms as { skill: string }[]).map((arm) => ({
    ...arm,
    skill: path.resolve(repoRoot, 'scenarios', arm.skill),
  }));
  const file = path.join(campaigns, 'mine.campaign.json');
  writeFileSync(file, JSON.stringify({ ...campaign, scenarios: ['../own/s1'], gates: [] }));
  return { file, own };
}

/** Edit one check: the first dispatch must now be Task 2 (the scripted GREEN rep dispatches Task 1). */
function editFirstDispatchCheck(scenarioDir: string): void {
  const file = path.join(scenarioDir, 'scenario.json');
  const scenario = readJson<{ checks: { post: { id: string; task?: number }[] } }>(file);
  const check = scenario.checks.post.find((entry) => entry.id === 'first-dispatch');
  if (check === undefined) throw new Error('s1 has no first-dispatch check');
  check.task = 2;
  writeFileSync(file, JSON.stringify(scenario, null, 2));
}

function scoreOf(out: string, rep: string): ScoreFile {
  return readJson<ScoreFile>(path.join(out, 'reps/green', rep, 'score.json'));
}

describe('scenario identity and the rescoring audit trail', () => {
  it('refuses a resume after a check was edited, rescores with the file the run read, and never with another of its id', async () => {
    const { file, own } = campaignWithOwnS1();
    const out = path.join(makeTempDir(), 'out');
    const first = await runCampaignCli([
      file,
      '--reps',
      '1',
      '--only',
      'arm=green',
      '--backend',
      'messages',
      '--out',
      out,
      '--no-report',
    ]);
    expect(first.exitCode, first.stderr).toBe(0);
    const recorded = readJson<{ identity: string; scenarios: { sha256?: string; dir?: string }[] }>(
      path.join(out, 'campaign.json'),
    );
    const runHash = recorded.scenarios[0]?.sha256 ?? '';
    expect(runHash).toMatch(/^[0-9a-f]{64}$/);
    expect(recorded.scenarios[0]?.dir).toBe(own);
    expect(scoreOf(out, 's1-rep1')).toMatchObject({
      verdict: 'pass',
      scoredWith: { scenario: runHash },
    });

    // The reported case: rep 1 scored under the old checks, rep 2 under the new, silently.
    editFirstDispatchCheck(own);
    const refused = await runCampaignCli(['--resume', out, '--reps', '2']);
    expect(refused.exitCode).toBe(2);
    const lines = refused.stderr.trim().split('\n');
    expect(lines, refused.stderr).toHaveLength(1);
    expect(lines[0]).toContain(
      `${path.join(own, 'scenario.json')}: scenario ${runHash.slice(0, 12)} →`,
    );
    expect(lines[0]).toContain(`redgreen score ${out}`);
    expect(repLines(out)).toHaveLength(1);

    const rescored = await runCli(['score', out]);
    expect(rescored.exitCode, rescored.stderr).toBe(0);
    expect(rescored.stdout).toContain(
      `s1: scored with ${path.join(own, 'scenario.json')} (scenario `,
    );
    expect(rescored.stderr).toMatch(
      /warning: s1: .* differs from the scenario the reps were scored with/,
    );
    expect(rescored.stdout).toContain('green/s1-rep1: pass -> fail');
    const after = scoreOf(out, 's1-rep1');
    const newHash = after.scoredWith?.scenario ?? '';
    expect(newHash).not.toBe(runHash);
    expect(after.scoredWith?.rescoredAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    const date = after.scoredWith?.rescoredAt?.slice(0, 10) ?? '';
    const markdown = readFileSync(path.join(out, 'results.md'), 'utf8');
    expect(markdown).toContain(`rescored with scenario ${newHash.slice(0, 12)} on ${date} (1 rep)`);
    expect(readFileSync(path.join(out, 'report.html'), 'utf8')).toContain(
      `rescored with scenario ${newHash.slice(0, 12)} on ${date}`,
    );
    const identity = readJson<{ identity: string }>(path.join(out, 'campaign.json')).identity;
    expect(identity).not.toBe(recorded.identity);

    // A rep whose score.json names another version than campaign.json (an interrupted rescore) refuses a resume too.
    const repScore = path.join(out, 'reps/green/s1-rep1/score.json');
    const rescoredText = readFileSync(repScore, 'utf8');
    writeFileSync(repScore, rescoredText.replace(newHash, runHash));
    const mixed = await runCampaignCli(['--resume', out, '--reps', '2', '--dry-run']);
    expect(mixed.exitCode).toBe(2);
    expect(mixed.stderr).toContain(`green/s1-rep1: scenario ${runHash.slice(0, 12)}`);
    expect(mixed.stderr).toContain(`redgreen score ${out}`);
    // …and no gate is decided on it (campaign.json says one version, a rep another).
    const mixedGate = await runCli(['gate', out, '--allow-no-gates']);
    expect(mixedGate.exitCode).toBe(2);
    expect(mixedGate.stdout).toContain(
      `different versions of their scenario, s1 (campaign.json ${newHash.slice(0, 12)}; reps ${runHash.slice(0, 12)}: 1)`,
    );
    writeFileSync(repScore, rescoredText);

    // Rescored first, the resume is accepted and both reps read the same checks.
    const resumed = await runCampaignCli(['--resume', out, '--reps', '2', '--no-report']);
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(scoreOf(out, 's1-rep2')).toMatchObject({
      verdict: 'fail',
      scoredWith: { scenario: newHash },
    });

    // The folder the run read moves away: a shipped s1 exists, and is never used in its place.
    renameSync(path.dirname(own), `${path.dirname(own)}-moved`);
    const gone = await runCli(['score', out]);
    expect(gone.exitCode).toBe(2);
    expect(gone.stdout).toBe('');
    const error = gone.stderr.trim().split('\n');
    expect(error, gone.stderr).toHaveLength(1);
    expect(error[0]).toContain(`scenario s1: the run read it from ${own}, which is gone`);
    expect(scoreOf(out, 's1-rep1').verdict).toBe('fail');
  });
});
