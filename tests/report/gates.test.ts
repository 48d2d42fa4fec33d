import { describe, expect, it } from 'vitest';
import type { GateConfig } from '../../harness/campaign/config-schema.js';
import { evaluateGate, gateDecision } from '../../harness/report/gates.js';
import type { CellSummary } from '../../harness/report/results-schema.js';

function cell(
  arm: 'red' | 'green',
  scenario: string,
  pass: number,
  fail: number,
  indeterminate = 0,
): CellSummary {
  return {
    arm,
    role: arm,
    label: arm,
    layout: arm === 'red' ? 'flat' : 'scoped',
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

const minRate = (arm: string, scenario: string, passes: number, of: number): GateConfig => ({
  kind: 'min-pass-rate',
  arm,
  scenario,
  passes,
  of,
});

describe('gates', () => {
  it('min-pass-rate holds at the threshold and fails one below it', () => {
    expect(evaluateGate(minRate('red', 's2', 4, 5), [cell('red', 's2', 4, 1)]).outcome).toBe(
      'holds',
    );
    expect(evaluateGate(minRate('red', 's2', 4, 5), [cell('red', 's2', 3, 2)]).outcome).toBe(
      'fails',
    );
    expect(evaluateGate(minRate('green', 's1', 5, 5), [cell('green', 's1', 4, 1)]).outcome).toBe(
      'fails',
    );
  });

  it('min-pass-rate needs `of` decided reps: 1/1, or 4/4 with one indeterminate, cannot show 5/5', () => {
    const gate = minRate('green', 's1', 5, 5);
    expect(evaluateGate(gate, [cell('green', 's1', 5, 0, 0)]).outcome).toBe('holds');
    expect(evaluateGate(gate, [cell('green', 's1', 4, 0, 1)]).outcome).toBe('undecided');
    expect(evaluateGate(gate, [cell('green', 's1', 1, 0, 4)]).outcome).toBe('undecided');
    expect(evaluateGate(gate, [cell('green', 's1', 0, 0, 5)]).outcome).toBe('undecided');
    // A --reps 1 run cannot show a 5/5 requirement either.
    expect(evaluateGate(gate, [cell('green', 's1', 1, 0, 0)]).outcome).toBe('undecided');
    // More reps than `of`: the rate decides.
    expect(evaluateGate(gate, [cell('green', 's1', 10, 0, 0)]).outcome).toBe('holds');
    expect(evaluateGate(gate, [cell('green', 's1', 9, 1, 0)]).outcome).toBe('fails');
  });

  it('min-pass-rate fails outright when even the missing decided reps could not lift it', () => {
    expect(evaluateGate(minRate('red', 's2', 4, 5), [cell('red', 's2', 2, 2, 1)]).outcome).toBe(
      'fails',
    );
    expect(evaluateGate(minRate('green', 's1', 5, 5), [cell('green', 's1', 0, 1, 0)]).outcome).toBe(
      'fails',
    );
    // 0/1 with four more to come could still reach 4/5: not yet decided.
    expect(evaluateGate(minRate('red', 's2', 4, 5), [cell('red', 's2', 0, 1, 0)]).outcome).toBe(
      'undecided',
    );
    expect(evaluateGate(minRate('red', 's2', 4, 5), [cell('red', 's2', 0, 2, 0)]).outcome).toBe(
      'fails',
    );
    expect(evaluateGate(minRate('red', 's2', 4, 5), [cell('red', 's2', 1, 0, 0)]).outcome).toBe(
      'undecided',
    );
  });

  it('green-better holds only when GREEN is significantly better', () => {
    const gate: GateConfig = { kind: 'green-better', scenario: 's1', alpha: 0.05 };
    expect(evaluateGate(gate, [cell('red', 's1', 0, 5), cell('green', 's1', 5, 0)]).outcome).toBe(
      'holds',
    );
    expect(evaluateGate(gate, [cell('red', 's1', 3, 2), cell('green', 's1', 5, 0)]).outcome).toBe(
      'fails',
    );
    expect(evaluateGate(gate, [cell('red', 's1', 5, 0), cell('green', 's1', 5, 0)]).outcome).toBe(
      'fails',
    );
  });

  it('green-better and no-regression are undecided when the reps cannot show a difference; p = α exactly is not below it', () => {
    const better: GateConfig = { kind: 'green-better', scenario: 's1', alpha: 0.05 };
    // 0/3 against 3/3 is p = .05 exactly (0.04999999999999996 in floating point): never holds.
    const three = evaluateGate(better, [cell('red', 's1', 0, 3), cell('green', 's1', 3, 0)]);
    expect(three.outcome).toBe('undecided');
    expect(three.figure).toMatch(
      /too few decided reps: even GREEN all passing against RED none gives p = 0\.050/,
    );
    expect(evaluateGate(better, [cell('red', 's1', 0, 2), cell('green', 's1', 2, 0)]).outcome).toBe(
      'undecided',
    );
    // 4 a side can: 0/4 against 4/4 holds, 1/4 against 4/4 fails.
    expect(evaluateGate(better, [cell('red', 's1', 0, 4), cell('green', 's1', 4, 0)]).outcome).toBe(
      'holds',
    );
    expect(evaluateGate(better, [cell('red', 's1', 1, 3), cell('green', 's1', 4, 0)]).outcome).toBe(
      'fails',
    );
    const regression: GateConfig = { kind: 'no-regression', scenario: 's2', alpha: 0.05 };
    expect(
      evaluateGate(regression, [cell('red', 's2', 3, 0), cell('green', 's2', 0, 3)]).outcome,
    ).toBe('undecided');
    expect(
      evaluateGate(regression, [cell('red', 's2', 4, 0), cell('green', 's2', 0, 4)]).outcome,
    ).toBe('fails');
  });

  it('no-scenario-regresses is undecided, never holds, when a total regression sits at p = α', () => {
    const panel: GateConfig = {
      kind: 'no-scenario-regresses',
      alpha: 0.05,
      correction: 'holm',
    } as GateConfig;
    // RED 3/3 against GREEN 0/3: p = .05 exactly (0.04999999999999996): it cannot be shown.
    const result = evaluateGate(panel, [cell('red', 's2', 3, 0), cell('green', 's2', 0, 3)]);
    expect(result.outcome).toBe('undecided');
    expect(result.figure).toMatch(/too few decided reps to show a regression/);
    // With 4 a side the same regression fails it.
    expect(evaluateGate(panel, [cell('red', 's2', 4, 0), cell('green', 's2', 0, 4)]).outcome).toBe(
      'fails',
    );
  });

  it('no-regression fails when RED is significantly better than GREEN', () => {
    const gate: GateConfig = { kind: 'no-regression', scenario: 's2', alpha: 0.05 };
    expect(evaluateGate(gate, [cell('red', 's2', 5, 0), cell('green', 's2', 5, 0)]).outcome).toBe(
      'holds',
    );
    expect(evaluateGate(gate, [cell('red', 's2', 5, 0), cell('green', 's2', 0, 5)]).outcome).toBe(
      'fails',
    );
  });

  it('max-indeterminate-share makes the decision undecided when exceeded', () => {
    const gate: GateConfig = { kind: 'max-indeterminate-share', share: 0.2 };
    expect(evaluateGate(gate, [cell('red', 's1', 4, 0, 1)]).outcome).toBe('holds');
    expect(evaluateGate(gate, [cell('red', 's1', 3, 0, 2)]).outcome).toBe('undecided');
  });

  it('the decision: 0 when all hold, 1 when one fails, 2 when reps are missing or a gate is undecided', () => {
    const cells = [cell('green', 's1', 5, 0), cell('red', 's2', 3, 2)];
    expect(gateDecision([minRate('green', 's1', 5, 5)], cells, []).exitCode).toBe(0);
    expect(
      gateDecision([minRate('green', 's1', 5, 5), minRate('red', 's2', 4, 5)], cells, []).exitCode,
    ).toBe(1);
    expect(gateDecision([minRate('green', 's1', 5, 5)], cells, ['red/s1-rep5']).exitCode).toBe(2);
    expect(
      gateDecision(
        [{ kind: 'max-indeterminate-share', share: 0 }],
        [cell('red', 's1', 1, 0, 1)],
        [],
      ).exitCode,
    ).toBe(2);
  });
});

describe('no-scenario-regresses (a panel gate, Holm-corrected across scenarios)', () => {
  const panel = (
    extra: Partial<Extract<GateConfig, { kind: 'no-scenario-regresses' }>> = {},
  ): GateConfig => ({ kind: 'no-scenario-regresses', alpha: 0.05, correction: 'holm', ...extra });
  /** Ten scenarios where both arms pass every rep, then one with the given counts. */
  const tenSteady = (red: [number, number], green: [number, number]): CellSummary[] => [
    ...Array.from({ length: 9 }, (_, i) => [
      cell('red', `s${i}`, 5, 0),
      cell('green', `s${i}`, 5, 0),
    ]).flat(),
    cell('red', 'x', red[0], red[1]),
    cell('green', 'x', green[0], green[1]),
  ];

  it('fails when one scenario regresses beyond the correction (planted negative)', () => {
    // RED 8/8 against GREEN 0/8: p = 0.00008, below α/10 = 0.005.
    const result = evaluateGate(panel(), tenSteady([8, 0], [0, 8]));
    expect(result.outcome).toBe('fails');
    expect(result.figure).toMatch(
      /^regresses: X \(RED 8\/8, GREEN 0\/8; p < 0\.0001 below 0\.00500\)/,
    );
  });

  it('holds when a regression is significant uncorrected but not after Holm', () => {
    // RED 4/4 against GREEN 0/4: p = 1/70 = 0.0143 < 0.05, but above α/10 = 0.005.
    const cells = tenSteady([4, 0], [0, 4]);
    expect(evaluateGate(panel({ correction: 'none' }), cells).outcome).toBe('fails');
    const corrected = evaluateGate(panel(), cells);
    expect(corrected.outcome).toBe('holds');
    expect(corrected.figure).toContain('10 scenario(s), none regresses; closest: X');
    expect(corrected.figure).toContain('needs below 0.00500');
    // The same regression alone is judged at α itself: one test, no correction to pay.
    expect(evaluateGate(panel({ scenarios: ['x'] }), cells).outcome).toBe('fails');
  });

  it('Holm steps down: after the smallest p-value the next is held to α/(m−1)', () => {
    // Two regressions among three scenarios: p = 0.0040 (< 0.05/3) then 0.0143 (< 0.05/2).
    const cells = [
      cell('red', 'a', 5, 0),
      cell('green', 'a', 0, 5),
      cell('red', 'b', 4, 0),
      cell('green', 'b', 0, 4),
      cell('red', 'c', 5, 0),
      cell('green', 'c', 5, 0),
    ];
    const result = evaluateGate(panel(), cells);
    expect(result.outcome).toBe('fails');
    expect(result.figure).toMatch(/A \(.*below 0\.0167\); B \(.*below 0\.0250\)/);
  });

  it('is undecided, never held, when its reps could not show any regression after the correction', () => {
    // Three reps a cell over ten scenarios: even RED 3/3 against GREEN 0/3 gives p = 0.05,
    // above α/10. A gate that cannot fail checks nothing.
    const thin = Array.from({ length: 10 }, (_, i) => [
      cell('red', `s${i}`, 3, 0),
      cell('green', `s${i}`, 3, 0),
    ]).flat();
    const result = evaluateGate(panel(), thin);
    expect(result.outcome).toBe('undecided');
    expect(result.figure).toMatch(/too few decided reps to show a regression/);
    // Five reps can: 1/252 = 0.004 is below 0.005.
    const five = Array.from({ length: 10 }, (_, i) => [
      cell('red', `s${i}`, 5, 0),
      cell('green', `s${i}`, 5, 0),
    ]).flat();
    expect(evaluateGate(panel(), five)).toMatchObject({
      outcome: 'holds',
      figure: '10 scenario(s), none regresses: RED is better than GREEN in none',
    });
    // GREEN ahead (RED 0/5, GREEN 5/5: p = 1 up to rounding) is no regression either.
    const ahead = [...five.slice(2), cell('red', 'x', 0, 5), cell('green', 'x', 5, 0)];
    expect(evaluateGate(panel(), ahead).figure).toBe(
      '10 scenario(s), none regresses: RED is better than GREEN in none',
    );
  });

  it('is undecided, never held, when a scenario has no decided reps in an arm', () => {
    const cells = [
      cell('red', 'a', 5, 0),
      cell('green', 'a', 5, 0),
      cell('red', 'b', 0, 0, 5),
      cell('green', 'b', 5, 0),
    ];
    expect(evaluateGate(panel(), cells)).toMatchObject({ outcome: 'undecided' });
    expect(evaluateGate(panel(), [])).toMatchObject({ outcome: 'undecided' });
    // A decided regression elsewhere still fails it.
    expect(
      evaluateGate(panel(), [...cells, cell('red', 'c', 8, 0), cell('green', 'c', 0, 8)]).outcome,
    ).toBe('fails');
  });
});
