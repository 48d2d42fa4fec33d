import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { defaultCampaign, runCampaignCli } from './support.js';

/** A copy of scenarios/ in a temp dir, with the default campaign rewritten by `edit`. */
function scenariosCopy(edit: (campaign: Record<string, unknown>) => void): string {
  const dir = path.join(makeTempDir(), 'scenarios');
  cpSync(path.join(repoRoot, 'scenarios'), dir, { recursive: true });
  const file = path.join(dir, 'plan-scoped-workspace.campaign.json');
  const campaign = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  campaign.arms = (campaign.arms as { skill: string }[]).map((arm) => ({
    ...arm,
    skill: path.resolve(repoRoot, 'scenarios', arm.skill),
  }));
  edit(campaign);
  writeFileSync(file, JSON.stringify(campaign, null, 2));
  return file;
}

async function expectInputError(args: readonly string[], pattern: RegExp): Promise<void> {
  const out = path.join(makeTempDir(), 'out');
  const run = await runCampaignCli([...args, '--out', out], {}, 30_000);
  expect(run.exitCode, run.stderr).toBe(2);
  const lines = run.stderr.trim().split('\n');
  expect(lines, run.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^redgreen: /);
  expect(lines[0]).toMatch(pattern);
  expect(existsSync(out), 'nothing is created for bad input').toBe(false);
}

