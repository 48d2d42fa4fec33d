/**
 * Statistics for pass rates at small n: Wilson score intervals (never Wald),
 * Fisher's exact test on a 2×2 table, Boschloo's exact unconditional test,
 * the exact power of a one-sided Fisher test, and pass@k / pass^k.
 */

import { Z_95 } from '../lib/normal-quantile.js';

export { Z_95 };

export interface Interval {
  readonly lower: number;
  readonly upper: number;
}

/** Successes out of trials in one arm. */
export interface ArmCount {
  readonly successes: number;
  readonly trials: number;
}

/** The alternative hypothesis: `greater` means the first arm's rate is higher than the second's. */
export type Alternative = 'two-sided' | 'greater' | 'less';

function checkCount(successes: number, trials: number): void {
  if (
    !Number.isInteger(successes) ||
    !Number.isInteger(trials) ||
    trials < 0 ||
    successes < 0 ||
    successes > trials
  ) {
    throw new RangeError(`need integers 0 <= successes <= trials, got ${successes}/${trials}`);
  }
}

/**
 * Wilson score interval for a binomial proportion (95% by default). With no
 * trials there is no information: [0, 1].
 */
export function wilsonInterval(successes: number, trials: number, z: number = Z_95): Interval {
  checkCount(successes, trials);
  if (trials === 0) return { lower: 0, upper: 1 };
  const p = successes / trials;
  const z2 = z * z;
  const denominator = 1 + z2 / trials;
  const centre = (p + z2 / (2 * trials)) / denominator;
  const half = (z * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials))) / denominator;
  return {
    lower: successes === 0 ? 0 : Math.max(0, centre - half),
    upper: successes === trials ? 1 : Math.min(1, centre + half),
  };
}

const logFactorials: number[] = [0];

function logFactorial(n: number): number {
  for (let k = logFactorials.length; k <= n; k++) {
    logFactorials.push((logFactorials[k - 1] ?? 0) + Math.log(k));
  }
  return logFactorials[n] ?? Number.NaN;
}

function logChoose(n: number, k: number): number {
  if (k < 0 || k > n) return Number.NEGATIVE_INFINITY;
  return logFactorial(n) - logFactorial(k) - logFactorial(n - k);
}

/** Probability of k successes in n trials at rate p. */
export function binomialProbability(k: number, n: number, p: number): number {
  if (k < 0 || k > n) return 0;
  if (p === 0) return k === 0 ? 1 : 0;
  if (p === 1) return k === n ? 1 : 0;
  return Math.exp(logChoose(n, k) + k * Math.log(p) + (n - k) * Math.log1p(-p));
}

/** Relative tolerance when comparing probabilities of tables (as R and SciPy do). */
const TIE_TOLERANCE = 1 + 1e-7;

/**
 * Fisher's exact test for a 2×2 table (first arm vs second arm, success vs
 * failure). `greater`: the first arm's success rate is higher.
 */
export function fisherExact(
  first: ArmCount,
  second: ArmCount,
  alternative: Alternative = 'two-sided',
): number {
  checkCount(first.successes, first.trials);
  checkCount(second.successes, second.trials);
  const n = first.trials;
  const total = first.trials + second.trials;
  const successes = first.successes + second.successes;
  const low = Math.max(0, successes - second.trials);
  const high = Math.min(n, successes);
  const logDenominator = logChoose(total, n);
  const probability = (k: number): number =>
    Math.exp(logChoose(successes, k) + logChoose(total - successes, n - k) - logDenominator);
  const observed = first.successes;
  let p = 0;
  if (alternative === 'greater') {
    for (let k = observed; k <= high; k++) p += probability(k);
  } else if (alternative === 'less') {
    for (let k = low; k <= observed; k++) p += probability(k);
  } else {
    const threshold = probability(observed) * TIE_TOLERANCE;
    for (let k = low; k <= high; k++) {
      const pk = probability(k);
      if (pk <= threshold) p += pk;
    }
  }
  return Math.min(1, p);
}

/**
 * Boschloo's exact unconditional test, one-sided (`greater`: the first arm's
 * rate is higher): the largest, over the common success rate, probability of
 * a table whose one-sided Fisher p-value is at most the observed one. The
 * supremum is taken over a grid of `gridPoints` rates in [0, 1].
 */
export function boschlooExact(
  first: ArmCount,
  second: ArmCount,
  alternative: 'greater' | 'less' = 'greater',
  gridPoints = 10_001,
): number {
  checkCount(first.successes, first.trials);
  checkCount(second.successes, second.trials);
  const observed = fisherExact(first, second, alternative) * TIE_TOLERANCE;
  const region: [number, number][] = [];
  for (let a = 0; a <= first.trials; a++) {
    for (let b = 0; b <= second.trials; b++) {
      const p = fisherExact(
        { successes: a, trials: first.trials },
        { successes: b, trials: second.trials },
        alternative,
      );
      if (p <= observed) region.push([a, b]);
    }
  }
  let supremum = 0;
  for (let i = 0; i < gridPoints; i++) {
    const rate = i / (gridPoints - 1);
    let mass = 0;
    for (const [a, b] of region) {
      mass +=
        binomialProbability(a, first.trials, rate) * binomialProbability(b, second.trials, rate);
    }
    supremum = Math.max(supremum, mass);
  }
  return Math.min(1, supremum);
}

