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
