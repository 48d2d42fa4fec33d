import { z } from 'zod';
import { BACKEND_NAMES } from '../session/session-tool-table.js';

/**
 * The model axis as a campaign file writes it: `models` (each an id, an
 * optional name, an optional endpoint profile and an optional offline
 * stand-in) and `endpoints` (named profiles: where the Messages API is, the
 * NAME of the environment variable holding its key, extra headers, pricing,
 * a concurrency limit, and the Claude Code engine's provider switches for
 * Bedrock and Vertex). A key itself is never part of a campaign file.
 */

/** What tables, gates, `--only model=` and rep directories call a model. */
export const modelNameSchema = z
  .string()
  .regex(
    /^[a-z0-9][a-z0-9-]{0,63}$/,
    'use lower-case letters, digits and dashes (it names rep directories)',
  )
  .refine((name) => name !== 'every', {
    message: '"every" is reserved: a gate naming it means every model',
  });

/** A model id as sent in requests; no spaces or commas (`--model` separates its options with commas). */
export const modelIdSchema = z
  .string()
  .regex(/^[^\s,]+$/, 'a model id has no spaces or commas')
  .max(200);

export const scriptedIdSchema = z
  .string()
  .regex(/^scripted:[a-z][a-z0-9-]*$/, 'write an offline stand-in as scripted:<policy>');

/** The name of an environment variable (never its value). */
export const envNameSchema = z
  .string()
  .regex(/^[A-Z_][A-Z0-9_]*$/, 'give the NAME of an environment variable, e.g. GATEWAY_API_KEY');

/**
 * How a session's cost is counted: `table` (the repository's dated price
 * table, by model id), `unpriced` (cost null, never 0), or prices in USD per
 * million input and output tokens (cache writes and reads at the table's
 * multipliers).
 */
export const pricingConfigSchema = z.union([
  z.literal('table'),
  z.literal('unpriced'),
  z
    .object({ input: z.number().nonnegative(), output: z.number().nonnegative() })
    .strict()
    .describe('USD per million tokens'),
]);
export type PricingConfig = z.infer<typeof pricingConfigSchema>;

/** Headers that would carry a credential: keys go through keyEnv, never the campaign file. */
const CREDENTIAL_HEADERS = new Set(['authorization', 'x-api-key', 'proxy-authorization']);

const headerNameSchema = z
  .string()
  .regex(/^[A-Za-z0-9-]+$/, 'a header name is letters, digits and dashes')
  .refine((name) => !CREDENTIAL_HEADERS.has(name.toLowerCase()), {
    message: 'a credential header does not belong in a campaign file: name its variable in keyEnv',
  })
  .refine((name) => !name.toLowerCase().startsWith('x-redgreen-'), {
    message: 'x-redgreen-* headers are redgreen’s own',
  });

export const endpointProfileSchema = z
  .object({
    description: z.string().optional(),
    /**
     * Which API the engine speaks: `anthropic` (the Messages API: Anthropic,
     * a gateway, or any Anthropic-compatible provider), `bedrock` or
     * `vertex` (the Claude Code engine's own provider switches).
     */
    provider: z.enum(['anthropic', 'bedrock', 'vertex']).default('anthropic'),
    /** The API's base URL; for bedrock and vertex, the engine's ANTHROPIC_BEDROCK/VERTEX_BASE_URL. */
    baseUrl: z
      .url({ protocol: /^https?$/, error: 'give an http:// or https:// URL' })
      .refine((url) => new URL(url).username === '' && new URL(url).password === '', {
        message: 'a base URL carries no credentials: name the key variable in keyEnv',
      })
      .optional(),
    /**
     * The NAME of the variable holding the key (default by provider:
     * ANTHROPIC_API_KEY, AWS_BEARER_TOKEN_BEDROCK, GOOGLE_APPLICATION_CREDENTIALS);
     * null when the credentials come only through passEnv.
     */
    keyEnv: envNameSchema.nullable().optional(),
    /** anthropic only: send the key as `x-api-key` (default) or as `Authorization: Bearer`. */
    auth: z.enum(['api-key', 'bearer']).optional(),
    /** bedrock and vertex: more credential variables passed to the engine under their own names. */
    passEnv: z.array(envNameSchema).optional(),
    /** bedrock: AWS_REGION; vertex: CLOUD_ML_REGION. */
    region: z
      .string()
      .regex(/^[a-z0-9-]+$/, 'a region such as us-east-1')
      .optional(),
    /** vertex: ANTHROPIC_VERTEX_PROJECT_ID. */
    project: z
      .string()
      .regex(/^[a-z0-9-]+$/, 'a Google Cloud project id')
      .optional(),
    /** Extra request headers (routing, team, budget tags); never a credential. */
    headers: z
      .record(headerNameSchema, z.string().regex(/^[^\r\n]*$/, 'a header value is one line'))
      .optional(),
    pricing: pricingConfigSchema.optional(),
    /** At most this many sessions at once on this endpoint (the overall concurrency still applies). */
    concurrency: z.number().int().min(1).max(64).optional(),
  })
  .strict();
export type EndpointProfileConfig = z.infer<typeof endpointProfileSchema>;

export const modelEntrySchema = z
  .object({
    id: modelIdSchema.describe('the model id sent in requests, or scripted:<policy>'),
    name: modelNameSchema.optional().describe('default: the id, lower-cased, dashes for the rest'),
    endpoint: z
      .string()
      .min(1)
      .optional()
      .describe(
        'an endpoint profile named under "endpoints"; none: ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL',
      ),
    offline: scriptedIdSchema
      .optional()
      .describe('the scripted policy that stands in for this model when no key is set'),
    pricing: pricingConfigSchema.optional(),
  })
  .strict();
export type ModelEntryConfig = z.infer<typeof modelEntrySchema>;

/** The campaign file's fields for the model axis (merged into campaignSchema). */
export const modelAxisFields = {
  models: z
    .array(modelEntrySchema)
    .min(1)
    .optional()
    .describe('the models compared; instead of model and offlineModel'),
  endpoints: z
    .record(
      z.string().regex(/^[a-z0-9][a-z0-9-]{0,31}$/, 'name a profile in lower case'),
      endpointProfileSchema,
    )
    .optional(),
};

/** A gate's optional model: a model name, or `every` (the gate must hold on each model). */
export const gateModelField = {
  model: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'a model name, or every')
    .optional(),
  /** In a campaign of several engines: the engine the gate is judged on, or `every` (the default). */
  engine: z.enum([...BACKEND_NAMES, 'every']).optional(),
};
