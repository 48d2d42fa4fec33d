import { z } from 'zod';
import { agreementSchema } from '../judge/agreement.js';
import { judgeRowShape, judgeSectionSchema } from '../judge/report-model.js';
import { cellMetricsSchema, metricRowShape, packMetricsRowSchema } from './rep-metrics.js';
import { scenarioFilesSchema } from './scenario-files.js';
import { seatToolsSchema } from './seat-tools.js';
import { subsetSchema } from './subset.js';

/**
 * `results.json`: everything the tables show, one object, validated on write
 * and on read. `results.csv` carries the `reps` rows with the same values,
 * each observation flattened into its own `obs_<id>` column.
 */
const interval = z.object({ lower: z.number(), upper: z.number() }).strict();

export const repRowSchema = z
  .object({
    rep_id: z.string(),
    arm: z.string(),
    role: z.enum(['red', 'green']),
    scenario: z.string(),
    rep: z.number().int(),
    attempt: z.number().int(),
    verdict: z.enum(['pass', 'fail', 'indeterminate']),
    verdict_source: z.enum(['scored', 'override']),
    scored_verdict: z.enum(['pass', 'fail', 'indeterminate']),
    override_reason: z.string(),
    reasons: z.string(),
    /** Ids of the checks that failed, space-separated. */
    failed_checks: z.string(),
    /** Ids of the checks (and pre-checks) that could not be decided, space-separated. */
    undecided_checks: z.string(),
    /** What the report contract read, `section=value; …`. */
    values: z.string(),
    tool_uses: z.number().int(),
    subagent_tool_uses: z.number().int(),
    turns: z.number().int(),
    input_tokens: z.number().int().nullable(),
    output_tokens: z.number().int().nullable(),
    cache_write_tokens: z.number().int().nullable(),
    cache_read_tokens: z.number().int().nullable(),
    tokens_estimated: z.boolean(),
    cost_usd: z.number().nullable(),
    /** Dispatches, files and bytes written (rep-metrics.ts). */
    ...metricRowShape,
    duration_ms: z.number(),
    /** The model's name, in a campaign of several models (the CSV then has a `model` column). */
    model: z.string().optional(),
    /** The engine the rep ran on, in a campaign of several engines (the CSV's last column, `engine`). */
    engine: z.string().optional(),
    model_requested: z.string(),
    model_reported: z.string(),
    scripted_model: z.boolean(),
    status: z.enum(['completed', 'indeterminate']),
    indeterminate_stage: z.string(),
    stop_reason: z.string(),
    /** The details of the failing checks, `; `-separated (observations never gate, so they are no findings). */
    findings: z.string(),
    skill_tree: z.string(),
    fixture_head: z.string(),
    /** The judge's columns (harness/judge/report-model.ts); absent for a rep no judge has seen. */
    ...judgeRowShape,
    /** The scenario hash the rep was scored with (empty: not recorded, a rep from before scenario identity). */
    scenario_sha256: z.string(),
    /** When `redgreen score` last rescored the rep (ISO 8601 UTC), or empty. */
    rescored_at: z.string(),
    /** What each observation of the rep's scenario saw, by observation id. */
    observations: z.record(z.string(), z.string()),
    /** The metrics its scenario's packs add, by name (results.csv: a `metric_<name>` column each); absent when they add none. */
    pack_metrics: packMetricsRowSchema.optional(),
  })
  .strict();

export type RepRow = z.infer<typeof repRowSchema>;

/**
 * The fixed CSV columns, in order: stable, documented in the README. The
 * observation columns follow, then the pack metrics' (`metric_<name>`); `model` is added (before `model_requested`)
 * only in a campaign of several models, and `engine` (after every other
 * column) only in a campaign of several engines.
 */
export const REP_COLUMNS = (Object.keys(repRowSchema.shape) as (keyof RepRow)[]).filter(
  (column): column is Exclude<keyof RepRow, 'observations' | 'pack_metrics' | 'model' | 'engine'> =>
    column !== 'observations' &&
    column !== 'pack_metrics' &&
    column !== 'model' &&
    column !== 'engine',
);

