/**
 * The max-disagreement-share gate on hand-built cells: it holds at the share,
 * fails one disagreement above it (the planted negative) with the reason
 * "instrument disagreement" kept apart from a skill regression, counts an
 * adjudicated disagreement as settled, and cannot decide without judged reps,
 * with reps not yet judged, or with nothing both sides decided.
 */
import { describe, expect, it } from 'vitest';
import type { GateConfig } from '../../harness/campaign/config-schema.js';
import { summariseAgreement } from '../../harness/judge/agreement.js';
import { evaluateGate, gateDecision } from '../../harness/report/gates.js';
import type { CellSummary } from '../../harness/report/results-schema.js';

type Side = 'pass' | 'fail' | 'undecided';
type Judge = 'pass' | 'fail' | 'unsure';

function cell(
  scenario: string,
  arm: 'red' | 'green',
  reps: readonly (readonly [Side, Judge, boolean?, Judge?])[],
  recorded = reps.length,
  /** A cell of a judged scenario: it carries an agreement summary even with no rep judged. */
  judgedScenario = false,
): CellSummary {
  const pass = reps.filter(([checks]) => checks === 'pass').length;
  const fail = reps.filter(([checks]) => checks === 'fail').length;
  const agreement =
    reps.length === 0 && !judgedScenario
      ? undefined
      : summariseAgreement(
          reps.map(([checks, judge, overridden, answered]) => ({
            comparison: {
              checks,
              judge,
              answered: answered ?? judge,
              agreement:
                checks === 'undecided' || judge === 'unsure'
                  ? 'not-compared'
                  : checks === judge
                    ? 'agree'
                    : 'disagree',
            },
            overridden: overridden === true,
          })),
        );
  return {
    arm,
    role: arm,
    label: arm,
    layout: 'scoped',
    scenario,
    planned: recorded,
    recorded,
    pass,
    fail,
    indeterminate: recorded - pass - fail,
    decided: pass + fail,
    passRate: pass + fail === 0 ? null : pass / (pass + fail),
    wilson95: null,
    toolUses: { values: [], median: null, mean: null, bootstrap95Mean: null },
    observations: [],
    overrides: reps.filter(([, , overridden]) => overridden === true).length,
    ...(agreement === undefined ? {} : { agreement }),
  };
}

const agree = (n: number, verdict: 'pass' | 'fail' = 'pass') =>
  Array.from({ length: n }, () => [verdict, verdict] as const);

const gate: GateConfig = { kind: 'max-disagreement-share', share: 0.2 };

