import path from 'node:path';
import { type Command, Option } from 'commander';
import type { InputError } from '../lib/input-error.js';
import { policyNames } from '../model-server/index.js';
import type { RunRequest } from '../run/run-request.js';
import { BACKEND_NAMES, type BackendName } from '../session/session-tool-table.js';
import { ExitCode, failWithInputError } from './exit.js';
import {
  collect,
  collectNames,
  fraction,
  nonNegativeInt,
  positiveInt,
  positiveNumber,
} from './parse-flags.js';
import { defaultCampaignName, runHelpDefaults } from './run-help-defaults.js';

interface RunFlags {
  reps?: number;
  concurrency?: number;
  model?: string[];
  backend?: BackendName;
  engine?: BackendName[];
  arm?: string[];
  out?: string;
  dryRun?: boolean;
  resume?: string;
  shard?: string;
  only?: string[];
  retryIndeterminate?: number;
  maxCost?: number;
  maxTurns?: number;
  sessionTimeout?: number;
  seed?: number;
  json?: boolean;
  quiet?: boolean;
  keepWorkdirs?: boolean;
  unsafeNoSandbox?: boolean;
  record?: boolean;
  fault?: string[];
  report: boolean;
  gate?: boolean;
  judge?: boolean;
  judgeModel?: string;
  evals?: string[];
  triggers?: string;
  skill?: string;
  old?: string;
  evalArms?: string;
  reach?: string;
  library?: string;
  split?: number;
  splitSeed?: number;
}

