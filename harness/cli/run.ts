import path from 'node:path';
import { type Command, Option } from 'commander';
import { ExitCode, failWithInputError } from './exit.js';
import { collect, nonNegativeInt, positiveInt, positiveNumber } from './parse-flags.js';

interface RunFlags {
  reps?: number;
  concurrency?: number;
  model?: string;
  backend?: 'claude-code' | 'messages';
  arm?: string[];
  out?: string;
  dryRun?: boolean;
  resume?: string;
  shard?: string;
  retryIndeterminate: number;
  maxCost?: number;
  maxTurns?: number;
  sessionTimeout?: number;
  seed?: number;
  json?: boolean;
  keepWorkdirs?: boolean;
  fault?: string[];
  report: boolean;
}

function utcStamp(date: Date): string {
  return date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')
    .replace('T', '-');
}

export function registerRunCommand(program: Command): void {
  program
    .command('run')
    .description(
      'run a campaign: N fresh sessions per arm and scenario, each recorded under results/, scored, and summarised.\n' +
        'With no ANTHROPIC_API_KEY it runs offline against the scripted model server (scripted:skill-reader).',
    )
    .argument(
      '[campaign]',
      'campaign file (default: scenarios/plan-scoped-workspace.campaign.json)',
    )
    .option('--reps <n>', 'sessions per cell (arm x scenario)', positiveInt('--reps', 1000))
    .option('--concurrency <n>', 'sessions running at once', positiveInt('--concurrency', 64))
    .option('--model <id>', 'model id, or scripted:<policy> for the local model server')
    .addOption(
      new Option('--backend <name>', 'session backend').choices(['claude-code', 'messages']),
    )
    .option(
      '--arm <name=source>',
      "replace an arm's skill text: a directory or git:<repo>@<ref>:<subdir> (repeatable)",
      collect,
    )
    .option('--out <dir>', 'results directory (default: results/<campaign>-<UTC time>)')
    .option(
      '--dry-run',
      'print the cells, reps, estimated cost and time, then exit without running',
    )
    .option(
      '--resume <dir>',
      'continue a results directory: run only its missing reps (same campaign identity)',
    )
    .option(
      '--shard <k/n>',
      'run only the k-th of n deterministic slices of the plan (merge with redgreen merge)',
    )
    .option(
      '--retry-indeterminate <k>',
      'rerun reps whose session was indeterminate (API errors, timeouts, no reply), up to k more times; fails are never retried',
      nonNegativeInt('--retry-indeterminate', 10),
      0,
    )
    .option(
      '--max-cost <usd>',
      'stop dispatching once the priced cost reaches this',
      positiveNumber('--max-cost'),
    )
    .option('--max-turns <n>', 'per-session turn limit', positiveInt('--max-turns', 500))
    .option(
      '--session-timeout <seconds>',
      'per-session wall-clock limit',
      positiveNumber('--session-timeout'),
    )
    .option(
      '--seed <n>',
      "seed for the scripted policies' optional extra calls",
      nonNegativeInt('--seed'),
    )
    .option('--json', 'print progress as JSON event lines on stdout (for machines)')
    .option(
      '--keep-workdirs',
      "keep each session's temporary fixture copy and HOME (for debugging)",
    )
    .option(
      '--fault <spec>',
      'inject a fault into the scripted model server, e.g. 429x2, 529x*, drop@2, delay=200ms (harness testing; repeatable)',
      collect,
    )
    .option('--no-report', 'skip writing results.md/csv/json and report.html at the end')
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  redgreen run                                  # the default campaign (offline without a key)',
        '  redgreen run --dry-run                        # what would run, and its estimated cost and time',
        '  redgreen run --model scripted:forensic --reps 10',
        '  redgreen run --arm red=git:../superpowers@4118245:skills/subagent-driven-development \\',
        '               --arm green=git:../superpowers@e90e40fb:skills/subagent-driven-development',
        '  redgreen run --resume results/plan-scoped-workspace-20261130-101500Z',
        '',
        'Exit status: 0 when every planned rep is recorded, 1 when the run stopped early or reps are missing,',
        '2 for bad input (nothing is built or run). Use `redgreen gate <dir>` to gate on the results.',
      ].join('\n'),
    )
    .action(async (campaignArg: string | undefined, flags: RunFlags) => {
      process.exitCode = await runAction(campaignArg, flags);
    });
}

