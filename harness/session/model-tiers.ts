/**
 * The model a subagent runs on when its dispatch asks for a tier (`model:
 * "opus"` on `Agent`/`Task`), the same on both backends: the messages backend
 * runs the seat on it, and the Claude Code engine gets it through its own
 * tier variables (`ANTHROPIC_DEFAULT_OPUS_MODEL`, `_SONNET_`, `_HAIKU_`,
 * `_FABLE_`), which its Agent tool resolves a tier through. One table here,
 * so the two agree.
 *
 * - A live model on the Messages API: opus, sonnet and haiku are the
 *   current models of the tier (the ids below, dated with the price table);
 *   fable has no public id here and stays on the session's model.
 * - A scripted model (`scripted:<policy>`): every tier is
 *   `scripted:<policy>@<tier>`. The same policy answers (the model server
 *   strips the tier), and the tier is visible to the server in the request
 *   and recorded on the seat as the model it ran on.
 * - Bedrock and Vertex: the engine's own mapping for its provider (the
 *   messages backend does not run them).
 *
 * A dispatch that asks for no tier (or one not listed) runs on the session's
 * model.
 */
import { scriptedTierModelId } from '../model-server/model-id.js';
import type { ModelEndpoint } from './session-types.js';

export const MODEL_TIERS = ['opus', 'sonnet', 'haiku', 'fable'] as const;
export type ModelTier = (typeof MODEL_TIERS)[number];

/** The model each tier means on the Messages API (as of 2026-11; fable: the session's model). */
export const LIVE_TIER_MODELS: Readonly<Record<Exclude<ModelTier, 'fable'>, string>> = {
  opus: 'claude-opus-5-5',
  sonnet: 'claude-sonnet-5-5',
  haiku: 'claude-haiku-5-5',
};

function isTier(value: string): value is ModelTier {
  return (MODEL_TIERS as readonly string[]).includes(value);
}

/** Each tier's model for a session's endpoint; undefined when the engine maps them itself. */
export function tierModels(
  endpoint: ModelEndpoint,
): Readonly<Record<ModelTier, string>> | undefined {
  if (endpoint.provider !== undefined) return undefined;
  if (endpoint.scripted) {
    return {
      opus: scriptedTierModelId(endpoint.id, 'opus'),
      sonnet: scriptedTierModelId(endpoint.id, 'sonnet'),
      haiku: scriptedTierModelId(endpoint.id, 'haiku'),
      fable: scriptedTierModelId(endpoint.id, 'fable'),
    };
  }
  return { ...LIVE_TIER_MODELS, fable: endpoint.id };
}

/** The model a seat runs on: its tier's, or the session's when it asked for none. */
export function modelForTier(endpoint: ModelEndpoint, tier: string | null | undefined): string {
  if (tier === null || tier === undefined || !isTier(tier)) return endpoint.id;
  return tierModels(endpoint)?.[tier] ?? endpoint.id;
}

/** The engine's tier variables for a session's endpoint (none for Bedrock and Vertex). */
export function tierEnvironment(endpoint: ModelEndpoint): Record<string, string> {
  const models = tierModels(endpoint);
  if (models === undefined) return {};
  return Object.fromEntries(
    MODEL_TIERS.map((tier) => [`ANTHROPIC_DEFAULT_${tier.toUpperCase()}_MODEL`, models[tier]]),
  );
}
