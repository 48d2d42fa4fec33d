/**
 * Holm's step-down correction for multiple tests: the family-wise error
 * rate stays at α whatever the dependence between the tests. Sort the m
 * p-values ascending, multiply the i-th smallest (from 0) by m − i, carry
 * the running maximum forward so the adjusted values keep their order, and
 * cap them at 1. A missing test (null: nothing to decide on) is left out of
 * the family and stays null.
 */
export function holmAdjust(pValues: readonly (number | null)[]): (number | null)[] {
  const present = pValues
    .map((p, index) => ({ p, index }))
    .filter((entry): entry is { p: number; index: number } => entry.p !== null)
    .sort((a, b) => a.p - b.p || a.index - b.index);
  const adjusted: (number | null)[] = pValues.map(() => null);
  const m = present.length;
  let running = 0;
  for (const [rank, entry] of present.entries()) {
    running = Math.max(running, Math.min(1, (m - rank) * entry.p));
    adjusted[entry.index] = running;
  }
  return adjusted;
}
