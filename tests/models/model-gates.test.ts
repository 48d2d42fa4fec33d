import { describe, expect, it } from 'vitest';
import type { GateConfig } from '../../harness/campaign/config-schema.js';
import { evaluateGate, gateDecision } from '../../harness/report/gates.js';
import { evaluateGateOnModels } from '../../harness/report/model-gates.js';
import { interactionSummary } from '../../harness/report/model-summary.js';
import type { CellSummary } from '../../harness/report/results-schema.js';
import { cellSummary } from '../helpers/cell-summary.js';

/**
 * Gates by model (a named model, or `every`: each must hold; Holm across
 * models for no-regression) and the arm × model interaction, on cell
 * summaries built by hand: each gate and each effect has a case that holds
 * and a planted one that fails, and stays undecided, never passing, when a
 * model has no decided reps (saying when its infrastructure is why).
 */
const cell = cellSummary;

/** The two-model offline campaign's shape: the change helps model a on s1, hurts model b on s2. */
const cells: CellSummary[] = [
  cell('a', 's1', 'red', 0, 5),
  cell('a', 's1', 'green', 5, 0),
  cell('b', 's1', 'red', 0, 5),
  cell('b', 's1', 'green', 0, 5),
  cell('a', 's2', 'red', 5, 0),
  cell('a', 's2', 'green', 5, 0),
  cell('b', 's2', 'red', 5, 0),
  cell('b', 's2', 'green', 0, 5),
];

const minPass = (model?: string): GateConfig => ({
  kind: 'min-pass-rate',
  arm: 'green',
  scenario: 's1',
  passes: 5,
  of: 5,
  ...(model === undefined ? {} : { model }),
});

