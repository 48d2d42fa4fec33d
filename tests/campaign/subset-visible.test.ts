/**
 * What a new user hit after a subset run and after judging (issue 27,
 * items 2 and 3), on one offline run of S1 only (`--only scenario=s1`) of a
 * campaign whose other gates need S2:
 *
 * - a subset is visible wherever a gate outcome is: `gate` says "PASS on a
 *   subset" with the gates it never evaluated, `gate --json` carries
 *   `subset` and `droppedGates`, results.md, report.html and `list` say it,
 *   and `--require-all-gates` makes it exit 2;
 * - a bare `judge` keeps the directory's current judge: after
 *   `judge --model X --refresh` it fills only what is missing, with X.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judgeResults } from '../../harness/judging/judge-results.js';
import { gateJsonSchema } from '../../harness/report/command-json.js';
import { gateSummaryMarkdown } from '../../harness/report/gate-output.js';
import { gatesSection } from '../../harness/report/html/summary-sections.js';
import { listRuns, listTable } from '../../harness/report/list-runs.js';
import { loadResults } from '../../harness/report/load-results.js';
import { resultsMarkdown } from '../../harness/report/markdown.js';
import type { ResultsModel } from '../../harness/report/results-schema.js';
import { summariseResults } from '../../harness/report/summarise.js';
import { runCli } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { readJson, runCampaignCli, writeCampaign } from './support.js';

let root = '';
let run = '';

afterAll(() => {
  if (root !== '') rmSync(root, { recursive: true, force: true });
});

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'redgreen-subset-'));
  const file = writeCampaign(
    {
      gates: [
        { kind: 'min-pass-rate', arm: 'green', scenario: 's1', passes: 1, of: 1 },
        { kind: 'min-pass-rate', arm: 'red', scenario: 's2', passes: 1, of: 1 },
        { kind: 'no-regression', scenario: 's2', alpha: 0.05 },
        { kind: 'max-indeterminate-share', share: 0.2 },
      ],
    },
    root,
  );
  run = path.join(root, 'run');
  const result = await runCampaignCli([
    file,
    '--reps',
    '1',
    '--only',
    'scenario=s1',
    '--backend',
    'messages',
    '--out',
    run,
    '--no-report',
  ]);
  expect(result.exitCode, result.stderr).toBe(0);
}, 120_000);

function copyOfRun(): string {
  const copy = path.join(makeTempDir('redgreen-subset-copy-'), 'run');
  cpSync(run, copy, { recursive: true });
  return copy;
}

async function modelOf(dir: string): Promise<ResultsModel> {
  const loaded = await loadResults(dir);
  if (!loaded.ok) throw new Error(loaded.error.problem);
  return summariseResults(loaded.value);
}

const DROPPED = 'S2 RED passes at least 1/1; S2: no GREEN regression against RED';

describe('a subset run (run --only) is visible wherever a gate outcome is', () => {
  it('gate: PASS on a subset, naming the gates it did not evaluate, and --json carries them', async () => {
    const dir = copyOfRun();
    const junit = path.join(dir, 'junit.xml');
    const plain = await runCli(['gate', dir, '--junit', junit]);
    expect(plain.exitCode, plain.stderr).toBe(0);
    expect(plain.stdout).toContain(
      'Gates: PASS on a subset (--only scenario=s1): 2 gates not evaluated (every gate it evaluated holds)',
    );
    expect(plain.stdout).not.toContain('every gate holds');
    expect(plain.stdout).toContain(
      'NOT EVALUATED S2 RED passes at least 1/1: --only scenario=s1 runs none of its cells',
    );
    expect(readFileSync(junit, 'utf8')).toMatch(
      /name="S2: no GREEN regression against RED[^"]*"><skipped message="not evaluated/,
    );

    const json = gateJsonSchema.parse(JSON.parse((await runCli(['gate', dir, '--json'])).stdout));
    expect(json.subset).toEqual({ only: '--only scenario=s1', arms: [], scenarios: ['s1'] });
    expect(json.droppedGates?.map((gate) => gate.gate).join('; ')).toBe(
      'S2 RED passes at least 1/1; S2: no GREEN regression against RED (one-sided Fisher, α = 0.05)',
    );
    expect(json.requireAllGates).toBe(false);
  });

  it('--require-all-gates: a subset cannot pass (exit 2), for CI', async () => {
    const dir = copyOfRun();
    const strict = await runCli(['gate', dir, '--require-all-gates', '--json']);
    expect(strict.exitCode).toBe(2);
    const json = gateJsonSchema.parse(JSON.parse(strict.stdout));
    expect(json.outcome).toBe('undecided');
    expect(json.why).toMatch(
      /^--require-all-gates: this run is a subset .* 2 gates of the campaign file were not evaluated; run the whole campaign, without --only, to gate it/,
    );
  });

  it('results.md, report.html, the PR summary and list say it', async () => {
    const model = await modelOf(run);
    expect(model.subset?.droppedGates).toHaveLength(2);
    const markdown = resultsMarkdown(model);
    expect(markdown).toContain(
      'Gates: PASS on a subset (--only scenario=s1): 2 gates not evaluated',
    );
    expect(markdown).toContain(
      `This run is a subset of the campaign (--only scenario=s1): not evaluated: ${DROPPED}`,
    );
    expect(gateSummaryMarkdown(model)).toContain('PASS on a subset (--only scenario=s1)');
    expect(String(gatesSection(model))).toContain(
      'on a subset (--only scenario=s1): 2 gates not evaluated',
    );
    const listing = await listRuns(run);
    if (!listing.ok) throw new Error(listing.error.problem);
    expect(listing.value.runs[0]?.subset).toEqual({ only: '--only scenario=s1', droppedGates: 2 });
    expect(listTable(listing.value)).toMatch(
      /PASS \(subset\)[\s\S]*a subset \(--only scenario=s1\): 2 gates not evaluated/,
    );
  });
});

describe('judging keeps what is current', () => {
  it('a bare judge after judge --model X --refresh fills only the missing judgement, with X', async () => {
    const dir = copyOfRun();
    const judge = (model: string | undefined, refresh: boolean) =>
      judgeResults({ dir, refresh, model, maxCostUsd: null, concurrency: 2, env: {} });
    const replaced = await judge('scripted:judge-contrarian', true);
    expect(replaced.ok && replaced.value).toMatchObject({
      judged: 2,
      judges: ['scripted:judge-contrarian'],
    });
    const kept = path.join(dir, 'reps/red/s1-rep1/judge.json');
    const before = readFileSync(kept, 'utf8');
    rmSync(path.join(dir, 'reps/green/s1-rep1/judge.json'));

    const bare = await judge(undefined, false);
    expect(bare.ok && bare.value).toMatchObject({
      judged: 1,
      current: 1,
      judges: ['scripted:judge-contrarian'],
    });
    expect(readFileSync(kept, 'utf8')).toBe(before);
    const filled = readJson<{ model: { requested: string } }>(
      path.join(dir, 'reps/green/s1-rep1/judge.json'),
    );
    expect(filled.model.requested).toBe('scripted:judge-contrarian');
  });
});