export function registerRunCommand(program: Command): void {
  const defaults = runHelpDefaults();
  program
    .command('run')
    .description(
      'run a campaign: N fresh sessions per arm and scenario, each recorded under results/, scored, and summarised. ' +
        "With no ANTHROPIC_API_KEY it runs offline against the scripted model server (the campaign's offlineModel, scripted:skill-reader in the default campaign).",
    )
    .argument('[campaign]', `campaign file (default: ${defaultCampaignName()})`)
    .option(
      '--reps <n>',
      `sessions per cell (arm x scenario) ${defaults.reps}`,
      positiveInt('--reps', 1000),
    )
    .option(
      '--concurrency <n>',
      `sessions running at once ${defaults.concurrency}`,
      positiveInt('--concurrency', 64),
    )
    .option(
      '--model <spec>',
      `a model to run: a model id, then optionally ,endpoint=<profile> ,offline=scripted:<policy> ,name=<name>; or scripted:<policy> for the local model server (policies: ${policyNames().join(', ')}; \`redgreen serve-model --help\` describes them); repeat it to compare models (it replaces the campaign's models; endpoint= names one of the campaign's endpoint profiles) ${defaults.model}`,
      collect,
    )
    .addOption(
      new Option(
        '--backend <name>',
        `session backend: the Claude Code engine, redgreen's own loop on @anthropic-ai/sdk, or the Codex CLI engine (scripted models only, inside bubblewrap) ${defaults.backend}`,
      ).choices([...BACKEND_NAMES]),
    )
    .option(
      '--engine <names>',
      `the engines to run every cell on, each of ${BACKEND_NAMES.join(', ')}: repeat it or give a comma list to compare engines (rep ids, tables and gates then name each engine); it replaces the campaign's engines or backend, and is not given with --backend ${defaults.engines}`,
      collectNames('--engine', BACKEND_NAMES),
    )
    .option(
      '--arm <spec>',
      "replace an arm's text, as <name>=<source>[,label=<text>]: a skill directory, the name of a skill text redgreen ships, or git:<repo>@<ref>:<subdir>; for a library arm, its whole skills library (a directory or git:<repo>@<ref>[:<subdir>] holding skills/<name>/SKILL.md), and <name>:<skill>=<source> replaces one of its skills; the tables name a replaced arm by its label, else by its source and commit (repeatable)",
      collect,
    )
    .option(
      '--out <dir>',
      'results directory, new or empty (default: results/<campaign>-<UTC time>); not with --resume',
    )
    .option(
      '--dry-run',
      'print the cells (each with its reps, estimated tokens a rep and cost, and the smallest effect its reps detect), the estimated cost and time (with --resume: of the reps left), then exit without running',
    )
    .option(
      '--resume <dir>',
      'continue a results directory: run only its missing reps and those whose files are damaged, with its recorded settings (--concurrency, --max-cost and --retry-indeterminate too, unless given again; same campaign identity; a larger --reps extends its schedule)',
    )
    .option(
      '--shard <k/n>',
      'run only the k-th of n deterministic slices of the schedule (merge with redgreen merge)',
    )
    .option(
      '--only <cells>',
      'run only these cells, as scenario=<id>,arm=<name>,model=<name>: the named arms crossed with the named scenarios and models (a key left out means all of it), e.g. --only scenario=s1,arm=green; repeatable, merged into one selection, and refused when that would change the cells the flags name; the subset is part of the campaign identity, and gates about cells it leaves out are dropped',
      collect,
    )
    .option(
      '--retry-indeterminate <k>',
      'rerun reps whose session failed for an infrastructure reason (API errors after retries, engine crash, timeout, harness failure) up to k more times; fails, turn-limit hits and missing replies are never retried (default: 0)',
      nonNegativeInt('--retry-indeterminate', 10),
    )
    .option(
      '--max-cost <usd>',
      `stop dispatching once the priced cost reaches this ${defaults.maxCost}`,
      positiveNumber('--max-cost'),
    )
    .option(
      '--max-turns <n>',
      `per-session turn limit: the controller's turns after each user message; under stop: complete each scripted-user answer or turn gives the controller a fresh budget, so a session may run up to (maxAnswers + declared turns + 1) x maxTurns controller turns, bounded by the session timeout and the cost limits ${defaults.maxTurns}`,
      positiveInt('--max-turns', 500),
    )
    .option(
      '--session-timeout <seconds>',
      `per-session wall-clock limit in seconds ${defaults.sessionTimeout}`,
      positiveNumber('--session-timeout'),
    )
    .option(
      '--seed <n>',
      `seed for the scripted policies' optional extra calls ${defaults.seed}`,
      nonNegativeInt('--seed'),
    )
    .option('--json', 'print progress as JSON event lines on stdout (for machines)')
    .option(
      '--quiet',
      'print only warnings, a heartbeat line every 30 s when stdout is not a terminal, the end summary and the gate line (no per-rep lines, no tables)',
    )
    .option(
      '--keep-workdirs',
      "keep each session's temporary fixture copy and HOME (for debugging), and print where",
    )
    .option(
      '--unsafe-no-sandbox',
      "start even without bubblewrap while a credential variable (ANTHROPIC_API_KEY, ANTHROPIC_AUTH_TOKEN, AWS_*, GOOGLE_*, a profile's key...) is set: the commands a session runs could then read it from redgreen's own environment (README: Sandboxing and secrets)",
    )
    .option(
      '--fault <spec>',
      'inject a fault into the scripted model server, e.g. 429x2, 529x*, drop@2, delay=200ms (harness testing; repeatable)',
      collect,
    )
    .option('--no-report', 'skip writing results.md/csv/json and report.html at the end')
    .option(
      '--record',
      'also write replay.campaign.json into the results directory: the same campaign, each rep answered by the session this run records for it (scripted:replay); `redgreen run <dir>/replay.campaign.json` replays them offline, and a rep whose session no longer fits its recording comes out indeterminate (replay diverged at turn N)',
    )
    .option(
      '--gate',
      'after the run, exit with the code `redgreen gate` gives for its results directory (0 every gate holds, 1 a gate fails, 2 undecided, e.g. reps missing), for CI jobs that call only run',
    )
    .option(
      '--judge',
      "judge each rep as it lands with its scenario's judge (a scripted judge offline), storing judge.json beside score.json; judging cost counts toward --max-cost",
    )
    .option(
      '--judge-model <id>',
      "the judge for every scenario (implies --judge): a model id, or scripted:judge-<name> offline (default: each scenario's judge.model, or judge.offlineModel offline)",
    )
    .option(
      '--evals <skill-dir>',
      "run the skill's own evals/evals.json (skill-creator's format, in every shape authors write it) as a campaign: old (the skill at HEAD) against new (the working tree), judged, gated, with benchmark.json; a path to an eval file works too; repeatable (see `redgreen evals lint`)",
      collect,
    )
    .option(
      '--triggers <file>',
      "run a trigger set ([{query, should_trigger}] and the other shapes authors write) for --skill: each query stopped at the session's first call, old description against new, with precision, recall and F1, and the trigger gates",
    )
    .option('--skill <dir>', 'the skill a --triggers set tests (the folder holding SKILL.md)')
    .option(
      '--old <source>',
      "the old text of --evals / --skill: a git ref of the skill's repository (default HEAD), git:<repo>@<ref>[:<subdir>], or a directory",
    )
    .option(
      '--eval-arms <arms>',
      'the arms of an evals run, comma-separated: old, new, without (no skill); default old,new, or without,new for a skill never committed',
    )
    .addOption(
      new Option(
        '--reach <how>',
        'how an evals run reaches the skill: installed (found by its description among distractor skills, as users meet it; default) or named (the prompt says where it is, as skill-creator does)',
      ).choices(['installed', 'named']),
    )
    .option(
      '--library <dir>',
      "the distractor skills an installed skill sits among (a folder with skills/<name>/SKILL.md; default redgreen's devflow library)",
    )
    .option(
      '--split <fraction>',
      "tune on this share of each label's trigger queries (fixed and seeded) and gate on the rest, e.g. --split 0.6",
      fraction('--split'),
    )
    .option('--split-seed <n>', 'the seed of --split (default: 42)', nonNegativeInt('--split-seed'))
    .addHelpText(
      'after',
      [
        '',
        'Examples:',
        '  redgreen run               # the default campaign (offline without a key)',
        '  redgreen run --dry-run     # what would run, its estimated cost and time',
        '  redgreen run --model scripted:forensic --reps 10',
        '  redgreen run --model scripted:skill-reader --model scripted:literal',
        '  redgreen run sdd-panel --arm red=<dir> --arm green=<dir>',
        '  redgreen run --arm red=git:../superpowers@4118245:skills/sdd,label=released \\',
        '               --arm green=git:../superpowers@e90e40fb:skills/sdd',
        '  redgreen run skill-triggering   # library arms: skills installed as a plugin',
        '  redgreen run skill-triggering --arm red=git:../superpowers@v6.1.1 \\',
        '               --arm green=git:../superpowers@main \\',
        '               --arm green:test-driven-development=<dir>',
        '  redgreen run --resume results/sdd-panel-20261130-101500Z',
        "  redgreen run --evals skills/humanize  # a skill's own evals: HEAD vs work tree",
        '  redgreen run --evals skills/humanize --eval-arms without,old,new --reach named',
        '  redgreen run --triggers skills/humanize/evals/trigger-evals.json \\',
        '               --skill skills/humanize --split 0.6',
        '',
        'Exit status: 0 when every scheduled rep is recorded, 1 when the run stopped',
        'early or reps are missing, 2 for bad input (nothing is built or run). Use',
        '`redgreen gate <dir>`, or --gate, to gate on the results.',
      ].join('\n'),
    )
    .action(async (campaignArg: string | undefined, flags: RunFlags) => {
      process.exitCode = await runAction(campaignArg, flags);
    });
}

