/**
 * The cost gates over cell summaries built from rep rows the way the
 * summariser builds them: `metric-ratio` (seeded bootstrap of GREEN ÷ RED)
 * holds, fails and stays undecided; `metric-cap` fails on one rep over the
 * cap (an indeterminate one too) and stays undecided when the metric was not
 * recorded. Planted negatives for both, and the schema's one-line refusals.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type GateConfig, gateSchema } from '../../harness/campaign/config-schema.js';
import { readCampaignFile } from '../../harness/campaign/load-campaign.js';
import { gatesFor, parseOnly } from '../../harness/campaign/only.js';
import { gateDecision } from '../../harness/report/gates.js';
import { bootstrapRatio } from '../../harness/report/metric-gates.js';
import { cellMetrics, type MetricRow, metricValue } from '../../harness/report/rep-metrics.js';
import type { CellSummary } from '../../harness/report/results-schema.js';
import { gatesOutOfReach } from '../../harness/run/gate-reach.js';
import { makeTempDir } from '../helpers/temp-dir.js';

type Row = MetricRow & { verdict: 'pass' | 'fail' | 'indeterminate' };

function row(input: number | null, overrides: Partial<Row> = {}): Row {
  return {
    verdict: 'pass',
    tool_uses: 5,
    subagent_tool_uses: 2,
    input_tokens: input,
    output_tokens: input === null ? null : Math.round(input / 10),
    cache_write_tokens: 0,
    cache_read_tokens: 0,
    cost_usd: null,
    dispatches: 1,
    files_written: 1,
    bytes_written: 120,
    ...overrides,
  };
}

function cell(arm: 'red' | 'green', scenario: string, rows: readonly Row[]): CellSummary {
  const decided = rows.filter((r) => r.verdict !== 'indeterminate').length;
  return {
    arm,
    role: arm,
    label: arm,
    layout: 'flat',
    scenario,
    planned: rows.length,
    recorded: rows.length,
    pass: decided,
    fail: 0,
    indeterminate: rows.length - decided,
    decided,
    passRate: decided === 0 ? null : 1,
    wilson95: null,
    toolUses: { values: [], median: null, mean: null, bootstrap95Mean: null },
    metrics: cellMetrics(rows),
    observations: [],
    overrides: 0,
  };
}

function decide(gate: unknown, cells: readonly CellSummary[]) {
  const parsed: GateConfig = gateSchema.parse(gate);
  return gateDecision([parsed], cells, []);
}

const ratio = (extra: Record<string, unknown> = {}) => ({
  kind: 'metric-ratio',
  metric: 'input-tokens',
  scenario: 's1',
  ratio: 0.8,
  ...extra,
});

const rows = (values: readonly number[]) => values.map((value) => row(value));

describe('metric-ratio', () => {
  const red = rows([1000, 1040, 980, 1010, 1100]);

  it('holds when the whole interval of GREEN ÷ RED is under the bound', () => {
    const decision = decide(ratio(), [
      cell('red', 's1', red),
      cell('green', 's1', rows([600, 640, 610, 590, 620])),
    ]);
    expect(decision.outcome).toBe('pass');
    expect(decision.exitCode).toBe(0);
    expect(decision.results[0]?.figure).toMatch(
      /^GREEN median 610 \/ RED 1010 = 0\.604; 95% bootstrap interval 0\.\d+–0\.\d+ \(5 GREEN, 5 RED decided reps\)$/,
    );
  });

  it('fails when the whole interval is above the bound (planted negative): exit 1', () => {
    const decision = decide(ratio(), [
      cell('red', 's1', red),
      cell('green', 's1', rows([990, 1000, 1020, 1050, 970])),
    ]);
    expect(decision.results[0]?.outcome).toBe('fails');
    expect(decision.exitCode).toBe(1);
    expect(decision.results[0]?.figure).toContain('above 0.8');
  });

  it('is undecided when the interval straddles the bound: exit 2, never a pass', () => {
    const decision = decide(ratio(), [
      cell('red', 's1', red),
      cell('green', 's1', rows([500, 1100, 700, 950, 820])),
    ]);
    expect(decision.results[0]?.outcome).toBe('undecided');
    expect(decision.exitCode).toBe(2);
    expect(decision.results[0]?.figure).toContain('straddles 0.8: run more reps');
  });

  it('is undecided with too few decided reps that recorded the metric, or none (missing evidence)', () => {
    const few = decide(ratio(), [cell('red', 's1', red), cell('green', 's1', rows([100, 120]))]);
    expect(few.results[0]?.outcome).toBe('undecided');
    expect(few.results[0]?.figure).toBe(
      'GREEN has 2 decided rep(s) with input-tokens recorded, needs 3',
    );
    const unrecorded = decide(ratio({ metric: 'cost-usd' }), [
      cell('red', 's1', red),
      cell('green', 's1', rows([100, 120, 130])),
    ]);
    expect(unrecorded.results[0]?.outcome).toBe('undecided');
    expect(unrecorded.results[0]?.figure).toContain('(5 did not record it)');
    // Indeterminate reps are no measurement: a GREEN arm of cut-short sessions decides nothing.
    const cut = decide(ratio(), [
      cell('red', 's1', red),
      cell(
        'green',
        's1',
        rows([1, 1, 1]).map((r) => ({ ...r, verdict: 'indeterminate' as const })),
      ),
    ]);
    expect(cut.results[0]?.outcome).toBe('undecided');
    expect(decide(ratio(), []).results[0]?.figure).toBe('a cell has no reps');
  });

  it('is seeded: the same values give the same interval; the mean is a statistic too', () => {
    const green = [600, 900, 640, 610, 700];
    const red = [1000, 1040, 980, 1010, 1100];
    const options = { statistic: 'median', confidence: 0.95, seed: 7 } as const;
    expect(bootstrapRatio(green, red, options)).toEqual(bootstrapRatio(green, red, options));
    const byMean = bootstrapRatio(green, red, { ...options, statistic: 'mean' });
    expect(byMean.estimate).toBeCloseTo(690 / 1026, 10);
    expect(byMean.lower).toBeLessThan(byMean.estimate);
    expect(byMean.upper).toBeGreaterThan(byMean.estimate);
    // RED spending nothing: 0 ÷ 0 is equal (1), x ÷ 0 is unbounded, never a crash.
    expect(bootstrapRatio([0, 0], [0, 0], options)).toEqual({ estimate: 1, lower: 1, upper: 1 });
    expect(bootstrapRatio([3, 3], [0, 0], options).lower).toBe(Number.POSITIVE_INFINITY);
  });
});

describe('a ratio the schedule cannot decide', () => {
  it('is named before the run, with the reps that can decide it', () => {
    const gate = gateSchema.parse(ratio());
    expect(gatesOutOfReach({ gates: [gate], reps: 2 })).toEqual([
      'gate s1: input-tokens ratio at most 0.8 needs 3 decided reps with input-tokens recorded in each arm, but the run schedules 2 per cell: it stays undecided (run with --reps 3 or more)',
    ]);
    expect(gatesOutOfReach({ gates: [gate], reps: 3 })).toEqual([]);
  });
});

describe('metric-cap', () => {
  const cap = (extra: Record<string, unknown> = {}) => ({
    kind: 'metric-cap',
    metric: 'output-tokens',
    max: 150,
    ...extra,
  });

  it('holds when every rep stays at or under the cap', () => {
    const decision = decide(cap(), [
      cell('red', 's1', rows([1000, 1500])),
      cell('green', 's1', rows([900])),
    ]);
    expect(decision.results[0]).toMatchObject({
      outcome: 'holds',
      figure: '3 decided rep(s), highest 150 (cap 150)',
    });
    expect(decision.exitCode).toBe(0);
  });

  it('fails when one rep goes over (planted negative), naming the cell: exit 1', () => {
    const decision = decide(cap(), [
      cell('red', 's1', rows([1000, 1510])),
      cell('green', 's1', rows([900])),
    ]);
    expect(decision.results[0]).toMatchObject({
      outcome: 'fails',
      figure: 'over 150: S1 RED (a rep up to 151)',
    });
    expect(decision.exitCode).toBe(1);
  });

  it('counts an indeterminate rep that went over: a cut-short session spent it', () => {
    const decision = decide(cap({ arm: 'green' }), [
      cell('red', 's1', rows([9000])),
      cell('green', 's1', [row(900), row(4000, { verdict: 'indeterminate' })]),
    ]);
    expect(decision.results[0]).toMatchObject({
      outcome: 'fails',
      figure: 'over 150: S1 GREEN (a rep up to 400)',
    });
  });

  it('is undecided when a decided rep did not record the metric, or no rep was decided', () => {
    const unpriced = decide(cap({ metric: 'cost-usd', max: 1 }), [cell('red', 's1', rows([10]))]);
    expect(unpriced.results[0]).toMatchObject({
      outcome: 'undecided',
      figure: 'S1 RED: 1 decided rep(s) did not record cost-usd',
    });
    const none = decide(cap({ scenario: 's2' }), [cell('red', 's1', rows([10]))]);
    expect(none.results[0]).toMatchObject({ outcome: 'undecided', figure: 'no decided reps' });
  });
});

describe('tool-calls-per-seat', () => {
  const cap = { kind: 'metric-cap', metric: 'tool-calls-per-seat', max: 3 };

  it("is every seat's calls over the seats: the controller and each subagent it started", () => {
    expect(metricValue(row(10, { seats: 2 }), 'tool-calls-per-seat')).toBeCloseTo(7 / 3);
    expect(metricValue(row(10, { seats: 0 }), 'tool-calls-per-seat')).toBe(7);
    expect(metricValue(row(10, { seats: null }), 'tool-calls-per-seat')).toBeNull();
    expect(metricValue(row(10), 'tool-calls-per-seat')).toBeNull();
  });

  it('a cap holds while the work is spread over seats, and fails on a controller doing it all (planted negative)', () => {
    const spread = decide(cap, [
      cell('green', 's1', [row(10, { seats: 2 }), row(10, { seats: 3 })]),
    ]);
    expect(spread.results[0]).toMatchObject({ outcome: 'holds' });
    const alone = decide(cap, [
      cell('green', 's1', [row(10, { seats: 2 }), row(10, { seats: 0 })]),
    ]);
    expect(alone.results[0]).toMatchObject({
      outcome: 'fails',
      figure: 'over 3: S1 GREEN (a rep up to 7)',
    });
    expect(alone.exitCode).toBe(1);
    const unrecorded = decide(cap, [cell('green', 's1', [row(10)])]);
    expect(unrecorded.results[0]).toMatchObject({ outcome: 'undecided' });
  });
});

describe('metric gates on a subset (--only)', () => {
  it('keeps a cap on the cells the subset runs and a ratio only with both arms', () => {
    const parsed = parseOnly(['arm=red']);
    if (!parsed.ok || parsed.value === null) throw new Error('--only did not parse');
    const roles = new Map([
      ['red', 'red'],
      ['green', 'green'],
    ] as const);
    const gates = [
      gateSchema.parse({ kind: 'metric-cap', metric: 'output-tokens', max: 5 }),
      gateSchema.parse({ kind: 'metric-cap', metric: 'output-tokens', max: 5, arm: 'green' }),
      gateSchema.parse(ratio()),
    ];
    const { kept, dropped } = gatesFor(gates, parsed.value, roles, ['s1']);
    expect(kept).toEqual([gates[0]]);
    expect(dropped).toEqual([gates[1], gates[2]]);
  });
});

describe('the metrics of a rep', () => {
  it('reads each from the row the session recorded', () => {
    const r = row(1000, { cache_read_tokens: 50, cache_write_tokens: 25, cost_usd: 0.01 });
    expect(metricValue(r, 'total-tokens')).toBe(1000 + 100 + 50 + 25);
    expect(metricValue(r, 'tool-calls')).toBe(7);
    expect(metricValue(r, 'controller-tool-calls')).toBe(5);
    expect(metricValue(r, 'subagent-tool-calls')).toBe(2);
    expect(metricValue(r, 'cost-usd')).toBe(0.01);
    expect(metricValue(r, 'bytes-written')).toBe(120);
    expect(metricValue(row(null), 'total-tokens')).toBeNull();
  });
});

describe('the gate fields are validated with one-line errors', () => {
  const refusal = (gate: Record<string, unknown>): string => {
    const file = path.join(makeTempDir(), 'c.campaign.json');
    writeFileSync(
      file,
      JSON.stringify({
        id: 'c',
        title: 'c',
        arms: [{ name: 'red', role: 'red', label: 'r', skill: null, layout: 'flat' }],
        scenarios: ['s1'],
        reps: 1,
        model: 'claude-sonnet-4-5',
        offlineModel: 'scripted:literal',
        gates: [gate],
      }),
    );
    const read = readCampaignFile(file);
    if (read.ok) return 'accepted';
    return `${read.error.problem}`;
  };

  it('refuses an unknown metric, naming the metrics', () => {
    const problem = refusal(ratio({ metric: 'tokens' }));
    expect(problem).toContain('unknown metric "tokens": use one of input-tokens, output-tokens');
    expect(problem).not.toContain('\n');
    // A typo names the metric it most likely meant, as a tool name's does.
    expect(refusal(ratio({ metric: 'input-token' }))).toContain(
      'unknown metric "input-token": did you mean "input-tokens"? use one of input-tokens',
    );
  });

  it('refuses a ratio of 0 or less, and a negative cap', () => {
    expect(refusal(ratio({ ratio: 0 }))).toContain('ratio must be above 0');
    expect(refusal(ratio({ ratio: -1 }))).toContain('ratio must be above 0');
    expect(refusal({ kind: 'metric-cap', metric: 'output-tokens', max: -1 })).toContain(
      'max must be 0 or more',
    );
    expect(refusal({ kind: 'metric-cap', metric: 'output-tokens', max: 5, model: 'every' })).toBe(
      'accepted',
    );
  });
});
