import { z } from 'zod';
import { didYouMean } from '../lib/did-you-mean.js';
import { packMetricOwner, registeredPackMetrics } from '../score/pack-metric-registry.js';
import { gateModelField } from './model-config.js';

/**
 * Cost as an outcome: the per-rep measures a gate may compare arms on or cap,
 * by the name a campaign file gives them. Each is read from what the session
 * recorded (the engine's usage, the transcript's tool calls, the fixture
 * diff), never from the model's words; harness/report/rep-metrics.ts reads
 * them off a rep's row.
 */
export const METRIC_NAMES = [
  'input-tokens',
  'output-tokens',
  'cache-write-tokens',
  'cache-read-tokens',
  'total-tokens',
  'cost-usd',
  'tool-calls',
  'controller-tool-calls',
  'subagent-tool-calls',
  'dispatches',
  'bytes-written',
  'files-written',
  'tool-calls-per-seat',
] as const;
/** A core metric's name. */
export type MetricName = (typeof METRIC_NAMES)[number];

export function isCoreMetric(name: string): name is MetricName {
  return (METRIC_NAMES as readonly string[]).includes(name);
}

/**
 * Every metric a gate may name: the core's, then those the installed packs
 * add (harness/score/pack-metric-registry.ts). A pack metric named like a
 * core one is a bug.
 */
export function knownMetricNames(): string[] {
  const packNames = registeredPackMetrics().map(({ name, owner }) => {
    if (isCoreMetric(name)) throw new Error(`pack ${owner}'s metric ${name} is a core metric`);
    return name;
  });
  return [...METRIC_NAMES, ...packNames];
}

/** The pack that adds a metric; undefined for a core metric or an unknown one. */
export function metricPack(name: string): string | undefined {
  return isCoreMetric(name) ? undefined : packMetricOwner(name);
}

function unknownMetric(input: unknown): string {
  const known = knownMetricNames();
  const hint = typeof input === 'string' ? didYouMean(input, known) : '';
  return `unknown metric ${JSON.stringify(input)}: ${hint}use one of ${known.join(', ')}`;
}

/**
 * A gate's `metric`: checked when a file is read, against the metrics known
 * then (the packs are installed before any command runs). The published JSON
 * Schema lists them as an enum (file-schemas.ts).
 */
export const metricNameSchema = z
  .string({ error: (issue) => unknownMetric(issue.input) })
  .refine((name) => knownMetricNames().includes(name), {
    error: (issue) => unknownMetric(issue.input),
  })
  .describe('a core metric, or one an installed pack adds (README: Cost as an outcome)');
const metricField = metricNameSchema;

/** `metric-ratio`: GREEN's statistic of a metric at most `ratio` × RED's, by a seeded bootstrap interval. */
export const metricRatioGateSchema = z
  .object({
    kind: z.literal('metric-ratio'),
    metric: metricField,
    scenario: z.string().min(1),
    ratio: z
      .number({ error: 'ratio must be a number above 0 (GREEN at most ratio × RED)' })
      .gt(0, 'ratio must be above 0 (GREEN at most ratio × RED)')
      .describe("the bound: GREEN's statistic at most ratio × RED's (0.8: GREEN spends 20% less)"),
    statistic: z.enum(['median', 'mean']).default('median'),
    confidence: z.number().gt(0).lt(1).default(0.95).describe("the bootstrap interval's coverage"),
    minReps: z
      .number()
      .int()
      .min(2)
      .default(3)
      .describe('decided reps with the metric known needed in each arm before the gate decides'),
    ...gateModelField,
  })
  .strict();

/** `metric-cap`: every rep's metric at most `max`; one rep over it fails the gate for its arm. */
export const metricCapGateSchema = z
  .object({
    kind: z.literal('metric-cap'),
    metric: metricField,
    max: z.number({ error: 'max must be a number' }).nonnegative('max must be 0 or more'),
    arm: z.string().min(1).optional().describe('one arm; default every arm'),
    scenario: z.string().min(1).optional().describe('one scenario; default every scenario'),
    ...gateModelField,
  })
  .strict();

export type MetricRatioGate = z.infer<typeof metricRatioGateSchema>;
export type MetricCapGate = z.infer<typeof metricCapGateSchema>;
