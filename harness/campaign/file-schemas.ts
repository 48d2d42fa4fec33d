/**
 * The JSON Schemas redgreen publishes for its input files, generated from
 * the zod schemas that validate them (so the two cannot drift): a campaign
 * file (`*.campaign.json`, config-schema.ts) and a scenario file
 * (`scenario.json`, harness/score/scenario-schema.ts with the check
 * language of check-schema.ts). `scripts/write-schemas.ts` writes them to
 * `schemas/`, where a file's `$schema` names them so editors complete and
 * check it; a test keeps the written files equal to these.
 *
 * A JSON Schema says what a file may look like; redgreen's own loading says
 * more (a scenario that exists, a number a pack's catalogue holds, a regular expression
 * that compiles): `redgreen campaign lint` and `redgreen scenario lint` check
 * that.
 */
import { z } from 'zod';
import { scenarioFileSchema } from '../score/scenario-schema.js';
import { campaignSchema } from './config-schema.js';
import { knownMetricNames, metricNameSchema } from './metric-gates-config.js';

export const CAMPAIGN_SCHEMA_FILE = 'campaign.schema.json';
export const SCENARIO_SCHEMA_FILE = 'scenario.schema.json';

function published(schema: z.ZodType, title: string, description: string): object {
  const generated = z.toJSONSchema(schema, {
    io: 'input',
    unrepresentable: 'any',
    // A gate's metric is checked against the metrics known when a file is read: listed here as those now.
    override: ({ zodSchema, jsonSchema }) => {
      if (zodSchema === metricNameSchema) jsonSchema.enum = knownMetricNames();
    },
  }) as Record<string, unknown>;
  const { $schema, ...rest } = generated;
  return {
    $schema,
    title,
    description,
    ...rest,
  };
}

/** The JSON Schema of a campaign file. */
export function campaignJsonSchema(): object {
  return published(
    campaignSchema,
    'redgreen campaign file',
    'A campaign: arms (skill texts) × scenarios × reps, with the model, backend, limits and gates. `redgreen campaign lint <file>` checks what this schema cannot (scenario folders, skill sources, layouts) and dry-runs the schedule.',
  );
}

/** The JSON Schema of a scenario file. */
export function scenarioJsonSchema(): object {
  return published(
    scenarioFileSchema(),
    'redgreen scenario file',
    "A scenario: its fixture, prompt, stop mode, the reply's contract, its checks, observations, calibration and judge, and the fields of the packs it names. `redgreen scenario lint <dir>` checks what this schema cannot and runs the calibration offline.",
  );
}

/** Each published schema: its file name under `schemas/` and its content, as written there. */
export function publishedSchemas(): { file: string; text: string }[] {
  return [
    { file: CAMPAIGN_SCHEMA_FILE, text: `${JSON.stringify(campaignJsonSchema(), null, 2)}\n` },
    { file: SCENARIO_SCHEMA_FILE, text: `${JSON.stringify(scenarioJsonSchema(), null, 2)}\n` },
  ];
}
