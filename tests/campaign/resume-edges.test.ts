/**
 * `--resume` at its edges: another --reps, an --out beside it, a dry run;
 * and a results directory whose rep files were damaged (a corrupt
 * score.json, a deleted reply.md, a deleted rep directory): each has a
 * clear outcome and a real way out.
 */
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, runCli } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { defaultCampaign, filesUnder, readJson, repLines, runCampaignCli } from './support.js';

let pristine = '';
let keep = '';

/** A finished run of two reps (red/s1-rep1 and green/s2-rep2): shard 1/4 at two reps per cell. */
beforeAll(async () => {
  // Kept for the whole file (a test's temp dirs go when the test ends); each test resumes a copy.
  keep = mkdtempSync(path.join(os.tmpdir(), 'redgreen-resume-edges-'));
  pristine = path.join(keep, 'out');
  const run = await runCampaignCli([
    defaultCampaign,
    '--reps',
    '2',
    '--shard',
    '1/4',
    '--out',
    pristine,
  ]);
  expect(run.exitCode, run.stderr).toBe(0);
  expect(
    repLines(pristine)
      .map((line) => line.id)
      .sort(),
  ).toEqual(['green/s2-rep2', 'red/s1-rep1']);
}, 240_000);

afterAll(() => {
  rmSync(keep, { recursive: true, force: true });
});

/** A fresh copy of that run, to resume or damage. */
function twoRepShard(): string {
  const out = path.join(makeTempDir(), 'out');
  cpSync(pristine, out, { recursive: true });
  return out;
}

function snapshotOf(dir: string): Record<string, string> {
  return Object.fromEntries(
    filesUnder(dir).map((file) => [path.relative(dir, file), readFileSync(file, 'utf8')]),
  );
}

function oneLineError(stderr: string): string {
  const lines = stderr.trim().split('\n');
  expect(lines, stderr).toHaveLength(1);
  return lines[0] ?? '';
}

describe('--resume edge cases', () => {
  it('fewer --reps than the directory plans is refused; more extends the plan explicitly', async () => {
    const out = twoRepShard();
    const before = snapshotOf(out);

    const fewer = await runCampaignCli(['--resume', out, '--reps', '1']);
    expect(fewer.exitCode, fewer.stdout).toBe(2);
    expect(oneLineError(fewer.stderr)).toMatch(/--reps 1.*schedules 2 reps per cell/);
    expect(snapshotOf(out)).toEqual(before);

    const more = await runCampaignCli(['--resume', out, '--reps', '3']);
    expect(more.exitCode, more.stderr).toBe(0);
    expect(more.stdout).toContain('extending the schedule from 2 to 3 reps per cell');
    const ids = repLines(out).map((line) => line.id);
    expect(ids).toHaveLength(3);
    expect(ids.slice(0, 2).sort()).toEqual(['green/s2-rep2', 'red/s1-rep1']);
    expect(ids[2]).toMatch(/-rep3$/);
    const record = readJson<{ reps: number; invocation: { reps: number } }>(
      path.join(out, 'campaign.json'),
    );
    expect(record.reps).toBe(3);
    expect(record.invocation.reps).toBe(3);
    expect(readFileSync(path.join(out, 'results.md'), 'utf8')).toContain('3/3 reps recorded');
    expect(more.stderr).not.toContain('not recorded');
  });

  it('--out next to --resume is refused', async () => {
    const out = twoRepShard();
    const other = path.join(makeTempDir(), 'elsewhere');
    const run = await runCampaignCli(['--resume', out, '--out', other]);
    expect(run.exitCode).toBe(2);
    expect(oneLineError(run.stderr)).toMatch(/--out.*--resume/);
    expect(existsSync(other)).toBe(false);
  });

  it('--resume --dry-run shows what is left, not the whole plan', async () => {
    const out = twoRepShard();
    const ledger = path.join(out, 'ledger.jsonl');
    const lines = readFileSync(ledger, 'utf8').trim().split('\n');
    writeFileSync(ledger, `${lines.slice(0, -1).join('\n')}\n`);
    const before = snapshotOf(out);
    const dry = await runCampaignCli(['--resume', out, '--dry-run']);
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/sessions: 1 left to run of 2 \(1 already recorded\)/);
    expect(snapshotOf(out)).toEqual(before);
  });

  it('repeats the recorded --concurrency, --max-cost and --retry-indeterminate; flags given to the resume win, and it says so', async () => {
    const out = path.join(makeTempDir(), 'out');
    const first = await runCampaignCli([
      defaultCampaign,
      '--reps',
      '2',
      '--shard',
      '1/4',
      '--concurrency',
      '1',
      '--max-cost',
      '7',
      '--retry-indeterminate',
      '2',
      '--out',
      out,
    ]);
    expect(first.exitCode, first.stderr).toBe(0);
    const ledger = path.join(out, 'ledger.jsonl');
    const lines = readFileSync(ledger, 'utf8').trim().split('\n');
    writeFileSync(ledger, `${lines.slice(0, -1).join('\n')}\n`);

    const dry = await runCampaignCli(['--resume', out, '--dry-run']);
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/concurrency 1\b/);
    expect(dry.stdout).toMatch(
      /recorded settings: --concurrency 1, --max-cost 7, --retry-indeterminate 2/,
    );
    const mixed = await runCampaignCli(['--resume', out, '--dry-run', '--concurrency', '3']);
    expect(mixed.stdout).toMatch(/concurrency 3\b/);
    expect(mixed.stdout).toMatch(/given here instead: --concurrency 3 \(recorded: 1\)/);

    const resumed = await runCampaignCli(['--resume', out, '--json']);
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    const start = resumed.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; concurrency?: number })
      .find((event) => event.type === 'run-start');
    expect(start?.concurrency).toBe(1);
    expect(resumed.stderr).toMatch(/--retry-indeterminate 2/);
  });

  it('repeats the recorded --judge: the reps a resume runs are judged as the first run judged its own', async () => {
    const out = path.join(makeTempDir(), 'out');
    const first = await runCampaignCli([
      defaultCampaign,
      '--reps',
      '2',
      '--shard',
      '1/4',
      '--judge-model',
      'scripted:judge-contrarian',
      '--out',
      out,
    ]);
    expect(first.exitCode, first.stderr).toBe(0);
    const record = readJson<{ invocation: { judge?: unknown } }>(path.join(out, 'campaign.json'));
    expect(record.invocation.judge).toEqual({ model: 'scripted:judge-contrarian' });
    rmSync(path.join(out, 'reps/green/s2-rep2'), { recursive: true });

    const dry = await runCampaignCli(['--resume', out, '--dry-run']);
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/recorded settings: .*--judge scripted:judge-contrarian/);

    const resumed = await runCampaignCli(['--resume', out, '--json']);
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    const judged = resumed.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string })
      .filter((event) => event.type === 'rep-judged');
    expect(judged).toHaveLength(1);
    expect(existsSync(path.join(out, 'reps/green/s2-rep2.attempt2/judge.json'))).toBe(true);
    const judgeFiles = filesUnder(out).filter((file) => path.basename(file) === 'judge.json');
    expect(judgeFiles).toHaveLength(2);
    for (const file of judgeFiles) {
      expect(readJson<{ model: { requested: string } }>(file).model.requested).toBe(
        'scripted:judge-contrarian',
      );
    }
  });

  it('--resume --dry-run refuses what the resume would refuse: another campaign identity', async () => {
    const out = twoRepShard();
    const before = snapshotOf(out);
    for (const change of [
      ['--model', 'scripted:literal'],
      ['--arm', `red=${path.join(repoRoot, 'skills-under-test/sdd-plan-scoped')}`],
      ['--only', 'scenario=s1'],
      ['--max-turns', '3'],
    ]) {
      const dry = await runCampaignCli(['--resume', out, '--dry-run', ...change]);
      expect(dry.exitCode, `${change.join(' ')}: ${dry.stdout}`).toBe(2);
      expect(oneLineError(dry.stderr)).toMatch(/different campaign identity/);
      const real = await runCampaignCli(['--resume', out, ...change]);
      expect(real.exitCode, change.join(' ')).toBe(2);
      expect(oneLineError(real.stderr)).toMatch(/different campaign identity/);
      // Refused before it says it resumes.
      expect(`${dry.stdout}${real.stdout}`).not.toMatch(/resuming with the recorded settings/);
    }
    expect(snapshotOf(out)).toEqual(before);
  });
});

