import type { ResolvedCampaign } from './load-campaign.js';
import type { ModelChoice } from './model-choice.js';
import { costUsd, pricingTable } from './pricing.js';

/**
 * Rough, labelled expectations for a run before it starts (`--dry-run`). The
 * assumptions are printed with the figures; nothing here is a measurement.
 *
 * Wall time has two bounds and the estimate takes the larger: latency (each
 * rep takes `wallSeconds` even with a core to itself, and `concurrency` reps
 * run at once) and CPU (each rep needs `cpuSeconds` of processor time: the
 * Claude Code engine process, the model-issued commands, the harness's
 * snapshots and scoring; at most `min(concurrency, cores)` reps compute at
 * once). A scripted run is CPU-bound beyond the cores; a live run is bound by
 * the model's latency. Per-rep figures were measured on this project's 2-core
 * machines with offline runs (`node dist/scripts/bench-estimate.js` prints
 * estimate against real runs).
 */
export interface RunEstimate {
  readonly sessions: number;
  readonly costUsd: number | null;
  readonly wallSeconds: number;
  readonly assumptions: string;
}

/** What one rep costs on each backend: wall seconds with a core to itself, and CPU seconds. */
interface RepCost {
  readonly wallSeconds: number;
  readonly cpuSeconds: number;
}

const SCRIPTED_REP: Readonly<Record<ResolvedCampaign['backend'], RepCost>> = {
  'claude-code': { wallSeconds: 1.3, cpuSeconds: 1.2 },
  messages: { wallSeconds: 0.45, cpuSeconds: 0.15 },
};
/** Once per run: loading the campaign, building the fixtures, writing the reports. */
const RUN_SETUP_SECONDS = 2;
const LIVE_SESSION = { turns: 10, contextTokens: 20_000, outputTokensPerTurn: 400, seconds: 90 };

function wallSeconds(sessions: number, concurrency: number, cores: number, rep: RepCost): number {
  if (sessions === 0) return 0;
  const latencyBound = Math.ceil(sessions / concurrency) * rep.wallSeconds;
  const cpuBound = (sessions * rep.cpuSeconds) / Math.max(1, Math.min(concurrency, cores));
  return RUN_SETUP_SECONDS + Math.max(latencyBound, cpuBound);
}

export function estimateRun(
  campaign: Pick<ResolvedCampaign, 'backend' | 'concurrency'>,
  model: ModelChoice,
  sessions: number,
  cores: number,
): RunEstimate {
  const { concurrency, backend } = campaign;
  const machine = `${cores} CPU core${cores === 1 ? '' : 's'} at concurrency ${concurrency}`;
  if (model.kind === 'scripted') {
    const rep = SCRIPTED_REP[backend];
    return {
      sessions,
      costUsd: null,
      wallSeconds: wallSeconds(sessions, concurrency, cores, rep),
      assumptions:
        `scripted policy on the local model server: no API cost; on the ${backend} backend a rep takes about ` +
        `${rep.wallSeconds} s and ${rep.cpuSeconds} CPU s; on ${machine} at most ${Math.min(concurrency, cores)} ` +
        `compute at once; plus ${RUN_SETUP_SECONDS} s of set-up and reports`,
    };
  }
  const { turns, contextTokens, outputTokensPerTurn, seconds } = LIVE_SESSION;
  const perSession = costUsd(model.id, {
    input: turns * 200,
    cacheWrite: contextTokens + turns * outputTokensPerTurn,
    cacheRead: turns * contextTokens,
    output: turns * outputTokensPerTurn,
  });
  const live: RepCost = { wallSeconds: seconds, cpuSeconds: SCRIPTED_REP[backend].cpuSeconds };
  return {
    sessions,
    costUsd: perSession === null ? null : perSession * sessions,
    wallSeconds: wallSeconds(sessions, concurrency, cores, live),
    assumptions:
      `about ${turns} turns per session over a ${contextTokens / 1000}k-token context, mostly read from the prompt cache, ` +
      `${outputTokensPerTurn} output tokens a turn, ${seconds} s a session (${machine}); prices as of ${pricingTable().asOf}` +
      (perSession === null ? ` (${model.id} is not in the price table: cost unknown)` : ''),
  };
}