/** How one observation is summarised per cell: a tally of what was seen, or how many reps it held in. */
export const observationSummarySchema = z.discriminatedUnion('kind', [
  z
    .object({
      kind: z.literal('tally'),
      id: z.string(),
      title: z.string(),
      counts: z.record(z.string(), z.number().int()),
      /** A classification's labels (what `both` and `neither` are of); absent for another tally. */
      labels: z.array(z.string()).optional(),
    })
    .strict(),
  z
    .object({
      kind: z.literal('passes'),
      id: z.string(),
      phrase: z.string(),
      passes: z.number().int(),
    })
    .strict(),
]);
export type ObservationSummaryRow = z.infer<typeof observationSummarySchema>;

export const cellSchema = z
  .object({
    arm: z.string(),
    role: z.enum(['red', 'green']),
    label: z.string(),
    layout: z.string(),
    scenario: z.string(),
    /** The model, in a campaign of several models (a cell is then arm × scenario × model). */
    model: z.string().optional(),
    /** In a campaign of several models: indeterminate reps the infrastructure caused (API errors, engine, timeout, harness). */
    infrastructure: z.number().int().optional(),
    /** Reps the campaign scheduled for this cell. */
    planned: z.number().int(),
    recorded: z.number().int(),
    pass: z.number().int(),
    fail: z.number().int(),
    indeterminate: z.number().int(),
    decided: z.number().int(),
    passRate: z.number().nullable(),
    wilson95: interval.nullable(),
    toolUses: z
      .object({
        values: z.array(z.number().int()),
        median: z.number().nullable(),
        mean: z.number().nullable(),
        bootstrap95Mean: interval.nullable(),
      })
      .strict(),
    /** Cost as an outcome: each metric over the cell's reps (rep-metrics.ts); summariseResults always gives it. */
    metrics: cellMetricsSchema.optional(),
    /** The cell's observations that declare a summary, in scenario order. */
    observations: z.array(observationSummarySchema),
    overrides: z.number().int(),
    /** Judge against checks over the cell's judged reps; absent when none was judged. */
    agreement: agreementSchema.optional(),
  })
  .strict();
export type CellSummary = z.infer<typeof cellSchema>;

export const comparisonSchema = z
  .object({
    scenario: z.string(),
    /** The model compared on, in a campaign of several models. */
    model: z.string().optional(),
    red: z.string(),
    green: z.string(),
    fisherTwoSided: z.number().nullable(),
    fisherGreenBetter: z.number().nullable(),
    fisherRedBetter: z.number().nullable(),
    toolUses: z
      .object({
        meanDifference: z.number(),
        pValue: z.number(),
        method: z.string(),
        description: z.string(),
      })
      .strict()
      .nullable(),
  })
  .strict();
export type Comparison = z.infer<typeof comparisonSchema>;

export const modelSummarySchema = z
  .object({
    name: z.string(),
    /** The id sent in requests: the live model, or the scripted policy. */
    requested: z.string(),
    /** Model ids the API reported back across this model's reps. */
    reported: z.array(z.string()),
    scripted: z.boolean(),
    /** Offline: the live model id the scripted policy stood in for. */
    standsInFor: z.string().nullable(),
    /** The endpoint profile, or null for the default endpoint. */
    endpoint: z.string().nullable(),
    /** In a campaign of several engines: the engine this entry ran on. */
    engine: z.string().optional(),
    label: z.string(),
    planned: z.number().int(),
    recorded: z.number().int(),
    pass: z.number().int(),
    fail: z.number().int(),
    indeterminate: z.number().int(),
    /** Indeterminate reps the infrastructure caused, by stage (api, engine, timeout, harness). */
    infrastructure: z.record(z.string(), z.number().int()),
  })
  .strict();
export type ModelSummary = z.infer<typeof modelSummarySchema>;

export const interactionRowSchema = z
  .object({
    model: z.string(),
    red: z.object({ pass: z.number().int(), decided: z.number().int() }).strict(),
    green: z.object({ pass: z.number().int(), decided: z.number().int() }).strict(),
    /** GREEN's pass rate minus RED's (a fraction); null without decided reps in both. */
    difference: z.number().nullable(),
    /** One-sided Fisher p that GREEN passes more often, and Holm-adjusted across the scenario's models. */
    pGreenBetter: z.number().nullable(),
    holmGreenBetter: z.number().nullable(),
    pRedBetter: z.number().nullable(),
    holmRedBetter: z.number().nullable(),
    effect: z.enum(['helps', 'hurts', 'no clear effect', 'undecided']),
    /** Why a model's effect is undecided (e.g. its reps are infrastructure failures); else null. */
    note: z.string().nullable(),
  })
  .strict();
