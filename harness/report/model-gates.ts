import type { GateConfig } from '../campaign/config-schema.js';
import { describeGate, evaluateGate } from './gates.js';
import type { CellSummary, GateOutcome } from './results-schema.js';
import { holmAdjust } from './stats-holm.js';
import { fisherExact } from './stats-rates.js';

/**
 * Gates in a campaign of several models. A gate names a model (it is judged
 * on that model's cells) or `every`, the default (it must hold on each
 * model): any model failing fails it, else any model undecided leaves it
 * undecided. `no-regression` on every model Holm-corrects the per-model
 * tests (it fails when any model regresses, so its false alarms are
 * counted across models); `green-better` on every model needs each model's
 * own test at α (all must hold, which needs no correction). A model whose
 * cells have no decided reps because its infrastructure failed (an endpoint
 * answering errors or refusing connections) says so in the figure. In a
 * one-model campaign (cells without a model) gates are judged as they
 * always were.
 */
export function evaluateGateOnModels(gate: GateConfig, cells: readonly CellSummary[]): GateOutcome {
  const models = [
    ...new Set(cells.map((cell) => cell.model).filter((model) => model !== undefined)),
  ];
  if (models.length === 0) return evaluateGate(gate, cells);
  const target = gate.model ?? 'every';
  const judged = target === 'every' ? models : [target];
  const label = `${describeGate(gate)} on ${target === 'every' ? 'every model' : target}`;
  const base = { gate: label, kind: gate.kind };
  if (gate.kind === 'no-regression' && judged.length > 1) {
    return noRegressionAcrossModels(gate, judged, cells, base);
  }
  const outcomes = judged.map((model) => {
    const mine = cells.filter((cell) => cell.model === model);
    const outcome =
      mine.length === 0
        ? { ...base, outcome: 'undecided' as const, figure: 'no reps of this model' }
        : evaluateGate(gate, mine);
    return { model, outcome, note: infrastructureNote(gateCells(gate, mine), outcome) };
  });
  const worst = outcomes.some((entry) => entry.outcome.outcome === 'fails')
    ? 'fails'
    : outcomes.some((entry) => entry.outcome.outcome === 'undecided')
      ? 'undecided'
      : 'holds';
  return {
    ...base,
    outcome: worst,
    figure: outcomes
      .map((entry) => `${entry.model}: ${entry.outcome.figure}${entry.note}`)
      .join('; '),
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
function infrastructureNote(cells: readonly CellSummary[], outcome: GateOutcome): string {
  if (outcome.outcome !== 'undecided') return '';
  const infrastructure = cells.reduce((sum, cell) => sum + (cell.infrastructure ?? 0), 0);
  if (infrastructure === 0) return '';
  return ` (${infrastructure} indeterminate rep(s) are infrastructure failures: API errors, engine, timeout)`;
}

function noRegressionAcrossModels(
  gate: Extract<GateConfig, { kind: 'no-regression' }>,
  models: readonly string[],
  cells: readonly CellSummary[],
  base: Pick<GateOutcome, 'gate' | 'kind'>,
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
  const figures = per.map((entry, index) => {
    const holm = adjusted[index];
    if (entry.p === null || holm === null || holm === undefined || !entry.red || !entry.green) {
      const undecided = { ...base, outcome: 'undecided' as const, figure: '' };
      return `${entry.model}: a cell has no decided reps${infrastructureNote(entry.mine, undecided)}`;
    }
    return `${entry.model}: RED ${entry.red.pass}/${entry.red.decided}, GREEN ${entry.green.pass}/${entry.green.decided}; RED better than GREEN: p = ${entry.p.toFixed(4)}, Holm ${holm.toFixed(4)}`;
  });
  const fails = adjusted.some((holm) => holm !== null && holm < gate.alpha);
  const undecided = adjusted.some((holm) => holm === null);
  return {
    ...base,
    gate: `${base.gate} (Holm across ${models.length} models)`,
    outcome: fails ? 'fails' : undecided ? 'undecided' : 'holds',
    figure: figures.join('; '),
  };
}
