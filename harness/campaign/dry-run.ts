import os from 'node:os';
import { modelsEstimate } from './dry-run-models.js';
import { planRun, shardOf } from './plan.js';
import type { RunRequest } from './run-request.js';

/** For `--resume --dry-run`: how many of the selected reps are left to run, and how many are recorded. */
export interface ResumeState {
  readonly left: number;
  readonly recorded: number;
  /** The ids of the reps left to run, for the per-model figures. */
  readonly leftIds?: readonly string[];
}

/**
 * What `run --dry-run` prints: the cells, the sessions, and the estimated
 * cost and wall time; with `resume`, of the reps left to run.
 */
export function dryRunLines(request: RunRequest, resume?: ResumeState): string[] {
  const { campaign, shard } = request;
  const plan = planRun(campaign, request.models);
  const selected = shard === null ? plan : shardOf(plan, shard);
  // With --resume, the reps left to run (by id when known, else as many as are left).
  const toRun =
    resume === undefined
      ? selected
      : resume.leftIds === undefined
        ? selected.slice(0, resume.left)
        : selected.filter((rep) => resume.leftIds?.includes(rep.id));
  const { total: estimate, perModel } = modelsEstimate(request, toRun, os.availableParallelism());
  const lines = [`campaign ${campaign.config.id}: ${campaign.config.title}`];
  for (const scenario of campaign.scenarios) {
    for (const arm of campaign.arms) {
      lines.push(
        `  cell ${scenario.id.toUpperCase()} ${arm.name.toUpperCase()}: ${arm.label} (${arm.source.spec}), fixture ${scenario.config.fixture.scenario}/${arm.layout}, ${campaign.reps} rep(s)`,
      );
    }
  }
  const sessions =
    resume === undefined
      ? `${selected.length}`
      : `${resume.left} left to run of ${selected.length} (${resume.recorded} already recorded)`;
  lines.push(
    `sessions: ${sessions}${shard ? ` (shard ${shard.index}/${shard.count} of ${plan.length})` : ''}, backend ${campaign.backend}, concurrency ${campaign.concurrency}`,
    `estimated cost: ${estimate.costUsd === null ? 'n/a (unpriced)' : `$${estimate.costUsd.toFixed(2)}`}; estimated wall time: ${Math.ceil(estimate.wallSeconds)} s`,
    `(estimates: ${estimate.assumptions})`,
    ...perModel,
  );
  return lines;
}
