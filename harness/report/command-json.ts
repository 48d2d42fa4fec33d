import { z } from 'zod';
import type { GateConfig } from '../campaign/config-schema.js';
/**
 * What `redgreen gate --json` and `redgreen report --json` print on stdout
 * for CI scripts: one JSON object each, validated against these schemas
 * before it is printed (the README lists the fields). The exit codes are the
 * same as without --json; on bad input nothing is printed on stdout.
 */
import { COMMAND_JSON_VERSION } from '../lib/command-json-version.js';
import {
  type CellSummary,
  gateOutcomeSchema,
  type ResultsModel,
  resultsSchema,
} from './results-schema.js';

export { COMMAND_JSON_VERSION };

const gateCellSchema = z
  .object({
    arm: z.string(),
    role: z.enum(['red', 'green']),
    scenario: z.string(),
    /** The cell's model, in a campaign of several models. */
    model: z.string().optional(),
    pass: z.number().int().nonnegative(),
    fail: z.number().int().nonnegative(),
    indeterminate: z.number().int().nonnegative(),
    decided: z.number().int().nonnegative(),
    recorded: z.number().int().nonnegative(),
  })
  .strict();

interface GateFacts {
  readonly arm: string | null;
  readonly scenario: string | null;
  readonly params: Record<string, number | string>;
  readonly cells: z.infer<typeof gateCellSchema>[];
}

/** A gate's structured fields: what it names, its parameters, and the counts of the cells it reads. */
function gateFacts(gate: GateConfig | undefined, all: readonly CellSummary[]): GateFacts {
  const counts = (cell: CellSummary): z.infer<typeof gateCellSchema> => ({
    arm: cell.arm,
    role: cell.role,
    scenario: cell.scenario,
    ...(cell.model === undefined ? {} : { model: cell.model }),
    pass: cell.pass,
    fail: cell.fail,
    indeterminate: cell.indeterminate,
    decided: cell.decided,
    recorded: cell.recorded,
  });
  if (gate === undefined) return { arm: null, scenario: null, params: {}, cells: [] };
  // A gate naming one model reads that model's cells; `every` (the default) reads each model's.
  const cells =
    gate.model === undefined || gate.model === 'every'
      ? all
      : all.filter((cell) => cell.model === undefined || cell.model === gate.model);
  const ofScenario = (scenario: string | undefined): z.infer<typeof gateCellSchema>[] =>
    cells.filter((cell) => scenario === undefined || cell.scenario === scenario).map(counts);
  switch (gate.kind) {
    case 'min-pass-rate':
      return {
        arm: gate.arm,
        scenario: gate.scenario,
        params: { passes: gate.passes, of: gate.of },
        cells: cells
          .filter((cell) => cell.arm === gate.arm && cell.scenario === gate.scenario)
          .map(counts),
      };
    case 'green-better':
    case 'no-regression':
      return {
        arm: null,
        scenario: gate.scenario,
        params: { alpha: gate.alpha },
        cells: ofScenario(gate.scenario),
      };
    case 'no-scenario-regresses': {
      const scenarios = gate.scenarios;
      return {
        arm: null,
        scenario: null,
        params: { alpha: gate.alpha, correction: gate.correction },
        cells: cells
          .filter((cell) => scenarios === undefined || scenarios.includes(cell.scenario))
          .map(counts),
      };
    }
    case 'max-indeterminate-share':
      return { arm: null, scenario: null, params: { share: gate.share }, cells: cells.map(counts) };
    case 'engines-agree': {
      const { scenarios, arms } = gate;
      return {
        arm: null,
        scenario: null,
        params: { maxGapPts: gate.maxGapPts, alpha: gate.alpha, correction: gate.correction },
        cells: cells
          .filter(
            (cell) =>
              (scenarios === undefined || scenarios.includes(cell.scenario)) &&
              (arms === undefined || arms.includes(cell.arm)),
          )
          .map(counts),
      };
    }
    case 'metric-ratio':
      return {
        arm: null,
        scenario: gate.scenario,
        params: {
          metric: gate.metric,
          ratio: gate.ratio,
          statistic: gate.statistic,
          confidence: gate.confidence,
          minReps: gate.minReps,
        },
        cells: ofScenario(gate.scenario),
      };
    case 'metric-cap':
      return {
        arm: gate.arm ?? null,
        scenario: gate.scenario ?? null,
        params: { metric: gate.metric, max: gate.max },
        cells: ofScenario(gate.scenario).filter(
          (cell) => gate.arm === undefined || cell.arm === gate.arm,
        ),
      };
    case 'trigger-recall-no-regression':
    case 'trigger-precision-no-regression': {
      const queries = [...gate.positives, ...gate.negatives];
      return {
        arm: null,
        scenario: null,
        params: {
          alpha: gate.alpha,
          positives: gate.positives.length,
          negatives: gate.negatives.length,
        },
        cells: cells.filter((cell) => queries.includes(cell.scenario)).map(counts),
      };
    }
    case 'max-disagreement-share':
      return {
        arm: null,
        scenario: gate.scenario ?? null,
        params: { share: gate.share },
        cells: ofScenario(gate.scenario),
      };
  }
}

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
    /**
     * Each gate: its outcome and figure, over several models also its `model` (a name or
     * `every`) and `perModel` outcomes, and what it names, its parameters and the counts of the
     * cells it reads.
     */
    gates: z.array(
      gateOutcomeSchema
        .extend({
          /** The arm a min-pass-rate gate names, else null. */
          arm: z.string().nullable(),
          /** The scenario the gate is about, else null (max-indeterminate-share, no-scenario-regresses). */
          scenario: z.string().nullable(),
          /** The gate's parameters as the campaign declares them: passes and of, alpha (and correction), or share. */
          params: z.record(z.string(), z.union([z.number(), z.string()])),
          /** The cells the gate reads, with their counts (every cell for max-indeterminate-share). */
          cells: z.array(gateCellSchema),
        })
        .strict(),
    ),
    /**
     * A subset run (`run --only`): the flags and the arms, scenarios (and models) it ran (none
     * named: all of that kind); null for a whole campaign.
     */
    subset: z
      .object({
        only: z.string(),
        arms: z.array(z.string()),
        scenarios: z.array(z.string()),
        models: z.array(z.string()).optional(),
      })
      .strict()
      .nullable(),
    /** The campaign file's gates a subset did not evaluate (null: a directory that did not record them); [] for a whole campaign. */
    droppedGates: z.array(z.object({ gate: z.string(), kind: z.string() }).strict()).nullable(),
    /** Whether `--require-all-gates` was given (a subset then cannot pass). */
    requireAllGates: z.boolean(),
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
      .object({
        markdown: z.string(),
        csv: z.string(),
        json: z.string(),
        html: z.string(),
        /** seats.csv, written when a scenario ran full sessions. */
        seats: z.string().optional(),
      })
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
  /** The campaign's gates, in the order the results list them. */
  configs: readonly GateConfig[],
  requireAllGates = false,
): GateJson {
  const subset = model.subset;
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
    gates: model.gates.results.map((result, index) => ({
      ...result,
      ...gateFacts(configs[index], model.cells),
    })),
    subset: subset === undefined ? null : { only: subset.only, ...subset.selection },
    droppedGates: subset === undefined ? [] : subset.droppedGates,
    requireAllGates,
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
