/**
 * The trigger gates on cells (each query a scenario; a positive query's pass
 * is a trigger, a negative query's fail is one): a planted regression fails,
 * an improvement holds, and each is undecided when the reps cannot decide it
 * (an arm without the reps it reads, or counts too few for the starkest split
 * to reach α). Precision, recall and F1 with their intervals.
 */
import { describe, expect, it } from 'vitest';
import type { GateConfig } from '../../harness/campaign/config-schema.js';
import { gateSchema } from '../../harness/campaign/config-schema.js';
import { evaluateGate } from '../../harness/report/gates.js';
import type { CellSummary } from '../../harness/report/results-schema.js';
import { triggerCounts, triggerFigures } from '../../harness/report/trigger-rates.js';

function cell(
  role: 'red' | 'green',
  scenario: string,
  pass: number,
  fail: number,
  indeterminate = 0,
): CellSummary {
  return {
    arm: role === 'red' ? 'old' : 'new',
    role,
    label: role,
    layout: 'default',
    scenario,
    planned: pass + fail + indeterminate,
    recorded: pass + fail + indeterminate,
    pass,
    fail,
    indeterminate,
    decided: pass + fail,
    passRate: pass + fail === 0 ? null : pass / (pass + fail),
    wilson95: null,
    toolUses: { values: [], median: null, mean: null, bootstrap95Mean: null },
    observations: [],
    overrides: 0,
  };
}

const positives = ['q-01', 'q-02', 'q-03', 'q-04'];
const negatives = ['q-05', 'q-06', 'q-07', 'q-08'];
const gate = (
  kind: 'trigger-recall-no-regression' | 'trigger-precision-no-regression',
): GateConfig => gateSchema.parse({ kind, positives, negatives });

/** Cells of both arms: per positive query the reps that triggered, per negative the reps that did. */
function cells(
  red: { hits: number; falseHits: number },
  green: { hits: number; falseHits: number },
  reps = 3,
): CellSummary[] {
  const arm = (role: 'red' | 'green', counts: { hits: number; falseHits: number }) => [
    ...positives.map((id, index) => {
      const hits = Math.max(0, Math.min(reps, counts.hits - index * reps));
      return cell(role, id, hits, reps - hits);
    }),
    ...negatives.map((id, index) => {
      const falseHits = Math.max(0, Math.min(reps, counts.falseHits - index * reps));
      return cell(role, id, reps - falseHits, falseHits);
    }),
  ];
  return [...arm('red', red), ...arm('green', green)];
}

describe('trigger-recall-no-regression', () => {
  it('fails on a planted regression (the new description loses the queries it should catch)', () => {
    const outcome = evaluateGate(
      gate('trigger-recall-no-regression'),
      cells({ hits: 12, falseHits: 0 }, { hits: 2, falseHits: 0 }),
    );
    expect(outcome.outcome).toBe('fails');
    expect(outcome.figure).toMatch(
      /^recall: RED 12\/12, GREEN 2\/12 reps; RED better than GREEN: p/,
    );
  });
  it('holds on an improvement and on no change', () => {
    expect(
      evaluateGate(
        gate('trigger-recall-no-regression'),
        cells({ hits: 4, falseHits: 0 }, { hits: 12, falseHits: 0 }),
      ).outcome,
    ).toBe('holds');
    expect(
      evaluateGate(
        gate('trigger-recall-no-regression'),
        cells({ hits: 8, falseHits: 0 }, { hits: 8, falseHits: 0 }),
      ).outcome,
    ).toBe('holds');
  });
  it('is undecided when the reps cannot decide it', () => {
    // One rep per query: 4 against 4 reps, and even 4/4 against 0/4 is p = 0.014 < 0.05, but 2 against 2 is not.
    const few = [
      cell('red', 'q-01', 1, 0),
      cell('red', 'q-02', 1, 0),
      cell('green', 'q-01', 0, 1),
      cell('green', 'q-02', 0, 1),
    ];
    const twoQueries = gateSchema.parse({
      kind: 'trigger-recall-no-regression',
      positives: ['q-01', 'q-02'],
      negatives: [],
    });
    const outcome = evaluateGate(twoQueries, few);
    expect(outcome.outcome).toBe('undecided');
    expect(outcome.figure).toMatch(/too few reps/);
    const none = cells({ hits: 12, falseHits: 0 }, { hits: 0, falseHits: 0 }).map((summary) =>
      summary.role === 'green' && positives.includes(summary.scenario)
        ? { ...summary, pass: 0, fail: 0, indeterminate: 3, decided: 0 }
        : summary,
    );
    expect(evaluateGate(gate('trigger-recall-no-regression'), none).outcome).toBe('undecided');
  });
});

describe('trigger-precision-no-regression', () => {
  it('fails when the new description fires on queries it should not, holds when it does not', () => {
    expect(
      evaluateGate(
        gate('trigger-precision-no-regression'),
        cells({ hits: 12, falseHits: 0 }, { hits: 12, falseHits: 12 }),
      ).outcome,
    ).toBe('fails');
    expect(
      evaluateGate(
        gate('trigger-precision-no-regression'),
        cells({ hits: 6, falseHits: 3 }, { hits: 12, falseHits: 0 }),
      ).outcome,
    ).toBe('holds');
  });
  it('is undecided when an arm never triggers (its precision is undefined)', () => {
    const outcome = evaluateGate(
      gate('trigger-precision-no-regression'),
      cells({ hits: 12, falseHits: 0 }, { hits: 0, falseHits: 0 }),
    );
    expect(outcome.outcome).toBe('undecided');
    expect(outcome.figure).toMatch(/precision is undefined/);
  });
});

describe('precision, recall and F1', () => {
  it('count reps as trials, with Wilson intervals, and leave indeterminate reps out', () => {
    const all = [
      ...cells({ hits: 6, falseHits: 3 }, { hits: 12, falseHits: 0 }),
      cell('red', 'q-01', 0, 0, 2),
    ];
    const red = triggerFigures(
      triggerCounts(all, (summary) => summary.role === 'red', positives, negatives),
    );
    expect([red.tp, red.fp, red.fn, red.tn]).toEqual([6, 3, 6, 9]);
    expect(red.recall.rate).toBeCloseTo(0.5);
    expect(red.precision.rate).toBeCloseTo(6 / 9);
    expect(red.f1).toBeCloseTo((2 * 0.5 * (6 / 9)) / (0.5 + 6 / 9));
    expect(red.recall.interval?.lower).toBeCloseTo(0.2538, 3);
    const empty = triggerFigures({ tp: 0, fp: 0, fn: 0, tn: 4 });
    expect([empty.recall.rate, empty.precision.rate, empty.f1]).toEqual([null, null, null]);
  });
  it('a gate without queries is refused when the campaign file is read', () => {
    expect(
      gateSchema.safeParse({ kind: 'trigger-recall-no-regression', positives: [], negatives: [] })
        .success,
    ).toBe(false);
  });
});
