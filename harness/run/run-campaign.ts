import path from 'node:path';
import { credentialVariables } from '../campaign/endpoint-profile.js';
import { checkCostLimitsPriced, costLimitsOfflineNote } from '../estimate/cost-limits.js';
import { readRegularText } from '../lib/contained-file.js';
import { isDiskFull } from '../lib/disk-full.js';
import type { InputError } from '../lib/input-error.js';
import { inputError } from '../lib/input-error.js';
import { removeTree } from '../lib/remove-tree.js';
import { err, ok, type Result } from '../lib/result.js';
import type { Brain } from '../model-server/index.js';
import { pendingReps } from '../results/rep-health.js';
import { appendRepLine, type JournalRepLine, readJournal } from '../results/rep-journal.js';
import { repMetaSchema } from '../results/rep-meta.js';
import { REP_FILES } from '../results/results-layout.js';
import { REPLAY_POLICY, replayBrain } from '../results/run-recordings.js';
import { credentialValues } from '../sandbox/credentials.js';
import { openPathToSandbox } from '../sandbox/sandbox.js';
import { type ScheduledRep, scheduleRun, shardOf } from '../schedule/schedule.js';
import type { BackendChoice } from '../session/create-backend.js';
import { concurrencyLimiter, preflightModels, startModelBrains } from './model-runtime.js';
import { type PreparedRun, prepareRun } from './prepare-run.js';
import { type RepResult, type RunContext, runRep, variantKey } from './rep-runner.js';
import { writeReplayCampaign } from './replay-campaign.js';
import type { RunControl } from './run-control.js';
import { engineForRep, prepareRunEngines } from './run-engines.js';
import type { RunEventSink } from './run-events.js';
import { chooseRunJudges, preflightRunJudging, startRunJudging } from './run-judging.js';
import type { RunRequest } from './run-request.js';
import { startNotices } from './start-notices.js';

export { OFFLINE_API_KEY } from './model-runtime.js';

export interface RunOptions extends RunRequest {
  /** Brains that are data (a scenario's policy files), by the scripted policy name they answer. */
  readonly brains?: ReadonlyMap<string, Brain> | undefined;
  readonly retryIndeterminate: number;
  readonly keepWorkDirs: boolean;
  /** `--unsafe-no-sandbox`: start even without bubblewrap while credentials are set. */
  readonly unsafeNoSandbox: boolean;
  /** `--record`: write replay.campaign.json, this campaign answered by this run's recordings. */
  readonly record?: boolean | undefined;
  readonly control: RunControl;
  readonly events: RunEventSink;
  readonly env: NodeJS.ProcessEnv;
}

export interface RunSummary {
  readonly outDir: string;
  readonly results: readonly RepResult[];
  readonly missing: number;
  readonly stoppedEarly: boolean;
}

/** What createBackend needs to know of a run: live or not, and every credential it may see. */
export function backendChoiceFor(
  request: Pick<RunRequest, 'models'>,
  env: NodeJS.ProcessEnv,
  unsafeNoSandbox: boolean,
): BackendChoice {
  return {
    live: request.models.models.some((model) => model.choice.kind === 'live'),
    env,
    credentialNames: request.models.models.flatMap((model) => credentialVariables(model.endpoint)),
    unsafeNoSandbox,
  };
}

/**
 * Run (or resume) a campaign: prepare the results directory, start each
 * model's brain (a live endpoint, or a scripted model server in-process per
 * scripted model), and dispatch the missing reps of the schedule (or of this
 * shard) interleaved through a pool (and each endpoint profile's own
 * concurrency limit), each landing on disk as it finishes. Then optionally retry reps whose
 * session was indeterminate. Stops dispatching on Ctrl-C or at --max-cost.
 */
