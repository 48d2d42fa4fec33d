/**
 * `redgreen list [results-root]`: past runs newest first, with campaign,
 * arms, model, reps recorded/planned and gate outcome; damaged directories
 * are listed with what is wrong, never skipped and never fatal. The runs are
 * copies of one real offline run, dated by their campaign.json.
 */
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listJsonSchema } from '../../harness/report/list-runs.js';
import { runCli } from '../helpers/cli.js';
import { sharedRun } from '../helpers/shared-runs.js';
import { makeTempDir } from '../helpers/temp-dir.js';

let root = '';

/** Date a run by the file `list` reads its start from. */
const dated = (dir: string, iso: string, file = 'campaign.json'): void => {
  const time = new Date(iso);
  utimesSync(path.join(root, dir, file), time, time);
};

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'redgreen-list-'));
  const run = path.join(root, 'newest');
  // `run --reps 1 --no-report`, shared with other files (shared-runs.ts); this file keeps a copy.
  const shared = await sharedRun(['--reps', '1', '--no-report']);
  expect(shared.run.exitCode, shared.run.stderr).toBe(0);
  cpSync(shared.out, run, { recursive: true });
  cpSync(run, path.join(root, 'oldest'), { recursive: true });
  cpSync(run, path.join(root, 'corrupt-campaign'), { recursive: true });
  writeFileSync(path.join(root, 'corrupt-campaign', 'campaign.json'), '{ not json');
  cpSync(run, path.join(root, 'no-campaign'), { recursive: true });
  unlinkSync(path.join(root, 'no-campaign', 'campaign.json'));
  mkdirSync(path.join(root, 'empty'));
  writeFileSync(path.join(root, 'notes.txt'), 'not a run');
  dated('newest', '2026-11-30T10:00:00Z');
  dated('oldest', '2026-11-01T09:00:00Z');
  dated('corrupt-campaign', '2026-11-15T12:00:00Z');
  dated('no-campaign', '2026-10-01T08:00:00Z', 'ledger.jsonl');
  dated('empty', '2026-09-01T08:00:00Z', '');
}, 300_000);

afterAll(() => {
  if (root !== '') rmSync(root, { recursive: true, force: true });
});

describe('redgreen list', () => {
  it('lists runs newest first with campaign, arms, model, reps and gate outcome (JSON)', async () => {
    const result = await runCli(['list', root, '--json']);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    const listing = listJsonSchema.parse(JSON.parse(result.stdout));
    const names = listing.runs.map((run) => path.basename(run.dir));
    expect(names).toEqual(['newest', 'corrupt-campaign', 'oldest', 'no-campaign', 'empty']);
    expect(names).not.toContain('notes.txt');
    const newest = listing.runs[0];
    expect(newest?.startedAt).toBe('2026-11-30T10:00:00.000Z');
    expect(newest?.campaign?.id).toBe('plan-scoped-workspace');
    expect(newest?.arms).toEqual([
      { name: 'red', role: 'red' },
      { name: 'green', role: 'green' },
    ]);
    expect(newest?.model).toEqual({ id: 'scripted:skill-reader', scripted: true });
    expect(newest?.reps).toEqual({ recorded: 4, planned: 4 });
    // One rep per cell cannot show 5/5: the gate is undecided (exit 2).
    expect(newest?.gate).toEqual({ outcome: 'undecided', exitCode: 2 });
    expect(newest?.problem).toBeNull();
    expect(newest?.status).toBe('ok');
  });

  it('lists damaged directories with what is wrong', async () => {
    const result = await runCli(['list', root, '--json']);
    const listing = listJsonSchema.parse(JSON.parse(result.stdout));
    const byName = new Map(listing.runs.map((run) => [path.basename(run.dir), run]));
    const corrupt = byName.get('corrupt-campaign');
    expect(corrupt?.problem).toMatch(/campaign\.json.*not a valid campaign record/);
    expect(corrupt?.gate).toBeNull();
    expect(corrupt?.status).toBe('damaged');
    expect(corrupt?.reps.recorded).toBe(4);
    const missing = byName.get('no-campaign');
    expect(missing?.problem).toMatch(/no campaign\.json/);
    expect(missing?.reps.recorded).toBe(4);
    expect(byName.get('empty')?.problem).toMatch(/not a results directory/);
    expect(byName.get('empty')?.status).toBe('not-a-run');
    expect(missing?.status).toBe('damaged');
    expect(byName.get('oldest')?.problem).toBeNull();
  });

  it('prints a table by default, one run per line, problems under their run', async () => {
    const result = await runCli(['list', root]);
    expect(result.exitCode).toBe(0);
    const lines = result.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(
      /^started \(UTC\)\s+outcome\s+reps\s+campaign\s+model\s+arms\s+directory$/,
    );
    expect(lines[1]).toMatch(
      /^2026-11-30 10:00Z\s+UNDECIDED\s+4\/4\s+plan-scoped-workspace\s+scripted:skill-reader\s+red, green\s+.*newest$/,
    );
    expect(result.stdout).toMatch(/DAMAGED .*corrupt-campaign\n\s+campaign\.json/);
    expect(result.stdout).toMatch(/NOT A RUN .*empty\n\s+not a results directory/);
  });

  it('lists one results directory given directly', async () => {
    const result = await runCli(['list', path.join(root, 'newest'), '--json']);
    const listing = listJsonSchema.parse(JSON.parse(result.stdout));
    expect(listing.runs.map((run) => path.basename(run.dir))).toEqual(['newest']);
  });

  it('with no root given and no results/ yet: no runs, exit 0', async () => {
    const fresh = makeTempDir();
    const table = await runCli(['list'], { cwd: fresh });
    expect(table.exitCode, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/^no runs yet: results does not exist/);
    const json = await runCli(['list', '--json'], { cwd: fresh });
    expect(json.exitCode, json.stderr).toBe(0);
    expect(listJsonSchema.parse(JSON.parse(json.stdout)).runs).toEqual([]);
  });

  it('refuses a results root that does not exist: one line, exit 2', async () => {
    const result = await runCli(['list', path.join(root, 'nowhere')]);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });
});
