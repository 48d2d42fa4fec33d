import type { PricingConfig } from '../campaign/model-config.js';
import type { TokenUsage } from '../session/session-types.js';
import { costUsd, type PricingTable, pricingTable } from './pricing.js';

/**
 * A session's cost under a model's pricing: the repository's dated table
 * (by model id), none (`unpriced`: null, never 0), or an endpoint's own
 * prices per million input and output tokens, with cache writes and reads
 * at the table's multipliers.
 */
export function priceSession(
  pricing: PricingConfig,
  modelId: string,
  usage: TokenUsage | null,
  table: PricingTable = pricingTable(),
): number | null {
  if (pricing === 'unpriced') return null;
  if (pricing === 'table') return costUsd(modelId, usage, table);
  return costUsd(modelId, usage, { ...table, models: { [modelId]: pricing } });
}

/** Whether a model's sessions get a cost at all (before any usage is known). */
export function isPriced(pricing: PricingConfig, modelId: string): boolean {
  return (
    priceSession(pricing, modelId, { input: 0, output: 0, cacheWrite: 0, cacheRead: 0 }) !== null
  );
}