async function runAction(campaignArg: string | undefined, flags: RunFlags): Promise<number> {
  const { resolveRunRequest, modelBanner } = await import('../run/run-request.js');
  const cwd = process.cwd();
  const request = await resolveRunRequest(
    {
      campaign: campaignArg,
      reps: flags.reps,
      concurrency: flags.concurrency,
      models: flags.model,
      backend: flags.backend,
      engines: flags.engine,
      arms: flags.arm,
      out: flags.out,
      resume: flags.resume,
      shard: flags.shard,
      maxCost: flags.maxCost,
      maxTurns: flags.maxTurns,
      sessionTimeout: flags.sessionTimeout,
      seed: flags.seed,
      faults: flags.fault,
      only: flags.only,
      retryIndeterminate: flags.retryIndeterminate,
      judge: flags.judge,
      judgeModel: flags.judgeModel,
      evals: {
        evals: flags.evals,
        triggers: flags.triggers,
        skill: flags.skill,
        old: flags.old,
        evalArms: flags.evalArms,
        reach: flags.reach,
        library: flags.library,
        split: flags.split,
        splitSeed: flags.splitSeed,
      },
      dryRun: flags.dryRun,
    },
    cwd,
    process.env,
    new Date(),
  );
  if (!request.ok) return failWithInputError(request.error);
  const { checkTempRoot } = await import('../run/work-root.js');
  const tempRoot = await checkTempRoot();
  if (!tempRoot.ok) {
    await request.value.discard?.();
    return failWithInputError(tempRoot.error);
  }
  if (request.value.resume) {
    // A directory the resume would refuse is refused before any "resuming with …" line.
    const refusal = await resumeRefusal(request.value, process.env, flags.unsafeNoSandbox === true);
    if (refusal !== undefined) {
      await request.value.discard?.();
      return failWithInputError(refusal);
    }
  }
  const log = flags.json ? process.stderr : process.stdout;
  if (flags.quiet !== true || flags.dryRun === true) log.write(`${modelBanner(request.value)}\n`);
  if (request.value.resumeNote !== undefined) log.write(`redgreen: ${request.value.resumeNote}\n`);
  for (const note of request.value.evalsNotes ?? []) log.write(`redgreen: ${note}\n`);
  if (flags.dryRun) {
    try {
      return await dryRun(request.value, log);
    } finally {
      await request.value.discard?.();
    }
  }
  return runNow(request.value, flags, cwd, log);
}

