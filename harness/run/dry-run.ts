import os from 'node:os';
import type { ResolvedArm } from '../campaign/load-campaign.js';
import { estimateCell, tokenEstimateSource } from '../estimate/cell-estimate.js';
import { detectableEffect } from '../report/stats-power.js';
import { scheduleRun, shardOf } from '../schedule/schedule.js';
import { stopText } from '../score/stop-mode.js';
import { modelsEstimate } from './dry-run-models.js';
import type { RunRequest } from './run-request.js';

/** For `--resume --dry-run`: how many of the selected reps are left to run, and how many are recorded. */
export interface ResumeState {
  readonly left: number;
  readonly recorded: number;
  /** The ids of the reps left to run, for the per-model figures. */
  readonly leftIds?: readonly string[];
}

/**
 * What `run --dry-run` prints: the cells, each with its reps, its estimated
 * tokens a rep and cost a rep and a cell (cell-estimate.ts; n/a when
 * scripted) and the
 * smallest effect its reps per arm can detect (0% → X%, 80% power, one-sided
 * Fisher at α = .05, computed); then the sessions, the estimated cost and
 * wall time; with `resume`, of the reps left to run.
 */
/** An arm's text as a cell line names it: its source, and a library's overrides after it. */
function armSourceText(arm: ResolvedArm): string {
  const overrides = arm.library?.overrides ?? [];
  return [
    arm.source.spec,
    ...overrides.map((override) => `${override.skill} from ${override.source.spec}`),
  ].join(', ');
}

export function dryRunLines(request: RunRequest, resume?: ResumeState): string[] {
  const { campaign, shard } = request;
  const schedule = scheduleRun(campaign, request.models);
  const selected = shard === null ? schedule : shardOf(schedule, shard);
  // With --resume, the reps left to run (by id when known, else as many as are left).
  const toRun =
    resume === undefined
      ? selected
      : resume.leftIds === undefined
        ? selected.slice(0, resume.left)
        : selected.filter((rep) => resume.leftIds?.includes(rep.id));
  const {
    total: estimate,
    costUsd: cost,
    perModel,
  } = modelsEstimate(request, toRun, os.availableParallelism());
  const lines = [`campaign ${campaign.config.id}: ${campaign.config.title}`];
  const effect = detectableEffect(campaign.reps);
  const { multi } = request.models;
  for (const model of request.models.models) {
    for (const scenario of campaign.scenarios) {
      const cell = estimateCell(scenario.config.stop, model.choice, campaign.reps, model.pricing);
      // An event stop beside what the same scenario would cost run to completion.
      const whole =
        typeof scenario.config.stop === 'string'
          ? undefined
          : estimateCell('report', model.choice, campaign.reps, model.pricing).tokensPerRep;
      const figures =
        cell.tokensPerRep === null
          ? 'tokens and cost n/a (scripted)'
          : `~${Math.round(cell.tokensPerRep / 1000)}k tokens/rep${whole === undefined || whole === null ? '' : ` (run to completion: ~${Math.round(whole / 1000)}k)`}, ${cell.costPerRepUsd === null || cell.costUsd === null ? 'cost n/a (unpriced)' : `$${cell.costPerRepUsd.toFixed(2)}/rep, $${cell.costUsd.toFixed(2)}/cell`}`;
      for (const arm of campaign.arms) {
        lines.push(
          `  cell ${multi ? `${model.name} ` : ''}${scenario.id.toUpperCase()} ${arm.name.toUpperCase()}: ${arm.label} (${armSourceText(arm)}), fixture ${scenario.config.fixture.scenario}/${arm.layout}, ${campaign.reps} rep(s), ${stopText(scenario.config.stop)}; ${figures}; detects ${effect}`,
        );
      }
    }
  }
  const sessions =
    resume === undefined
      ? `${selected.length}`
      : `${resume.left} left to run of ${selected.length} (${resume.recorded} already recorded)`;
  // The token footnote speaks of a live model's sessions when there is one, and of the stop modes the run has.
  const footnoteModel =
    request.models.models.find((model) => model.choice.kind === 'live') ?? request.models.models[0];
  if (footnoteModel === undefined) throw new Error('a run without a model');
  const stops = [
    ...new Map(
      campaign.scenarios.map((scenario) => [stopText(scenario.config.stop), scenario.config.stop]),
    ).values(),
  ];
  lines.push(
    `sessions: ${sessions}${shard ? ` (shard ${shard.index}/${shard.count} of ${schedule.length})` : ''}, ${campaign.engines.length > 1 ? `engines ${campaign.engines.join(', ')}` : `backend ${campaign.backend}`}, concurrency ${campaign.concurrency}`,
    `estimated cost: ${cost === null ? 'n/a (unpriced)' : `$${cost.toFixed(2)}`}; estimated wall time: ${Math.ceil(estimate.wallSeconds)} s`,
    `(power: "detects 0%→X%" is the smallest GREEN pass rate over a RED of 0% that ${campaign.reps} rep(s) per arm detect with 80% power, one-sided Fisher at α = 0.05)`,
    `(tokens: ${tokenEstimateSource(footnoteModel.choice, stops)})`,
    `(estimates: ${estimate.assumptions})`,
    ...perModel,
  );
  return lines;
}