export type InteractionRow = z.infer<typeof interactionRowSchema>;

export const interactionSchema = z
  .object({
    scenario: z.string(),
    alpha: z.number(),
    rows: z.array(interactionRowSchema),
    /** In words: helps on every model, on some, on none; hurts anywhere. */
    summary: z.string(),
  })
  .strict();
export type Interaction = z.infer<typeof interactionSchema>;

export const gateOutcomeSchema = z
  .object({
    gate: z.string(),
    kind: z.string(),
    outcome: z.enum(['holds', 'fails', 'undecided']),
    figure: z.string(),
    /** In a campaign of several models: the model the gate is judged on, or `every`. */
    model: z.string().optional(),
    /** In a campaign of several models: each judged model's own outcome and figure. */
    perModel: z
      .array(
        z
          .object({
            model: z.string(),
            outcome: z.enum(['holds', 'fails', 'undecided']),
            figure: z.string(),
          })
          .strict(),
      )
      .optional(),
  })
  .strict();
export type GateOutcome = z.infer<typeof gateOutcomeSchema>;

export const resultsSchema = z
  .object({
    schemaVersion: z.literal(2),
    generatedBy: z.string(),
    campaign: z.object({ id: z.string(), title: z.string(), identity: z.string() }).strict(),
    model: z
      .object({
        requested: z.string(),
        reported: z.array(z.string()),
        scripted: z.boolean(),
        label: z.string(),
      })
      .strict(),
    backend: z.string(),
    engine: z.string(),
    sandbox: z.string(),
    repsPerCell: z.number().int(),
    arms: z.array(
      z
        .object({
          name: z.string(),
          role: z.enum(['red', 'green']),
          label: z.string(),
          layout: z.string(),
          source: z.string(),
          tree: z.string(),
        })
        .strict(),
    ),
    /** Each scenario: its fixture, the scenario files its verdicts come from (scenario-files.ts). */
    scenarios: z.array(scenarioFilesSchema),
    /** Every observation id across the reps, in order: the CSV's `obs_<id>` columns. */
    observationColumns: z.array(z.string()),
    /** The first tally observation (e.g. resolution shape): what the charts colour reps by. */
    legend: z
      .object({ id: z.string(), title: z.string(), values: z.array(z.string()) })
      .strict()
      .nullable(),
    complete: z.boolean(),
    planned: z.number().int(),
    recorded: z.number().int(),
    missing: z.array(z.string()),
    cells: z.array(cellSchema),
    comparisons: z.array(comparisonSchema),
    power: z.string(),
    /** Each model of a campaign of several models: what ran, and its reps' outcomes. */
    models: z.array(modelSummarySchema).optional(),
    /** Per scenario: does GREEN help on every model? Exact tests per model, Holm across models. */
    interaction: z.array(interactionSchema).optional(),
    /** A subset run (`--only`): what it ran and the gates it never evaluated; absent for a whole campaign. */
    subset: subsetSchema.optional(),
    gates: z
      .object({
        outcome: z.enum(['pass', 'fail', 'undecided']),
        exitCode: z.union([z.literal(0), z.literal(1), z.literal(2)]),
        why: z.string(),
        results: z.array(gateOutcomeSchema),
      })
      .strict(),
    reps: z.array(repRowSchema),
    /** Second opinions: agreement tables and disagreements; absent when no rep was judged. */
    judge: judgeSectionSchema.optional(),
    /** Verdicts settled by hand (overrides.json) that the tables and gates use. */
    adjudicated: z.number().int().optional(),
    /** Tool calls by seat group for full-session scenarios (seat-tools.ts); absent when none ran. */
    seatTools: seatToolsSchema.optional(),
  })
  .strict();

export type ResultsModel = z.infer<typeof resultsSchema>;
