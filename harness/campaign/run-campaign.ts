import { readFile } from 'node:fs/promises';
import path from 'node:path';
import pLimit from 'p-limit';
import { planRunJudging, preflightRunJudging, startRunJudging } from '../judge/run-judging.js';
import type { InputError } from '../lib/input-error.js';
import { removeTree } from '../lib/remove-tree.js';
import { ok, type Result } from '../lib/result.js';
import { isPolicyName, type ModelServer, startModelServer } from '../model-server/index.js';
import { createBackend } from '../session/create-backend.js';
import type { ModelEndpoint } from '../session/session-types.js';
import { type LedgerRepLine, readLedger } from './ledger.js';
import type { ModelChoice } from './model-choice.js';
import { type PlannedRep, planReps, shardOf } from './plan.js';
import { preflightEndpoint } from './preflight.js';
import { type PreparedRun, prepareRun } from './prepare-run.js';
import { pendingReps } from './rep-health.js';
import { repMetaSchema } from './rep-meta.js';
import { type RepResult, type RunContext, runRep } from './rep-runner.js';
import { REP_FILES } from './results-layout.js';
import type { RunControl } from './run-control.js';
import type { RunEventSink } from './run-events.js';
import type { RunRequest } from './run-request.js';
import { startNotices } from './start-notices.js';

/** The key sent to the local model server; it is not a secret and unlocks nothing. */
export const OFFLINE_API_KEY = 'redgreen-offline-no-key';

export interface RunOptions extends RunRequest {
  readonly retryIndeterminate: number;
  readonly keepWorkDirs: boolean;
  readonly control: RunControl;
  readonly events: RunEventSink;
  readonly env: NodeJS.ProcessEnv;
  /** `--judge`: judge each rep as it lands (`model`: `--judge-model`, else each scenario's judge). */
  readonly judge?: { readonly model: string | undefined } | undefined;
}

export interface RunSummary {
  readonly outDir: string;
  readonly results: readonly RepResult[];
  readonly missing: number;
  readonly stoppedEarly: boolean;
}

async function startBrain(
  model: ModelChoice,
  options: RunOptions,
): Promise<{ endpoint: ModelEndpoint; server: ModelServer | undefined }> {
  if (model.kind === 'live') {
    return {
      endpoint: {
        id: model.id,
        baseUrl: model.baseUrl,
        apiKey: options.env.ANTHROPIC_API_KEY ?? '',
        scripted: false,
      },
      server: undefined,
    };
  }
  if (!isPolicyName(model.policy)) throw new Error(`unknown policy ${model.policy}`);
  const server = await startModelServer({
    policy: model.policy,
    seed: options.campaign.seed,
    faults: options.faults,
  });
  return {
    endpoint: { id: model.id, baseUrl: server.baseUrl, apiKey: OFFLINE_API_KEY, scripted: true },
    server,
  };
}

/**
 * Run (or resume) a campaign: prepare the results directory, start the brain
 * (a live endpoint, or the scripted model server in-process), and dispatch
 * the missing reps of the plan (or of this shard) interleaved through a pool,
 * each landing on disk as it finishes. Then optionally retry reps whose
 * session was indeterminate. Stops dispatching on Ctrl-C or at --max-cost.
 */