describe('a damaged rep', () => {
  it('with a corrupt score.json: report names `redgreen score`, which rebuilds it', async () => {
    const out = twoRepShard();
    const scoreFile = path.join(out, 'reps/red/s1-rep1/score.json');
    const original = readJson<{ verdict: string }>(scoreFile);
    writeFileSync(scoreFile, '{"verdict": "pa');

    const report = await runCli(['report', out]);
    expect(report.exitCode).toBe(2);
    expect(oneLineError(report.stderr)).toMatch(/score\.json.*redgreen score/);

    const score = await runCli(['score', out]);
    expect(score.exitCode, score.stderr).toBe(0);
    expect(readJson<{ verdict: string }>(scoreFile).verdict).toBe(original.verdict);
    const again = await runCli(['report', out]);
    expect(again.exitCode, again.stderr).toBe(0);
  });

  it('with a deleted reply.md: score and report name --resume, which reruns it and keeps the damaged attempt', async () => {
    const out = twoRepShard();
    const damaged = path.join(out, 'reps/red/s1-rep1');
    rmSync(path.join(damaged, 'reply.md'));
    const kept = snapshotOf(damaged);

    const score = await runCli(['score', out]);
    expect(score.exitCode).toBe(2);
    expect(score.stderr).toContain(`run --resume`);
    expect(score.stderr).toContain('red/s1-rep1');
    const report = await runCli(['report', out]);
    expect(report.exitCode).toBe(2);
    expect(oneLineError(report.stderr)).toMatch(/reply\.md.*run --resume/);

    const resumed = await runCampaignCli(['--resume', out]);
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(resumed.stdout).toMatch(/rerunning 1 rep\(s\) whose files are damaged.*red\/s1-rep1/);
    const newest = repLines(out).filter((line) => line.id === 'red/s1-rep1');
    expect(newest.at(-1)?.attempt).toBe(2);
    expect(existsSync(path.join(out, 'reps/red/s1-rep1.attempt2/reply.md'))).toBe(true);
    expect(snapshotOf(damaged)).toEqual(kept);
    const gate = await runCli(['report', out]);
    expect(gate.exitCode, gate.stderr).toBe(0);
  });

  it('with its directory deleted: --resume reruns it', async () => {
    const out = twoRepShard();
    rmSync(path.join(out, 'reps/green/s2-rep2'), { recursive: true });
    const report = await runCli(['report', out]);
    expect(report.exitCode).toBe(2);
    expect(oneLineError(report.stderr)).toMatch(/run --resume/);

    const resumed = await runCampaignCli(['--resume', out]);
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(repLines(out).at(-1)).toMatchObject({ id: 'green/s2-rep2', attempt: 2 });
    expect(existsSync(path.join(out, 'reps/green/s2-rep2.attempt2/score.json'))).toBe(true);
    const again = await runCli(['report', out]);
    expect(again.exitCode, again.stderr).toBe(0);
  });
});
