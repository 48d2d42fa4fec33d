import { z } from 'zod';
import { isCoreMetric, METRIC_NAMES, type MetricName } from '../campaign/metric-gates-config.js';
import type { RepMeta } from '../results/rep-meta.js';
import { mean, median } from './stats.js';

/**
 * Cost as an outcome, per rep and per cell: the columns a rep row gains
 * (what the fixture diff and the dispatches counted), the value of each
 * metric on a row, and each cell's summary of them, which the metric gates
 * and the cost tables read.
 */

/** The rep row's columns for the measures the older columns do not hold. */
export const metricRowShape = {
  /** Subagent dispatches the controller made (calls of the engine's subagent tool). */
  dispatches: z.number().int(),
  /** Files the session left added or changed in the fixture, and their bytes after; null when not recorded. */
  files_written: z.number().int().nullable(),
  bytes_written: z.number().int().nullable(),
  /** Subagent seats the controller started (meta.json `seats`); null when not recorded. */
  seats: z.number().int().nullable().optional(),
};

/** A rep row's metric columns, from its meta.json. */
export function metricRowFields(meta: RepMeta): {
  dispatches: number;
  files_written: number | null;
  bytes_written: number | null;
  seats: number | null;
} {
  return {
    dispatches: meta.subagentDispatches,
    files_written: meta.written?.files ?? null,
    bytes_written: meta.written?.bytes ?? null,
    seats: meta.seats?.length ?? null,
  };
}

/** What a metric reads off a rep row (the columns results.csv has). */
export interface MetricRow {
  readonly tool_uses: number;
  readonly subagent_tool_uses: number;
  readonly input_tokens: number | null;
  readonly output_tokens: number | null;
  readonly cache_write_tokens: number | null;
  readonly cache_read_tokens: number | null;
  readonly cost_usd: number | null;
  readonly dispatches: number;
  readonly files_written: number | null;
  readonly bytes_written: number | null;
  /** Subagent seats started; null or absent when the rep did not record them. */
  readonly seats?: number | null | undefined;
  /** The pack metrics its score.json holds (null: no value, n/a); a metric absent was not recorded. */
  readonly pack_metrics?: Readonly<Record<string, number | null>> | undefined;
}

/** What a rep row's pack metrics hold: by metric, a value or null (n/a); absent when not recorded. */
export const packMetricsRowSchema = z
  .record(z.string(), z.number().nullable())
  .describe("the pack metrics the rep's score recorded; null: no value on this rep (n/a)");

/** A metric on one rep: its value, `n/a` when it has none there (a pack metric's ratio over zero), null when not recorded. */
export type MetricReading = number | 'n/a' | null;

/** A metric on one rep, core or a pack's: see MetricReading. */
export function metricReading(row: MetricRow, metric: string): MetricReading {
  if (isCoreMetric(metric)) return metricValue(row, metric);
  const value = row.pack_metrics?.[metric];
  if (value === undefined) return null;
  return value === null ? 'n/a' : value;
}

/** The pack metrics some row recorded, in the order they first appear. */
export function packMetricNamesOf(rows: readonly MetricRow[]): string[] {
  return [...new Set(rows.flatMap((row) => Object.keys(row.pack_metrics ?? {})))];
}

/** A metric's value on one rep: null when the session did not record it (usage unknown, a model unpriced). */
export function metricValue(row: MetricRow, metric: MetricName): number | null {
  switch (metric) {
    case 'input-tokens':
      return row.input_tokens;
    case 'output-tokens':
      return row.output_tokens;
    case 'cache-write-tokens':
      return row.cache_write_tokens;
    case 'cache-read-tokens':
      return row.cache_read_tokens;
    case 'total-tokens':
      return row.input_tokens === null || row.output_tokens === null
        ? null
        : row.input_tokens +
            row.output_tokens +
            (row.cache_write_tokens ?? 0) +
            (row.cache_read_tokens ?? 0);
    case 'cost-usd':
      return row.cost_usd;
    case 'tool-calls':
      return row.tool_uses + row.subagent_tool_uses;
    case 'controller-tool-calls':
      return row.tool_uses;
    case 'subagent-tool-calls':
      return row.subagent_tool_uses;
    case 'dispatches':
      return row.dispatches;
    case 'bytes-written':
      return row.bytes_written;
    case 'files-written':
      return row.files_written;
    case 'tool-calls-per-seat':
      // Every seat's calls over the seats that made them: the controller's and each subagent's.
      return row.seats === null || row.seats === undefined
        ? null
        : (row.tool_uses + row.subagent_tool_uses) / (1 + row.seats);
  }
}

/** One metric over a cell's reps. */
export const metricSummarySchema = z
  .object({
    /** Its value on each decided rep that recorded it, in rep order. */
    values: z.array(z.number()),
    /** Decided reps that did not record it. */
    unrecorded: z.number().int(),
    /** A pack metric's decided reps on which it has no value (n/a: a ratio over zero); left out of values and medians. */
    notANumber: z.number().int().optional(),
    /** The largest value an indeterminate rep recorded (a cut-short session spent it too), or null. */
    indeterminateMax: z.number().nullable(),
    median: z.number().nullable(),
    mean: z.number().nullable(),
  })
  .strict();
export type MetricSummary = z.infer<typeof metricSummarySchema>;

/** By metric name: the core's, then the pack metrics the campaign's reps recorded. */
export const cellMetricsSchema = z.record(z.string(), metricSummarySchema);
export type CellMetrics = z.infer<typeof cellMetricsSchema>;

/**
 * A cell's metrics: decided reps' values (as tool_uses counts them), and
 * what indeterminate reps spent; the core's, then each of `packMetrics`
 * (the pack metrics the campaign's reps recorded), with its n/a reps counted.
 */
export function cellMetrics(
  rows: readonly (MetricRow & { readonly verdict: string })[],
  packMetrics: readonly string[] = packMetricNamesOf(rows),
): CellMetrics {
  const decided = rows.filter((row) => row.verdict !== 'indeterminate');
  const indeterminate = rows.filter((row) => row.verdict === 'indeterminate');
  const numbers = (readings: readonly MetricReading[]): number[] =>
    readings.filter((value): value is number => typeof value === 'number');
  const entries = [...METRIC_NAMES, ...packMetrics].map((metric) => {
    const read = decided.map((row) => metricReading(row, metric));
    const values = numbers(read);
    const notANumber = read.filter((value) => value === 'n/a').length;
    const spent = numbers(indeterminate.map((row) => metricReading(row, metric)));
    return [
      metric,
      {
        values,
        unrecorded: read.filter((value) => value === null).length,
        ...(isCoreMetric(metric) ? {} : { notANumber }),
        indeterminateMax: spent.length === 0 ? null : Math.max(...spent),
        median: median(values),
        mean: mean(values),
      },
    ] as const;
  });
  return Object.fromEntries(entries);
}
