import { existsSync } from 'node:fs';
import { z } from 'zod';
import { fixtureFingerprintSchema } from '../fixture/index.js';
import { readRegularText } from '../lib/contained-file.js';
import { describeError } from '../lib/describe-error.js';
import { type InputError, inputError } from '../lib/input-error.js';
import { err, ok, type Result } from '../lib/result.js';
import { resultsLayout } from '../results/results-layout.js';
import { derived, registeredIdentityFields } from '../score/score-registry.js';
import { limitsSchema } from '../session/session-limits.js';
import { BACKEND_NAMES } from '../session/session-tool-table.js';
import { gateSchema } from './config-schema.js';
import { modelRecordSchema } from './model-record.js';
import { onlySelectionSchema } from './only.js';

const shardSchema = z
  .object({ index: z.number().int().positive(), count: z.number().int().positive() })
  .strict();

/** How the run was asked for, so `--resume <dir>` can repeat it without the flags. */
export const invocationSchema = z
  .object({
    campaignFile: z.string(),
    /** `--arm` overrides as given, with directory and repository paths made absolute. */
    arms: z.array(z.string()),
    reps: z.number().int().positive(),
    model: z.string(),
    /** In a campaign of several models: each as a `--model` spec (absent: one model, `model`). */
    models: z.array(z.string()).optional(),
    backend: z.enum(BACKEND_NAMES),
    /** In a campaign of several engines: each (`--engine`); absent: one engine, `backend`. */
    engines: z.array(z.enum(BACKEND_NAMES)).min(2).optional(),
    seed: z.number().int().nonnegative(),
    maxTurns: z.number().int().positive(),
    sessionTimeoutSeconds: z.number().positive(),
    shard: shardSchema.nullable(),
    /** `--only`: the arms and scenarios run (none named: all); absent in directories from before it. */
    only: onlySelectionSchema.nullable().default(null),
    /** Settings outside the identity that a resume repeats; absent in directories from before they were recorded. */
    concurrency: z.number().int().positive().optional(),
    maxCostUsd: z.number().positive().nullable().optional(),
    retryIndeterminate: z.number().int().nonnegative().optional(),
    /** `--judge` / `--judge-model` (model null: each scenario's judge); absent when the run did not judge. */
    judge: z.object({ model: z.string().nullable() }).strict().optional(),
  })
  .strict();
export type Invocation = z.infer<typeof invocationSchema>;

export const skillSourceRecordSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('dir'), spec: z.string(), dir: z.string() }).strict(),
  /** An arm without a skill (`"skill": null`). */
  z.object({ kind: z.literal('none'), spec: z.literal('none') }).strict(),
  z
    .object({
      kind: z.literal('git'),
      spec: z.string(),
      repo: z.string(),
      ref: z.string(),
      commit: z.string(),
      subdir: z.string(),
    })
    .strict(),
]);

/** What campaign.json records of each scenario, besides the packs' identity fields. */
const SCENARIO_RECORD_SHAPE = {
  id: z.string(),
  title: z.string(),
  fixture: z
    .object({
      recipe: z.string(),
      scenario: z.string(),
      variables: z.record(z.string(), z.string()).optional(),
    })
    .strict(),
  promptSha256: z.string(),
  /**
   * The scenario hash (scenario-identity.ts) the directory's reps are
   * scored with: the run's, until `redgreen score` rescores them with
   * another. Absent in directories from before scenario identity.
   */
  sha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .optional(),
  /** The scenario folder the run read (absolute); `score` reads it there and nowhere else. */
  dir: z.string().optional(),
  /** True when that folder is one redgreen ships: then it is read from this redgreen's own. */
  shipped: z.boolean().optional(),
};

/**
 * `campaign.json` as the core knows it: its scenario records hold the core's
 * fields only. The record a run writes and reads is campaignRecordSchema(),
 * which adds the installed packs' identity fields.
 */
