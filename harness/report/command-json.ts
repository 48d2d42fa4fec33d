import { z } from 'zod';
import { gateOutcomeSchema, type ResultsModel, resultsSchema } from './results-schema.js';

/**
 * What `redgreen gate --json` and `redgreen report --json` print on stdout
 * for CI scripts: one JSON object each, validated against these schemas
 * before it is printed (the README lists the fields). The exit codes are the
 * same as without --json; on bad input nothing is printed on stdout.
 */
export const COMMAND_JSON_VERSION = 1;

export const gateJsonSchema = z
  .object({
    schemaVersion: z.literal(COMMAND_JSON_VERSION),
    command: z.literal('gate'),
    /** Absolute path of the results directory gated. */
    resultsDir: z.string(),
    campaign: z.object({ id: z.string(), title: z.string(), identity: z.string() }).strict(),
    model: z.object({ requested: z.string(), scripted: z.boolean() }).strict(),
    /** Each model, in a campaign of several models. */
    models: z
      .array(z.object({ name: z.string(), requested: z.string(), scripted: z.boolean() }).strict())
      .optional(),
    complete: z.boolean(),
    planned: z.number().int().nonnegative(),
    recorded: z.number().int().nonnegative(),
    missing: z.array(z.string()),
    /** The overall decision, the exit code that goes with it, and why. */
    outcome: z.enum(['pass', 'fail', 'undecided']),
    exitCode: z.union([z.literal(0), z.literal(1), z.literal(2)]),
    why: z.string(),
    /** Each gate; over several models also its `model` (a name or `every`) and `perModel` outcomes. */
    gates: z.array(gateOutcomeSchema),
    /** Files written because --junit / --summary asked for them (absolute), else null. */
    files: z.object({ junit: z.string().nullable(), summary: z.string().nullable() }).strict(),
  })
  .strict();
export type GateJson = z.infer<typeof gateJsonSchema>;

export const reportJsonSchema = z
  .object({
    schemaVersion: z.literal(COMMAND_JSON_VERSION),
    command: z.literal('report'),
    resultsDir: z.string(),
    /** The reports written (absolute paths). */
    files: z
      .object({ markdown: z.string(), csv: z.string(), json: z.string(), html: z.string() })
      .strict(),
    /** The results model: the same object results.json holds. */
    results: resultsSchema,
  })
  .strict();
export type ReportJson = z.infer<typeof reportJsonSchema>;

export function gateJson(
  model: ResultsModel,
  resultsDir: string,
  files: GateJson['files'],
): GateJson {
  return gateJsonSchema.parse({
    schemaVersion: COMMAND_JSON_VERSION,
    command: 'gate',
    resultsDir,
    campaign: model.campaign,
    model: { requested: model.model.requested, scripted: model.model.scripted },
    ...(model.models === undefined
      ? {}
      : {
          models: model.models.map((entry) => ({
            name: entry.name,
            requested: entry.requested,
            scripted: entry.scripted,
          })),
        }),
    complete: model.complete,
    planned: model.planned,
    recorded: model.recorded,
    missing: model.missing,
    outcome: model.gates.outcome,
    exitCode: model.gates.exitCode,
    why: model.gates.why,
    gates: model.gates.results,
    files,
  });
}

export function reportJson(
  model: ResultsModel,
  resultsDir: string,
  files: ReportJson['files'],
): ReportJson {
  return reportJsonSchema.parse({
    schemaVersion: COMMAND_JSON_VERSION,
    command: 'report',
    resultsDir,
    files,
    results: model,
  });
}