describe('gates by model', () => {
  it('a gate naming a model is judged on that model alone', () => {
    const result = evaluateGateOnModels(minPass('a'), cells);
    expect(result).toMatchObject({ outcome: 'holds', gate: expect.stringMatching(/on a$/) });
    expect(evaluateGateOnModels(minPass('b'), cells).outcome).toBe('fails');
  });

  it('every (and no model, its default) must hold on each model: one failing model fails it', () => {
    for (const gate of [minPass('every'), minPass()]) {
      const result = evaluateGateOnModels(gate, cells);
      expect(result.outcome).toBe('fails');
      expect(result.gate).toMatch(/on every model/);
      expect(result.figure).toMatch(/^a: 5\/5 .*; b: 0\/5 /);
    }
  });

  it('no-regression on every model fails when one model regresses, after Holm', () => {
    const gate: GateConfig = { kind: 'no-regression', scenario: 's2', alpha: 0.05, model: 'every' };
    const result = evaluateGateOnModels(gate, cells);
    expect(result.outcome).toBe('fails');
    expect(result.gate).toMatch(/Holm across 2 models/);
    expect(result.figure).toMatch(
      /b: RED 5\/5, GREEN 0\/5; RED better than GREEN: p = 0\.0040, Holm 0\.0079/,
    );
    expect(evaluateGateOnModels({ ...gate, model: 'a' }, cells).outcome).toBe('holds');
  });

  it('no-regression on every model holds when Holm leaves a single borderline regression insignificant', () => {
    // 4/4 vs 1/4: one-sided p = 0.0714 alone; two models with the same regression stay above α after Holm.
    const borderline = [
      cell('a', 's2', 'red', 5, 0),
      cell('a', 's2', 'green', 2, 3),
      cell('b', 's2', 'red', 5, 0),
      cell('b', 's2', 'green', 2, 3),
    ];
    const gate: GateConfig = { kind: 'no-regression', scenario: 's2', alpha: 0.05, model: 'every' };
    const raw = evaluateGate({ ...gate, model: undefined } as GateConfig, borderline.slice(0, 2));
    expect(raw.outcome).toBe('holds');
    expect(evaluateGateOnModels(gate, borderline).outcome).toBe('holds');
  });

  it('no-regression on every model is undecided, never holds, when its reps cannot show a regression after Holm', () => {
    const gate: GateConfig = { kind: 'no-regression', scenario: 's2', alpha: 0.05, model: 'every' };
    // RED 3/3 against GREEN 0/3 on both models: p = .05 each, 2 x .05 after Holm: it cannot fail.
    const stark = [
      cell('a', 's2', 'red', 3, 0),
      cell('a', 's2', 'green', 0, 3),
      cell('b', 's2', 'red', 3, 0),
      cell('b', 's2', 'green', 0, 3),
    ];
    const result = evaluateGateOnModels(gate, stark);
    expect(result.outcome).toBe('undecided');
    expect(result.figure).toMatch(/too few decided reps to show a regression/);
    // 5 a side can: the same total regression fails it (planted negative).
    const five = [
      cell('a', 's2', 'red', 5, 0),
      cell('a', 's2', 'green', 0, 5),
      cell('b', 's2', 'red', 5, 0),
      cell('b', 's2', 'green', 0, 5),
    ];
    expect(evaluateGateOnModels(gate, five).outcome).toBe('fails');
  });

  it('green-better on every model needs each model’s own test', () => {
    const gate: GateConfig = { kind: 'green-better', scenario: 's1', alpha: 0.05, model: 'every' };
    expect(evaluateGateOnModels(gate, cells).outcome).toBe('fails');
    expect(evaluateGateOnModels({ ...gate, model: 'a' }, cells).outcome).toBe('holds');
  });

  it('a model without decided reps leaves the gate undecided, and says when its infrastructure failed', () => {
    const outage = [
      cell('a', 's1', 'red', 0, 5),
      cell('a', 's1', 'green', 5, 0),
      cell('b', 's1', 'red', 0, 0, 5, 5),
      cell('b', 's1', 'green', 0, 0, 5, 5),
    ];
    const every = evaluateGateOnModels(minPass('every'), outage);
    expect(every.outcome).toBe('undecided');
    expect(every.figure).toMatch(
      /b: no decided reps in this cell \(5 indeterminate rep\(s\) are infrastructure failures/,
    );
    expect(evaluateGateOnModels(minPass('a'), outage).outcome).toBe('holds');
    const share = evaluateGateOnModels(
      { kind: 'max-indeterminate-share', share: 0.2, model: 'every' },
      outage,
    );
    expect(share.outcome).toBe('undecided');
    expect(share.figure).toMatch(
      /a: 0\/10 indeterminate \(0%\); b: 10\/10 indeterminate \(100%\) \(10 indeterminate rep\(s\) are infrastructure failures/,
    );
    const decision = gateDecision(
      [minPass('a'), minPass('every')],
      outage,
      [],
      evaluateGateOnModels,
    );
    expect(decision).toMatchObject({ outcome: 'undecided', exitCode: 2 });
  });

  it('one model (cells without a model): judged exactly as before', () => {
    const single = cells
      .filter((entry) => entry.model === 'a')
      .map(({ model: _model, infrastructure: _infrastructure, ...rest }) => rest);
    for (const gate of [
      minPass(),
      { kind: 'no-regression', scenario: 's2', alpha: 0.05 } as GateConfig,
    ]) {
      expect(evaluateGateOnModels(gate, single)).toEqual(evaluateGate(gate, single));
    }
  });
});

describe('no-scenario-regresses on every model: one family, Holm across every scenario × model test', () => {
  const gate: GateConfig = {
    kind: 'no-scenario-regresses',
    alpha: 0.05,
    correction: 'holm',
    model: 'every',
  };
  const helpsA = [
    cell('a', 's1', 'red', 0, 5),
    cell('a', 's1', 'green', 5, 0),
    cell('a', 's2', 'red', 5, 0),
    cell('a', 's2', 'green', 5, 0),
    cell('b', 's1', 'red', 0, 5),
    cell('b', 's1', 'green', 0, 5),
  ];

  it('a stark regression on one model fails it, naming the model and scenario (planted negative)', () => {
    const result = evaluateGateOnModels(gate, [
      ...helpsA,
      cell('b', 's2', 'red', 5, 0),
      cell('b', 's2', 'green', 0, 5),
    ]);
    expect(result.outcome).toBe('fails');
    expect(result.gate).toMatch(/on every model \(Holm across 2 models × 2 scenarios: 4 tests\)$/);
    expect(result.figure).toMatch(
      /^a: 2 scenario\(s\), none regresses.*; b: regresses: S2 \(RED 5\/5, GREEN 0\/5; p = 0\.0040 below 0\.0125\)$/,
    );
    expect(result.perModel?.map((entry) => [entry.model, entry.outcome])).toEqual([
      ['a', 'holds'],
      ['b', 'fails'],
    ]);
  });

  it('a regression that one model’s own correction would reject holds across the family (p = 0.024: below α/2, not α/4)', () => {
    const borderline = [...helpsA, cell('b', 's2', 'red', 5, 0), cell('b', 's2', 'green', 1, 4)];
    expect(evaluateGateOnModels(gate, borderline)).toMatchObject({
      outcome: 'holds',
      perModel: [
        { model: 'a', outcome: 'holds' },
        { model: 'b', outcome: 'holds', figure: expect.stringMatching(/needs below 0\.0125/) },
      ],
    });
    // On b alone the family is b's two scenarios: the same regression fails.
    expect(evaluateGateOnModels({ ...gate, model: 'b' }, borderline).outcome).toBe('fails');
    // Uncorrected, every test is held to α: it fails on every model too.
    expect(evaluateGateOnModels({ ...gate, correction: 'none' }, borderline)).toMatchObject({
      outcome: 'fails',
      gate: expect.stringMatching(/\(uncorrected across 2 models × 2 scenarios: 4 tests\)$/),
    });
  });

  it('stays undecided, never holds, when a model has no decided reps or no regression could get below the first threshold', () => {
    const outage = [
      ...helpsA,
      cell('b', 's2', 'red', 0, 0, 5, 5),
      cell('b', 's2', 'green', 0, 0, 5, 5),
    ];
    const result = evaluateGateOnModels(gate, outage);
    expect(result.outcome).toBe('undecided');
    expect(result.figure).toMatch(
      /b: no decided reps in an arm of S2 \(10 indeterminate rep\(s\) are infrastructure failures/,
    );
    expect(result.perModel?.map((entry) => entry.outcome)).toEqual(['holds', 'undecided']);
    // Three reps an arm: 3/3 against 0/3 gives p = 0.05, never below α/4.
    const few = ['a', 'b'].flatMap((model) =>
      ['s1', 's2'].flatMap((scenario) => [
        cell(model, scenario, 'red', 3, 0),
        cell(model, scenario, 'green', 0, 3),
      ]),
    );
    expect(evaluateGateOnModels(gate, few)).toMatchObject({
      outcome: 'undecided',
      figure: expect.stringMatching(
        /too few decided reps .* first threshold is 0\.0125 \(4 tests\)/,
      ),
    });
  });
});

describe('each gate carries its model and, over several models, each model’s outcome', () => {
  it('model and perModel: every, a named model, and Holm across models', () => {
    expect(evaluateGateOnModels(minPass(), cells)).toMatchObject({
      model: 'every',
      perModel: [
        { model: 'a', outcome: 'holds', figure: expect.stringMatching(/^5\/5 decided/) },
        { model: 'b', outcome: 'fails', figure: expect.stringMatching(/^0\/5 decided/) },
      ],
    });
    expect(evaluateGateOnModels(minPass('b'), cells)).toMatchObject({
      model: 'b',
      perModel: [{ model: 'b', outcome: 'fails' }],
    });
    const regression = evaluateGateOnModels(
      { kind: 'no-regression', scenario: 's2', alpha: 0.05, model: 'every' },
      cells,
    );
    expect(regression).toMatchObject({
      model: 'every',
      perModel: [
        { model: 'a', outcome: 'holds' },
        { model: 'b', outcome: 'fails', figure: expect.stringMatching(/Holm 0\.0079/) },
      ],
    });
  });
});

describe('the arm × model interaction', () => {
  it('per scenario: helps on one model, hurts on another, Holm-adjusted, and says the effect depends on the model', () => {
    const [s1, s2] = interactionSummary(['s1', 's2'], ['a', 'b'], cells);
    expect(s1?.rows.map((row) => [row.model, row.effect])).toEqual([
      ['a', 'helps'],
      ['b', 'no clear effect'],
    ]);
    expect(s1?.rows[0]?.pGreenBetter).toBeCloseTo(0.003968, 5);
    expect(s1?.rows[0]?.holmGreenBetter).toBeCloseTo(0.007937, 5);
    expect(s1?.rows[0]?.difference).toBe(1);
    expect(s1?.summary).toBe(
      'GREEN helps on 1 of 2 models (a); no clear effect on b; the effect depends on the model; GREEN−RED is +100 pts on a and 0 pts on b, 100 pts apart',
    );
    expect(s2?.rows.map((row) => [row.model, row.effect])).toEqual([
      ['a', 'no clear effect'],
      ['b', 'hurts'],
    ]);
    expect(s2?.summary).toMatch(/helps on none of the 2 models; hurts on b/);
  });

  it('helps on every model only when each survives Holm (planted negative: a borderline second model)', () => {
    const every = [
      cell('a', 's1', 'red', 0, 5),
      cell('a', 's1', 'green', 5, 0),
      cell('b', 's1', 'red', 0, 5),
      cell('b', 's1', 'green', 5, 0),
    ];
    expect(interactionSummary(['s1'], ['a', 'b'], every)[0]?.summary).toBe(
      'GREEN helps on every model (2)',
    );
    // 0/4 vs 3/4: p = 0.0714 alone, so b is no clear effect, and "every" is not claimed.
    const borderline = [
      ...every.slice(0, 2),
      cell('b', 's1', 'red', 0, 4),
      cell('b', 's1', 'green', 3, 1),
    ];
    const [row] = interactionSummary(['s1'], ['a', 'b'], borderline);
    expect(row?.rows[1]?.effect).toBe('no clear effect');
    expect(row?.summary).not.toMatch(/every model/);
  });

  it('a model without decided reps is undecided, naming its infrastructure failures, and adds nothing to Holm’s family', () => {
    const outage = [
      cell('a', 's1', 'red', 0, 5),
      cell('a', 's1', 'green', 5, 0),
      cell('b', 's1', 'red', 0, 0, 5, 5),
      cell('b', 's1', 'green', 0, 0, 5, 5),
    ];
    const [row] = interactionSummary(['s1'], ['a', 'b'], outage);
    expect(row?.rows[1]).toMatchObject({
      effect: 'undecided',
      pGreenBetter: null,
      holmGreenBetter: null,
      note: expect.stringMatching(/10 of 10 indeterminate rep\(s\) are infrastructure failures/),
    });
    // Alone in the family, a's p is not inflated.
    expect(row?.rows[0]?.holmGreenBetter).toBeCloseTo(row?.rows[0]?.pGreenBetter ?? 0, 10);
    expect(row?.summary).toMatch(/undecided on b/);
  });
});
