/**
 * Labels and summaries from the real sources (issue 27, item 5): the
 * shipped CI workflow replaced the panel's texts with the pull request's
 * refs, and the tables still called them "rulings, not stalls
 * (sdd-rulings)" while the PR comment named no ref. Now a replaced arm
 * without a label is named by its source and commit, `--arm
 * red=<src>,label=<text>` names it as the user says, and the PR summary
 * lists every arm's source. A bare shipped skill name works in a
 * campaign's arms as it does in calibration.
 */
import { cpSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { parseArmOverride } from '../../harness/campaign/arm-override.js';
import { loadCampaign } from '../../harness/campaign/load-campaign.js';
import { resolveSkillSource } from '../../harness/library/skill-source.js';
import { gateSummaryMarkdown } from '../../harness/report/gate-output.js';
import { absoluteArmSpec } from '../../harness/run/run-request.js';
import { repoRoot } from '../helpers/cli.js';
import { testGitEnv } from '../helpers/git-env.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { modelWith, standardReps } from '../report-html/model-fixture.js';

async function skillsRepo(): Promise<{ repo: string; commit: string }> {
  const repo = path.join(makeTempDir(), 'skills');
  const env = testGitEnv(repo);
  const git = async (...args: string[]) =>
    String((await execa('git', args, { cwd: repo, env, extendEnv: false })).stdout).trim();
  cpSync(path.join(repoRoot, 'skills-under-test/sdd-rulings'), path.join(repo, 'skills/sdd'), {
    recursive: true,
  });
  await git('init', '-q', '-b', 'main');
  await git('add', '-A');
  await git('commit', '-qm', 'skills');
  return { repo, commit: await git('rev-parse', 'HEAD') };
}

const panel = path.join(repoRoot, 'scenarios/sdd-panel.campaign.json');

describe('--arm <name>=<source>[,label=<text>]', () => {
  it('parses the label after any source, commas and all, and refuses an unknown option', () => {
    expect(parseArmOverride('red=git:../s@main:skills/x,label=merge base, main')).toEqual({
      ok: true,
      value: { name: 'red', spec: 'git:../s@main:skills/x', label: 'merge base, main' },
    });
    expect(parseArmOverride('red=../mine')).toEqual({
      ok: true,
      value: { name: 'red', spec: '../mine', label: undefined },
    });
    const unknown = parseArmOverride('red=../mine,lable=x');
    expect(!unknown.ok && unknown.error.problem).toBe('"lable" is not an option of --arm');
    expect(!unknown.ok && unknown.error.fix).toMatch(/^did you mean "label"\? give label/);
    expect(parseArmOverride('red=../mine,label=').ok).toBe(false);
  });

  it('keeps the label when the run records the source as an absolute path', () => {
    expect(absoluteArmSpec('red=../mine,label=my text', '/work/x')).toBe(
      'red=/work/mine,label=my text',
    );
    expect(absoluteArmSpec('red=sdd-rulings', '/nonexistent')).toBe('red=sdd-rulings');
    // A library arm's git source without a subdirectory, and one skill of it.
    expect(absoluteArmSpec('green=git:../lib@main', '/work/x')).toBe('green=git:/work/lib@main');
    expect(absoluteArmSpec('green:tdd=git:../lib@v1:skills/tdd', '/work/x')).toBe(
      'green:tdd=git:/work/lib@v1:skills/tdd',
    );
  });

  it('names a replaced arm by its source and commit, or by the label given (the reported CI case)', async () => {
    const { repo, commit } = await skillsRepo();
    const loaded = await loadCampaign(panel, {
      cwd: repoRoot,
      arms: [
        `red=git:${repo}@${commit}:skills/sdd`,
        `green=git:${repo}@main:skills/sdd,label=PR head`,
      ],
    });
    if (!loaded.ok) throw new Error(loaded.error.problem);
    const [red, green] = loaded.value.arms;
    expect(red?.label).toBe(`skills@${commit.slice(0, 12)}:skills/sdd`);
    expect(green?.label).toBe('PR head');
    expect(loaded.value.arms.map((arm) => arm.label).join(' ')).not.toMatch(/rulings|fix-loop/);
    const unchanged = await loadCampaign(panel, { cwd: repoRoot });
    expect(unchanged.ok && unchanged.value.arms[1]?.label).toMatch(/sdd-rulings/);
  });

  it('the PR summary names each arm with its source', () => {
    const summary = gateSummaryMarkdown(modelWith(standardReps()));
    expect(summary).toContain('- RED (`red`): released (flat ledger) — `../skills-under-test/red`');
    expect(summary).toContain(
      '- GREEN (`green`): plan-scoped workspace — `../skills-under-test/green`',
    );
  });
});

describe('a bare skill name in a campaign arm', () => {
  it('is a shipped text when no folder of that name is beside the campaign', async () => {
    const found = await resolveSkillSource('sdd-rulings', makeTempDir(), 'arms[0].skill');
    expect(found.ok && found.value.kind === 'dir' && found.value.dir).toBe(
      path.join(repoRoot, 'skills-under-test/sdd-rulings'),
    );
    const typo = await resolveSkillSource('sdd-rulngs', makeTempDir(), 'arms[0].skill');
    expect(!typo.ok && typo.error.problem).toMatch(/redgreen ships no skill text "sdd-rulngs"/);
    expect(!typo.ok && typo.error.fix).toMatch(/^did you mean "sdd-rulings"\? .*sdd-plan-scoped/);
  });
});
