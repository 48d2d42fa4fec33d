/**
 * Model tiers, weakest first, kept as data: a dispatch's `model` (a tier
 * alias such as `sonnet`, or a full model id) is placed on this ladder so a
 * check can ask for "at least sonnet". A full id maps through `ids`, else by
 * the tier name it contains as a word (`claude-3-5-sonnet-latest`).
 *
 * `fable` is an Agent `model` value of Claude Code (its tool schema offers
 * sonnet, opus, haiku and fable) and the tier above Opus; Mythos models share
 * Fable's specification, so their ids sit on the same rung.
 */
export const MODEL_TIERS = {
  order: ['haiku', 'sonnet', 'opus', 'fable'],
  ids: {
    'claude-haiku-4-5': 'haiku',
    'claude-haiku-5-5': 'haiku',
    'claude-sonnet-4-5': 'sonnet',
    'claude-sonnet-4-6': 'sonnet',
    'claude-sonnet-5': 'sonnet',
    'claude-sonnet-5-5': 'sonnet',
    'claude-opus-4-5': 'opus',
    'claude-opus-4-6': 'opus',
    'claude-opus-4-7': 'opus',
    'claude-opus-4-8': 'opus',
    'claude-opus-5': 'opus',
    'claude-opus-5-5': 'opus',
    'claude-fable-5': 'fable',
    'claude-fable-5-1': 'fable',
    'claude-fable-5-2': 'fable',
    'claude-mythos-5': 'fable',
    'claude-mythos-5-1': 'fable',
    'claude-mythos-5-2': 'fable',
    'claude-mythos-preview': 'fable',
  },
} as const;

export type ModelTier = (typeof MODEL_TIERS.order)[number];

export function isModelTier(value: string): value is ModelTier {
  return (MODEL_TIERS.order as readonly string[]).includes(value);
}

/** The tier of a model alias or id, or undefined when it is not on the ladder. */
export function tierOf(model: string): ModelTier | undefined {
  const id = model.trim().toLowerCase();
  if (isModelTier(id)) return id;
  const mapped = (MODEL_TIERS.ids as Readonly<Record<string, ModelTier>>)[id];
  if (mapped !== undefined) return mapped;
  return MODEL_TIERS.order.find((tier) => new RegExp(`(?:^|[^a-z])${tier}(?:[^a-z]|$)`).test(id));
}

/** Position on the ladder: 0 for the weakest tier. */
export function tierRank(tier: ModelTier): number {
  return MODEL_TIERS.order.indexOf(tier);
}
