import { minimumDetectableRate } from '../report/stats-rates.js';
import { estimateRun, type RunEstimate } from './estimate.js';
import type { CampaignModel } from './model-axis.js';
import type { PlannedRep } from './plan.js';
import type { RunRequest } from './run-request.js';

/**
 * `run --dry-run` for the model axis: the whole run's estimate (one model:
 * exactly what it always was), and, for a campaign of several models, one
 * line per model with its sessions, its cost at its own pricing, and the
 * smallest RED→GREEN swing its reps per cell can detect (the same test the
 * per-model tables run).
 */

/** The baseline pass rate the detectable effect is stated from (the README's power line uses it too). */
const BASELINE = 0.2;

function sessionsOf(model: CampaignModel, reps: readonly PlannedRep[], multi: boolean): number {
  return multi ? reps.filter((rep) => rep.model === model.name).length : reps.length;
}

export function modelsEstimate(
  request: RunRequest,
  reps: readonly PlannedRep[],
  cores: number,
): { readonly total: RunEstimate; readonly perModel: readonly string[] } {
  const { campaign, models } = request;
  const estimates = models.models.map((model) => ({
    model,
    estimate: estimateRun(
      campaign,
      model.choice,
      sessionsOf(model, reps, models.multi),
      cores,
      model.pricing,
    ),
  }));
  const first = estimates[0];
  if (first === undefined) throw new Error('a run without a model');
  if (!models.multi) return { total: first.estimate, perModel: [] };
  // The run's wall time is paced by its slowest kind of session (a live one, if any).
  const pace = estimates.find(({ model }) => model.choice.kind === 'live')?.model ?? first.model;
  const timed = estimateRun(campaign, pace.choice, reps.length, cores, pace.pricing);
  const costs = estimates.map(({ estimate }) => estimate.costUsd);
  const live = estimates.filter(({ model }) => model.choice.kind === 'live');
  const total: RunEstimate = {
    ...timed,
    costUsd:
      live.length === 0 ||
      costs.some((cost, index) => cost === null && estimates[index]?.model.choice.kind === 'live')
        ? null
        : costs.reduce<number>((sum, cost) => sum + (cost ?? 0), 0),
  };
  const effect = minimumDetectableRate(campaign.reps, BASELINE);
  const detectable =
    effect === null
      ? `even RED ${BASELINE * 100}% → GREEN 100% is detected with probability below 0.8 at ${campaign.reps} rep(s) per arm (one-sided Fisher, α = 0.05)`
      : `smallest detectable effect RED ${BASELINE * 100}% → GREEN ${Math.round(effect * 100)}% (${campaign.reps} rep(s) per arm, power 0.8, one-sided Fisher, α = 0.05)`;
  const perModel = estimates.map(({ model, estimate }) => {
    const what =
      model.choice.kind === 'scripted'
        ? `${model.choice.id}${model.standsInFor === null ? '' : ` standing in for ${model.standsInFor}`}`
        : `${model.choice.id}${model.endpoint === null ? '' : ` on endpoint ${model.endpoint.name}`}`;
    const cost =
      model.choice.kind === 'scripted'
        ? 'no API cost'
        : estimate.costUsd === null
          ? 'cost n/a (unpriced)'
          : `estimated cost $${estimate.costUsd.toFixed(2)}`;
    const limit =
      model.endpoint?.concurrency === undefined
        ? ''
        : `; at most ${model.endpoint.concurrency} at once on ${model.endpoint.name}`;
    return `  model ${model.name} (${what}): ${estimate.sessions} session(s), ${cost}; ${detectable}${limit}`;
  });
  return { total, perModel };
}