async function runAction(campaignArg: string | undefined, flags: RunFlags): Promise<number> {
  const { loadCampaign, defaultCampaignFile } = await import('../campaign/load-campaign.js');
  const { chooseModel } = await import('../campaign/model-choice.js');
  const { parseShard, planReps, shardOf } = await import('../campaign/plan.js');
  const { policyNames, parseFaultSpec } = await import('../model-server/index.js');
  const { inputError } = await import('../lib/input-error.js');
  const { readRecordedInvocation } = await import('../campaign/recorded-invocation.js');

  const cwd = process.cwd();
  const recorded =
    flags.resume === undefined
      ? undefined
      : await readRecordedInvocation(path.resolve(cwd, flags.resume));
  if (recorded !== undefined && !recorded.ok) return failWithInputError(recorded.error);
  const previous = recorded?.value;

  const shard = flags.shard === undefined ? null : parseShard(flags.shard);
  if (shard === undefined) {
    return failWithInputError(
      inputError(
        '--shard',
        `"${flags.shard}" is not k/n with 1 <= k <= n`,
        'write it like --shard 2/4',
      ),
    );
  }
  const faults = [];
  for (const spec of flags.fault ?? []) {
    const parsed = parseFaultSpec(spec);
    if (!parsed.ok) return failWithInputError(parsed.error);
    faults.push(parsed.value);
  }

  const campaignFile = campaignArg ?? previous?.campaignFile ?? defaultCampaignFile();
  const loaded = await loadCampaign(campaignFile, {
    cwd,
    ...(flags.reps !== undefined ? { reps: flags.reps } : previous ? { reps: previous.reps } : {}),
    ...(flags.concurrency === undefined ? {} : { concurrency: flags.concurrency }),
    ...(flags.backend !== undefined
      ? { backend: flags.backend }
      : previous
        ? { backend: previous.backend }
        : {}),
    ...(flags.seed !== undefined ? { seed: flags.seed } : previous ? { seed: previous.seed } : {}),
    ...(flags.maxTurns !== undefined
      ? { maxTurns: flags.maxTurns }
      : previous
        ? { maxTurns: previous.maxTurns }
        : {}),
    ...(flags.sessionTimeout !== undefined
      ? { sessionTimeoutSeconds: flags.sessionTimeout }
      : previous
        ? { sessionTimeoutSeconds: previous.sessionTimeoutSeconds }
        : {}),
    ...(flags.maxCost === undefined ? {} : { maxCostUsd: flags.maxCost }),
    arms: flags.arm ?? previous?.arms ?? [],
  });
  if (!loaded.ok) return failWithInputError(loaded.error);
  const campaign = loaded.value;

  const model = chooseModel({
    requested: flags.model ?? previous?.model,
    campaignModel: campaign.config.model,
    offlineModel: campaign.config.offlineModel,
    env: process.env,
    knownPolicies: policyNames,
  });
  if (!model.ok) return failWithInputError(model.error);
  if (faults.length > 0 && model.value.kind !== 'scripted') {
    return failWithInputError(
      inputError(
        '--fault',
        'faults are injected into the scripted model server only',
        'use it with --model scripted:<policy>',
      ),
    );
  }

  const banner =
    model.value.kind === 'scripted'
      ? model.value.reason === 'no-api-key'
        ? `redgreen: no ANTHROPIC_API_KEY set, so this run is OFFLINE: the "model" is ${model.value.id}, a scripted policy on redgreen's local model server, not a real model. Set ANTHROPIC_API_KEY to run ${campaign.config.model}.`
        : `redgreen: model ${model.value.id} is a scripted policy on redgreen's local model server, not a real model.`
      : `redgreen: live run with ${model.value.id}${model.value.baseUrl ? ` at ${model.value.baseUrl}` : ''}: real API calls, real cost.`;
  const log = flags.json ? process.stderr : process.stdout;
  log.write(`${banner}\n`);

  const plan = planReps(
    campaign.arms.map((arm) => arm.name),
    campaign.scenarios.map((s) => s.id),
    campaign.reps,
  );
  const selected = shard === null ? plan : shardOf(plan, shard);
  if (flags.dryRun) {
    const { estimateRun } = await import('../campaign/estimate.js');
    const estimate = estimateRun(campaign, model.value, selected.length);
    log.write(`campaign ${campaign.config.id}: ${campaign.config.title}\n`);
    for (const scenario of campaign.scenarios) {
      for (const arm of campaign.arms) {
        log.write(
          `  cell ${scenario.id.toUpperCase()} ${arm.name.toUpperCase()}: ${arm.label} (${arm.source.spec}), fixture ${scenario.config.fixture.scenario}/${arm.layout}, ${campaign.reps} rep(s)\n`,
        );
      }
    }
    log.write(
      `sessions: ${selected.length}${shard ? ` (shard ${shard.index}/${shard.count} of ${plan.length})` : ''}, backend ${campaign.backend}, concurrency ${campaign.concurrency}\n` +
        `estimated cost: ${estimate.costUsd === null ? 'n/a (unpriced)' : `$${estimate.costUsd.toFixed(2)}`}; estimated wall time: ${Math.ceil(estimate.wallSeconds)} s\n` +
        `(estimates: ${estimate.assumptions})\n`,
    );
    return ExitCode.ok;
  }

  const { runCampaign } = await import('../campaign/run-campaign.js');
  const { RunControl } = await import('../campaign/run-control.js');
  const { progressReporter } = await import('../campaign/progress.js');
  const outDir = path.resolve(
    cwd,
    flags.resume ??
      flags.out ??
      path.join('results', `${campaign.config.id}-${utcStamp(new Date())}`),
  );
  const control = new RunControl();
  const onSigint = (): void => {
    const state = control.interrupt();
    process.stderr.write(
      state === 'stopping'
        ? '\nredgreen: stopping after the reps in flight (Ctrl-C again aborts them)\n'
        : '\nredgreen: aborting the reps in flight; they are not recorded and --resume reruns them\n',
    );
  };
  process.on('SIGINT', onSigint);
  process.on('SIGTERM', onSigint);
  const mode = flags.json ? 'json' : process.stdout.isTTY ? 'tty' : 'plain';
  try {
    const summary = await runCampaign({
      campaign,
      model: model.value,
      invocation: {
        campaignFile: campaign.file,
        arms: flags.arm ?? previous?.arms ?? [],
        reps: campaign.reps,
        model: model.value.id,
        backend: campaign.backend,
        seed: campaign.seed,
        maxTurns: campaign.limits.maxTurns,
        sessionTimeoutSeconds: campaign.limits.sessionTimeoutSeconds,
      },
      outDir,
      resume: flags.resume !== undefined,
      shard,
      retryIndeterminate: flags.retryIndeterminate,
      keepWorkDirs: flags.keepWorkdirs === true,
      faults,
      control,
      events: progressReporter(mode, process.stdout),
      env: process.env,
    });
    if (!summary.ok) return failWithInputError(summary.error);
    if (flags.report) {
      const { writeReports } = await import('../report/write-reports.js');
      const report = await writeReports(summary.value.outDir, {
        terminal: flags.json ? undefined : process.stdout,
      });
      if (!report.ok) return failWithInputError(report.error);
    }
    log.write(`results: ${path.relative(cwd, summary.value.outDir) || '.'}\n`);
    return summary.value.missing > 0 || summary.value.stoppedEarly ? ExitCode.failed : ExitCode.ok;
  } finally {
    process.off('SIGINT', onSigint);
    process.off('SIGTERM', onSigint);
  }
}