/** `--dry-run`: the cells, estimates and gates out of reach; nothing runs. */
async function dryRun(request: RunRequest, log: NodeJS.WritableStream): Promise<number> {
  const { dryRunLines } = await import('../run/dry-run.js');
  const resume = request.resume ? await resumeState(request) : undefined;
  const { gatesOutOfReach } = await import('../run/gate-reach.js');
  const unreachable = gatesOutOfReach(request.campaign).map((note) => `note: ${note}`);
  log.write(`${[...dryRunLines(request, resume), ...unreachable].join('\n')}\n`);
  return ExitCode.ok;
}

async function runNow(
  request: RunRequest,
  flags: RunFlags,
  cwd: string,
  log: NodeJS.WritableStream,
): Promise<number> {
  const { runCampaign } = await import('../run/run-campaign.js');
  const { RunControl } = await import('../run/run-control.js');
  const { chooseProgressMode, progressReporter } = await import('../run/progress.js');
  const { interruptRequests } = await import('./own-session.js');
  const control = new RunControl();
  const stopListening = interruptRequests((asked) => {
    const state = asked === 'abort' ? control.abort() : control.interrupt();
    process.stderr.write(
      state === 'stopping'
        ? '\nredgreen: stopping after the reps in flight (Ctrl-C again aborts them)\n'
        : '\nredgreen: aborting the reps in flight; they are not recorded and --resume reruns them\n',
    );
  });
  if (control.stopping) {
    stopListening();
    process.stderr.write('redgreen: interrupted before the run started; nothing was run\n');
    return ExitCode.failed;
  }
  const mode = chooseProgressMode({
    json: flags.json === true,
    isTTY: process.stdout.isTTY === true,
    term: process.env.TERM,
  });
  const quiet = flags.quiet === true;
  try {
    const summary = await runCampaign({
      ...request,
      retryIndeterminate: request.invocation.retryIndeterminate ?? 0,
      keepWorkDirs: flags.keepWorkdirs === true,
      unsafeNoSandbox: flags.unsafeNoSandbox === true,
      record: flags.record === true,
      control,
      events: progressReporter(mode, process.stdout, undefined, {
        quiet,
        columns: () => process.stdout.columns,
      }),
      env: process.env,
    });
    if (!summary.ok) return failWithInputError(summary.error);
    // With --gate the run ends with the gate's exit code, so the results are summarised even without reports.
    let gateCode: number | undefined;
    if (flags.report || flags.gate === true) {
      const { gateVerdictLine } = await import('../report/markdown.js');
      const { summariseRun } = await import('./run-summary.js');
      const summarised = await summariseRun(summary.value.outDir, {
        write: flags.report,
        terminal: flags.json || quiet ? undefined : process.stdout,
      });
      if (!summarised.ok) return failWithInputError(summarised.error);
      // The tables carry the gate line; without them it is printed on its own (--quiet, --gate).
      const tablesPrinted = flags.report && !flags.json && !quiet;
      if (!tablesPrinted && ((quiet && !flags.json) || flags.gate === true)) {
        log.write(`${gateVerdictLine(summarised.value)}\n`);
      }
      if (flags.gate === true) gateCode = summarised.value.gates.exitCode;
      else if (summarised.value.gates.outcome === 'fail') {
        // A plain run's exit code says only that its reps were recorded (README "Exit codes").
        process.stderr.write(
          `redgreen: gates failed (${summarised.value.gates.why}); this run still exits 0: run with --gate (or redgreen gate <results dir>) to make a failed gate exit 1\n`,
        );
      } else if (
        summarised.value.gates.outcome === 'undecided' &&
        summary.value.missing === 0 &&
        summarised.value.gates.results.some((gate) => gate.outcome === 'undecided')
      ) {
        // Reps not recorded have their own hint below; a campaign without gates says so in its tables.
        process.stderr.write(
          `redgreen: gates undecided (${summarised.value.gates.why}); this run still exits 0: more reps (--reps, or fewer indeterminate ones) may decide it; run with --gate to make an undecided gate exit 2\n`,
        );
      }
    }
    log.write(`results: ${path.relative(cwd, summary.value.outDir) || '.'}\n`);
    if (summary.value.missing > 0 || summary.value.stoppedEarly) {
      const { judgeFlags, resumeCommand } = await import('./resume-hint.js');
      const { plural } = await import('../lib/plural.js');
      process.stderr.write(
        `redgreen: ${plural(summary.value.missing, 'scheduled rep')} not recorded; to finish the run: ${resumeCommand(summary.value.outDir, cwd, undefined, judgeFlags(flags))}\n`,
      );
      return gateCode ?? ExitCode.failed;
    }
    return gateCode ?? ExitCode.ok;
  } finally {
    stopListening();
  }
}

