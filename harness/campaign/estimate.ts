import type { ResolvedCampaign } from './load-campaign.js';
import type { ModelChoice } from './model-choice.js';
import { costUsd, pricingTable } from './pricing.js';

/**
 * Rough, labelled expectations for a run before it starts (`--dry-run`). The
 * assumptions are printed with the figures; nothing here is a measurement.
 */
export interface RunEstimate {
  readonly sessions: number;
  readonly costUsd: number | null;
  readonly wallSeconds: number;
  readonly assumptions: string;
}

const LIVE_SESSION = { turns: 10, contextTokens: 20_000, outputTokensPerTurn: 400, seconds: 90 };
const SCRIPTED_SESSION_SECONDS = { 'claude-code': 1.5, messages: 0.3 } as const;

export function estimateRun(
  campaign: ResolvedCampaign,
  model: ModelChoice,
  sessions: number,
): RunEstimate {
  const waves = Math.ceil(sessions / campaign.concurrency);
  if (model.kind === 'scripted') {
    const perSession = SCRIPTED_SESSION_SECONDS[campaign.backend];
    return {
      sessions,
      costUsd: null,
      wallSeconds: waves * perSession,
      assumptions: `scripted policy on the local model server: no API cost; about ${perSession} s per session on the ${campaign.backend} backend`,
    };
  }
  const { turns, contextTokens, outputTokensPerTurn, seconds } = LIVE_SESSION;
  const perSession = costUsd(model.id, {
    input: turns * 200,
    cacheWrite: contextTokens + turns * outputTokensPerTurn,
    cacheRead: turns * contextTokens,
    output: turns * outputTokensPerTurn,
  });
  return {
    sessions,
    costUsd: perSession === null ? null : perSession * sessions,
    wallSeconds: waves * seconds,
    assumptions:
      `about ${turns} turns per session over a ${contextTokens / 1000}k-token context, mostly read from the prompt cache, ` +
      `${outputTokensPerTurn} output tokens a turn, ${seconds} s a session; prices as of ${pricingTable().asOf}` +
      (perSession === null ? ` (${model.id} is not in the price table: cost unknown)` : ''),
  };
}