export async function runCampaign(options: RunOptions): Promise<Result<RunSummary, InputError>> {
  const { campaign, models, control, events } = options;
  const engines = await prepareRunEngines(
    campaign.engines,
    backendChoiceFor(options, options.env, options.unsafeNoSandbox),
  );
  if (!engines.ok) return engines;
  // The fixtures' git and the sandbox kind are the first engine's (every engine shares the host's sandbox).
  const first = engines.value.first;
  // A cost limit on a model without a price is bad input, before anything is made.
  const priced = checkCostLimitsPriced(campaign.limits, models);
  if (!priced.ok) return priced;
  // The judges are checked before any request: a judge that cannot be used is bad input.
  const judgingSetup =
    options.judge === undefined
      ? undefined
      : chooseRunJudges({
          scenarios: campaign.scenarios,
          requested: options.judge.model,
          runScripted: models.models.every((model) => model.choice.kind === 'scripted'),
          env: options.env,
          maxCostUsd: campaign.limits.maxCostUsd,
        });
  if (judgingSetup !== undefined && !judgingSetup.ok) return judgingSetup;
  // One cheap request per live endpoint first: a bad key stops the run before anything is made.
  const reachable = await preflightModels(models, options.env);
  if (!reachable.ok) return reachable;
  if (judgingSetup !== undefined) {
    const judgesReachable = await preflightRunJudging(judgingSetup.value, options.env);
    if (!judgesReachable.ok) return judgesReachable;
    for (const note of judgesReachable.value) events({ type: 'notice', message: note });
  }
  const prepared = await prepareRun({
    campaign,
    models,
    invocation: options.invocation,
    outDir: options.outDir,
    resume: options.resume,
    shard: options.shard,
    engine: engines.value.engine,
    sandbox: engines.value.sandboxDescription,
    sandboxKind: first.sandbox.kind,
    keepWorkDirs: options.keepWorkDirs,
  });
  if (!prepared.ok) return prepared;
  const run: PreparedRun = prepared.value;
  // Its reps' fixtures lie inside: a sandbox run as another user must reach them.
  await openPathToSandbox(first.sandbox, run.workRoot);
  for (const note of reachable.value) events({ type: 'notice', message: note });
  if (options.record === true) {
    const file = await writeReplayCampaign(campaign, models, run.layout);
    events({ type: 'notice', message: `recording for replay: ${file}` });
  }
  for (const unreadable of campaign.replay?.unreadable ?? []) {
    events({ type: 'notice', message: `no recording to replay for ${unreadable}` });
  }
  const brains = await startModelBrains(models, {
    seed: campaign.seed,
    faults: options.faults,
    env: options.env,
    brains:
      options.brains ??
      (campaign.replay === undefined
        ? undefined
        : new Map([[REPLAY_POLICY, replayBrain(campaign.replay)]])),
  });
  const started = performance.now();
  const judging =
    judgingSetup === undefined
      ? undefined
      : startRunJudging(judgingSetup.value, {
          env: options.env,
          seed: campaign.seed,
          // Judges get a model server of their own: the run's may be injecting faults.
          localUrl: undefined,
          skillDir: (arm) => run.layout.skillDir(arm),
        });
  try {
    const context: RunContext = {
      campaign,
      layout: run.layout,
      backend: first.backend,
      modelOf: brains.modelOf,
      // Every credential in redgreen's environment, not only the run's: none may show in a rep.
      secrets: [...brains.secrets, ...credentialValues(options.env)],
      variants: run.variants,
      skills: run.skills,
      workRoot: run.workRoot,
      sandbox: first.sandbox,
      sandboxDescription: first.sandboxDescription,
      keepWorkDirs: options.keepWorkDirs,
    };
    // Each rep on its entry's engine (a campaign of several engines), else on the run's one.
    const engineByEntry = new Map(models.all.map((model) => [model.name, model.engine]));
    const contextFor = (rep: ScheduledRep): RunContext => {
      if (campaign.engines.length <= 1) return context;
      const prepared = engineForRep(engines.value, engineByEntry.get(rep.model ?? ''), rep);
      return {
        ...context,
        backend: prepared.backend,
        sandbox: prepared.sandbox,
        sandboxDescription: prepared.sandboxDescription,
      };
    };
    const fullSchedule = scheduleRun(campaign, models);
    const schedule = options.shard === null ? fullSchedule : shardOf(fullSchedule, options.shard);
    const { pending } = await pendingReps(run.layout.root, schedule);
    events({
      type: 'run-start',
      campaign: campaign.config.id,
      outDir: run.layout.root,
      model: models.models.map((model) => model.choice.id).join(', '),
      scripted: models.models.every((model) => model.choice.kind === 'scripted'),
      backend: campaign.engines.join(', '),
      total: schedule.length,
      alreadyDone: schedule.length - pending.length,
      toRun: pending.length,
      concurrency: campaign.concurrency,
    });

    for (const message of startNotices({
      campaign,
      models,
      run,
      pending,
      keepWorkDirs: options.keepWorkDirs,
    })) {
      events({ type: 'notice', message });
    }
    const offlineCost = costLimitsOfflineNote(campaign.limits, models);
    if (offlineCost !== undefined) events({ type: 'notice', message: offlineCost });
    const results: RepResult[] = [];
    let spent: number | null = null;
    let diskFull: NodeJS.ErrnoException | undefined;
    const limit = concurrencyLimiter(models, campaign.concurrency);
    const maxCost = campaign.limits.maxCostUsd;

    const runOne = async (rep: ScheduledRep, attempt: number): Promise<void> => {
      if (control.stopping) return;
      events({ type: 'rep-start', id: rep.id, attempt });
      let outcome: Awaited<ReturnType<typeof runRep>>;
      try {
        outcome = await runRep(contextFor(rep), rep, attempt, control.signal);
      } catch (error) {
        if (isDiskFull(error)) {
          // Every rep after it would fail the same way: drop it, start no other, and end.
          diskFull ??= error;
          events({
            type: 'rep-dropped',
            id: rep.id,
            reason: `${error.code}: no space left to write it`,
          });
          if (control.stop(`no space left on device for ${run.layout.root}`))
            events({ type: 'stopping', reason: control.stopReason ?? '' });
          return;
        }
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
      const repCost = outcome.meta.costUsd ?? outcome.meta.engineCostEstimateUsd;
      if (repCost !== null) spent = (spent ?? 0) + repCost;
      const done = (score: RepResult['score']) =>
        events({
          type: 'rep-done',
          id: rep.id,
          attempt,
          verdict: score.verdict,
          reason: score.verdict === 'pass' ? undefined : score.reasons[0],
          toolUses: outcome.meta.toolUses,
          costUsd: repCost,
          durationMs: outcome.meta.durationMs,
        });
      // When the judge decides part of the verdict, the rep is done once it is judged.
      const judgeFirst = judging?.decidesVerdict(rep.scenario) === true;
      if (!judgeFirst) done(outcome.score);
      const fixture = run.variants.get(
        variantKey(outcome.meta.fixture, outcome.meta.fixture.layout),
      );
      const judged =
        fixture === undefined
          ? undefined
          : await judging?.judge({
              id: rep.id,
              scenario: rep.scenario,
              arm: rep.arm,
              dir: path.join(run.layout.root, outcome.line.dir),
              score: outcome.score,
              fixture: fixture.fingerprint,
              signal: control.signal,
            });
      if (judgeFirst) done(judged?.score ?? outcome.score);
      // A verdict the judge decided supersedes the one the rep landed with, as a rescore's does.
      if (judged !== undefined && judged.score.verdict !== outcome.line.verdict) {
        await appendRepLine(run.layout.journalFile, {
          ...outcome.line,
          verdict: judged.score.verdict,
          rescored: true,
        });
      }
      results.push(judged === undefined ? outcome : { ...outcome, score: judged.score });
      if (judged !== undefined) {
        if (judged.judgement.costUsd !== null) spent = (spent ?? 0) + judged.judgement.costUsd;
        events({
          type: 'rep-judged',
          id: rep.id,
          verdict: judged.comparison.judge,
          checks: judged.comparison.checks,
          agreement: judged.comparison.agreement,
          ...(judged.judgement.status !== 'error' &&
          judged.judgement.verdict !== judged.comparison.judge
            ? { overall: judged.judgement.verdict }
            : {}),
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

    await Promise.all(
      pending.map((item) => limit(item.rep.model, () => runOne(item.rep, item.attempt))),
    );

    for (let round = 0; round < options.retryIndeterminate && !control.stopping; round += 1) {
      const current = await readJournal(run.layout.journalFile);
      if (!current.ok) break;
      const retry: ScheduledRep[] = [];
      for (const rep of schedule) {
        const line = current.value.reps.get(rep.id);
        if (line !== undefined && (await infrastructureFailure(run.layout.root, line)))
          retry.push(rep);
      }
      if (retry.length === 0) break;
      await Promise.all(
        retry.map((rep) =>
          limit(rep.model, () => runOne(rep, (current.value.reps.get(rep.id)?.attempt ?? 0) + 1)),
        ),
      );
    }

    if (diskFull !== undefined) {
      return err(
        inputError(
          run.layout.root,
          `ran out of space while writing its reps (${diskFull.code}): the reps it was writing were dropped (nothing of them is recorded) and no other was started`,
          `free space on that disk, then finish the run with \`redgreen run --resume ${run.layout.root}\``,
        ),
      );
    }
    const final = await readJournal(run.layout.journalFile);
    const recorded = final.ok ? schedule.filter((rep) => final.value.reps.has(rep.id)) : [];
    // This run's verdicts as scored last (a judge may have decided part of one); older reps' as recorded.
    const scored = new Map(
      results.map((result) => [`${result.line.id}#${result.line.attempt}`, result.score.verdict]),
    );
    const latest = final.ok
      ? recorded.map((rep) => {
          const line = final.value.reps.get(rep.id);
          return line === undefined
            ? undefined
            : { ...line, verdict: scored.get(`${line.id}#${line.attempt}`) ?? line.verdict };
        })
      : [];
    events({
      type: 'run-end',
      finished: results.length,
      thisRun: {
        pass: results.filter((result) => result.score.verdict === 'pass').length,
        fail: results.filter((result) => result.score.verdict === 'fail').length,
        indeterminate: results.filter((result) => result.score.verdict === 'indeterminate').length,
      },
      recorded: recorded.length,
      planned: schedule.length,
      pass: latest.filter((line) => line?.verdict === 'pass').length,
      fail: latest.filter((line) => line?.verdict === 'fail').length,
      indeterminate: latest.filter((line) => line?.verdict === 'indeterminate').length,
      missing: schedule.length - recorded.length,
      costUsd: spent,
      elapsedMs: performance.now() - started,
    });
    return ok({
      outDir: run.layout.root,
      results,
      missing: schedule.length - recorded.length,
      stoppedEarly: control.stopping,
    });
  } finally {
    await judging?.close();
    await brains.close();
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

async function infrastructureFailure(root: string, line: JournalRepLine): Promise<boolean> {
  if (line.status !== 'indeterminate') return false;
  try {
    const meta = repMetaSchema.parse(
      JSON.parse(await readRegularText(path.join(root, line.dir, REP_FILES.meta))),
    );
    return meta.status.kind === 'indeterminate' && RETRYABLE_STAGES.has(meta.status.stage);
  } catch {
    return false;
  }
}
