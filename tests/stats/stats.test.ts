/**
 * Known vectors come from DESIGN.md / REFERENCE.md and, where marked, from
 * SciPy 1.17 (scipy.stats.fisher_exact, boschloo_exact, permutation_test with
 * n_resamples=inf), computed independently of this code.
 */
import { describe, expect, it } from 'vitest';
import {
  binomialProbability,
  bootstrapInterval,
  boschlooExact,
  fisherExact,
  fisherPower,
  mean,
  median,
  minimumDetectableRate,
  passAtK,
  passHatK,
  permutationTest,
  powerStatement,
  quantileOfSorted,
  seededRandom,
  wilsonInterval,
} from '../../harness/report/stats.js';

const arm = (successes: number, trials: number) => ({ successes, trials });

describe('Wilson interval', () => {
  it.each([
    [0, 10, 0, 0.277533],
    [10, 10, 0.722467, 1],
    [3, 10, 0.107791, 0.603222],
  ])('%i/%i → [%f, %f]', (successes, trials, lower, upper) => {
    const interval = wilsonInterval(successes, trials);
    expect(interval.lower).toBeCloseTo(lower, 6);
    expect(interval.upper).toBeCloseTo(upper, 6);
  });

  it('is not a Wald interval: 0/10 and 10/10 are not degenerate', () => {
    expect(wilsonInterval(0, 10).upper).toBeGreaterThan(0.2);
    expect(wilsonInterval(10, 10).lower).toBeLessThan(0.8);
    expect(wilsonInterval(5, 5).lower).toBeCloseTo(0.565518, 6);
  });

  it('is [0, 1] with no trials and rejects impossible counts', () => {
    expect(wilsonInterval(0, 0)).toEqual({ lower: 0, upper: 1 });
    expect(() => wilsonInterval(6, 5)).toThrow(RangeError);
    expect(() => wilsonInterval(1.5, 5)).toThrow(RangeError);
  });
});

describe('Fisher exact test', () => {
  it('8/10 vs 2/10: two-sided 0.023014, one-sided 0.011507', () => {
    expect(fisherExact(arm(8, 10), arm(2, 10))).toBeCloseTo(0.023014, 6);
    expect(fisherExact(arm(8, 10), arm(2, 10), 'greater')).toBeCloseTo(0.011507, 6);
  });

  it('10/10 vs 5/10 one-sided: 0.016254', () => {
    expect(fisherExact(arm(10, 10), arm(5, 10), 'greater')).toBeCloseTo(0.016254, 6);
  });

  it('matches SciPy on asymmetric tables', () => {
    expect(fisherExact(arm(3, 10), arm(9, 10), 'less')).toBeCloseTo(0.009883305548940223, 12);
    expect(fisherExact(arm(3, 10), arm(9, 10))).toBeCloseTo(0.019766611097880443, 12);
    expect(fisherExact(arm(0, 5), arm(5, 5))).toBeCloseTo(0.007936507936507938, 12);
    expect(fisherExact(arm(4, 5), arm(3, 5))).toBeCloseTo(1, 12);
  });

  it('is directional: the wrong direction is not significant', () => {
    expect(fisherExact(arm(2, 10), arm(8, 10), 'greater')).toBeGreaterThan(0.99);
    expect(fisherExact(arm(2, 10), arm(8, 10), 'less')).toBeCloseTo(0.011507, 6);
  });
});

describe('Boschloo exact test', () => {
  it('matches SciPy (one-sided): 8/10 vs 2/10 ≈ 0.0059, 10/10 vs 5/10 ≈ 0.0064', () => {
    expect(boschlooExact(arm(8, 10), arm(2, 10))).toBeCloseTo(0.005908966064453131, 9);
    expect(boschlooExact(arm(10, 10), arm(5, 10))).toBeCloseTo(0.006389617919921881, 9);
  });

  it('is at most the Fisher p-value (it is uniformly more powerful)', () => {
    expect(boschlooExact(arm(4, 5), arm(1, 5))).toBeLessThanOrEqual(
      fisherExact(arm(4, 5), arm(1, 5), 'greater'),
    );
  });
});

