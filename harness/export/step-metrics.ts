/**
 * Token and cost figures for ATIF steps and `final_metrics`, from what the
 * transcript and meta.json recorded. ATIF counts `prompt_tokens` as every
 * input token (uncached + cache writes + cache reads) and `cached_tokens` as
 * the cache reads within it; cache writes go to `metrics.extra`, as the spec
 * asks for provider-specific cost factors. Unknown is null, never 0.
 */

import { costUsd, pricingTable } from '../estimate/pricing.js';
import type { RepMeta } from '../results/rep-meta.js';
import type { TokenUsage } from '../session/session-types.js';
import type { AtifFinalMetrics, AtifMetrics, AtifStep } from './atif-document.js';
import type { AgentTurn } from './transcript-sequence.js';

/**
 * The model id a rep's per-step cost can be priced under, or undefined when
 * it cannot: a scripted policy, a model the price table does not list, no
 * recorded cost, or a price table changed since the run (its `asOf` differs
 * from the rep's `pricingAsOf`), which would price steps differently from
 * the session total.
 */
export function pricedModelOf(meta: RepMeta): string | undefined {
  if (meta.model.scripted || meta.costUsd === null) return undefined;
  const table = pricingTable();
  if (table.asOf !== meta.pricingAsOf) return undefined;
  return table.models[meta.model.requested] === undefined ? undefined : meta.model.requested;
}

/** A turn's metrics, or undefined when its messages carried no usage at all. */
export function turnMetrics(
  turn: AgentTurn,
  pricedModel: string | undefined,
): AtifMetrics | undefined {
  const usage = turn.usage;
  if (usage === undefined) return undefined;
  const completion = turn.usageFinal ? usage.output : null;
  return {
    prompt_tokens: usage.input + usage.cacheWrite + usage.cacheRead,
    completion_tokens: completion,
    cached_tokens: usage.cacheRead,
    cost_usd: pricedModel === undefined || completion === null ? null : costUsd(pricedModel, usage),
    extra: { cache_creation_input_tokens: usage.cacheWrite },
  };
}

type MetricKey = 'prompt_tokens' | 'completion_tokens' | 'cached_tokens';

/** The sum of one metric over the agent steps, or null when a step (or every step) lacks it. */
export function stepSum(steps: readonly AtifStep[], key: MetricKey): number | null {
  const agentSteps = steps.filter((step) => step.source === 'agent');
  if (agentSteps.length === 0) return null;
  let total = 0;
  for (const step of agentSteps) {
    const value = step.metrics?.[key];
    if (value === undefined || value === null) return null;
    total += value;
  }
  return total;
}

/**
 * `final_metrics`: the session totals redgreen recorded in meta.json (the
 * engine's result usage, or the sum of the API's per-turn usage), falling
 * back to the sum over steps when meta.json has none; cost is meta.json's
 * price (null when unpriced).
 */
export function finalMetrics(meta: RepMeta, steps: readonly AtifStep[]): AtifFinalMetrics {
  const tokens: TokenUsage | null = meta.tokens;
  return {
    total_prompt_tokens:
      tokens === null
        ? stepSum(steps, 'prompt_tokens')
        : tokens.input + tokens.cacheWrite + tokens.cacheRead,
    total_completion_tokens: tokens === null ? stepSum(steps, 'completion_tokens') : tokens.output,
    total_cached_tokens: tokens === null ? stepSum(steps, 'cached_tokens') : tokens.cacheRead,
    total_cost_usd: meta.costUsd,
    total_steps: steps.length,
    extra: {
      total_cache_creation_input_tokens: tokens === null ? null : tokens.cacheWrite,
      tokens_estimated: meta.tokensEstimated,
      engine_cost_estimate_usd: meta.engineCostEstimateUsd,
      pricing_as_of: meta.pricingAsOf,
      turns: meta.turns,
    },
  };
}
