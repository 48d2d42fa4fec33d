import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ModelServer, startModelServer } from '../../harness/model-server/index.js';
import { resultsSchema } from '../../harness/report/results-schema.js';
import {
  filesUnder,
  plantedSkill,
  readJson,
  repLines,
  runCampaignCli,
  writeCampaign,
} from '../campaign/support.js';
import type { CliResult } from '../helpers/cli.js';
import { runCli } from '../helpers/cli.js';
import {
  closedPort,
  maxInFlight,
  type RecordingGateway,
  startRecordingGateway,
} from './support.js';

/**
 * Endpoint profiles with the real Claude Code engine and the real SDK,
 * against local model servers posing as three providers: a bearer-token
 * gateway with its own headers and prices (a recording proxy in front of a
 * server whose brain follows the skill text), an overloaded endpoint
 * (every request 529) limited to one session at a time, and one that
 * refuses connections. The failing endpoints must not sink the steady
 * model's reps: theirs are indeterminate (infrastructure), and the tables
 * and gates say so. Canary keys never reach a tool, a results file or the
 * output.
 */
const KEYS = {
  GATEWAY_TOKEN: 'sk-canary-gateway-0123456789abcdef',
  OVERLOADED_KEY: 'sk-canary-overloaded-0123456789abcdef',
  GONE_KEY: 'sk-canary-gone-0123456789abcdef',
};

let steady: ModelServer;
let overloaded: ModelServer;
let gateway: RecordingGateway;
let campaign = '';
let root = '';
let out = '';
let run: CliResult;

beforeAll(async () => {
  steady = await startModelServer({ policy: 'skill-reader' });
  overloaded = await startModelServer({
    policy: 'literal',
    faults: [{ kind: 'status', status: 529, times: '*' }],
  });
  gateway = await startRecordingGateway(steady.baseUrl);
  const gone = await closedPort();
  campaign = writeCampaign({
    scenarios: ['s1'],
    reps: 2,
    concurrency: 4,
    model: undefined,
    offlineModel: undefined,
    models: [
      { id: 'claude-sonnet-5-5', name: 'steady', endpoint: 'gateway' },
      { id: 'claude-opus-5-5', name: 'overloaded', endpoint: 'overloaded' },
      { id: 'claude-haiku-5-5', name: 'gone', endpoint: 'gone' },
    ],
    endpoints: {
      gateway: {
        baseUrl: gateway.baseUrl,
        keyEnv: 'GATEWAY_TOKEN',
        auth: 'bearer',
        headers: { 'x-team': 'evals' },
        pricing: { input: 1, output: 2 },
      },
      overloaded: {
        baseUrl: overloaded.baseUrl,
        keyEnv: 'OVERLOADED_KEY',
        concurrency: 1,
        pricing: 'unpriced',
      },
      gone: { baseUrl: `http://127.0.0.1:${gone}`, keyEnv: 'GONE_KEY' },
    },
    gates: [
      { kind: 'min-pass-rate', arm: 'green', scenario: 's1', passes: 2, of: 2, model: 'steady' },
      { kind: 'max-indeterminate-share', share: 0.2, model: 'every' },
    ],
  });
  root = mkdtempSync(path.join(os.tmpdir(), 'redgreen-endpoints-'));
  // Kept for the whole file (a test's temp dirs go at its end).
  cpSync(path.dirname(campaign), path.join(root, 'scenarios'), { recursive: true });
  campaign = path.join(root, 'scenarios', path.basename(campaign));
  out = path.join(root, 'out');
  run = await runCampaignCli(
    [
      campaign,
      '--out',
      out,
      '--json',
      '--arm',
      `green=${plantedSkill('env | sort | sed "s/^/ENV: /" >&2')}`,
    ],
    KEYS,
  );
}, 300_000);

afterAll(async () => {
  await gateway?.close();
  await steady?.close();
  await overloaded?.close();
  if (root !== '') rmSync(root, { recursive: true, force: true });
});

