import type { ResolvedCampaign } from './load-campaign.js';
import type { ModelChoice } from './model-choice.js';
import { pricingTable } from './pricing.js';

/**
 * Rough, labelled expectations for a run before it starts (`--dry-run`). The
 * assumptions are printed with the figures; nothing here is a measurement.
 *
 * Wall time has two bounds and the estimate takes the larger: latency (a rep
 * takes `wallSeconds` even on an idle machine, and `concurrency` reps run at
 * once) and CPU (each rep needs `cpuSeconds` of processor time in its
 * processes: the Claude Code engine, the local model server, the
 * model-issued commands, the harness's snapshots and scoring; the machine
 * has `cores` of it per second). A scripted run is CPU-bound once the cores
 * are busy, so concurrency beyond that buys nothing; a live run is bound by
 * the model's latency. The per-rep figures come from offline runs on this
 * project's 2-core machine when it was quiet: 8 and 20 sessions at
 * concurrency 1, 4 and 8, wall and CPU time of the whole run (`node
 * dist/scripts/bench-estimate.js` prints the estimate against real runs).
 */
export interface RunEstimate {
  readonly sessions: number;
  readonly wallSeconds: number;
  readonly assumptions: string;
}

/** What one rep costs on each backend: wall seconds with a core to itself, and CPU seconds. */
interface RepCost {
  readonly wallSeconds: number;
  readonly cpuSeconds: number;
}

const SCRIPTED_REP: Readonly<Record<ResolvedCampaign['backend'], RepCost>> = {
  'claude-code': { wallSeconds: 0.7, cpuSeconds: 0.95 },
  messages: { wallSeconds: 0.55, cpuSeconds: 0.18 },
};
/** Once per run: loading the campaign, building the fixtures, writing the reports. */
const RUN_SETUP_SECONDS = 1;
/** A live session that works and then reports (stop: report): turns, mean context, output a turn, seconds. */
export const LIVE_SESSION = {
  turns: 10,
  contextTokens: 20_000,
  outputTokensPerTurn: 400,
  seconds: 90,
};

function wallSeconds(sessions: number, concurrency: number, cores: number, rep: RepCost): number {
  if (sessions === 0) return 0;
  const latencyBound = Math.ceil(sessions / concurrency) * rep.wallSeconds;
  const cpuBound = (sessions * rep.cpuSeconds) / Math.max(1, cores);
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
      wallSeconds: wallSeconds(sessions, concurrency, cores, rep),
      assumptions:
        `scripted policy on the local model server: no API cost; on the ${backend} backend a rep takes about ` +
        `${rep.wallSeconds} s and ${rep.cpuSeconds} CPU s (${machine}: the larger of ` +
        `${concurrency} reps at a time and ${cores} CPU s a second); plus ${RUN_SETUP_SECONDS} s of set-up and reports`,
    };
  }
  const live: RepCost = {
    wallSeconds: LIVE_SESSION.seconds,
    cpuSeconds: SCRIPTED_REP[backend].cpuSeconds,
  };
  // The cost is priced per session from its stop mode's token profile (cell-estimate.ts).
  return {
    sessions,
    wallSeconds: wallSeconds(sessions, concurrency, cores, live),
    assumptions:
      `cost per session from its stop mode's token profile (above) at the model's pricing, prices as of ${pricingTable().asOf}; ` +
      `${LIVE_SESSION.seconds} s a session (${machine})`,
  };
}
