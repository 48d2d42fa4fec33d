/**
 * The skills panel (scenarios/skills-panel.campaign.json) as a user runs it:
 * `campaign lint` through the CLI, and `run` offline at --reps 1 on four of
 * its scenarios (real compaction, review cost in tokens, finishing a branch
 * on a worktree, a question the user answers), whose verdicts must be what
 * each scenario's calibration says of its arm. The whole panel
 * is run and timed by scripts/bench-skills-panel.ts (about a minute; every
 * scenario's calibration is proved row by row by its own `scenario lint
 * --backend claude-code`, which the bench runs too). A campaign's offline
 * policy file is refused in one line when it is broken or missing. With a
 * mirror of obra/superpowers the panel resolves both of its refs.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  expectedPanelVerdicts,
  SKILLS_PANEL_CAMPAIGN,
} from '../../scripts/skills-panel-verdicts.js';
import { repoRoot, runCli } from '../helpers/cli.js';
import { findSuperpowersMirror } from '../helpers/superpowers-mirror.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { readJson, repLines, runCampaignCli } from './support.js';

const SUBSET = [
  'compact-mid-plan',
  'review-fanout-cost',
  'finish-branch-worktree',
  'clarify-with-user',
];

describe('the skills panel campaign', () => {
  it('lints through the CLI, and every scenario calibrates both of its arms', async () => {
    const result = await runCli(['campaign', 'lint', SKILLS_PANEL_CAMPAIGN]);
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toContain('lint: skills-panel is sound');
    const expected = expectedPanelVerdicts(repoRoot);
    expect(Object.keys(expected)).toHaveLength(22);
    // Each behaviour fails on the released texts and passes on the branch's; the guards pass on both.
    const guards = ['trigger-unrelated', 'claude-md-no-tests'];
    for (const [rep, verdict] of Object.entries(expected)) {
      const [arm, scenario] = rep.split('/');
      const guard = guards.some((id) => scenario?.startsWith(`${id}-rep`));
      expect([rep, verdict]).toEqual([rep, arm === 'green' || guard ? 'pass' : 'fail']);
    }
  });

  it('runs offline at --reps 1 with the verdicts its calibration states (compaction, review cost, worktree, answered question)', async () => {
    const out = path.join(makeTempDir('redgreen-skills-panel-'), 'out');
    const result = await runCampaignCli([
      SKILLS_PANEL_CAMPAIGN,
      '--reps',
      '1',
      ...SUBSET.flatMap((id) => ['--only', `scenario=${id}`]),
      '--out',
      out,
      '--quiet',
    ]);
    expect(result.exitCode, result.stderr).toBe(0);
    const verdicts = Object.fromEntries(repLines(out).map((line) => [line.id, line.verdict]));
    expect(verdicts).toEqual(expectedPanelVerdicts(repoRoot, { scenarios: SUBSET }));
    // The compaction really happened, in the engine, between the turns.
    const transcript = readFileSync(
      path.join(out, 'reps/green/compact-mid-plan-rep1/transcript.jsonl'),
      'utf8',
    );
    expect(transcript).toMatch(/"subtype":"compact_boundary"/);
    const score = readJson<{ checks: { id: string; outcome: string }[] }>(
      path.join(out, 'reps/red/compact-mid-plan-rep1/score.json'),
    );
    expect(score.checks.map((check) => [check.id, check.outcome])).toEqual([
      ['reads-progress-after-compaction', 'fail'],
      ['no-redo-after-compaction', 'fail'],
      ['plan-finished', 'pass'],
    ]);
    // Review fan-out costs tokens: GREEN's one-rep input tokens well under 0.8 of RED's.
    const results = readJson<{ reps: { rep_id: string; input_tokens: number | null }[] }>(
      path.join(out, 'results.json'),
    );
    const tokens = (id: string): number =>
      results.reps.find((rep) => rep.rep_id === id)?.input_tokens ?? Number.NaN;
    expect(tokens('green/review-fanout-cost-rep1')).toBeLessThan(
      0.8 * tokens('red/review-fanout-cost-rep1'),
    );
    // Finishing the branch: RED's forced removal kept the merge and lost the uncommitted test.
    const checksOf = (rep: string): [string, string][] =>
      readJson<{ checks: { id: string; outcome: string }[] }>(
        path.join(out, 'reps', rep, 'score.json'),
      ).checks.map((check) => [check.id, check.outcome]);
    expect(checksOf('red/finish-branch-worktree-rep1')).toEqual([
      ['merged-into-main', 'pass'],
      ['main-checkout-has-it', 'pass'],
      ['uncommitted-work-kept', 'fail'],
    ]);
    // The question was answered by the user's declared turn (offline the script plays the
    // part a model plays live), and GREEN built what it said.
    const clarify = readFileSync(
      path.join(out, 'reps/green/clarify-with-user-rep1/transcript.jsonl'),
      'utf8',
    );
    expect(clarify).toMatch(/"played_by":null/);
    expect(clarify).toContain('Formal: `Good day, <name>.`');
    expect(
      checksOf('green/clarify-with-user-rep1').every(([, outcome]) => outcome === 'pass'),
    ).toBe(true);
  }, 180_000);

  it('refuses a campaign whose offline policy file is broken or missing, in one line', async () => {
    const dir = makeTempDir('redgreen-panel-policy-');
    mkdirSync(path.join(dir, 'policies'));
    writeFileSync(path.join(dir, 'policies', 'broken-brain.yaml'), 'steps:\n  - wander: off\n');
    const workbench = path.join(repoRoot, 'skills-under-test', 'workbench');
    const campaign = (policy: string): string => {
      const file = path.join(dir, `${policy}.campaign.json`);
      writeFileSync(
        file,
        JSON.stringify({
          id: 'panel-policy',
          title: 'a data brain',
          arms: [
            {
              name: 'red',
              role: 'red',
              label: 'r',
              library: { source: workbench },
              layout: 'default',
            },
            {
              name: 'green',
              role: 'green',
              label: 'g',
              library: { source: workbench },
              layout: 'default',
            },
          ],
          scenarios: [path.join(repoRoot, 'scenarios', 'skills-panel', 'trigger-unrelated')],
          reps: 1,
          model: 'claude-sonnet-5-5',
          offlineModel: `scripted:${policy}`,
          gates: [{ kind: 'max-indeterminate-share', share: 0.2 }],
        }),
      );
      return file;
    };
    const broken = await runCli(['campaign', 'lint', campaign('broken-brain')]);
    expect(broken.exitCode).toBe(2);
    expect(broken.stderr.trim().split('\n')).toHaveLength(1);
    expect(broken.stderr).toContain(path.join(dir, 'policies', 'broken-brain.yaml'));
    const missing = await runCli(['campaign', 'lint', campaign('no-such-brain')]);
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr.trim().split('\n')).toHaveLength(1);
    expect(missing.stderr).toMatch(
      /"scripted:no-such-brain" names no scripted policy; use one of .*scripted:skills-panel.*, or write the policy file policies\/no-such-brain\.yaml beside the campaign file/,
    );
  });

  const mirror = findSuperpowersMirror();
  if (mirror === undefined) {
    it.skip('resolves obra/superpowers at v6.1.1 and v6.2.0 (skipped: no mirror of obra/superpowers; set SUPERPOWERS_REPO)', () => {});
    console.log(
      'skills-panel: obra/superpowers arms skipped: no mirror found (set SUPERPOWERS_REPO to its git dir)',
    );
  } else {
    it('resolves obra/superpowers at v6.1.1 and v6.2.0 as its two arms (dry run)', async () => {
      const result = await runCampaignCli([
        SKILLS_PANEL_CAMPAIGN,
        '--arm',
        `red=git:${mirror}@v6.1.1`,
        '--arm',
        `green=git:${mirror}@v6.2.0`,
        '--dry-run',
      ]);
      expect(result.exitCode, result.stderr).toBe(0);
      expect(result.stdout).toMatch(/v6\.1\.1/);
      expect(result.stdout).toMatch(/v6\.2\.0/);
    });
  }
});
