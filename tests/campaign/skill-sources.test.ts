import { cpSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../helpers/cli.js';
import { testGitEnv } from '../helpers/git-env.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { defaultCampaign, readJson, repLines, runCampaignCli, sharedOneRep } from './support.js';

async function git(repo: string, ...args: string[]): Promise<string> {
  const result = await execa('git', ['-C', repo, ...args], {
    env: testGitEnv(repo),
    extendEnv: false,
  });
  return String(result.stdout).trim();
}

describe('redgreen run --arm name=git:<repo>@<ref>:<subdir>', () => {
  it('materialises each arm from git objects, never from the working tree, and records commit and tree', async () => {
    const repo = makeTempDir();
    await git(repo, 'init', '-q', '-b', 'main');
    const skill = path.join(repo, 'skills', 'subagent-driven-development');
    cpSync(path.join(repoRoot, 'skills-under-test/sdd-released'), skill, { recursive: true });
    await git(repo, 'add', '-A');
    await git(repo, 'commit', '-qm', 'released text');
    const released = await git(repo, 'rev-parse', 'HEAD');
    cpSync(path.join(repoRoot, 'skills-under-test/sdd-plan-scoped'), skill, {
      recursive: true,
      force: true,
    });
    await git(repo, 'add', '-A');
    await git(repo, 'commit', '-qm', 'plan-scoped text');
    const branchTree = await git(repo, 'rev-parse', 'HEAD:skills/subagent-driven-development');
    // An uncommitted edit in the working tree must not reach any session.
    writeFileSync(path.join(skill, 'SKILL.md'), 'UNCOMMITTED JUNK\n');

    const out = path.join(makeTempDir(), 'out');
    const run = await runCampaignCli([
      defaultCampaign,
      '--reps',
      '1',
      '--out',
      out,
      '--arm',
      `red=git:${repo}@${released.slice(0, 7)}:skills/subagent-driven-development`,
      '--arm',
      `green=git:${repo}@main:skills/subagent-driven-development`,
    ]);
    expect(run.exitCode, run.stderr).toBe(0);
    const verdicts = Object.fromEntries(repLines(out).map((line) => [line.id, line.verdict]));
    expect(verdicts).toEqual({
      'red/s1-rep1': 'fail',
      'green/s1-rep1': 'pass',
      'red/s2-rep1': 'pass',
      'green/s2-rep1': 'pass',
    });

    const record = readJson<{
      arms: { name: string; tree: string; source: { kind: string; commit: string } }[];
    }>(path.join(out, 'campaign.json'));
    const red = record.arms.find((arm) => arm.name === 'red');
    const green = record.arms.find((arm) => arm.name === 'green');
    expect(red?.source).toMatchObject({ kind: 'git', commit: released });
    expect(green?.tree).toBe(branchTree);
    const copied = readFileSync(path.join(out, 'skills/green/SKILL.md'), 'utf8');
    expect(copied).not.toContain('UNCOMMITTED JUNK');
    expect(copied).toContain('sdd-workspace PLAN_FILE');
    expect(statSync(path.join(out, 'skills/green/SKILL.md')).mode & 0o222).toBe(0);
    const meta = readJson<{ skill: { tree: string } }>(
      path.join(out, 'reps/green/s1-rep1/meta.json'),
    );
    expect(meta.skill.tree).toBe(branchTree);
  });

  it('a directory arm records the same tree id git gives that content', async () => {
    const { out, run } = await sharedOneRep('2/4');
    expect(run.exitCode, run.stderr).toBe(0);
    const record = readJson<{ arms: { name: string; tree: string }[] }>(
      path.join(out, 'campaign.json'),
    );
    const repo = makeTempDir();
    await git(repo, 'init', '-q');
    cpSync(path.join(repoRoot, 'skills-under-test/sdd-plan-scoped'), path.join(repo, 'skill'), {
      recursive: true,
    });
    await git(repo, 'add', '-A');
    await git(repo, 'commit', '-qm', 'x');
    expect(record.arms.find((arm) => arm.name === 'green')?.tree).toBe(
      await git(repo, 'rev-parse', 'HEAD:skill'),
    );
  });
});
