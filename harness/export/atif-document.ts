import { z } from 'zod';

/**
 * The ATIF v1.4 (Agent Trajectory Interchange Format) document redgreen
 * writes, one per rep. This zod schema gives the exporter its types and
 * checks every document before it is written; `schemas/atif-v1.4.schema.json`
 * is the same format as a JSON Schema for other tools (and for the tests).
 *
 * Unknown values are `null`, never 0: a scripted policy's cost is null, and
 * so is a token count the transcript does not carry.
 */
export const ATIF_SCHEMA_VERSION = 'ATIF-v1.4';

const jsonObject = z.record(z.string(), z.unknown());
const count = z.number().int().nonnegative();

/** ISO 8601 date-time with a zone, as the spec's examples write it. */
export const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

export const atifToolCallSchema = z
  .object({
    tool_call_id: z.string().min(1),
    function_name: z.string().min(1),
    arguments: jsonObject,
  })
  .strict();

/**
 * ATIF v1.4's link from an observation result to the trajectory of the
 * subagent the call started (or resumed): its session_id and, redgreen's
 * export writing each subagent to a file of its own, the file's path
 * relative to the referring trajectory's directory.
 */
export const atifSubagentRefSchema = z
  .object({
    session_id: z.string().min(1),
    trajectory_path: z.string().min(1).nullable().optional(),
    extra: jsonObject.optional(),
  })
  .strict();

export const atifObservationResultSchema = z
  .object({
    source_call_id: z.string().min(1).nullable().optional(),
    content: z.string().nullable().optional(),
    subagent_trajectory_ref: z.array(atifSubagentRefSchema).optional(),
  })
  .strict();

export const atifObservationSchema = z
  .object({ results: z.array(atifObservationResultSchema) })
  .strict();

export const atifMetricsSchema = z
  .object({
    prompt_tokens: count.nullable(),
    completion_tokens: count.nullable(),
    cached_tokens: count.nullable(),
    cost_usd: z.number().nonnegative().nullable(),
    extra: jsonObject.optional(),
  })
  .strict();

export const atifStepSchema = z
  .object({
    step_id: z.number().int().positive(),
    timestamp: z.string().regex(ISO_TIMESTAMP).optional(),
    source: z.enum(['system', 'user', 'agent']),
    model_name: z.string().min(1).optional(),
    message: z.string(),
    reasoning_content: z.string().optional(),
    tool_calls: z.array(atifToolCallSchema).optional(),
    observation: atifObservationSchema.optional(),
    metrics: atifMetricsSchema.optional(),
    extra: jsonObject.optional(),
  })
  .strict();

export const atifFinalMetricsSchema = z
  .object({
    total_prompt_tokens: count.nullable(),
    total_completion_tokens: count.nullable(),
    total_cached_tokens: count.nullable(),
    total_cost_usd: z.number().nonnegative().nullable(),
    total_steps: count,
    extra: jsonObject.optional(),
  })
  .strict();

export const atifAgentSchema = z
  .object({
    name: z.string().min(1),
    version: z.string().min(1),
    model_name: z.string().min(1).optional(),
    extra: jsonObject.optional(),
  })
  .strict();

export const atifTrajectorySchema = z
  .object({
    schema_version: z.literal(ATIF_SCHEMA_VERSION),
    session_id: z.string().min(1),
    agent: atifAgentSchema,
    steps: z.array(atifStepSchema).min(1),
    notes: z.string().optional(),
    final_metrics: atifFinalMetricsSchema.optional(),
    extra: jsonObject.optional(),
  })
  .strict();

export type AtifToolCall = z.infer<typeof atifToolCallSchema>;
export type AtifSubagentRef = z.infer<typeof atifSubagentRefSchema>;
export type AtifObservationResult = z.infer<typeof atifObservationResultSchema>;
export type AtifMetrics = z.infer<typeof atifMetricsSchema>;
export type AtifStep = z.infer<typeof atifStepSchema>;
export type AtifFinalMetrics = z.infer<typeof atifFinalMetricsSchema>;
export type AtifTrajectory = z.infer<typeof atifTrajectorySchema>;
