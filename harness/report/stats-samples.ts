/**
 * Statistics for small samples of counts (tool_uses per rep): mean, median,
 * a seeded percentile-bootstrap interval, and a permutation test for the
 * difference between two samples (exact enumeration when feasible, seeded
 * Monte Carlo otherwise; the result says which).
 */
import { randomIndex, seededRandom } from './stats-random.js';

export type SampleStatistic = 'mean' | 'median';

/** Arithmetic mean; null for an empty sample. */
export function mean(sample: readonly number[]): number | null {
  if (sample.length === 0) return null;
  let sum = 0;
  for (const x of sample) sum += x;
  return sum / sample.length;
}

/** Median (mean of the two middle values for an even count); null for an empty sample. */
export function median(sample: readonly number[]): number | null {
  if (sample.length === 0) return null;
  const sorted = [...sample].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  const upper = sorted[middle] ?? 0;
  return sorted.length % 2 === 1 ? upper : ((sorted[middle - 1] ?? 0) + upper) / 2;
}

/**
 * Quantile of sorted values by linear interpolation between order statistics
 * (Hyndman & Fan type 7, the default of R and NumPy).
 */
export function quantileOfSorted(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) throw new RangeError('quantile of an empty sample');
  const position = (sorted.length - 1) * q;
  const below = Math.floor(position);
  const fraction = position - below;
  const low = sorted[below] ?? 0;
  const high = sorted[Math.min(sorted.length - 1, below + 1)] ?? low;
  return low + fraction * (high - low);
}

function statisticOf(kind: SampleStatistic, sample: readonly number[]): number {
  return (kind === 'mean' ? mean(sample) : median(sample)) ?? Number.NaN;
}

export interface BootstrapOptions {
  readonly statistic: SampleStatistic;
  readonly seed: number;
  /** Number of resamples (default 10,000). */
  readonly resamples?: number;
  /** Coverage (default 0.95). */
  readonly confidence?: number;
}

export interface BootstrapInterval {
  readonly statistic: SampleStatistic;
  readonly estimate: number;
  readonly lower: number;
  readonly upper: number;
  readonly confidence: number;
  readonly resamples: number;
  readonly seed: number;
  readonly method: 'percentile';
}

/**
 * Percentile bootstrap interval for the mean or median of a sample:
 * deterministic for a given seed. Null for an empty sample.
 */
export function bootstrapInterval(
  sample: readonly number[],
  options: BootstrapOptions,
): BootstrapInterval | null {
  if (sample.length === 0) return null;
  const resamples = options.resamples ?? 10_000;
  const confidence = options.confidence ?? 0.95;
  const random = seededRandom(options.seed);
  const statistics = new Float64Array(resamples);
  const draw = new Array<number>(sample.length);
  for (let r = 0; r < resamples; r++) {
    for (let i = 0; i < sample.length; i++)
      draw[i] = sample[randomIndex(random, sample.length)] ?? 0;
    statistics[r] = statisticOf(options.statistic, draw);
  }
  const sorted = [...statistics].sort((a, b) => a - b);
  const tail = (1 - confidence) / 2;
  return {
    statistic: options.statistic,
    estimate: statisticOf(options.statistic, sample),
    lower: quantileOfSorted(sorted, tail),
    upper: quantileOfSorted(sorted, 1 - tail),
    confidence,
    resamples,
    seed: options.seed,
    method: 'percentile',
  };
}

export interface PermutationOptions {
  /** Compare means or medians (default mean). */
  readonly statistic?: SampleStatistic;
  /** `greater`: the first sample's statistic is larger (default two-sided). */
  readonly alternative?: 'two-sided' | 'greater' | 'less';
  /** Seed for the Monte Carlo fallback (default 1). */
  readonly seed?: number;
  /** Enumerate exactly when there are at most this many relabellings (default 1,000,000). */
  readonly maxExact?: number;
  /** Monte Carlo relabellings when exact enumeration is not feasible (default 100,000). */
  readonly resamples?: number;
}

