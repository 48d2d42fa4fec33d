import type { ResolvedCampaign } from '../campaign/load-campaign.js';
import type { ModelChoice } from '../campaign/model-choice.js';
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
 * A full session (`stop: complete`) runs a controller and five or six
 * subagent seats and costs several reps' worth: its figures come from the
 * sdd-full-runs campaign at concurrency 1 on the same machine under a load
 * of 8-10 (12 reps a backend), and a live one is assumed to take 10 minutes
 * (the superpowers-evals lab's full sessions took 6-16).
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
  // Scaled from claude-code's by `bench-campaign --overhead-only` on both (codex: 0.6-0.75 of its time).
  codex: { wallSeconds: 0.5, cpuSeconds: 0.9 },
};
/** A full session (stop: complete), scripted: measured as the module comment says. */
const SCRIPTED_FULL_REP: Readonly<Record<ResolvedCampaign['backend'], RepCost>> = {
  'claude-code': { wallSeconds: 8.7, cpuSeconds: 2.9 },
  messages: { wallSeconds: 3.2, cpuSeconds: 0.56 },
  // Not measured on codex yet: assumed to cost what the Claude Code engine's does.
  codex: { wallSeconds: 8.7, cpuSeconds: 2.9 },
};
/** A live full session's wall seconds (assumed, see the module comment). */
const LIVE_FULL_SESSION_SECONDS = 600;
/** Once per run: loading the campaign, building the fixtures, writing the reports. */
const RUN_SETUP_SECONDS = 1;
/** A live session that works and then reports (stop: report): turns, mean context, output a turn, seconds. */
export const LIVE_SESSION = {
  turns: 10,
  contextTokens: 20_000,
  outputTokensPerTurn: 400,
  seconds: 90,
};

/**
 * The larger of the latency and the CPU bound for `sessions` reps, `full` of
 * them full sessions (each at `fullRep`, the rest at `rep`).
 */
function wallSeconds(
  sessions: number,
  concurrency: number,
  cores: number,
  rep: RepCost,
  full = 0,
  fullRep: RepCost = rep,
): number {
  if (sessions === 0) return 0;
  const meanWall = ((sessions - full) * rep.wallSeconds + full * fullRep.wallSeconds) / sessions;
  const latencyBound = Math.ceil(sessions / concurrency) * meanWall;
  const cpuBound =
    ((sessions - full) * rep.cpuSeconds + full * fullRep.cpuSeconds) / Math.max(1, cores);
  return RUN_SETUP_SECONDS + Math.max(latencyBound, cpuBound);
}

/**
 * A rep's cost on a campaign's engines: every cell runs on each, so the mean
 * of theirs; one engine's as it is.
 */
function engineMix(
  table: Readonly<Record<ResolvedCampaign['backend'], RepCost>>,
  engines: readonly ResolvedCampaign['backend'][],
): RepCost {
  const mean = (pick: (cost: RepCost) => number) =>
    Math.round(
      (engines.reduce((sum, engine) => sum + pick(table[engine]), 0) / engines.length) * 100,
    ) / 100;
  return {
    wallSeconds: mean((cost) => cost.wallSeconds),
    cpuSeconds: mean((cost) => cost.cpuSeconds),
  };
}

/** `on the claude-code backend`, or each engine's figure and their mean with several. */
function engineText(
  table: Readonly<Record<ResolvedCampaign['backend'], RepCost>>,
  engines: readonly ResolvedCampaign['backend'][],
): string {
  if (engines.length === 1) return `on the ${engines[0]} backend`;
  const each = engines
    .map(
      (engine) =>
        `${table[engine].wallSeconds} s and ${table[engine].cpuSeconds} CPU s on ${engine}`,
    )
    .join(', ');
  return `on its ${engines.length} engines (${each}; every cell runs on each, so the mean)`;
}

export function estimateRun(
  campaign: Pick<ResolvedCampaign, 'backend' | 'concurrency'> & {
    readonly engines?: readonly ResolvedCampaign['backend'][];
  },
  model: ModelChoice,
  sessions: number,
  cores: number,
  /** How many of the sessions are full sessions (stop: complete). */
  fullSessions = 0,
): RunEstimate {
  const { concurrency, backend } = campaign;
  const engines = campaign.engines ?? [backend];
  const machine = `${cores} CPU core${cores === 1 ? '' : 's'} at concurrency ${concurrency}`;
  if (model.kind === 'scripted') {
    const rep = engineMix(SCRIPTED_REP, engines);
    const full = engineMix(SCRIPTED_FULL_REP, engines);
    const fullText =
      fullSessions === 0
        ? ''
        : `, a full session (stop: complete) about ${full.wallSeconds} s and ${full.cpuSeconds} CPU s`;
    return {
      sessions,
      wallSeconds: wallSeconds(sessions, concurrency, cores, rep, fullSessions, full),
      assumptions:
        `scripted policy on the local model server: no API cost; ${engineText(SCRIPTED_REP, engines)} a rep takes about ` +
        `${rep.wallSeconds} s and ${rep.cpuSeconds} CPU s${fullText} (${machine}: the larger of ` +
        `${concurrency} reps at a time and ${cores} CPU s a second); plus ${RUN_SETUP_SECONDS} s of set-up and reports`,
    };
  }
  const live: RepCost = {
    wallSeconds: LIVE_SESSION.seconds,
    cpuSeconds: engineMix(SCRIPTED_REP, engines).cpuSeconds,
  };
  const liveFull: RepCost = {
    wallSeconds: LIVE_FULL_SESSION_SECONDS,
    cpuSeconds: engineMix(SCRIPTED_FULL_REP, engines).cpuSeconds,
  };
  const fullText =
    fullSessions === 0
      ? ''
      : `, ${LIVE_FULL_SESSION_SECONDS} s a full session (stop: complete; assumed)`;
  // The cost is priced per session from its stop mode's token profile (cell-estimate.ts).
  return {
    sessions,
    wallSeconds: wallSeconds(sessions, concurrency, cores, live, fullSessions, liveFull),
    assumptions:
      `cost per session from its stop mode's token profile (above) at the model's pricing, prices as of ${pricingTable().asOf}; ` +
      `${LIVE_SESSION.seconds} s a session${fullText} (${machine})`,
  };
}