describe('power of a one-sided Fisher test at α = .05', () => {
  it.each([
    [5, 0.38, 0.12],
    [10, 0.81, 0.47],
    [20, 0.98, 0.84],
  ])('%i per arm: 20%%→80%% = %f, 50%%→90%% = %f', (n, swing, small) => {
    expect(fisherPower({ trialsPerArm: n, control: 0.2, treatment: 0.8 }).toFixed(2)).toBe(
      swing.toFixed(2),
    );
    expect(fisherPower({ trialsPerArm: n, control: 0.5, treatment: 0.9 }).toFixed(2)).toBe(
      small.toFixed(2),
    );
  });

  it('counts only p strictly below α, as the gates do: 3 per arm detect nothing (3/3 against 0/3 is p = .05)', () => {
    expect(fisherPower({ trialsPerArm: 3, control: 0.2, treatment: 0.8 })).toBe(0);
    expect(fisherPower({ trialsPerArm: 4, control: 0.2, treatment: 0.8 })).toBeGreaterThan(0);
  });

  it('is the size of the test, at most α, when there is no effect', () => {
    const size = fisherPower({ trialsPerArm: 10, control: 0.5, treatment: 0.5 });
    expect(size).toBeGreaterThan(0);
    expect(size).toBeLessThanOrEqual(0.05);
  });

  it('says it in one line', () => {
    expect(powerStatement({ trialsPerArm: 5, control: 0.2, treatment: 0.8 })).toBe(
      '5 reps per arm detect a 20%→80% swing with probability 0.38 at α = .05 (one-sided Fisher)',
    );
    expect(powerStatement({ trialsPerArm: 10, control: 0.5, treatment: 0.9, alpha: 0.1 })).toMatch(
      /at α = \.1 \(one-sided Fisher\)$/,
    );
  });

  it('finds the smallest rate detected with 80% power', () => {
    expect(minimumDetectableRate(5, 0.2)).toBeNull();
    const rate = minimumDetectableRate(20, 0.2);
    expect(rate).not.toBeNull();
    expect(
      fisherPower({ trialsPerArm: 20, control: 0.2, treatment: rate ?? 1 }),
    ).toBeGreaterThanOrEqual(0.8);
    expect(
      fisherPower({ trialsPerArm: 20, control: 0.2, treatment: (rate ?? 1) - 0.01 }),
    ).toBeLessThan(0.8);
  });

  it('uses exact binomial probabilities', () => {
    expect(binomialProbability(2, 5, 0.2)).toBeCloseTo(0.2048, 12);
    expect(binomialProbability(0, 5, 0)).toBe(1);
  });
});

describe('pass@k and pass^k', () => {
  it('follows the combinatorial definitions', () => {
    expect(passAtK(5, 2, 2)).toBeCloseTo(1 - 3 / 10, 12);
    expect(passHatK(5, 2, 2)).toBeCloseTo(1 / 10, 12);
    expect(passAtK(5, 0, 3)).toBe(0);
    expect(passAtK(5, 3, 3)).toBe(1);
    expect(passHatK(5, 5, 5)).toBe(1);
    expect(passHatK(5, 4, 5)).toBe(0);
    expect(passAtK(10, 3, 1)).toBeCloseTo(0.3, 12);
  });

  it('rejects k outside 1..n', () => {
    expect(() => passAtK(5, 2, 6)).toThrow(RangeError);
    expect(() => passHatK(5, 2, 0)).toThrow(RangeError);
  });
});

