import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/cli.js';
import { findSuperpowersMirror } from '../helpers/superpowers-mirror.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { readJson, repLines, runCampaignCli } from './support.js';

const mirror = findSuperpowersMirror();
if (mirror === undefined) {
  console.log(
    'skipping the real-text campaigns: no obra/superpowers mirror (set SUPERPOWERS_REPO to a clone)',
  );
}

const subdir = 'skills/subagent-driven-development';

describe.skipIf(mirror === undefined)('the campaigns with the real texts as git: arms', () => {
  it.each([
    [
      'fix-loop-breaker',
      '0aff9eb8',
      '78bbfdae',
      ['breaker-at-cap', 'round4-escalates-model', 'final-review-carries-parked'],
      ['s1-probe', 's2-probe'],
    ],
    [
      'rulings-not-stalls',
      '8acf8e5f',
      '2b195749',
      ['broken-plan-ruling', 'breaker-rules-and-continues'],
      ['breaker-at-cap', 'round4-escalates-model', 'final-review-carries-parked'],
    ],
    [
      'sdd-panel',
      '8acf8e5f',
      '2b195749',
      ['broken-plan-ruling', 'breaker-rules-and-continues'],
      [
        's1',
        's2',
        's1-probe',
        's2-probe',
        'resume-audit',
        'breaker-at-cap',
        'round4-escalates-model',
        'final-review-carries-parked',
      ],
    ],
  ] as const)('%s (%s → %s)', async (campaign, red, green, claimed, kept) => {
    const out = path.join(makeTempDir(), 'out');
    const run = await runCampaignCli([
      path.join(repoRoot, 'scenarios', `${campaign}.campaign.json`),
      '--arm',
      `red=git:${mirror}@${red}:${subdir}`,
      '--arm',
      `green=git:${mirror}@${green}:${subdir}`,
      '--reps',
      '1',
      '--backend',
      'messages',
      '--out',
      out,
      '--quiet',
    ]);
    expect(run.exitCode, run.stderr).toBe(0);
    const lines = repLines(out);
    expect(lines.every((line) => line.status === 'completed')).toBe(true);
    const verdict = new Map(lines.map((line) => [line.id, line.verdict]));
    for (const scenario of claimed) {
      expect(verdict.get(`red/${scenario}-rep1`), scenario).toBe('fail');
      expect(verdict.get(`green/${scenario}-rep1`), scenario).toBe('pass');
    }
    for (const scenario of kept) {
      expect(verdict.get(`red/${scenario}-rep1`), scenario).toBe('pass');
      expect(verdict.get(`green/${scenario}-rep1`), scenario).toBe('pass');
    }
    const recorded = readJson<{ arms: { name: string; source: { spec: string } }[] }>(
      path.join(out, 'campaign.json'),
    );
    expect(recorded.arms.map((arm) => arm.source.spec)).toEqual([
      `git:${mirror}@${red}:${subdir}`,
      `git:${mirror}@${green}:${subdir}`,
    ]);
  });
});
