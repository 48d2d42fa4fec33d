import { z } from 'zod';
import { BACKEND_NAMES } from '../session/session-tool-table.js';
import type { ModelAxis } from './model-axis.js';
import { displayBaseUrl } from './model-choice.js';
import { pricingConfigSchema } from './model-config.js';

/**
 * What `campaign.json` records of each model of a campaign of several
 * models (or of one model on an endpoint profile): its name, what ran
 * (requested id, scripted or live, the live id a stand-in replaced), its
 * endpoint profile and base URL (scheme, host, port and path only), the
 * NAME of its key variable and of its extra headers (never a value), its
 * pricing and concurrency limit. A one-model campaign without a profile
 * records none of this: its campaign.json is as it always was.
 */
export const modelRecordSchema = z
  .object({
    name: z.string(),
    id: z.string(),
    scripted: z.boolean(),
    policy: z.string().nullable(),
    reason: z.enum(['requested', 'no-api-key', 'live']),
    standsInFor: z.string().nullable(),
    endpoint: z.string().nullable(),
    provider: z.enum(['anthropic', 'bedrock', 'vertex']).nullable(),
    baseUrl: z.string().nullable(),
    keyEnv: z.string().nullable(),
    headerNames: z.array(z.string()),
    pricing: pricingConfigSchema,
    concurrency: z.number().int().positive().nullable(),
    /** In a campaign of several engines: the engine this entry ran on (absent before engines). */
    engine: z.enum(BACKEND_NAMES).optional(),
  })
  .strict();
export type ModelRecord = z.infer<typeof modelRecordSchema>;

export function modelRecords(axis: ModelAxis): { models?: ModelRecord[] } {
  if (!axis.multi && axis.all.every((model) => model.endpoint === null)) return {};
  return {
    models: axis.all.map((model) => {
      const { choice, endpoint } = model;
      return {
        name: model.name,
        id: choice.id,
        scripted: choice.kind === 'scripted',
        policy: choice.kind === 'scripted' ? choice.policy : null,
        reason: choice.kind === 'scripted' ? choice.reason : 'live',
        standsInFor: model.standsInFor,
        endpoint: endpoint?.name ?? null,
        provider: endpoint?.provider ?? null,
        baseUrl:
          choice.kind === 'live' && choice.baseUrl !== undefined
            ? displayBaseUrl(choice.baseUrl)
            : null,
        keyEnv:
          choice.kind === 'live'
            ? endpoint === null
              ? 'ANTHROPIC_API_KEY'
              : endpoint.keyEnv
            : null,
        headerNames: Object.keys(endpoint?.headers ?? {}),
        pricing: model.pricing,
        concurrency: endpoint?.concurrency ?? null,
        ...(model.engine === undefined ? {} : { engine: model.engine }),
      };
    }),
  };
}

/**
 * The model names a results directory schedules reps for, or null for a
 * one-model campaign (whose rep ids carry no model): every recorded model,
 * narrowed by the run's `--only model=`.
 */
export function scheduledModelNames(record: {
  readonly models?: readonly { readonly name: string }[] | undefined;
  readonly invocation: {
    readonly only: { readonly models?: readonly string[] | undefined } | null;
  };
}): string[] | null {
  const models = record.models ?? [];
  if (models.length <= 1) return null;
  const only = record.invocation.only?.models ?? [];
  return models
    .map((model) => model.name)
    .filter((name) => only.length === 0 || only.includes(name));
}