describe('sample summaries', () => {
  const probe = [7, 13, 9, 10, 6];
  const green = [9, 11, 9, 7, 12];

  it('mean and median of the seed’s tool_uses', () => {
    expect(mean(probe)).toBeCloseTo(9.0, 12);
    expect(mean(green)).toBeCloseTo(9.6, 12);
    expect(median(probe)).toBe(9);
    expect(median([9, 8, 10, 7])).toBe(8.5);
    expect(mean([])).toBeNull();
    expect(median([])).toBeNull();
  });

  it('interpolates quantiles like R type 7', () => {
    expect(quantileOfSorted([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(quantileOfSorted([1, 2, 3, 4], 0.025)).toBeCloseTo(1.075, 12);
  });
});

describe('seeded bootstrap', () => {
  const sample = [9, 11, 9, 7, 12];

  it('is deterministic for a seed and differs across seeds', () => {
    const first = bootstrapInterval(sample, { statistic: 'mean', seed: 42 });
    const again = bootstrapInterval(sample, { statistic: 'mean', seed: 42 });
    const other = bootstrapInterval(sample, { statistic: 'mean', seed: 43, resamples: 2000 });
    expect(again).toEqual(first);
    expect(other).not.toEqual(first);
    expect(first).toMatchObject({
      estimate: 9.6,
      method: 'percentile',
      confidence: 0.95,
      resamples: 10_000,
      seed: 42,
    });
  });

  it('brackets the estimate within the sample’s range', () => {
    const interval = bootstrapInterval(sample, { statistic: 'median', seed: 1 });
    expect(interval).not.toBeNull();
    if (interval === null) return;
    expect(interval.lower).toBeLessThanOrEqual(interval.estimate);
    expect(interval.upper).toBeGreaterThanOrEqual(interval.estimate);
    expect(interval.lower).toBeGreaterThanOrEqual(7);
    expect(interval.upper).toBeLessThanOrEqual(12);
  });

  it('is degenerate for a constant sample and null for an empty one', () => {
    expect(bootstrapInterval([5, 5, 5], { statistic: 'mean', seed: 3 })).toMatchObject({
      lower: 5,
      upper: 5,
    });
    expect(bootstrapInterval([], { statistic: 'mean', seed: 3 })).toBeNull();
  });

  it('draws from a generator that is reproducible and roughly uniform', () => {
    const a = seededRandom(7);
    const b = seededRandom(7);
    const draws = Array.from({ length: 10_000 }, () => a());
    expect(Array.from({ length: 10_000 }, () => b())).toEqual(draws);
    expect(draws.every((x) => x >= 0 && x < 1)).toBe(true);
    expect(mean(draws)).toBeGreaterThan(0.48);
    expect(mean(draws)).toBeLessThan(0.52);
  });
});

describe('permutation test', () => {
  it('enumerates exactly: [1,2,3] vs [4,5,6]', () => {
    expect(permutationTest([1, 2, 3], [4, 5, 6])).toMatchObject({
      observed: -3,
      pValue: 0.1,
      method: 'exact',
      permutations: 20,
      seed: null,
    });
    expect(permutationTest([1, 2, 3], [4, 5, 6], { alternative: 'less' }).pValue).toBeCloseTo(
      0.05,
      12,
    );
    expect(permutationTest([1, 2, 3], [4, 5, 6], { alternative: 'greater' }).pValue).toBeCloseTo(
      1,
      12,
    );
  });

  it('matches SciPy’s exact permutation test on the seed’s tool_uses', () => {
    const probe = [7, 13, 9, 10, 6];
    const green = [9, 11, 9, 7, 12];
    const means = permutationTest(probe, green);
    expect(means.pValue).toBeCloseTo(0.7936507936507936, 12);
    expect(means.observed).toBeCloseTo(-0.6, 12);
    expect(means.description).toBe(
      'exact permutation test (mean difference, two-sided): all 252 relabellings enumerated',
    );
    expect(
      permutationTest(probe, green, { statistic: 'median', alternative: 'less' }).pValue,
    ).toBeCloseTo(0.7142857142857143, 12);
    expect(
      permutationTest([9, 8, 10, 7, 5], [11, 9, 7, 8, 7], { alternative: 'greater' }).pValue,
    ).toBeCloseTo(0.753968253968254, 12);
  });

  it('falls back to seeded Monte Carlo, says so, and lands near the exact answer', () => {
    const probe = [7, 13, 9, 10, 6];
    const green = [9, 11, 9, 7, 12];
    const sampled = permutationTest(probe, green, { maxExact: 100, resamples: 50_000, seed: 5 });
    expect(sampled.method).toBe('monte-carlo');
    expect(sampled.seed).toBe(5);
    expect(sampled.description).toMatch(
      /^Monte Carlo permutation test .*50000 random relabellings, seed 5/,
    );
    expect(Math.abs(sampled.pValue - 0.7936507936507936)).toBeLessThan(0.01);
    expect(permutationTest(probe, green, { maxExact: 100, resamples: 5000, seed: 5 })).toEqual(
      permutationTest(probe, green, { maxExact: 100, resamples: 5000, seed: 5 }),
    );
  });

  it('detects a real difference (the test can reject)', () => {
    expect(permutationTest([1, 2, 3, 4, 5], [11, 12, 13, 14, 15]).pValue).toBeCloseTo(2 / 252, 12);
  });
});
