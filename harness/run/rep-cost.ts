/**
 * What one rep cost. A session whose replies all named one model is priced
 * as before, at the rep model's own rates (its profile's pricing). A full
 * session whose seats ran on other tiers (model-tiers.ts) reports usage per
 * model; then each model's share is priced at that model's rates
 * (RepModel.priceModel) and summed, and the rep's cost is unknown (null) when
 * any share cannot be priced, rather than priced at the wrong rates.
 */
import type { SessionOutcome } from '../session/session-types.js';
import type { RepModel } from './model-runtime.js';

export function repCostUsd(
  model: Pick<RepModel, 'price' | 'priceModel'>,
  outcome: Pick<SessionOutcome, 'usage' | 'usageByModel'>,
): number | null {
  const shares = Object.entries(outcome.usageByModel ?? {});
  if (shares.length < 2) return model.price(outcome.usage);
  let total = 0;
  for (const [modelId, usage] of shares) {
    const cost = model.priceModel(modelId, usage);
    if (cost === null) return null;
    total += cost;
  }
  return total;
}
