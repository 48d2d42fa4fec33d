/**
 * A trigger set's figures from the cells of its probes: each query is a
 * scenario whose check passes when the session's first call loaded the
 * skill as the query's label says (`skill-invoked` for a query that should
 * trigger, `skill-not-invoked` for one that should not). So, per arm, summed
 * over decided reps: a positive query's passing rep is a true positive, its
 * failing rep a false negative; a negative query's failing rep is a false
 * positive, its passing rep a true negative. Precision, recall and F1 follow,
 * each rate with its Wilson interval; indeterminate reps count nowhere.
 *
 * The two gates compare RED (the released description) with GREEN (the new
 * one) by a one-sided Fisher test of RED better, each rep a trial: recall on
 * the positive queries' reps, precision on the reps that triggered. Each is
 * undecided when the reps cannot decide it: an arm with no such reps, or
 * counts so few that even the starkest split could not get below α.
 */
import type { GateConfig } from '../campaign/config-schema.js';
import type { CellSummary, GateOutcome } from './results-schema.js';
import { belowThreshold, fisherExact, starkestSplitP, wilsonInterval } from './stats-rates.js';

export interface TriggerCounts {
  readonly tp: number;
  readonly fn: number;
  readonly fp: number;
  readonly tn: number;
}

export interface Rate {
  readonly successes: number;
  readonly trials: number;
  /** null without trials. */
  readonly rate: number | null;
  readonly interval: { readonly lower: number; readonly upper: number } | null;
}

export interface TriggerFigures extends TriggerCounts {
  readonly recall: Rate;
  readonly precision: Rate;
  /** Harmonic mean of precision and recall; null when either is undefined. */
  readonly f1: number | null;
}

/** The counts of one arm (by role, or by name) over the labelled queries' cells. */
export function triggerCounts(
  cells: readonly CellSummary[],
  pick: (cell: CellSummary) => boolean,
  positives: readonly string[],
  negatives: readonly string[],
): TriggerCounts {
  const mine = cells.filter(pick);
  const sum = (ids: readonly string[], field: 'pass' | 'fail') =>
    mine
      .filter((cell) => ids.includes(cell.scenario))
      .reduce((total, cell) => total + cell[field], 0);
  return {
    tp: sum(positives, 'pass'),
    fn: sum(positives, 'fail'),
    fp: sum(negatives, 'fail'),
    tn: sum(negatives, 'pass'),
  };
}

function rate(successes: number, trials: number): Rate {
  return {
    successes,
    trials,
    rate: trials === 0 ? null : successes / trials,
    interval: trials === 0 ? null : wilsonInterval(successes, trials),
  };
}

export function triggerFigures(counts: TriggerCounts): TriggerFigures {
  const recall = rate(counts.tp, counts.tp + counts.fn);
  const precision = rate(counts.tp, counts.tp + counts.fp);
  const f1 =
    recall.rate === null || precision.rate === null || recall.rate + precision.rate === 0
      ? recall.rate === 0 || precision.rate === 0
        ? 0
        : null
      : (2 * recall.rate * precision.rate) / (recall.rate + precision.rate);
  return { ...counts, recall, precision, f1 };
}

type TriggerGate = Extract<
  GateConfig,
  { kind: 'trigger-recall-no-regression' | 'trigger-precision-no-regression' }
>;

function fmtP(p: number): string {
  return p < 0.0001 ? 'p < 0.0001' : `p = ${p.toFixed(4)}`;
}

function fraction(part: Rate): string {
  return `${part.successes}/${part.trials}`;
}

/** The trigger gates, on the cells of the queries they name. */
export function evaluateTriggerGate(
  gate: TriggerGate,
  cells: readonly CellSummary[],
  base: Pick<GateOutcome, 'gate' | 'kind'>,
): GateOutcome {
  const of = (role: 'red' | 'green') =>
    triggerFigures(
      triggerCounts(cells, (cell) => cell.role === role, gate.positives, gate.negatives),
    );
  const red = of('red');
  const green = of('green');
  const which = gate.kind === 'trigger-recall-no-regression' ? 'recall' : 'precision';
  const redRate = red[which];
  const greenRate = green[which];
  const counts = `${which}: RED ${fraction(redRate)}, GREEN ${fraction(greenRate)} reps`;
  if (redRate.trials === 0 || greenRate.trials === 0) {
    return {
      ...base,
      outcome: 'undecided',
      figure: `${counts}; ${which === 'recall' ? 'an arm has no decided rep of a query that should trigger' : 'an arm triggered on no decided rep, so its precision is undefined'}`,
    };
  }
  const starkest = starkestSplitP(redRate.trials, greenRate.trials);
  if (!belowThreshold(starkest, gate.alpha)) {
    return {
      ...base,
      outcome: 'undecided',
      figure: `${counts}; too few reps: even RED all against GREEN none gives ${fmtP(starkest)}, not below α = ${gate.alpha} (run more reps or queries)`,
    };
  }
  const p = fisherExact(
    { successes: redRate.successes, trials: redRate.trials },
    { successes: greenRate.successes, trials: greenRate.trials },
    'greater',
  );
  return {
    ...base,
    outcome: belowThreshold(p, gate.alpha) ? 'fails' : 'holds',
    figure: `${counts}; RED better than GREEN: ${fmtP(p)}`,
  };
}