const coreCampaignRecordSchema = z
  .object({
    schemaVersion: z.literal(1),
    /** The campaign identity: the session identity and the scenario hashes the reps are scored with. */
    identity: z.string().regex(/^[0-9a-f]{64}$/),
    /**
     * What the sessions depend on (identity.ts); absent in directories from
     * before scenario identity, whose `identity` is this alone.
     */
    sessionIdentity: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .optional(),
    campaign: z.object({ id: z.string(), title: z.string(), file: z.string() }).strict(),
    harnessVersion: z.string(),
    invocation: invocationSchema,
    model: z
      .object({
        id: z.string(),
        scripted: z.boolean(),
        policy: z.string().nullable(),
        reason: z.enum(['requested', 'no-api-key', 'live']),
        /** Scheme, host, port and path only: credentials and query are never recorded. */
        baseUrl: z.string().nullable(),
      })
      .strict(),
    /** Each model of a campaign of several (or of one on an endpoint profile); absent otherwise. */
    models: z.array(modelRecordSchema).optional(),
    backend: z.enum(BACKEND_NAMES),
    engine: z.string(),
    sandbox: z.string(),
    reps: z.number().int().positive(),
    concurrency: z.number().int().positive(),
    seed: z.number().int().nonnegative(),
    limits: limitsSchema,
    gates: z.array(gateSchema),
    /**
     * The campaign file's gates an `--only` subset left out (it runs none of
     * their cells); absent for a whole campaign, and in directories from
     * before it was recorded.
     */
    droppedGates: z.array(gateSchema).optional(),
    arms: z.array(
      z
        .object({
          name: z.string(),
          role: z.enum(['red', 'green']),
          label: z.string(),
          layout: z.string(),
          source: skillSourceRecordSchema,
          tree: z.string(),
          /** A library arm: the plugin name it installs under, its overrides, its skills' content hashes. */
          library: z
            .object({
              pluginName: z.string(),
              overrides: z.array(
                z.object({ skill: z.string(), source: skillSourceRecordSchema }).strict(),
              ),
              skills: z.array(
                z.object({ name: z.string(), dir: z.string(), sha256: z.string() }).strict(),
              ),
            })
            .strict()
            .optional(),
        })
        .strict(),
    ),
    scenarios: z.array(z.object(SCENARIO_RECORD_SHAPE).strict()),
    /** Fingerprints by variant key `<recipe>:<scenario>:<layout>`. */
    fixtures: z.record(z.string(), fixtureFingerprintSchema),
    shard: shardSchema.nullable(),
  })
  .strict();
/**
 * A campaign record. Its scenario records also hold the installed packs'
 * identity fields (strings, by name), which the core reads only through
 * identityFieldsOf and so does not type.
 */
export type CampaignRecord = z.infer<typeof coreCampaignRecordSchema>;

/**
 * A scenario record: the core's fields, then each installed pack's identity
 * fields (ScoreContribution.identityFields), a string each and absent when
 * the scenario leaves it out, in installation order (the order a run writes
 * them in). Any other field is refused.
 */
function scenarioRecordSchema(packFields: readonly string[]) {
  const known = [...Object.keys(SCENARIO_RECORD_SHAPE), ...packFields];
  const clash = packFields.find((field) => field in SCENARIO_RECORD_SHAPE);
  if (clash !== undefined) throw new Error(`a pack's identity field ${clash} is a core field`);
  return z.strictObject(
    {
      ...SCENARIO_RECORD_SHAPE,
      ...Object.fromEntries(packFields.map((field) => [field, z.string().optional()])),
    },
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `unknown field ${issue.keys.map((key) => JSON.stringify(key)).join(', ')} (a scenario record holds ${known.join(', ')})`
          : undefined,
    },
  );
}

/** `campaign.json`: what this results directory is a run of, with the installed packs' identity fields. */
export const campaignRecordSchema = derived(
  (): z.ZodType<CampaignRecord> =>
    coreCampaignRecordSchema.extend({
      scenarios: z.array(scenarioRecordSchema(registeredIdentityFields())),
    }),
);

/**
 * Read and validate a results directory's campaign.json; a directory
 * without campaign.json and ledger.jsonl is not a results directory.
 */
export async function readCampaignRecord(
  dir: string,
  input: string,
): Promise<Result<CampaignRecord, InputError>> {
  const layout = resultsLayout(dir);
  if (!existsSync(layout.campaignFile) || !existsSync(layout.journalFile)) {
    return err(
      inputError(
        input,
        `${dir} is not a redgreen results directory (no campaign.json and ledger.jsonl)`,
        'point at a directory `redgreen run` wrote',
      ),
    );
  }
  try {
    return ok(campaignRecordSchema().parse(JSON.parse(await readRegularText(layout.campaignFile))));
  } catch (error) {
    return err(
      inputError(
        layout.campaignFile,
        `is not a valid campaign record (${describeError(error)})`,
        'rerun the campaign with this version of redgreen',
      ),
    );
  }
}
