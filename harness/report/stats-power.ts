/**
 * Power up front: what a number of reps per arm can show with a one-sided
 * Fisher exact test, computed (never looked up) from the exact power in
 * stats-rates.ts: the smallest GREEN pass rate detectable above a given RED
 * rate, and the reps an arm needs to detect a given effect. A result counts
 * as detected only when its p-value is strictly below α, as the gates decide
 * (`green-better` holds at p < α): 0/3 against 3/3 gives p = .05 exactly,
 * which no gate accepts, so three reps detect nothing.
 */
import { fisherPower, minimumDetectableRate } from './stats-rates.js';

export const POWER_TARGET = 0.8;
export const POWER_ALPHA = 0.05;

/** fisherPower counts p ≤ its α; just below α it counts p < α, the gates' rule. */
const STRICT_ALPHA = POWER_ALPHA * (1 - 1e-6);

/** The smallest GREEN rate above `redRate` that `reps` per arm detect with 80% power, or null. */
export function detectableRate(reps: number, redRate = 0): number | null {
  return minimumDetectableRate(reps, redRate, POWER_TARGET, STRICT_ALPHA);
}

/**
 * The fewest reps per arm (up to `limit`) that detect GREEN at `greenRate`
 * over RED at `redRate` with 80% power at α = .05, one-sided Fisher; null
 * when even `limit` reps do not.
 */
export function repsToDetect(redRate: number, greenRate: number, limit = 200): number | null {
  if (greenRate <= redRate) return null;
  for (let reps = 1; reps <= limit; reps += 1) {
    const power = fisherPower({
      trialsPerArm: reps,
      control: redRate,
      treatment: greenRate,
      alpha: STRICT_ALPHA,
    });
    if (power >= POWER_TARGET) return reps;
  }
  return null;
}

/** `0%→53%`: the smallest effect `reps` per arm detect from a RED rate of 0, as a reader quotes it. */
export function detectableEffect(reps: number): string {
  const rate = detectableRate(reps, 0);
  return rate === null ? `none from 0% (too few reps)` : `0%→${Math.round(rate * 100)}%`;
}
