import type { CampaignModel } from '../campaign/model-axis.js';
import { sessionCostUsd } from '../estimate/cell-estimate.js';
import { estimateRun, type RunEstimate } from '../estimate/estimate.js';
import { minimumDetectableRate } from '../report/stats-rates.js';
import type { ScheduledRep } from '../schedule/schedule.js';
import type { RunRequest } from './run-request.js';

/**
 * `run --dry-run` for the model axis: the whole run's estimate (one model:
 * exactly what it always was), its cost (each rep to run priced from its
 * scenario's stop-mode profile at its model's pricing, as the cells are),
 * and, for a campaign of several models, one line per model with its
 * sessions, its cost, and the smallest RED→GREEN swing its reps per cell can
 * detect (the same test the per-model tables run).
 */

/** The baseline pass rate the detectable effect is stated from (the README's power line uses it too). */
const BASELINE = 0.2;

function sessionsOf(model: CampaignModel, reps: readonly ScheduledRep[], multi: boolean): number {
  return multi ? reps.filter((rep) => rep.model === model.name).length : reps.length;
}

/** How many of the reps (of one model, in a campaign of several) are full sessions. */
function fullSessionsOf(
  model: CampaignModel | undefined,
  reps: readonly ScheduledRep[],
  request: RunRequest,
): number {
  const full = new Set(
    request.campaign.scenarios
      .filter((scenario) => scenario.config.stop === 'complete')
      .map((scenario) => scenario.id),
  );
  return reps.filter(
    (rep) => full.has(rep.scenario) && (model === undefined || rep.model === model.name),
  ).length;
}

/** A model's reps priced one by one; null when it is scripted or unpriced. */
function costOf(
  model: CampaignModel,
  reps: readonly ScheduledRep[],
  multi: boolean,
  request: RunRequest,
): number | null {
  if (model.choice.kind === 'scripted') return null;
  let total = 0;
  for (const rep of reps) {
    if (multi && rep.model !== model.name) continue;
    const scenario = request.campaign.scenarios.find((candidate) => candidate.id === rep.scenario);
    if (scenario === undefined) throw new Error(`rep ${rep.id} names no scenario of the run`);
    const cost = sessionCostUsd(scenario.config.stop, model.choice, model.pricing);
    if (cost === null) return null;
    total += cost;
  }
  return total;
}

export function modelsEstimate(
  request: RunRequest,
  reps: readonly ScheduledRep[],
  cores: number,
): {
  readonly total: RunEstimate;
  /** The reps' cost in USD; null when no model is live, or a live one is unpriced. */
  readonly costUsd: number | null;
  readonly perModel: readonly string[];
} {
  const { campaign, models } = request;
  const estimates = models.models.map((model) => ({
    model,
    // Each entry's reps on its own engine (a campaign of several engines), else the campaign's.
    estimate: estimateRun(
      { ...campaign, engines: [model.engine ?? campaign.backend] },
      model.choice,
      sessionsOf(model, reps, models.multi),
      cores,
      fullSessionsOf(models.multi ? model : undefined, reps, request),
    ),
    costUsd: costOf(model, reps, models.multi, request),
  }));
  const first = estimates[0];
  if (first === undefined) throw new Error('a run without a model');
  const live = estimates.filter(({ model }) => model.choice.kind === 'live');
  const costUsd =
    live.length === 0 || live.some((entry) => entry.costUsd === null)
      ? null
      : live.reduce((sum, entry) => sum + (entry.costUsd ?? 0), 0);
  if (!models.multi) return { total: first.estimate, costUsd, perModel: [] };
  // The run's wall time is paced by its slowest kind of session (a live one, if any).
  const pace = live[0]?.model ?? first.model;
  const total = estimateRun(
    campaign,
    pace.choice,
    reps.length,
    cores,
    fullSessionsOf(undefined, reps, request),
  );
  const effect = minimumDetectableRate(campaign.reps, BASELINE);
  const detectable =
    effect === null
      ? `even RED ${BASELINE * 100}% → GREEN 100% is detected with probability below 0.8 at ${campaign.reps} rep(s) per arm (one-sided Fisher, α = 0.05)`
      : `smallest detectable effect RED ${BASELINE * 100}% → GREEN ${Math.round(effect * 100)}% (${campaign.reps} rep(s) per arm, power 0.8, one-sided Fisher, α = 0.05)`;
  const perModel = estimates.map(({ model, estimate, costUsd: cost }) => {
    const what =
      model.choice.kind === 'scripted'
        ? `${model.choice.id}${model.standsInFor === null ? '' : ` standing in for ${model.standsInFor}`}`
        : `${model.choice.id}${model.endpoint === null ? '' : ` on endpoint ${model.endpoint.name}`}`;
    const costText =
      model.choice.kind === 'scripted'
        ? 'no API cost'
        : cost === null
          ? 'cost n/a (unpriced)'
          : `estimated cost $${cost.toFixed(2)}`;
    const limit =
      model.endpoint?.concurrency === undefined
        ? ''
        : `; at most ${model.endpoint.concurrency} at once on ${model.endpoint.name}`;
    return `  model ${model.name} (${what}): ${estimate.sessions} session(s), ${costText}; ${detectable}${limit}`;
  });
  return { total, costUsd, perModel };
}
