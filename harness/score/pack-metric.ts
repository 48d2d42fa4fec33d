/**
 * A per-rep metric a pack adds to cost as an outcome (its score
 * contribution's `metrics`; pack-metric-registry.ts computes and lists them).
 */
import type { Evidence } from './evidence.js';
import type { Facts } from './placeholders.js';

/** One metric a pack adds, by the name a campaign's metric gates give it. */
export interface PackMetric {
  /** One line: what it counts, shown under the cost table and in the README. */
  readonly description: string;
  /** What one unit of it is (`dispatches per work item`). */
  readonly unit: string;
  /**
   * Its value on one rep, from the evidence after the session: a finite
   * number of 0 or more; null when it has no value on this rep (a ratio over
   * zero); undefined when the evidence it reads was not recorded.
   */
  readonly compute: (evidence: Evidence, facts: Facts) => number | null | undefined;
}