export async function runCampaign(options: RunOptions): Promise<Result<RunSummary, InputError>> {
  const { campaign, model, control, events } = options;
  const backend = await createBackend(
    campaign.backend,
    model.kind === 'live',
    (options.env.ANTHROPIC_API_KEY ?? '').trim() !== '',
  );
  if (!backend.ok) return backend;
  if (model.kind === 'live') {
    // One cheap request first: a bad key or a dead endpoint stops the run before anything is made.
    const reachable = await preflightEndpoint({
      model: model.id,
      baseUrl: model.baseUrl,
      apiKey: options.env.ANTHROPIC_API_KEY ?? '',
    });
    if (!reachable.ok) return reachable;
    if (reachable.value.note !== undefined) {
      events({ type: 'notice', message: reachable.value.note });
    }
  }
  const judgingPlan =
    options.judge === undefined
      ? undefined
      : planRunJudging({
          scenarios: campaign.scenarios,
          requested: options.judge.model,
          runScripted: model.kind === 'scripted',
          env: options.env,
        });
  if (judgingPlan !== undefined && !judgingPlan.ok) return judgingPlan;
  if (judgingPlan !== undefined) {
    const reachable = await preflightRunJudging(judgingPlan.value, options.env);
    if (!reachable.ok) return reachable;
    for (const note of reachable.value) events({ type: 'notice', message: note });
  }
  const prepared = await prepareRun({
    campaign,
    model,
    invocation: options.invocation,
    outDir: options.outDir,
    resume: options.resume,
    shard: options.shard,
    engine: backend.value.engine,
    sandbox: backend.value.sandboxDescription,
    sandboxKind: backend.value.sandbox.kind,
    keepWorkDirs: options.keepWorkDirs,
  });
  if (!prepared.ok) return prepared;
  const run: PreparedRun = prepared.value;
  const brain = await startBrain(model, options);
  const started = performance.now();
  const judging =
    judgingPlan === undefined
      ? undefined
      : startRunJudging(judgingPlan.value, {
          env: options.env,
          seed: campaign.seed,
          localUrl: brain.server?.baseUrl,
          skillDir: (arm) => run.layout.skillDir(arm),
        });
  try {
    const context: RunContext = {
      campaign,
      layout: run.layout,
      backend: backend.value.backend,
      model: brain.endpoint,
      variants: run.variants,
      skills: run.skills,
      workRoot: run.workRoot,
      sandbox: backend.value.sandbox,
      sandboxDescription: backend.value.sandboxDescription,
      keepWorkDirs: options.keepWorkDirs,
    };
    const fullPlan = planReps(
      campaign.arms.map((arm) => arm.name),
      campaign.scenarios.map((scenario) => scenario.id),
      campaign.reps,
    );
    const plan = options.shard === null ? fullPlan : shardOf(fullPlan, options.shard);
    const { pending } = await pendingReps(run.layout.root, plan);
    events({
      type: 'run-start',
      campaign: campaign.config.id,
      outDir: run.layout.root,
      model: model.id,
      scripted: model.kind === 'scripted',
      backend: campaign.backend,
      total: plan.length,
      alreadyDone: plan.length - pending.length,
      toRun: pending.length,
      concurrency: campaign.concurrency,
    });

    for (const message of startNotices({
      campaign,
      model,
      run,
      pending,
      keepWorkDirs: options.keepWorkDirs,
    })) {
      events({ type: 'notice', message });
    }
    const results: RepResult[] = [];
    let spent: number | null = null;
    const limit = pLimit(campaign.concurrency);
    const maxCost = campaign.limits.maxCostUsd;

    const runOne = async (rep: PlannedRep, attempt: number): Promise<void> => {
      if (control.stopping) return;
      events({ type: 'rep-start', id: rep.id, attempt });
      let outcome: Awaited<ReturnType<typeof runRep>>;
      try {
        outcome = await runRep(context, rep, attempt, control.signal);
      } catch (error) {
        events({
          type: 'rep-dropped',
          id: rep.id,
          reason: `harness error: ${error instanceof Error ? error.message : String(error)}`,
        });
        return;
      }
      if ('dropped' in outcome) {
        events({ type: 'rep-dropped', id: rep.id, reason: outcome.dropped });
        return;
      }
      results.push(outcome);
      const repCost = outcome.meta.costUsd ?? outcome.meta.engineCostEstimateUsd;
      if (repCost !== null) spent = (spent ?? 0) + repCost;
      events({
        type: 'rep-done',
        id: rep.id,
        attempt,
        verdict: outcome.score.verdict,
        reason: outcome.score.verdict === 'pass' ? undefined : outcome.score.reasons[0],
        toolUses: outcome.meta.toolUses,
        costUsd: repCost,
        durationMs: outcome.meta.durationMs,
      });
      const judged = await judging?.judge({
        id: rep.id,
        scenario: rep.scenario,
        arm: rep.arm,
        dir: path.join(run.layout.root, outcome.line.dir),
        score: outcome.score,
      });
      if (judged !== undefined) {
        if (judged.judgement.costUsd !== null) spent = (spent ?? 0) + judged.judgement.costUsd;
        events({
          type: 'rep-judged',
          id: rep.id,
          verdict: judged.comparison.judge,
          checks: judged.comparison.checks,
          agreement: judged.comparison.agreement,
          costUsd: judged.judgement.costUsd,
        });
      }
      if (
        maxCost !== null &&
        spent !== null &&
        spent >= maxCost &&
        control.stop(`spent $${(spent as number).toFixed(2)}, at or over --max-cost $${maxCost}`)
      ) {
        events({ type: 'stopping', reason: control.stopReason ?? '' });
      }
    };

    await Promise.all(pending.map((item) => limit(() => runOne(item.rep, item.attempt))));

    for (let round = 0; round < options.retryIndeterminate && !control.stopping; round += 1) {
      const current = await readLedger(run.layout.ledgerFile);
      if (!current.ok) break;
      const retry: PlannedRep[] = [];
      for (const rep of plan) {
        const line = current.value.reps.get(rep.id);
        if (line !== undefined && (await infrastructureFailure(run.layout.root, line)))
          retry.push(rep);
      }
      if (retry.length === 0) break;
      await Promise.all(
        retry.map((rep) =>
          limit(() => runOne(rep, (current.value.reps.get(rep.id)?.attempt ?? 0) + 1)),
        ),
      );
    }

    const final = await readLedger(run.layout.ledgerFile);
    const recorded = final.ok ? plan.filter((rep) => final.value.reps.has(rep.id)) : [];
    const latest = final.ok ? recorded.map((rep) => final.value.reps.get(rep.id)) : [];
    events({
      type: 'run-end',
      finished: results.length,
      thisRun: {
        pass: results.filter((result) => result.score.verdict === 'pass').length,
        fail: results.filter((result) => result.score.verdict === 'fail').length,
        indeterminate: results.filter((result) => result.score.verdict === 'indeterminate').length,
      },
      recorded: recorded.length,
      planned: plan.length,
      pass: latest.filter((line) => line?.verdict === 'pass').length,
      fail: latest.filter((line) => line?.verdict === 'fail').length,
      indeterminate: latest.filter((line) => line?.verdict === 'indeterminate').length,
      missing: plan.length - recorded.length,
      costUsd: spent,
      elapsedMs: performance.now() - started,
    });
    return ok({
      outDir: run.layout.root,
      results,
      missing: plan.length - recorded.length,
      stoppedEarly: control.stopping,
    });
  } finally {
    await judging?.close();
    await brain.server?.close();
    await run.release();
    if (!options.keepWorkDirs) await removeTree(run.workRoot);
  }
}

/**
 * Stages that are the infrastructure's fault and worth another attempt: API
 * errors after retries, an engine crash, a timeout, a harness failure. A
 * session that hit its turn limit or gave no reply did that itself: retrying
 * it would bias results toward short sessions.
 */
const RETRYABLE_STAGES = new Set(['api', 'engine', 'timeout', 'harness']);

async function infrastructureFailure(root: string, line: LedgerRepLine): Promise<boolean> {
  if (line.status !== 'indeterminate') return false;
  try {
    const meta = repMetaSchema.parse(
      JSON.parse(await readFile(path.join(root, line.dir, REP_FILES.meta), 'utf8')),
    );
    return meta.status.kind === 'indeterminate' && RETRYABLE_STAGES.has(meta.status.stage);
  } catch {
    return false;
  }
}