describe('endpoint profiles on the real engine', () => {
  it('a failing endpoint does not sink the others: steady reps are decided, the rest indeterminate at the API', () => {
    expect(run.exitCode, run.stderr).toBe(0);
    const lines = repLines(out);
    expect(lines).toHaveLength(12);
    const byModel = (model: string) => lines.filter((line) => line.id?.startsWith(`${model}/`));
    expect(
      byModel('steady')
        .map((line) => line.verdict)
        .sort(),
    ).toEqual(['fail', 'fail', 'pass', 'pass']);
    for (const model of ['overloaded', 'gone']) {
      for (const line of byModel(model)) {
        expect(line.verdict, line.id).toBe('indeterminate');
        const meta = readJson<{ status: { stage: string; reason: string } }>(
          path.join(out, line.dir ?? '', 'meta.json'),
        );
        expect(meta.status.stage, line.id).toBe('api');
      }
    }
    // Before the run: the overloaded endpoint answered (busy), the gone one did not; both are notes.
    expect(run.stderr + run.stdout).toMatch(/overloaded: .* is busy \(529/);
    expect(run.stderr + run.stdout).toMatch(
      /gone: cannot reach http:\/\/127\.0\.0\.1:\d+ for claude-haiku-5-5 .*indeterminate \(infrastructure\)/,
    );
  });

  it('the tables and the gates say the indeterminate reps are the infrastructure’s', async () => {
    const markdown = readFileSync(path.join(out, 'results.md'), 'utf8');
    expect(markdown).toMatch(
      /\| overloaded \| claude-opus-5-5 \| [^|]+ \| overloaded \| 4\/4 \| 0 \/ 0 \/ 4 \| 4 api \|/,
    );
    expect(markdown).toMatch(
      /\| gone \| claude-haiku-5-5 \| [^|]+ \| gone \| 4\/4 \| 0 \/ 0 \/ 4 \| 4 api \|/,
    );
    expect(markdown).toMatch(
      /Indeterminate because of the infrastructure .*: overloaded 4 api; gone 4 api/,
    );
    const results = resultsSchema.parse(readJson(path.join(out, 'results.json')));
    const gone = results.interaction?.[0]?.rows.find((row) => row.model === 'gone');
    expect(gone).toMatchObject({
      effect: 'undecided',
      note: expect.stringMatching(/infrastructure failures/),
    });
    const gate = await runCli(['gate', out]);
    expect(gate.exitCode, gate.stdout).toBe(2);
    expect(gate.stdout).toMatch(/HOLDS\s+S1 GREEN passes at least 2\/2 on steady/);
    expect(gate.stdout).toMatch(
      /UNDECIDED\s+indeterminate reps at most 20% .* on every model: steady: 0\/4 .*; overloaded: 4\/4 indeterminate \(100%\) \(4 indeterminate rep\(s\) are infrastructure failures/,
    );
  });

  it('"reported back" is what an API answered: none for endpoints that never answered, not the engine’s <synthetic> placeholder', async () => {
    const reportedOf = (dir: string, id: string): string | null => {
      const [line] = repLines(dir).filter((candidate) => candidate.id === id);
      return readJson<{ model: { reported: string | null } }>(
        path.join(dir, line?.dir ?? '', 'meta.json'),
      ).model.reported;
    };
    expect(reportedOf(out, 'steady/green/s1-rep1')).toBe('claude-sonnet-5-5');
    for (const id of ['overloaded/red/s1-rep1', 'gone/green/s1-rep2'])
      expect(reportedOf(out, id), id).toBeNull();
    const check = (dir: string): void => {
      const markdown = readFileSync(path.join(dir, 'results.md'), 'utf8');
      expect(markdown).not.toContain('<synthetic>');
      expect(markdown).toMatch(/\| gone \| claude-haiku-5-5 \| — \| gone \|/);
      const csv = readFileSync(path.join(dir, 'results.csv'), 'utf8');
      expect(csv).not.toContain('<synthetic>');
      const results = resultsSchema.parse(readJson(path.join(dir, 'results.json')));
      expect(results.models?.map((model) => [model.name, model.reported])).toEqual([
        ['steady', ['claude-sonnet-5-5']],
        ['overloaded', []],
        ['gone', []],
      ]);
    };
    check(out);
    // A run recorded before: its meta.json holds the placeholder; the report reads it as none.
    const copy = path.join(root, 'synthetic-copy');
    cpSync(out, copy, { recursive: true });
    for (const line of repLines(copy).filter((candidate) => !candidate.id?.startsWith('steady/'))) {
      const file = path.join(copy, line.dir ?? '', 'meta.json');
      const meta = readJson<{ model: { reported: string | null } }>(file);
      meta.model.reported = '<synthetic>';
      writeFileSync(file, JSON.stringify(meta, null, 2));
    }
    const report = await runCli(['report', copy]);
    expect(report.exitCode, report.stderr).toBe(0);
    check(copy);
  });

  it('each endpoint’s concurrency limit holds (overloaded: one at a time) while the run uses more overall', () => {
    const { perModel, overall } = maxInFlight(run.stdout);
    expect(perModel.get('overloaded')).toBe(1);
    expect(overall).toBeGreaterThanOrEqual(2);
  });

  it('the gateway got the key as a bearer token and its headers on every request; nothing else got it', () => {
    expect(gateway.requests.length).toBeGreaterThan(0);
    for (const headers of gateway.requests) {
      expect(headers.authorization).toBe(`Bearer ${KEYS.GATEWAY_TOKEN}`);
      expect(headers['x-api-key']).toBeUndefined();
      expect(headers['x-team']).toBe('evals');
    }
  });

  it('pricing comes from the profile: the gateway’s own prices, unpriced stays null', () => {
    const [line] = repLines(out).filter((candidate) => candidate.id === 'steady/green/s1-rep1');
    const meta = readJson<{
      costUsd: number;
      tokens: { input: number; output: number; cacheWrite: number; cacheRead: number };
      model: Record<string, unknown>;
    }>(path.join(out, line?.dir ?? '', 'meta.json'));
    const { input, output, cacheWrite, cacheRead } = meta.tokens;
    expect(meta.costUsd).toBeCloseTo(
      (input * 1 + cacheWrite * 1.25 + cacheRead * 0.1 + output * 2) / 1_000_000,
      10,
    );
    expect(meta.model).toMatchObject({ name: 'steady', endpoint: 'gateway', scripted: false });
    const [over] = repLines(out).filter((candidate) => candidate.id === 'overloaded/red/s1-rep1');
    expect(
      readJson<{ costUsd: null }>(path.join(out, over?.dir ?? '', 'meta.json')).costUsd,
    ).toBeNull();
  });

  it('no key reaches a tool, a transcript, a results file or the output', () => {
    const [line] = repLines(out).filter((candidate) => candidate.id === 'steady/green/s1-rep1');
    const transcript = readFileSync(path.join(out, line?.dir ?? '', 'transcript.jsonl'), 'utf8');
    // Positive control: the tool's environment really was dumped.
    expect(transcript).toContain('ENV: PATH=');
    expect(transcript).not.toMatch(/ENV: (ANTHROPIC|CLAUDE_CODE|GATEWAY|OVERLOADED|GONE)/);
    for (const key of Object.values(KEYS)) {
      for (const file of filesUnder(out)) {
        expect(readFileSync(file, 'utf8').includes(key), file).toBe(false);
      }
      expect(run.stdout.includes(key) || run.stderr.includes(key)).toBe(false);
    }
    // campaign.json names the key variables, never their values.
    const record = readJson<{ models: { keyEnv: string; headerNames: string[] }[] }>(
      path.join(out, 'campaign.json'),
    );
    expect(record.models.map((model) => model.keyEnv)).toEqual([
      'GATEWAY_TOKEN',
      'OVERLOADED_KEY',
      'GONE_KEY',
    ]);
    expect(record.models[0]?.headerNames).toEqual(['x-team']);
  });

  it('the messages backend (the real SDK) sends the same bearer key and headers to the gateway', async () => {
    const before = gateway.requests.length;
    const messages = path.join(root, 'messages');
    const sdkRun = await runCampaignCli(
      [
        campaign,
        '--backend',
        'messages',
        '--reps',
        '1',
        '--only',
        'model=steady',
        '--out',
        messages,
      ],
      KEYS,
    );
    expect(sdkRun.exitCode, sdkRun.stderr).toBe(0);
    const seen = gateway.requests.slice(before);
    expect(seen.length).toBeGreaterThan(2);
    for (const headers of seen) {
      expect(headers.authorization).toBe(`Bearer ${KEYS.GATEWAY_TOKEN}`);
      expect(headers['x-api-key']).toBeUndefined();
      expect(headers['x-team']).toBe('evals');
    }
    expect(
      repLines(messages)
        .map((line) => line.id)
        .sort(),
    ).toEqual(['steady/green/s1-rep1', 'steady/red/s1-rep1']);
  });

  it('on the messages backend too, the failing endpoints’ reps are indeterminate at the API, and no key leaks', async () => {
    const messages = path.join(root, 'messages-failing');
    const sdkRun = await runCampaignCli(
      [
        campaign,
        '--backend',
        'messages',
        '--reps',
        '1',
        '--only',
        'model=overloaded,model=gone',
        '--out',
        messages,
      ],
      KEYS,
    );
    expect(sdkRun.exitCode, sdkRun.stderr).toBe(0);
    const lines = repLines(messages);
    expect(lines).toHaveLength(4);
    for (const line of lines) {
      expect(line.verdict, line.id).toBe('indeterminate');
      const meta = readJson<{ status: { stage: string } }>(
        path.join(messages, line.dir ?? '', 'meta.json'),
      );
      expect(meta.status.stage, line.id).toBe('api');
    }
    for (const key of Object.values(KEYS)) {
      for (const file of filesUnder(messages)) {
        expect(readFileSync(file, 'utf8').includes(key), file).toBe(false);
      }
      expect(sdkRun.stdout.includes(key) || sdkRun.stderr.includes(key)).toBe(false);
    }
  });

  it('--dry-run with the keys set prices each model at its profile’s pricing, and contacts nothing', async () => {
    const before = gateway.requests.length;
    const dry = await runCampaignCli([campaign, '--dry-run'], KEYS);
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(/live run with 3 models/);
    expect(dry.stdout).toMatch(
      /model steady \(claude-sonnet-5-5 on endpoint gateway\): 4 session\(s\), estimated cost \$\d+\.\d\d;/,
    );
    expect(dry.stdout).toMatch(
      /model overloaded \(claude-opus-5-5 on endpoint overloaded\): 4 session\(s\), cost n\/a \(unpriced\); .*at most 1 at once on overloaded/,
    );
    expect(dry.stdout).toMatch(
      /model gone \(claude-haiku-5-5 on endpoint gone\): 4 session\(s\), cost n\/a \(unpriced\)/,
    );
    expect(gateway.requests.length).toBe(before);
  });
});
