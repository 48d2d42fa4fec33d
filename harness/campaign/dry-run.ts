import os from 'node:os';
import { detectableEffect } from '../report/stats-power.js';
import { estimateCell, tokenEstimateSource } from './cell-estimate.js';
import { estimateRun } from './estimate.js';
import { planReps, shardOf } from './plan.js';
import type { RunRequest } from './run-request.js';

/** For `--resume --dry-run`: how many of the selected reps are left to run, and how many are recorded. */
export interface ResumeState {
  readonly left: number;
  readonly recorded: number;
}

/**
 * What `run --dry-run` prints: the cells, each with its reps, its estimated
 * tokens a rep and cost (cell-estimate.ts; n/a when scripted) and the
 * smallest effect its reps per arm can detect (0% → X%, 80% power, one-sided
 * Fisher at α = .05, computed); then the sessions, the estimated cost and
 * wall time; with `resume`, of the reps left to run.
 */
export function dryRunLines(request: RunRequest, resume?: ResumeState): string[] {
  const { campaign, shard } = request;
  const plan = planReps(
    campaign.arms.map((arm) => arm.name),
    campaign.scenarios.map((scenario) => scenario.id),
    campaign.reps,
  );
  const selected = shard === null ? plan : shardOf(plan, shard);
  const estimate = estimateRun(
    campaign,
    request.model,
    resume?.left ?? selected.length,
    os.availableParallelism(),
  );
  const lines = [`campaign ${campaign.config.id}: ${campaign.config.title}`];
  const effect = detectableEffect(campaign.reps);
  let cellCost: number | null = 0;
  for (const scenario of campaign.scenarios) {
    const cell = estimateCell(scenario.config.stop, request.model, campaign.reps);
    const figures =
      cell.tokensPerRep === null
        ? 'tokens and cost n/a (scripted)'
        : `~${Math.round(cell.tokensPerRep / 1000)}k tokens/rep, ${cell.costUsd === null ? 'cost n/a (unpriced)' : `$${cell.costUsd.toFixed(2)}`}`;
    for (const arm of campaign.arms) {
      cellCost = cellCost === null || cell.costUsd === null ? null : cellCost + cell.costUsd;
      lines.push(
        `  cell ${scenario.id.toUpperCase()} ${arm.name.toUpperCase()}: ${arm.label} (${arm.source.spec}), fixture ${scenario.config.fixture.scenario}/${arm.layout}, ${campaign.reps} rep(s), ${scenario.config.stop}; ${figures}; detects ${effect}`,
      );
    }
  }
  const sessions =
    resume === undefined
      ? `${selected.length}`
      : `${resume.left} left to run of ${selected.length} (${resume.recorded} already recorded)`;
  // The cells price each session by its stop mode; with the whole plan to run, their sum is the cost.
  const whole = resume === undefined && shard === null;
  const cost = whole && request.model.kind === 'live' ? cellCost : estimate.costUsd;
  lines.push(
    `sessions: ${sessions}${shard ? ` (shard ${shard.index}/${shard.count} of ${plan.length})` : ''}, backend ${campaign.backend}, concurrency ${campaign.concurrency}`,
    `estimated cost: ${cost === null ? 'n/a (unpriced)' : `$${cost.toFixed(2)}`}; estimated wall time: ${Math.ceil(estimate.wallSeconds)} s`,
    `(power: "detects 0%→X%" is the smallest GREEN pass rate over a RED of 0% that ${campaign.reps} rep(s) per arm detect with 80% power, one-sided Fisher at α = 0.05)`,
    `(tokens: ${tokenEstimateSource(request.model)})`,
    `(estimates: ${estimate.assumptions})`,
  );
  return lines;
}