export interface PermutationResult {
  readonly statistic: SampleStatistic;
  readonly alternative: 'two-sided' | 'greater' | 'less';
  /** First sample's statistic minus the second's. */
  readonly observed: number;
  readonly pValue: number;
  readonly method: 'exact' | 'monte-carlo';
  /** Relabellings evaluated: all of them (exact) or the random draws (Monte Carlo). */
  readonly permutations: number;
  readonly seed: number | null;
  /** One line saying what was computed. */
  readonly description: string;
}

function binomialCoefficient(n: number, k: number): number {
  let result = 1;
  for (let i = 1; i <= k; i++) result = (result * (n - k + i)) / i;
  return Math.round(result);
}

/** Calls `visit` with each k-subset of 0..n-1 (as a reused index array). */
function forEachSubset(n: number, k: number, visit: (indices: readonly number[]) => void): void {
  const indices = Array.from({ length: k }, (_, i) => i);
  for (;;) {
    visit(indices);
    let i = k - 1;
    while (i >= 0 && indices[i] === n - k + i) i--;
    if (i < 0) return;
    indices[i] = (indices[i] ?? 0) + 1;
    for (let j = i + 1; j < k; j++) indices[j] = (indices[j - 1] ?? 0) + 1;
  }
}

/**
 * Permutation test for the difference in means (or medians) between two
 * samples: how often relabelling the pooled values gives a difference at
 * least as extreme as the observed one.
 */
export function permutationTest(
  first: readonly number[],
  second: readonly number[],
  options: PermutationOptions = {},
): PermutationResult {
  if (first.length === 0 || second.length === 0)
    throw new RangeError('permutation test needs two non-empty samples');
  const statistic = options.statistic ?? 'mean';
  const alternative = options.alternative ?? 'two-sided';
  const pooled = [...first, ...second];
  const n = pooled.length;
  const k = first.length;
  const observed = statisticOf(statistic, first) - statisticOf(statistic, second);
  const tolerance = 1e-9 * Math.max(1, Math.abs(observed));
  const extreme = (difference: number): boolean =>
    alternative === 'greater'
      ? difference >= observed - tolerance
      : alternative === 'less'
        ? difference <= observed + tolerance
        : Math.abs(difference) >= Math.abs(observed) - tolerance;

  const firstDraw = new Array<number>(k);
  const secondDraw = new Array<number>(n - k);
  const differenceOf = (inFirst: (index: number) => boolean): number => {
    let a = 0;
    let b = 0;
    for (let i = 0; i < n; i++) {
      if (inFirst(i)) firstDraw[a++] = pooled[i] ?? 0;
      else secondDraw[b++] = pooled[i] ?? 0;
    }
    return statisticOf(statistic, firstDraw) - statisticOf(statistic, secondDraw);
  };

  const total = binomialCoefficient(n, k);
  const what = `${statistic} difference, ${alternative}`;
  if (total <= (options.maxExact ?? 1_000_000)) {
    let hits = 0;
    const member = new Uint8Array(n);
    forEachSubset(n, k, (indices) => {
      member.fill(0);
      for (const index of indices) member[index] = 1;
      if (extreme(differenceOf((i) => member[i] === 1))) hits++;
    });
    return {
      statistic,
      alternative,
      observed,
      pValue: hits / total,
      method: 'exact',
      permutations: total,
      seed: null,
      description: `exact permutation test (${what}): all ${total} relabellings enumerated`,
    };
  }

  const seed = options.seed ?? 1;
  const resamples = options.resamples ?? 100_000;
  const random = seededRandom(seed);
  const order = Array.from({ length: n }, (_, i) => i);
  const member = new Uint8Array(n);
  let hits = 0;
  for (let r = 0; r < resamples; r++) {
    for (let i = n - 1; i > 0; i--) {
      const j = randomIndex(random, i + 1);
      const swap = order[i] ?? 0;
      order[i] = order[j] ?? 0;
      order[j] = swap;
    }
    member.fill(0);
    for (let i = 0; i < k; i++) member[order[i] ?? 0] = 1;
    if (extreme(differenceOf((i) => member[i] === 1))) hits++;
  }
  return {
    statistic,
    alternative,
    observed,
    pValue: (hits + 1) / (resamples + 1),
    method: 'monte-carlo',
    permutations: resamples,
    seed,
    description: `Monte Carlo permutation test (${what}): ${resamples} random relabellings, seed ${seed} (${total} relabellings too many to enumerate)`,
  };
}
