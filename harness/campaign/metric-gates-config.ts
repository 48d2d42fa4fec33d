import { z } from 'zod';
import { didYouMean } from '../lib/did-you-mean.js';
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
export type MetricName = (typeof METRIC_NAMES)[number];

const metricField = z.enum(METRIC_NAMES, {
  error: (issue) =>
    `unknown metric ${JSON.stringify(issue.input)}: ${
      typeof issue.input === 'string' ? didYouMean(issue.input, METRIC_NAMES) : ''
    }use one of ${METRIC_NAMES.join(', ')}`,
});

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