export interface PowerQuestion {
  /** Reps in each arm. */
  readonly trialsPerArm: number;
  /** The control (RED) arm's true pass rate. */
  readonly control: number;
  /** The treatment (GREEN) arm's true pass rate. */
  readonly treatment: number;
  /** Significance level of the one-sided test (default .05). */
  readonly alpha?: number;
}

/**
 * Whether a p-value is below a significance threshold, as every gate reads
 * it: strictly below, with the floating-point error of the p-value's sum set
 * aside, so a p that is exactly the threshold in exact arithmetic (0/3
 * against 3/3 is p = .05, computed as 0.04999999999999996) is never below it.
 */
export function belowThreshold(p: number, threshold: number): boolean {
  return p < threshold * (1 - 1e-9);
}

/**
 * The smallest one-sided Fisher p that decided reps of these sizes allow: the
 * first arm all passing against the second none. When even it is not below
 * a gate's threshold, no outcome of those reps can decide the gate.
 */
export function starkestSplitP(firstDecided: number, secondDecided: number): number {
  return fisherExact(
    { successes: firstDecided, trials: firstDecided },
    { successes: 0, trials: secondDecided },
    'greater',
  );
}

/**
 * Power of a one-sided Fisher exact test (treatment better than control) at
 * level alpha, by exact enumeration of every pair of outcomes.
 */
export function fisherPower(question: PowerQuestion): number {
  const { trialsPerArm: n, control, treatment } = question;
  const alpha = question.alpha ?? 0.05;
  if (!Number.isInteger(n) || n < 1)
    throw new RangeError(`trialsPerArm must be a positive integer, got ${n}`);
  let power = 0;
  for (let t = 0; t <= n; t++) {
    const pt = binomialProbability(t, n, treatment);
    if (pt === 0) continue;
    for (let c = 0; c <= n; c++) {
      const pc = binomialProbability(c, n, control);
      if (pc === 0) continue;
      const p = fisherExact({ successes: t, trials: n }, { successes: c, trials: n }, 'greater');
      if (belowThreshold(p, alpha)) power += pt * pc;
    }
  }
  return power;
}

function percent(rate: number): string {
  return `${Math.round(rate * 100)}%`;
}

function alphaText(alpha: number): string {
  return alpha.toString().replace(/^0(?=\.)/, '');
}

/**
 * One line saying what the chosen reps can detect, e.g. "5 reps per arm
 * detect a 20%→80% swing with probability 0.38 at α = .05 (one-sided Fisher)".
 */
export function powerStatement(question: PowerQuestion): string {
  const alpha = question.alpha ?? 0.05;
  const power = fisherPower(question);
  const reps = question.trialsPerArm === 1 ? 'rep' : 'reps';
  return `${question.trialsPerArm} ${reps} per arm detect a ${percent(question.control)}→${percent(question.treatment)} swing with probability ${power.toFixed(2)} at α = ${alphaText(alpha)} (one-sided Fisher)`;
}

/**
 * The smallest treatment rate (on a grid of hundredths above the control
 * rate) that a one-sided Fisher test detects with at least `targetPower`;
 * null when even 100% is not detected that often.
 */
export function minimumDetectableRate(
  trialsPerArm: number,
  control: number,
  targetPower = 0.8,
  alpha = 0.05,
): number | null {
  for (let hundredths = Math.floor(control * 100) + 1; hundredths <= 100; hundredths++) {
    const treatment = hundredths / 100;
    if (fisherPower({ trialsPerArm, control, treatment, alpha }) >= targetPower) return treatment;
  }
  return null;
}

function checkK(n: number, c: number, k: number): void {
  checkCount(c, n);
  if (!Number.isInteger(k) || k < 1 || k > n)
    throw new RangeError(`need an integer 1 <= k <= n (${n}), got ${k}`);
}

/** pass@k = 1 − C(n−c, k) / C(n, k): the chance at least one of k reps drawn from n passes. */
export function passAtK(n: number, c: number, k: number): number {
  checkK(n, c, k);
  let allFail = 1;
  for (let i = 0; i < k; i++) allFail *= Math.max(0, n - c - i) / (n - i);
  return 1 - allFail;
}

/** pass^k = C(c, k) / C(n, k): the chance all k reps drawn from n pass. */
export function passHatK(n: number, c: number, k: number): number {
  checkK(n, c, k);
  let allPass = 1;
  for (let i = 0; i < k; i++) allPass *= Math.max(0, c - i) / (n - i);
  return allPass;
}