describe('max-disagreement-share', () => {
  it('holds at the share: 2 of 10 reps both decided disagree', () => {
    const cells = [
      cell('s1', 'red', [...agree(4), ['pass', 'fail']]),
      cell('s1', 'green', [...agree(4, 'fail'), ['fail', 'pass']]),
    ];
    const outcome = evaluateGate(gate, cells);
    expect(outcome.outcome).toBe('holds');
    expect(outcome.figure).toBe(
      '2/10 reps both decided disagree unresolved (20%; at most 20% allowed)',
    );
  });

  it('fails one above it, and the run fails as an instrument disagreement, not a regression', () => {
    const cells = [
      cell('s1', 'red', [...agree(3), ['pass', 'fail'], ['pass', 'fail']]),
      cell('s1', 'green', [...agree(4, 'fail'), ['fail', 'pass']]),
    ];
    expect(evaluateGate(gate, cells)).toMatchObject({
      outcome: 'fails',
      figure: '3/10 reps both decided disagree unresolved (30%; at most 20% allowed)',
    });
    const decision = gateDecision([gate], cells, []);
    expect(decision.exitCode).toBe(1);
    expect(decision.why).toBe(
      'instrument disagreement: 3/10 reps both decided disagree unresolved (30%; at most 20% allowed); settle the disagreements with `redgreen adjudicate` before trusting the verdicts',
    );
    // With a failing skill gate too, both are said, the instrument first.
    const both = gateDecision(
      [gate, { kind: 'min-pass-rate', arm: 'green', scenario: 's1', passes: 5, of: 5 }],
      cells,
      [],
    );
    expect(both.why).toMatch(
      /^instrument disagreement: .*; 1 gate\(s\) failed: S1 GREEN passes at least 5\/5$/,
    );
  });

  it('counts an adjudicated disagreement as settled', () => {
    const cells = [
      cell('s1', 'red', [...agree(3), ['pass', 'fail', true], ['pass', 'fail', true]]),
      cell('s1', 'green', [...agree(4, 'fail'), ['fail', 'pass']]),
    ];
    expect(evaluateGate(gate, cells)).toMatchObject({
      outcome: 'holds',
      figure:
        '1/10 reps both decided disagree unresolved (10%, 2 more settled by hand; at most 20% allowed)',
    });
  });

  it('looks only at its scenario when it names one', () => {
    const cells = [
      cell('s1', 'red', [...agree(1), ['pass', 'fail'], ['pass', 'fail']]),
      cell('s2', 'red', agree(5)),
    ];
    expect(evaluateGate({ ...gate, scenario: 's2' }, cells).outcome).toBe('holds');
    expect(evaluateGate({ ...gate, scenario: 's1' }, cells).outcome).toBe('fails');
  });

  it('cannot decide without judged reps, with reps not yet judged, or with nothing both decided', () => {
    expect(evaluateGate(gate, [cell('s1', 'red', [], 5)])).toMatchObject({
      outcome: 'undecided',
      figure: 'no rep has been judged: run `redgreen judge <dir>` (or `redgreen run --judge`)',
    });
    expect(evaluateGate(gate, [cell('s1', 'red', agree(3), 5)])).toMatchObject({
      outcome: 'undecided',
      figure:
        '2 recorded rep(s) not judged yet (or judged by another judge, or against an old rubric): run `redgreen judge <dir>`',
    });
    expect(
      evaluateGate(gate, [
        cell('s1', 'red', [
          ['pass', 'unsure'],
          ['undecided', 'pass'],
        ]),
      ]),
    ).toMatchObject({
      outcome: 'undecided',
      figure:
        'no rep was decided by both checks and judge (2 judged: 1 unsure, 1 undecided by the checks)',
    });
    expect(gateDecision([gate], [cell('s1', 'red', [], 5)], []).exitCode).toBe(2);
  });

  it('counts every recorded rep of a judged scenario: a cell nobody judged leaves it undecided', () => {
    const cells = [
      cell('s1', 'red', agree(5)),
      cell('s1', 'green', agree(5, 'fail')),
      cell('s2', 'red', [], 5, true),
      cell('s2', 'green', [], 5, true),
    ];
    expect(evaluateGate(gate, cells)).toMatchObject({
      outcome: 'undecided',
      figure:
        '10 recorded rep(s) not judged yet (or judged by another judge, or against an old rubric): run `redgreen judge <dir>`',
    });
    // A scenario without a judge block has no agreement and is not counted.
    expect(
      evaluateGate(gate, [...cells.slice(0, 2), cell('s2', 'red', [], 5, false)]).outcome,
    ).toBe('holds');
    // Nothing judged at all, but judged scenarios: not decided.
    expect(evaluateGate(gate, cells.slice(2)).figure).toMatch(/^no rep has been judged/);
  });

  it('needs half the recorded reps decided by both, and shows answers set unsure for a quote not found', () => {
    // The judge answered fail on all 8; only 2 quotes were found: 2 agree, 6 unsure.
    const unquoted = Array.from({ length: 6 }, () => ['pass', 'unsure', false, 'fail'] as const);
    const cells = [cell('s1', 'red', [...agree(2, 'fail'), ...unquoted])];
    expect(evaluateGate(gate, cells)).toMatchObject({
      outcome: 'undecided',
      figure:
        'only 2/8 recorded reps decided by both checks and judge (25%; at least 50% needed): 6 judge unsure, 0 undecided by the checks; 6 judge answer(s) set unsure for a quote not found (6 against the checks)',
    });
    expect(gateDecision([gate], cells, []).exitCode).toBe(2);
    // The minimum is the gate's to set.
    expect(evaluateGate({ ...gate, minBothDecided: 0.25 }, cells)).toMatchObject({
      outcome: 'holds',
      figure:
        '0/2 reps both decided disagree unresolved (0%; at most 20% allowed); 6 judge answer(s) set unsure for a quote not found (6 against the checks)',
    });
  });
});
