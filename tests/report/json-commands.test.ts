/**
 * `gate --json` and `report --json` for CI scripts: one JSON object on
 * stdout, valid against the documented schema, and the same exit code as
 * without --json. Results come from a real offline run through the CLI.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gateJsonSchema, reportJsonSchema } from '../../harness/report/command-json.js';
import { runCli } from '../helpers/cli.js';
import { sharedRun } from '../helpers/shared-runs.js';
import { makeTempDir } from '../helpers/temp-dir.js';

let root = '';
let run = '';

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'redgreen-json-commands-'));
  run = path.join(root, 'run');
  // `run --reps 1 --no-report`, shared with other files (shared-runs.ts); this file keeps a copy.
  const shared = await sharedRun(['--reps', '1', '--no-report']);
  expect(shared.run.exitCode, shared.run.stderr).toBe(0);
  cpSync(shared.out, run, { recursive: true });
}, 300_000);

afterAll(() => {
  if (root !== '') rmSync(root, { recursive: true, force: true });
});

function copyOfRun(): string {
  const copy = path.join(makeTempDir('redgreen-json-copy-'), 'run');
  cpSync(run, copy, { recursive: true });
  return copy;
}

describe('redgreen gate --json', () => {
  it('prints one schema-valid object and exits as gate does without --json', async () => {
    const dir = copyOfRun();
    const plain = await runCli(['gate', dir]);
    const json = await runCli(['gate', dir, '--json']);
    expect(json.stderr).toBe('');
    expect(json.exitCode).toBe(plain.exitCode);
    const parsed = gateJsonSchema.parse(JSON.parse(json.stdout));
    expect(parsed.command).toBe('gate');
    expect(parsed.resultsDir).toBe(dir);
    expect(parsed.exitCode).toBe(json.exitCode);
    // One rep per cell cannot meet 5/5: undecided, exit 2.
    expect(parsed.outcome).toBe('undecided');
    expect(parsed.exitCode).toBe(2);
    expect(parsed.gates.length).toBeGreaterThan(0);
    for (const gate of parsed.gates) expect(plain.stdout).toContain(gate.figure);
    expect(parsed.recorded).toBe(4);
    expect(parsed.files).toEqual({ junit: null, summary: null });
  });

  it('reports a failing gate as fail with exit 1 (planted negative)', async () => {
    const dir = copyOfRun();
    const campaign = JSON.parse(readFileSync(path.join(dir, 'campaign.json'), 'utf8')) as {
      gates: unknown[];
    };
    campaign.gates = [{ kind: 'min-pass-rate', arm: 'red', scenario: 's1', passes: 1, of: 1 }];
    writeFileSync(path.join(dir, 'campaign.json'), JSON.stringify(campaign));
    writeFileSync(
      path.join(dir, 'overrides.json'),
      JSON.stringify({ 'red/s1-rep1': { verdict: 'fail', reason: 'planted' } }),
    );
    const json = await runCli(['gate', dir, '--json']);
    expect(json.exitCode).toBe(1);
    const parsed = gateJsonSchema.parse(JSON.parse(json.stdout));
    expect(parsed.outcome).toBe('fail');
    expect(parsed.exitCode).toBe(1);
    expect(parsed.gates.map((gate) => gate.outcome)).toEqual(['fails']);
  });

  it('gives each gate its arm, scenario, parameters and the counts of the cells it reads', async () => {
    const dir = copyOfRun();
    const campaign = JSON.parse(readFileSync(path.join(dir, 'campaign.json'), 'utf8')) as {
      gates: unknown[];
    };
    campaign.gates = [
      { kind: 'min-pass-rate', arm: 'green', scenario: 's2', passes: 1, of: 1 },
      { kind: 'no-regression', scenario: 's1', alpha: 0.05 },
      { kind: 'max-indeterminate-share', share: 0.2 },
    ];
    writeFileSync(path.join(dir, 'campaign.json'), JSON.stringify(campaign));
    const json = await runCli(['gate', dir, '--json']);
    const parsed = gateJsonSchema.parse(JSON.parse(json.stdout));
    const [minPass, noRegression, share] = parsed.gates;
    expect(minPass).toMatchObject({ arm: 'green', scenario: 's2', params: { passes: 1, of: 1 } });
    expect(minPass?.cells).toEqual([
      expect.objectContaining({ arm: 'green', scenario: 's2', pass: 1, decided: 1, recorded: 1 }),
    ]);
    expect(noRegression).toMatchObject({ arm: null, scenario: 's1', params: { alpha: 0.05 } });
    expect(noRegression?.cells.map((cell) => cell.role).sort()).toEqual(['green', 'red']);
    expect(share).toMatchObject({ arm: null, scenario: null, params: { share: 0.2 } });
    expect(share?.cells).toHaveLength(4);
    expect(share?.cells.reduce((sum, cell) => sum + cell.recorded, 0)).toBe(4);
  });

  it('names the --junit and --summary files it wrote', async () => {
    const dir = copyOfRun();
    const junit = path.join(makeTempDir(), 'gates.xml');
    const json = await runCli(['gate', dir, '--json', '--junit', junit]);
    const parsed = gateJsonSchema.parse(JSON.parse(json.stdout));
    expect(parsed.files).toEqual({ junit, summary: null });
  });

  it('prints nothing on stdout for bad input: a one-line error, exit 2', async () => {
    const json = await runCli(['gate', path.join(makeTempDir(), 'nowhere'), '--json']);
    expect(json.exitCode).toBe(2);
    expect(json.stdout).toBe('');
    expect(json.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('redgreen report --json', () => {
  it('writes the reports and prints the results model and the files written, nothing else', async () => {
    const dir = copyOfRun();
    const json = await runCli(['report', dir, '--json']);
    expect(json.stderr).toBe('');
    expect(json.exitCode).toBe(0);
    const parsed = reportJsonSchema.parse(JSON.parse(json.stdout));
    expect(parsed.command).toBe('report');
    expect(parsed.files.json).toBe(path.join(dir, 'results.json'));
    expect(parsed.files.html).toBe(path.join(dir, 'report.html'));
    const written = JSON.parse(readFileSync(parsed.files.json, 'utf8')) as unknown;
    expect(parsed.results).toEqual(written);
  });

  it('prints nothing on stdout for bad input: a one-line error, exit 2', async () => {
    const json = await runCli(['report', path.join(makeTempDir(), 'nowhere'), '--json']);
    expect(json.exitCode).toBe(2);
    expect(json.stdout).toBe('');
  });
});