describe('redgreen run: bad configuration is refused before anything is built or run', () => {
  it('a TMPDIR that does not exist names TMPDIR and the fix', async () => {
    for (const dryRun of [[], ['--dry-run']]) {
      const out = path.join(makeTempDir(), 'out');
      const run = await runCampaignCli(
        [defaultCampaign, ...dryRun, '--out', out],
        { TMPDIR: '/nonexistent/tmp' },
        30_000,
      );
      expect(run.exitCode, run.stderr).toBe(2);
      const lines = run.stderr.trim().split('\n');
      expect(lines, run.stderr).toHaveLength(1);
      expect(lines[0]).toMatch(/^redgreen: TMPDIR=\/nonexistent\/tmp: .*ENOENT.*set TMPDIR/);
      expect(existsSync(out)).toBe(false);
    }
  });

  it('an unknown field in the campaign file names the field', async () => {
    const file = scenariosCopy((campaign) => {
      campaign.repz = 3;
    });
    await expectInputError([file], /unknown field "repz"; did you mean "reps"\? use .*"reps"/);
  });

  it('an unknown field inside an arm names its path', async () => {
    const file = scenariosCopy((campaign) => {
      (campaign.arms as Record<string, unknown>[])[0] = {
        ...(campaign.arms as Record<string, unknown>[])[0],
        colour: 'red',
      };
    });
    await expectInputError([file], /arms\[0\].*unknown field "colour"/);
  });

  it('a missing skill directory names the arm and the fix', async () => {
    await expectInputError(
      [defaultCampaign, '--arm', 'red=/nonexistent/skill'],
      /--arm red: skill directory \/nonexistent\/skill does not exist/,
    );
  });

  it('a directory without SKILL.md is not a skill', async () => {
    await expectInputError(
      [defaultCampaign, '--arm', `green=${makeTempDir()}`],
      /has no SKILL\.md/,
    );
  });

  it('a git: ref that does not resolve is refused', async () => {
    const repo = makeTempDir();
    await execa('git', ['init', '-q', repo], {
      env: {
        PATH: process.env.PATH ?? '',
        GIT_CONFIG_GLOBAL: '/dev/null',
        GIT_CONFIG_NOSYSTEM: '1',
        HOME: repo,
      },
      extendEnv: false,
    });
    await expectInputError(
      [defaultCampaign, '--arm', `red=git:${repo}@no-such-ref:skills/x`],
      /ref "no-such-ref" does not resolve/,
    );
  });

  it('an --arm for an arm the campaign does not have lists the arms', async () => {
    await expectInputError([defaultCampaign, '--arm', 'blue=/tmp'], /no arm "blue".*red, green/);
  });

  it('a prompt template that lacks a variable the sessions need is refused', async () => {
    const file = scenariosCopy(() => {});
    const template = path.join(path.dirname(file), 'prompts', 'compaction-resume.hbs');
    writeFileSync(
      template,
      readFileSync(template, 'utf8').replace('{{skillDir}}', '(the skill dir)'),
    );
    await expectInputError([file], /never mentions \{\{skillDir\}\}/);
  });

  it('a prompt template using a variable redgreen does not supply is refused', async () => {
    const file = scenariosCopy(() => {});
    const template = path.join(path.dirname(file), 'prompts', 'compaction-resume.hbs');
    writeFileSync(template, `${readFileSync(template, 'utf8')}\n{{ticketId}}\n`);
    await expectInputError([file], /uses \{\{ticketId\}\}/);
  });

  it('a scenario still in the old two-file format points at the migration', async () => {
    const file = scenariosCopy(() => {});
    writeFileSync(path.join(path.dirname(file), 's1', 'scoring.json'), '{}');
    await expectInputError(
      [file],
      /s1\/scoring\.json: is the old scoring format, which redgreen no longer reads; run `redgreen scenario migrate /,
    );
  });

  it('a scenario with an unknown check verb is refused, naming file, field and fix', async () => {
    const file = scenariosCopy(() => {});
    const scenarioFile = path.join(path.dirname(file), 's2', 'scenario.json');
    const scenario = JSON.parse(readFileSync(scenarioFile, 'utf8')) as {
      checks: { post: unknown[] };
    };
    scenario.checks.post.push({ id: 'typo', verb: 'reply-is-taks', section: 'dispatch', task: 3 });
    writeFileSync(scenarioFile, JSON.stringify(scenario));
    await expectInputError(
      [file],
      /s2\/scenario\.json: checks\.post\[3\]\.verb: unknown verb "reply-is-taks"; use one of /,
    );
  });

  it('a gate naming an arm the campaign lacks is refused', async () => {
    const file = scenariosCopy((campaign) => {
      campaign.gates = [{ kind: 'min-pass-rate', arm: 'blue', scenario: 's1', passes: 1, of: 1 }];
    });
    await expectInputError([file], /gates\[0\].*arm "blue"/);
  });

  it('a live model without a key says how to run offline', async () => {
    await expectInputError(
      [defaultCampaign, '--model', 'claude-sonnet-5-5'],
      /ANTHROPIC_API_KEY is not set.*scripted:skill-reader/,
    );
  });

  it('an unknown scripted policy lists the policies', async () => {
    await expectInputError(
      [defaultCampaign, '--model', 'scripted:psychic'],
      /no scripted policy.*scripted:skill-reader/,
    );
  });

  it('a bad --shard and a bad --fault are refused', async () => {
    await expectInputError([defaultCampaign, '--shard', '5/4'], /--shard/);
    await expectInputError([defaultCampaign, '--fault', 'explode'], /fault|explode/);
  });

  it('a limit out of range from a flag is refused before anything is written', async () => {
    await expectInputError(
      [defaultCampaign, '--session-timeout', '3000000'],
      /limits.*sessionTimeoutSeconds/,
    );
  });

  it('a scenario listed twice is refused, naming the repeat', async () => {
    const file = scenariosCopy((campaign) => {
      campaign.scenarios = ['s1', 's2', 's1'];
    });
    await expectInputError([file], /scenarios\[2\]: scenario "s1" is listed twice/);
  });

  it('an --arm given twice for one arm is refused, not silently the last one', async () => {
    await expectInputError(
      [
        defaultCampaign,
        '--arm',
        'red=skills-under-test/sdd-released',
        '--arm',
        'red=skills-under-test/sdd-plan-scoped',
      ],
      /--arm red.*given twice/,
    );
  });

  it('a misspelt required field is named as the unknown field, with the field it stands for', async () => {
    const file = scenariosCopy((campaign) => {
      campaign.scenarois = campaign.scenarios;
      delete campaign.scenarios;
    });
    await expectInputError([file], /unknown field "scenarois".*did you mean "scenarios"/);
  });

  it("a bad offlineModel is blamed on the campaign file's offlineModel, not on --model", async () => {
    const file = scenariosCopy((campaign) => {
      campaign.offlineModel = 'scripted:psychic';
    });
    await expectInputError([file], /offlineModel: "scripted:psychic" names no scripted policy/);
    const run = await runCampaignCli([file, '--dry-run'], {}, 30_000);
    expect(run.stderr).not.toContain('--model');
  });

  it('a missing scenario folder: the hint names the very path that was checked', async () => {
    const file = scenariosCopy((campaign) => {
      campaign.scenarios = ['s1', 's9'];
    });
    const checked = path.join(path.dirname(file), 's9');
    const out = path.join(makeTempDir(), 'out');
    const run = await runCampaignCli([file, '--out', out], {}, 30_000);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain(`has no folder ${checked}`);
    expect(run.stderr).toContain(`create ${checked}/`);
    expect(run.stderr).not.toContain('scenarios/<id>');
  });

  it('a bad number flag exits 2', async () => {
    const run = await runCampaignCli(['--reps', 'zero'], {}, 30_000);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toContain('--reps must be a whole number');
  });

  it('an existing, non-empty --out is never written into', async () => {
    const out = makeTempDir();
    mkdirSync(path.join(out, 'keep'));
    writeFileSync(path.join(out, 'keep', 'mine.txt'), 'precious');
    const run = await runCampaignCli([defaultCampaign, '--out', out], {}, 30_000);
    expect(run.exitCode).toBe(2);
    expect(run.stderr).toMatch(/already exists and is not empty.*--resume/);
    expect(readFileSync(path.join(out, 'keep', 'mine.txt'), 'utf8')).toBe('precious');
  });
});
