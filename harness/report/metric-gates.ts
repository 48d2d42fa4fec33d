import type { MetricCapGate, MetricRatioGate } from '../campaign/metric-gates-config.js';
import type { MetricSummary } from './rep-metrics.js';
import type { CellSummary, GateOutcome } from './results-schema.js';
import { mean, median, quantileOfSorted, randomIndex, seededRandom } from './stats.js';

/**
 * The cost gates. `metric-ratio` compares GREEN's statistic of a metric
 * with RED's over a seeded bootstrap (each arm's decided reps resampled
 * apart): it holds when the interval of GREEN ÷ RED lies at or under the
 * bound, fails when it lies above it, and is undecided when it straddles
 * it or an arm has too few reps that recorded the metric. `metric-cap`
 * holds when every rep of the cells it names stayed at or under the cap,
 * and fails when one went over (an indeterminate rep too: a cut-short
 * session spent what it spent). A pack metric's reps with no value on it
 * (n/a: a ratio over zero) are left out of both, never read as 0.
 */

/** The seed of the ratio gate's resampling: the same results always give the same decision. */
export const METRIC_GATE_SEED = 20261202;
const RESAMPLES = 4000;

type Outcome = Pick<GateOutcome, 'outcome' | 'figure'>;

export interface RatioInterval {
  readonly estimate: number;
  readonly lower: number;
  readonly upper: number;
}

/** GREEN's statistic ÷ RED's, 0 ÷ 0 read as 1 (equal) and x ÷ 0 as +∞. */
function ratioOf(green: number, red: number): number {
  if (red === 0) return green === 0 ? 1 : Number.POSITIVE_INFINITY;
  return green / red;
}

/**
 * Percentile bootstrap interval of stat(GREEN) ÷ stat(RED), each arm resampled
 * with replacement from its own values. Deterministic for a seed.
 */
export function bootstrapRatio(
  green: readonly number[],
  red: readonly number[],
  options: {
    readonly statistic: 'median' | 'mean';
    readonly confidence: number;
    readonly seed: number;
    readonly resamples?: number;
  },
): RatioInterval {
  const statistic = options.statistic === 'mean' ? mean : median;
  const of = (sample: readonly number[]): number => statistic(sample) ?? Number.NaN;
  const resamples = options.resamples ?? RESAMPLES;
  const random = seededRandom(options.seed);
  const draw = (sample: readonly number[]): number[] =>
    sample.map(() => sample[randomIndex(random, sample.length)] ?? 0);
  const ratios: number[] = [];
  for (let r = 0; r < resamples; r++) ratios.push(ratioOf(of(draw(green)), of(draw(red))));
  ratios.sort((a, b) => a - b);
  const tail = (1 - options.confidence) / 2;
  // Between two unbounded ratios the interpolation is ∞ − ∞: the quantile is unbounded too.
  const at = (q: number): number => {
    const value = quantileOfSorted(ratios, q);
    return Number.isNaN(value) ? Number.POSITIVE_INFINITY : value;
  };
  return { estimate: ratioOf(of(green), of(red)), lower: at(tail), upper: at(1 - tail) };
}

function metricOf(cell: CellSummary | undefined, metric: string): MetricSummary | undefined {
  return cell?.metrics?.[metric];
}

/** `, 2 with no value (n/a)` when a pack metric had none on some decided reps. */
function notANumberText(summary: MetricSummary): string {
  const count = summary.notANumber ?? 0;
  return count === 0 ? '' : `, ${count} with no value (n/a)`;
}

function number(value: number): string {
  if (!Number.isFinite(value)) return '∞';
  return Number.isInteger(value) ? String(value) : value.toPrecision(3);
}

