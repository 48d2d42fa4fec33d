/**
 * `redgreen diff <dirA> <dirB>`: per cell the pass-rate change with Fisher's
 * exact test, the tool_uses change over decided reps, and the reps whose
 * verdicts differ. A is a real offline run; B is a copy whose verdicts are
 * changed by hand overrides (the documented way to change a verdict).
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diffJsonSchema } from '../../harness/report/diff.js';
import { fisherExact } from '../../harness/report/stats.js';
import { runCli } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';

let root = '';
let runA = '';

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'redgreen-diff-'));
  runA = path.join(root, 'a');
  const result = await runCli(['run', '--reps', '2', '--out', runA, '--no-report'], {
    timeoutMs: 240_000,
  });
  expect(result.exitCode, result.stderr).toBe(0);
}, 300_000);

afterAll(() => {
  if (root !== '') rmSync(root, { recursive: true, force: true });
});

function copyOf(dir: string, overrides?: Record<string, { verdict: string; reason: string }>) {
  const copy = path.join(makeTempDir('redgreen-diff-copy-'), 'b');
  cpSync(dir, copy, { recursive: true });
  if (overrides !== undefined) {
    writeFileSync(path.join(copy, 'overrides.json'), JSON.stringify(overrides));
  }
  return copy;
}

function editCampaign(dir: string, edit: (record: Record<string, unknown>) => void): void {
  const file = path.join(dir, 'campaign.json');
  const record = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  edit(record);
  writeFileSync(file, JSON.stringify(record));
}

async function diffJson(a: string, b: string) {
  const result = await runCli(['diff', a, b, '--json']);
  expect(result.stderr).toBe('');
  expect(result.exitCode).toBe(0);
  return diffJsonSchema.parse(JSON.parse(result.stdout));
}

describe('redgreen diff', () => {
  it('finds no change between a run and a copy of it (planted negative for every column)', async () => {
    const diff = await diffJson(runA, copyOf(runA));
    expect(diff.cells).toHaveLength(4);
    for (const cell of diff.cells) {
      expect(cell.passRateChange).toBe(0);
      expect(cell.fisherTwoSided).toBe(1);
      expect(cell.toolUses.meanChange).toBe(0);
      expect(cell.verdictChanges).toEqual([]);
    }
    expect(diff.sameIdentity).toBe(true);
  });

  it('reports pass-rate changes with Fisher p and the reps whose verdicts differ', async () => {
    const b = copyOf(runA, {
      'red/s1-rep1': { verdict: 'pass', reason: 'planted' },
      'red/s1-rep2': { verdict: 'pass', reason: 'planted' },
      'green/s2-rep2': { verdict: 'indeterminate', reason: 'planted' },
    });
    const diff = await diffJson(runA, b);
    const s1Red = diff.cells.find((cell) => cell.arm === 'red' && cell.scenario === 's1');
    expect(s1Red?.a).toMatchObject({ pass: 0, decided: 2, indeterminate: 0 });
    expect(s1Red?.b).toMatchObject({ pass: 2, decided: 2, indeterminate: 0 });
    expect(s1Red?.passRateChange).toBe(1);
    expect(s1Red?.fisherTwoSided).toBeCloseTo(
      fisherExact({ successes: 2, trials: 2 }, { successes: 0, trials: 2 }, 'two-sided'),
      12,
    );
    expect(s1Red?.verdictChanges).toEqual([
      { rep_id: 'red/s1-rep1', a: 'fail', b: 'pass' },
      { rep_id: 'red/s1-rep2', a: 'fail', b: 'pass' },
    ]);
    const s2Green = diff.cells.find((cell) => cell.arm === 'green' && cell.scenario === 's2');
    expect(s2Green?.verdictChanges).toEqual([
      { rep_id: 'green/s2-rep2', a: 'pass', b: 'indeterminate' },
    ]);
    // tool_uses count decided reps only: B's S2 GREEN has one left.
    expect(s2Green?.toolUses.a.reps).toBe(2);
    expect(s2Green?.toolUses.b.reps).toBe(1);
    const s1Green = diff.cells.find((cell) => cell.arm === 'green' && cell.scenario === 's1');
    expect(s1Green?.verdictChanges).toEqual([]);
  });

  it('prints markdown by default: what is compared, a row per cell, the changed reps', async () => {
    const b = copyOf(runA, { 'red/s1-rep1': { verdict: 'pass', reason: 'planted' } });
    const result = await runCli(['diff', runA, b]);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain(`A: ${runA}`);
    expect(result.stdout).toContain(`B: ${b}`);
    expect(result.stdout).toContain('same campaign identity');
    expect(result.stdout).toMatch(/\| S1 RED \| 0\/2 \| 1\/2 \| \+50 pts \|/);
    expect(result.stdout).toContain('- red/s1-rep1: fail → pass');
    expect(result.stdout).toContain('decided reps only');
  });

  it('compares runs of different campaigns whose cells match, and says what differs', async () => {
    const b = copyOf(runA);
    editCampaign(b, (record) => {
      record.campaign = { ...(record.campaign as object), id: 'another-campaign' };
      record.identity = 'f'.repeat(64);
    });
    const diff = await diffJson(runA, b);
    expect(diff.sameIdentity).toBe(false);
    expect(diff.differences).toContain('campaign plan-scoped-workspace vs another-campaign');
    expect(diff.cells).toHaveLength(4);
  });

  it('never calls runs with different reps per cell the same set-up, though their identity is the same', async () => {
    const b = copyOf(runA);
    editCampaign(b, (record) => {
      record.reps = 5;
    });
    const diff = await diffJson(runA, b);
    expect(diff.sameIdentity).toBe(true);
    expect(diff.differences).toContain('reps per cell 2 vs 5');
    const markdown = await runCli(['diff', runA, b]);
    expect(markdown.stdout).not.toContain('the same configuration');
    expect(markdown.stdout).toMatch(/Compared: .*reps per cell 2 vs 5/);
  });

  it('names a shard against a whole run, in markdown and JSON', async () => {
    const b = copyOf(runA);
    editCampaign(b, (record) => {
      record.shard = { index: 1, count: 4 };
    });
    const diff = await diffJson(runA, b);
    expect(diff.a.shard).toBeNull();
    expect(diff.b.shard).toBe('1/4');
    expect(diff.differences).toContain('shard whole run vs 1/4');
    const markdown = await runCli(['diff', runA, b]);
    expect(markdown.stdout).toMatch(/Compared: .*shard whole run vs 1\/4/);
  });

  it('says so when A and B are the same directory', async () => {
    const markdown = await runCli(['diff', runA, `${runA}/.`]);
    expect(markdown.exitCode).toBe(0);
    expect(markdown.stdout).toMatch(/A and B are the same directory/);
    const diff = await diffJson(runA, runA);
    expect(diff.sameDirectory).toBe(true);
    const other = await diffJson(runA, copyOf(runA));
    expect(other.sameDirectory).toBe(false);
  });

  it('refuses directories whose cells differ: a one-line error, exit 2', async () => {
    const b = copyOf(runA);
    editCampaign(b, (record) => {
      record.campaign = { ...(record.campaign as object), id: 'another-campaign' };
      record.arms = (record.arms as { name: string }[]).filter((arm) => arm.name === 'red');
    });
    const result = await runCli(['diff', runA, b]);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/cells differ/);
    expect(result.stderr).toContain('green');
  });

  it('refuses a directory that is not a results directory: exit 2', async () => {
    const result = await runCli(['diff', runA, makeTempDir()]);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
  });
});
