/**
 * Multiple comparisons: when one gate asks the same question of many
 * scenarios ("does any scenario regress?"), each test at level α would let a
 * panel of m scenarios fail by chance far more often than α. Holm's
 * step-down procedure keeps the family-wise error rate at α without
 * Bonferroni's full cost: sort the p-values, compare the k-th smallest with
 * α / (m − k + 1), and reject up to the first that is not below its
 * threshold.
 */

import { belowThreshold } from './stats-rates.js';

export type Correction = 'holm' | 'none';

export interface AdjustedTest {
  /** The test's own p-value. */
  readonly p: number;
  /** The level it was held to: α / (m − rank + 1) under Holm, α without correction. */
  readonly threshold: number;
  /** True when the test's null hypothesis is rejected (the effect is significant). */
  readonly rejected: boolean;
}

/** Each p-value's threshold and verdict, in the input order. */
export function adjustForMultiple(
  pValues: readonly number[],
  alpha: number,
  correction: Correction,
): AdjustedTest[] {
  if (correction === 'none') {
    return pValues.map((p) => ({ p, threshold: alpha, rejected: belowThreshold(p, alpha) }));
  }
  const m = pValues.length;
  const order = pValues.map((p, index) => ({ p, index })).sort((a, b) => a.p - b.p);
  const results = new Array<AdjustedTest>(m);
  let stillRejecting = true;
  for (const [rank, { p, index }] of order.entries()) {
    const threshold = alpha / (m - rank);
    stillRejecting = stillRejecting && belowThreshold(p, threshold);
    results[index] = { p, threshold, rejected: stillRejecting };
  }
  return results;
}