export function evaluateMetricRatio(gate: MetricRatioGate, cells: readonly CellSummary[]): Outcome {
  const inScenario = cells.filter((cell) => cell.scenario === gate.scenario);
  const red = inScenario.find((cell) => cell.role === 'red');
  const green = inScenario.find((cell) => cell.role === 'green');
  const redValues = metricOf(red, gate.metric);
  const greenValues = metricOf(green, gate.metric);
  if (redValues === undefined || greenValues === undefined) {
    return { outcome: 'undecided', figure: 'a cell has no reps' };
  }
  const short = [
    ['RED', redValues],
    ['GREEN', greenValues],
  ] as const;
  const lacking = short.filter(([, summary]) => summary.values.length < gate.minReps);
  if (lacking.length > 0) {
    return {
      outcome: 'undecided',
      figure: lacking
        .map(
          ([arm, summary]) =>
            `${arm} has ${summary.values.length} decided rep(s) with ${gate.metric} recorded${summary.unrecorded === 0 ? '' : ` (${summary.unrecorded} did not record it)`}${notANumberText(summary)}, needs ${gate.minReps}`,
        )
        .join('; '),
    };
  }
  const ratio = bootstrapRatio(greenValues.values, redValues.values, {
    statistic: gate.statistic,
    confidence: gate.confidence,
    seed: METRIC_GATE_SEED,
  });
  const stat = (summary: MetricSummary): number | null =>
    gate.statistic === 'mean' ? summary.mean : summary.median;
  const figure = `GREEN ${gate.statistic} ${number(stat(greenValues) ?? Number.NaN)} / RED ${number(stat(redValues) ?? Number.NaN)} = ${number(ratio.estimate)}; ${Math.round(gate.confidence * 100)}% bootstrap interval ${number(ratio.lower)}–${number(ratio.upper)} (${greenValues.values.length} GREEN, ${redValues.values.length} RED decided reps)`;
  if (ratio.upper <= gate.ratio) return { outcome: 'holds', figure };
  if (ratio.lower > gate.ratio)
    return { outcome: 'fails', figure: `${figure}, above ${gate.ratio}` };
  return {
    outcome: 'undecided',
    figure: `${figure} straddles ${gate.ratio}: run more reps`,
  };
}

export function evaluateMetricCap(gate: MetricCapGate, cells: readonly CellSummary[]): Outcome {
  const named = cells.filter(
    (cell) =>
      (gate.arm === undefined || cell.arm === gate.arm) &&
      (gate.scenario === undefined || cell.scenario === gate.scenario),
  );
  const read = named.map((cell) => ({ cell, summary: metricOf(cell, gate.metric) }));
  const label = (cell: CellSummary): string =>
    `${cell.scenario.toUpperCase()} ${cell.arm.toUpperCase()}`;
  const over = read.flatMap(({ cell, summary }) => {
    if (summary === undefined) return [];
    const highest = Math.max(
      ...summary.values,
      summary.indeterminateMax ?? Number.NEGATIVE_INFINITY,
    );
    const count =
      summary.values.filter((value) => value > gate.max).length +
      ((summary.indeterminateMax ?? Number.NEGATIVE_INFINITY) > gate.max ? 1 : 0);
    return highest > gate.max
      ? [`${label(cell)} (${count === 1 ? 'a rep' : 'reps'} up to ${number(highest)})`]
      : [];
  });
  if (over.length > 0) {
    return { outcome: 'fails', figure: `over ${number(gate.max)}: ${over.join('; ')}` };
  }
  const decided = read.reduce((sum, { summary }) => sum + (summary?.values.length ?? 0), 0);
  const unrecorded = read.filter(({ summary }) => (summary?.unrecorded ?? 0) > 0);
  if (unrecorded.length > 0) {
    return {
      outcome: 'undecided',
      figure: `${unrecorded.map(({ cell, summary }) => `${label(cell)}: ${summary?.unrecorded} decided rep(s) did not record ${gate.metric}`).join('; ')}`,
    };
  }
  if (decided === 0) {
    const notANumber = read.reduce((sum, { summary }) => sum + (summary?.notANumber ?? 0), 0);
    return {
      outcome: 'undecided',
      figure:
        notANumber === 0
          ? 'no decided reps'
          : `no decided rep has a value of ${gate.metric} (${notANumber} n/a)`,
    };
  }
  const highest = Math.max(...read.flatMap(({ summary }) => summary?.values ?? []));
  const notANumber = read.reduce((sum, { summary }) => sum + (summary?.notANumber ?? 0), 0);
  return {
    outcome: 'holds',
    figure: `${decided} decided rep(s), highest ${number(highest)} (cap ${number(gate.max)})${notANumber === 0 ? '' : `; ${notANumber} n/a, left out`}`,
  };
}
