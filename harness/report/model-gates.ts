import type { GateConfig } from '../campaign/config-schema.js';
import type { AxisEntry } from './engine-gates.js';
import { describeGate } from './gate-description.js';
import { evaluateGate, judgeRegressionFamily } from './gates.js';
import { axisNoun } from './model-tables.js';
import type { CellSummary, GateOutcome } from './results-schema.js';
import { holmAdjust } from './stats-holm.js';
import { belowThreshold, fisherExact, starkestSplitP } from './stats-rates.js';

/**
 * Gates in a campaign of several models. A gate names a model (it is judged
 * on that model's cells) or `every`, the default (it must hold on each
 * model): any model failing fails it, else any model undecided leaves it
 * undecided. `no-regression` on every model Holm-corrects the per-model
 * tests, and `no-scenario-regresses` on every model corrects across every
 * scenario × model test (each fails when any model regresses, so their
 * false alarms are counted across models); `green-better` on every model
 * needs each model's own test at α (all must hold, which needs no
 * correction). Each outcome carries the model it was judged on (`every`
 * or a name) and each judged model's own outcome and figure. A model whose
 * cells have no decided reps because its infrastructure failed (an endpoint
 * answering errors or refusing connections) says so in the figure. In a
 * one-model campaign (cells without a model) gates are judged as they
 * always were.
 */
export function evaluateGateOnModels(
  gate: GateConfig,
  cells: readonly CellSummary[],
  /** The run's entries with their engines: `engines-agree` compares them, across the entries. */
  entries: readonly AxisEntry[] = [],
): GateOutcome {
  if (gate.kind === 'engines-agree') return evaluateGate(gate, cells, entries);
  const models = [
    ...new Set(cells.map((cell) => cell.model).filter((model) => model !== undefined)),
  ];
  if (models.length === 0) return evaluateGate(gate, cells);
  const target = gate.model ?? 'every';
  const judged = target === 'every' ? models : [target];
  // "every engine" when the entries are one model's engines (axisNoun), else "every model".
  const noun = axisNoun({ models: entries.length === 0 ? undefined : entries });
  const label = `${describeGate(gate)} on ${target === 'every' ? `every ${noun.one}` : target}`;
  const base = { gate: label, kind: gate.kind, model: target };
  if (gate.kind === 'no-regression' && judged.length > 1) {
    return noRegressionAcrossModels(gate, judged, cells, base, noun.many);
  }
  if (gate.kind === 'no-scenario-regresses' && judged.length > 1) {
    return noScenarioRegressesAcrossModels(gate, judged, cells, base, noun.many);
  }
  const perModel = judged.map((model) => {
    const mine = cells.filter((cell) => cell.model === model);
    const outcome =
      mine.length === 0
        ? { outcome: 'undecided' as const, figure: 'no reps of this model' }
        : evaluateGate(gate, mine);
    return {
      model,
      outcome: outcome.outcome,
      figure: `${outcome.figure}${infrastructureNote(gateCells(gate, mine), outcome.outcome)}`,
    };
  });
  return combined(base, perModel);
}

/** Each model's outcome, and the gate's: any model failing fails it, else any undecided leaves it undecided. */
function combined(
  base: Pick<GateOutcome, 'gate' | 'kind' | 'model'>,
  perModel: NonNullable<GateOutcome['perModel']>,
): GateOutcome {
  const worst = perModel.some((entry) => entry.outcome === 'fails')
    ? 'fails'
    : perModel.some((entry) => entry.outcome === 'undecided')
      ? 'undecided'
      : 'holds';
  return {
    ...base,
    outcome: worst,
    figure: perModel.map((entry) => `${entry.model}: ${entry.figure}`).join('; '),
    perModel,
  };
}

/** The cells a gate reads: its arm's and scenario's, its scenario's, or all. */
function gateCells(gate: GateConfig, cells: readonly CellSummary[]): readonly CellSummary[] {
  switch (gate.kind) {
    case 'min-pass-rate':
      return cells.filter((cell) => cell.arm === gate.arm && cell.scenario === gate.scenario);
    case 'green-better':
    case 'no-regression':
      return cells.filter((cell) => cell.scenario === gate.scenario);
    default:
      return cells;
  }
}

/** Says when a model's undecided outcome is its infrastructure's doing. */
function infrastructureNote(
  cells: readonly CellSummary[],
  outcome: GateOutcome['outcome'],
): string {
  if (outcome !== 'undecided') return '';
  const infrastructure = cells.reduce((sum, cell) => sum + (cell.infrastructure ?? 0), 0);
  if (infrastructure === 0) return '';
  return ` (${infrastructure} indeterminate rep(s) are infrastructure failures: API errors, engine, timeout)`;
}