/** What the resume itself would refuse (a directory of another campaign identity), else undefined. */
async function resumeRefusal(
  request: RunRequest,
  env: NodeJS.ProcessEnv,
  unsafeNoSandbox: boolean,
): Promise<InputError | undefined> {
  const { prepareRunEngines } = await import('../run/run-engines.js');
  const { checkResumable } = await import('../run/prepare-run.js');
  const { backendChoiceFor } = await import('../run/run-campaign.js');
  const { campaign, models } = request;
  // The engines as the real run makes them, for the engines and sandbox the identity records.
  const engines = await prepareRunEngines(
    campaign.engines,
    backendChoiceFor(request, env, unsafeNoSandbox),
  );
  if (!engines.ok) return engines.error;
  const checked = await checkResumable({
    campaign,
    models,
    engine: engines.value.engine,
    sandboxKind: engines.value.first.sandbox.kind,
    outDir: request.outDir,
  });
  return checked.ok ? undefined : checked.error;
}

/** What a resume would still run: the reps of the directory's schedule it lacks or holds damaged. */
async function resumeState(
  request: RunRequest,
): Promise<{ left: number; recorded: number; leftIds: string[] }> {
  const { scheduleRun, shardOf } = await import('../schedule/schedule.js');
  const { pendingReps } = await import('../results/rep-health.js');
  const { shard } = request;
  const schedule = scheduleRun(request.campaign, request.models);
  const selected = shard === null ? schedule : shardOf(schedule, shard);
  const { pending, recorded } = await pendingReps(request.outDir, selected);
  return { left: pending.length, recorded, leftIds: pending.map((item) => item.rep.id) };
}
