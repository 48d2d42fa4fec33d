/**
 * Cost as an outcome, end to end on a real offline run (the real engine
 * against the local model server, shared with other files): every rep's
 * tokens, tool calls, dispatches and bytes written reach results.csv,
 * results.md and report.html, and the metric gates decide on them through
 * `redgreen gate`: a cap under what a rep spent fails (exit 1), one over it
 * holds, and a ratio on one rep per arm stays undecided (exit 2).
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gateJsonSchema, reportJsonSchema } from '../../harness/report/command-json.js';
import type { RepRow } from '../../harness/report/results-schema.js';
import { runCli } from '../helpers/cli.js';
import { sharedRun } from '../helpers/shared-runs.js';
import { makeTempDir } from '../helpers/temp-dir.js';

let root = '';
let run = '';
let reps: RepRow[] = [];

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'redgreen-cost-outcome-'));
  run = path.join(root, 'run');
  // `run --reps 1 --no-report`, shared with other files (shared-runs.ts); this file keeps a copy.
  const shared = await sharedRun(['--reps', '1', '--no-report']);
  expect(shared.run.exitCode, shared.run.stderr).toBe(0);
  cpSync(shared.out, run, { recursive: true });
  const report = await runCli(['report', run, '--json']);
  expect(report.exitCode, report.stderr).toBe(0);
  reps = reportJsonSchema.parse(JSON.parse(report.stdout)).results.reps;
}, 300_000);

afterAll(() => {
  if (root !== '') rmSync(root, { recursive: true, force: true });
});

function withGates(gates: unknown[]): string {
  const copy = path.join(makeTempDir('redgreen-cost-'), 'run');
  cpSync(run, copy, { recursive: true });
  const file = path.join(copy, 'campaign.json');
  const campaign = JSON.parse(readFileSync(file, 'utf8')) as { gates: unknown[] };
  campaign.gates = gates;
  writeFileSync(file, JSON.stringify(campaign));
  return copy;
}

describe('cost metrics in the reports', () => {
  it('each rep carries what its session recorded: tokens the server counted, dispatches, bytes written', () => {
    expect(reps).toHaveLength(4);
    for (const row of reps) {
      expect(row.input_tokens).toBeGreaterThan(100);
      expect(row.output_tokens).toBeGreaterThan(0);
      expect(row.tokens_estimated).toBe(true);
      expect(row.dispatches).toBeGreaterThanOrEqual(0);
      expect(row.files_written).toBeGreaterThanOrEqual(0);
      expect(row.bytes_written).toBeGreaterThanOrEqual(0);
    }
    // The server's usage is a function of what it was sent: the arms' texts differ, so do their inputs.
    expect(new Set(reps.map((row) => row.input_tokens)).size).toBeGreaterThan(1);
    const header = readFileSync(path.join(run, 'results.csv'), 'utf8').split('\n')[0];
    expect(header).toContain(',cost_usd,dispatches,files_written,bytes_written,seats,duration_ms,');
  });

  it('results.md and report.html show the cost by arm, the page with its chart', () => {
    const markdown = readFileSync(path.join(run, 'results.md'), 'utf8');
    expect(markdown).toContain('## Cost by arm');
    expect(markdown).toMatch(/\| Cell \| Decided reps \| input tokens \| output tokens \|/);
    const page = readFileSync(path.join(run, 'report.html'), 'utf8');
    expect(page).toContain('id="cost-chart"');
    expect(page).toContain('<h2 id="cost-title">Cost by arm</h2>');
  });
});

describe('metric gates through redgreen gate', () => {
  it('a cap under what a rep spent fails its arm: exit 1 (planted negative); a ratio on one rep per arm stays undecided; a cap above every rep holds', async () => {
    const highest = Math.max(...reps.map((row) => row.output_tokens ?? 0));
    const over = await runCli([
      'gate',
      withGates([
        { kind: 'metric-cap', metric: 'output-tokens', max: highest - 1 },
        { kind: 'metric-ratio', metric: 'input-tokens', scenario: 's1', ratio: 10 },
      ]),
      '--json',
    ]);
    expect(over.exitCode, over.stderr).toBe(1);
    const [cap, ratio] = gateJsonSchema.parse(JSON.parse(over.stdout)).gates;
    expect(cap).toMatchObject({
      kind: 'metric-cap',
      outcome: 'fails',
      params: { metric: 'output-tokens', max: highest - 1 },
    });
    expect(cap?.figure).toContain(`up to ${highest}`);
    expect(ratio).toMatchObject({
      kind: 'metric-ratio',
      outcome: 'undecided',
      scenario: 's1',
      figure:
        'RED has 1 decided rep(s) with input-tokens recorded, needs 3; GREEN has 1 decided rep(s) with input-tokens recorded, needs 3',
    });
    expect(ratio?.cells.map((cell) => cell.role).sort()).toEqual(['green', 'red']);
    const under = await runCli([
      'gate',
      withGates([{ kind: 'metric-cap', metric: 'output-tokens', max: highest }]),
    ]);
    expect(under.exitCode, under.stdout).toBe(0);
    expect(under.stdout).toContain("every scenario, every arm: every rep's output-tokens at most");
  });
});