function noRegressionAcrossModels(
  gate: Extract<GateConfig, { kind: 'no-regression' }>,
  models: readonly string[],
  cells: readonly CellSummary[],
  base: Pick<GateOutcome, 'gate' | 'kind' | 'model'>,
  /** What the entries are called: `models`, `engines`. */
  noun: string,
): GateOutcome {
  const per = models.map((model) => {
    const mine = cells.filter((cell) => cell.model === model && cell.scenario === gate.scenario);
    const red = mine.find((cell) => cell.role === 'red');
    const green = mine.find((cell) => cell.role === 'green');
    if (red === undefined || green === undefined || red.decided === 0 || green.decided === 0) {
      return { model, red, green, p: null, mine };
    }
    const p = fisherExact(
      { successes: red.pass, trials: red.decided },
      { successes: green.pass, trials: green.decided },
      'greater',
    );
    return { model, red, green, p, mine };
  });
  const adjusted = holmAdjust(per.map((entry) => entry.p));
  const perModel = per.map((entry, index) => {
    const holm = adjusted[index];
    if (entry.p === null || holm === null || holm === undefined || !entry.red || !entry.green) {
      return {
        model: entry.model,
        outcome: 'undecided' as const,
        figure: `a cell has no decided reps${infrastructureNote(entry.mine, 'undecided')}`,
      };
    }
    // The starkest regression these reps allow (RED all, GREEN none), at the Holm factor it
    // would get as the family's smallest p: when even it is not below α, the gate cannot fail.
    const floor = starkestSplitP(entry.red.decided, entry.green.decided);
    if (!belowThreshold(Math.min(1, floor * models.length), gate.alpha)) {
      return {
        model: entry.model,
        outcome: 'undecided' as const,
        figure: `RED ${entry.red.pass}/${entry.red.decided}, GREEN ${entry.green.pass}/${entry.green.decided}; too few decided reps to show a regression: even RED all against GREEN none gives p = ${floor.toFixed(4)}, ${models.length} x that is not below α = ${gate.alpha} (run more reps)`,
      };
    }
    return {
      model: entry.model,
      outcome: belowThreshold(holm, gate.alpha) ? ('fails' as const) : ('holds' as const),
      figure: `RED ${entry.red.pass}/${entry.red.decided}, GREEN ${entry.green.pass}/${entry.green.decided}; RED better than GREEN: p = ${entry.p.toFixed(4)}, Holm ${holm.toFixed(4)}`,
    };
  });
  return combined(
    { ...base, gate: `${base.gate} (Holm across ${models.length} ${noun})` },
    perModel,
  );
}

/**
 * `no-scenario-regresses` on several models: every scenario of every model
 * is one test of one family, corrected across all of them (as `no-regression`
 * on every model is corrected across models), so a panel run on m models
 * does not get m chances at a false alarm. Each model is judged on its own
 * scenarios at the family's thresholds.
 */
function noScenarioRegressesAcrossModels(
  gate: Extract<GateConfig, { kind: 'no-scenario-regresses' }>,
  models: readonly string[],
  cells: readonly CellSummary[],
  base: Pick<GateOutcome, 'gate' | 'kind' | 'model'>,
  /** What the entries are called: `models`, `engines`. */
  noun: string,
): GateOutcome {
  const scenarios = gate.scenarios ?? [...new Set(cells.map((cell) => cell.scenario))];
  const find = (model: string, scenario: string, role: 'red' | 'green') =>
    cells.find((cell) => cell.model === model && cell.scenario === scenario && cell.role === role);
  const judged = judgeRegressionFamily(
    gate,
    models.map((model) =>
      scenarios.map((scenario) => ({
        scenario,
        red: find(model, scenario, 'red'),
        green: find(model, scenario, 'green'),
      })),
    ),
  );
  const perModel = models.map((model, index) => {
    const outcome = judged[index] ?? { outcome: 'undecided' as const, figure: 'not judged' };
    const mine = cells.filter((cell) => cell.model === model && scenarios.includes(cell.scenario));
    return {
      model,
      outcome: outcome.outcome,
      figure: `${outcome.figure}${infrastructureNote(mine, outcome.outcome)}`,
    };
  });
  const correction = gate.correction === 'holm' ? 'Holm' : 'uncorrected';
  return combined(
    {
      ...base,
      gate: `${base.gate} (${correction} across ${models.length} ${noun} × ${scenarios.length} scenarios: ${models.length * scenarios.length} tests)`,
    },
    perModel,
  );
}
