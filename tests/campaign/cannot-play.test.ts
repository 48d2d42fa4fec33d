/**
 * A scripted policy on a session it cannot play gives no verdict: skill-reader
 * (an SDD controller's reader) on a skills library's triggering scenario is
 * refused by the model server on the session's first turn, and every rep is
 * indeterminate at stage `brain` with a reason naming the policy, what it
 * could not play and what to run instead; `run --gate` is then undecided
 * (exit 2). Planted negative: the same policy on the SDD skill it reads still
 * plays, and its reps pass and fail as before. The endpoint preflight's probe
 * is untouched (tests/campaign/preflight.test.ts, and the protocol test of a
 * request that offers no tools).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeTempDir } from '../helpers/temp-dir.js';
import { defaultCampaign, readJson, repLines, runCampaignCli } from './support.js';

interface Meta {
  status: { kind: string; stage?: string; reason?: string };
  turns: number;
  toolUses: number;
}

const cannotPlay =
  /^scripted:skill-reader cannot play this session: it plays an SDD controller's prompt, and this prompt does not give the fixture repository path \(expected .*\)\. No verdict: for this skill, write a policy file policies\/<name>\.yaml beside the campaign file and run --model scripted:<name> \(README: Calibration as data: policy files\), or run a live model$/;

describe('a scripted policy on a session it cannot play (messages backend)', () => {
  it('skill-reader on a triggering scenario: every rep indeterminate at stage brain, with the reason; run --gate exits 2', async () => {
    const out = path.join(makeTempDir(), 'out');
    const run = await runCampaignCli([
      'scenarios/skill-triggering.campaign.json',
      '--model',
      'scripted:skill-reader',
      '--backend',
      'messages',
      '--only',
      'scenario=skill-triggering-unrelated',
      '--reps',
      '1',
      '--gate',
      '--out',
      out,
      '--quiet',
    ]);
    expect(run.exitCode, run.stderr).toBe(2);
    const reps = repLines(out);
    expect(reps.map((rep) => rep.id).sort()).toEqual([
      'green/skill-triggering-unrelated-rep1',
      'red/skill-triggering-unrelated-rep1',
    ]);
    for (const rep of reps) {
      expect(rep.status, rep.id).toBe('indeterminate');
      expect(rep.verdict, rep.id).not.toMatch(/^(pass|fail)$/);
      const meta = readJson<Meta>(path.join(out, rep.dir ?? '', 'meta.json'));
      expect(meta.status.stage, rep.id).toBe('brain');
      expect(meta.status.reason, rep.id).toMatch(cannotPlay);
      // Refused on the first turn: the policy ran nothing.
      expect(meta.toolUses, rep.id).toBe(0);
    }
    expect(readFileSync(path.join(out, 'results.md'), 'utf8')).toContain(
      'scripted:skill-reader cannot play this session',
    );
  });

  it('planted negative: skill-reader on the SDD skill still plays, RED failing and GREEN passing S1', async () => {
    const out = path.join(makeTempDir(), 'out');
    const run = await runCampaignCli([
      defaultCampaign,
      '--backend',
      'messages',
      '--only',
      'scenario=s1',
      '--reps',
      '1',
      '--out',
      out,
      '--quiet',
    ]);
    expect(run.exitCode, run.stderr).toBe(0);
    const verdicts = Object.fromEntries(repLines(out).map((rep) => [rep.id, rep.verdict]));
    expect(verdicts).toEqual({ 'red/s1-rep1': 'fail', 'green/s1-rep1': 'pass' });
  });
});
