/**
 * Cost as an outcome, the packs' part: per-rep metrics a pack adds to the
 * core's (campaign/metric-gates-config.ts) by its score contribution
 * (`metrics`). Each is computed when a rep is scored, from the rep's
 * evidence after the session (its transcript's calls and dispatches, with
 * what the packs read from them, the fixture's snapshots and files) and the
 * rep's facts, for the packs its scenario names; score.json keeps the values
 * (`metrics`), so a results directory carries them and a rescore computes
 * them again. A value is a number, or null: the metric has no value on this
 * rep (a ratio over zero: "n/a", never 0). A metric whose evidence the rep
 * did not record (no transcript) is left out.
 */
import { z } from 'zod';
import type { Evidence } from './evidence.js';
import type { PackMetric } from './pack-metric.js';
import type { Facts } from './placeholders.js';
import { derived, table } from './score-registry.js';

/** What score.json holds: each metric of the scenario's packs, null where it has no value (n/a). */
export const packMetricValuesSchema = z.record(
  z.string(),
  z
    .number()
    .nonnegative()
    .nullable()
    .describe('the metric on this rep; null: no value (n/a, a ratio over zero), never 0'),
);
export type PackMetricValues = z.infer<typeof packMetricValuesSchema>;

const METRIC_NAME = /^[a-z][a-z0-9]*(?:-[a-z0-9]+)*$/;

/** Every installed pack's metrics, in installation order; a name given twice or misspelt is a bug. */
export const registeredPackMetrics = derived(() => {
  const entries = table<PackMetric>('metric', {}, (contribution) => contribution.metrics);
  for (const { name, owner } of entries) {
    if (!METRIC_NAME.test(name)) {
      throw new Error(
        `pack ${owner}'s metric ${JSON.stringify(name)} is not lower-case words joined by dashes`,
      );
    }
  }
  return entries;
});

/** The pack that adds the metric, or undefined when no installed pack does. */
export function packMetricOwner(name: string): string | undefined {
  return registeredPackMetrics().find((entry) => entry.name === name)?.owner;
}

/** The metric of that name an installed pack adds, if any. */
export function packMetricOf(name: string): PackMetric | undefined {
  return registeredPackMetrics().find((entry) => entry.name === name)?.entry;
}

/**
 * The metrics of the packs a scenario names, on one rep: each value its
 * compute gives (undefined ones left out). A compute that returns a negative
 * or non-finite number is a bug of its pack.
 */
export function packMetricValues(
  packs: readonly string[],
  evidence: Evidence,
  facts: Facts,
): PackMetricValues {
  const values: Record<string, number | null> = {};
  for (const { name, owner, entry } of registeredPackMetrics()) {
    if (owner === undefined || !packs.includes(owner)) continue;
    const value = entry.compute(evidence, facts);
    if (value === undefined) continue;
    if (value !== null && !(Number.isFinite(value) && value >= 0)) {
      throw new Error(
        `pack ${owner}'s metric ${name} computed ${value}, not a number of 0 or more`,
      );
    }
    values[name] = value;
  }
  return values;
}
