import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { formatArmOverride, parseArmOverride } from '../campaign/arm-override.js';
import type { Invocation } from '../campaign/campaign-record.js';
import type { BackendName } from '../campaign/config-schema.js';
import { crossWithEngines } from '../campaign/engine-axis.js';
import {
  type CampaignOverrides,
  defaultCampaignFile,
  loadCampaign,
  type ResolvedCampaign,
} from '../campaign/load-campaign.js';
import { type ModelAxis, resolveModels } from '../campaign/model-axis.js';
import { modelBannerLines } from '../campaign/model-banner.js';
import { gatesForModels } from '../campaign/model-gates-config.js';
import { parseOnly } from '../campaign/only.js';
import { readRecordedInvocation } from '../campaign/recorded-invocation.js';
import {
  type EvalsFlags,
  evalsRequested,
  type PreparedEvals,
  prepareEvalsFromCampaignFile,
  prepareEvalsFromFlags,
  writePreparedEvals,
} from '../evals/evals-run.js';
import { type InputError, inputError } from '../lib/input-error.js';
import { err, ok, type Result } from '../lib/result.js';
import type { Brain } from '../model-server/brain.js';
import { type FaultRuleInput, parseFaultSpec, policyNames } from '../model-server/index.js';
import { checkFreshOutput } from '../results/results-dir.js';
import { EVALS_DIR } from '../results/results-layout.js';
import { REPLAY_POLICY } from '../results/run-recordings.js';
import { parseShard, type Shard } from '../schedule/schedule.js';
import { campaignPolicyFiles, loadCampaignBrains } from './campaign-policy-files.js';

/** What a user asked `redgreen run` for, before anything is resolved. */
export interface RunFlags {
  readonly campaign?: string | undefined;
  readonly reps?: number | undefined;
  readonly concurrency?: number | undefined;
  /** `--model` specs (repeatable): the models to run instead of the campaign's. */
  readonly models?: readonly string[] | undefined;
  readonly backend?: BackendName | undefined;
  /** `--engine` (repeatable or a comma list): the engines to run every cell on, instead of the campaign's. */
  readonly engines?: readonly BackendName[] | undefined;
  readonly arms?: readonly string[] | undefined;
  readonly out?: string | undefined;
  readonly resume?: string | undefined;
  readonly shard?: string | undefined;
  readonly maxCost?: number | undefined;
  readonly maxTurns?: number | undefined;
  readonly sessionTimeout?: number | undefined;
  readonly seed?: number | undefined;
  readonly faults?: readonly string[] | undefined;
  /** `--only` filters: `scenario=<id>,arm=<name>`. */
  readonly only?: readonly string[] | undefined;
  readonly retryIndeterminate?: number | undefined;
  /** `--judge`: judge each rep as it lands. */
  readonly judge?: boolean | undefined;
  /** `--judge-model`: the judge for every scenario (implies `--judge`). */
  readonly judgeModel?: string | undefined;
  /** `--evals`, `--triggers` and their options: a skill's own evals instead of a campaign file. */
  readonly evals?: EvalsFlags | undefined;
  /** `--dry-run`: a campaign generated from evals is written to a temp folder, not the results directory. */
  readonly dryRun?: boolean | undefined;
}

/** A run, fully resolved and checked: nothing is built or started yet. */
export interface RunRequest {
  readonly campaign: ResolvedCampaign;
  /** The models the run compares (one in a one-model campaign). */
  readonly models: ModelAxis;
  readonly shard: Shard | null;
  readonly faults: readonly FaultRuleInput[];
  readonly invocation: Invocation;
  readonly outDir: string;
  readonly resume: boolean;
  /** For a resume: the recorded settings it repeats, and the flags given instead. */
  readonly resumeNote?: string;
  /** `--judge` (given, or repeated by a resume): judge each rep as it lands (`model`: `--judge-model`, else each scenario's judge). */
  readonly judge?: { readonly model: string | undefined } | undefined;
  /** What importing a skill's evals found worth saying (a new skill compared with none, the distractors). */
  readonly evalsNotes?: readonly string[] | undefined;
  /** Remove what the request wrote for a run that does not happen (a dry run's generated campaign). */
  readonly discard?: (() => Promise<void>) | undefined;
  /** Offline brains that are policy files (campaign-policy-files.ts), by the policy name they answer. */
  readonly brains?: ReadonlyMap<string, Brain> | undefined;
}

/**
 * The settings outside the campaign identity a resume repeats unless given
 * again (`--concurrency`, `--max-cost`, `--retry-indeterminate`), in one line.
 */
function resumeSettingsNote(
  previous: Invocation,
  given: {
    concurrency?: number | undefined;
    maxCost?: number | undefined;
    retry?: number | undefined;
    judge?: string | undefined;
  },
): string {
  const settings: [flag: string, recorded: string | undefined, given: number | undefined][] = [
    ['--concurrency', previous.concurrency?.toString(), given.concurrency],
    [
      '--max-cost',
      previous.maxCostUsd === undefined ? undefined : (previous.maxCostUsd?.toString() ?? 'none'),
      given.maxCost,
    ],
    ['--retry-indeterminate', previous.retryIndeterminate?.toString(), given.retry],
  ];
  const judge: [flag: string, recorded: string | undefined, given: string | undefined] = [
    '--judge',
    previous.judge === undefined ? undefined : (previous.judge.model ?? "each scenario's judge"),
    given.judge,
  ];
  const all = [...settings, judge];
  const repeated = all
    .filter(([, recorded, flag]) => recorded !== undefined && flag === undefined)
    .map(([name, recorded]) => `${name} ${recorded}`);
  const replaced = all
    .filter(([, , flag]) => flag !== undefined)
    .map(([name, recorded, flag]) => `${name} ${flag} (recorded: ${recorded ?? 'not recorded'})`);
  return [
    `resuming with the recorded settings: ${repeated.length > 0 ? repeated.join(', ') : 'none beyond the campaign identity'}`,
    ...(replaced.length > 0 ? [`given here instead: ${replaced.join(', ')}`] : []),
  ].join('; ');
}

function utcStamp(date: Date): string {
  return date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z')
    .replace('T', '-');
}

/**
 * An `--arm name=source` with its paths made absolute, so a resume from
 * another directory means the same sources.
 */
export function absoluteArmSpec(text: string, cwd: string): string {
  const parsed = parseArmOverride(text);
  if (!parsed.ok) return text;
  const { spec } = parsed.value;
  // A library's git source may name no subdirectory (`git:<repo>@<ref>`).
  const git = /^git:(.+)@([^@:]+)(:.*)?$/.exec(spec);
  const absolute =
    git !== null
      ? `git:${path.resolve(cwd, git[1] ?? '')}@${git[2]}${git[3] ?? ''}`
      : // A bare name that is no directory here is a shipped skill text: it stays a name.
        spec.startsWith('git:') || (!spec.includes('/') && !existsSync(path.resolve(cwd, spec)))
        ? spec
        : path.resolve(cwd, spec);
  return formatArmOverride({ ...parsed.value, spec: absolute });
}

function sameShard(a: Shard | null, b: Shard | null): boolean {
  return a === null || b === null ? a === b : a.index === b.index && a.count === b.count;
}

/**
 * Turn flags into a checked run request. With `--resume`, the directory's
 * recorded invocation supplies every setting the flags leave out, so
 * `redgreen run --resume <dir>` repeats the run it continues. A skill's own
 * evals (`--evals`, `--triggers`, or a campaign file naming eval files) are
 * imported first and written, as the campaign they become, into the results
 * directory's `evals/` folder (a temp folder for a dry run), which is then
 * the campaign run; it is removed again when the request is refused.
 */
export async function resolveRunRequest(
  flags: RunFlags,
  cwd: string,
  env: NodeJS.ProcessEnv,
  now: Date,
): Promise<Result<RunRequest, InputError>> {
  const evals = await evalsCampaignFor(flags, cwd, now);
  if (!evals.ok) return evals;
  if (evals.value === undefined) return resolveCampaignRequest(flags, cwd, env, now, []);
  const generated = evals.value;
  const resolved = await resolveCampaignRequest(
    {
      ...flags,
      campaign: generated.campaignFile,
      out: generated.outDir,
      // The judge decides the expectations no check can: an evals run with cases judges each rep.
      judge: flags.judge ?? (generated.judged ? true : undefined),
    },
    cwd,
    env,
    now,
    flags.dryRun === true ? [] : [EVALS_DIR],
  );
  if (!resolved.ok) {
    await generated.undo();
    return resolved;
  }
  return ok({ ...resolved.value, evalsNotes: generated.notes, discard: generated.undo });
}

/**
 * The campaign a skill's evals become, written where the run will read it,
 * or undefined when the run names a plain campaign file.
 */
async function evalsCampaignFor(
  flags: RunFlags,
  cwd: string,
  now: Date,
): Promise<
  Result<
    | {
        campaignFile: string;
        outDir: string;
        notes: readonly string[];
        judged: boolean;
        discard: () => Promise<void>;
        undo: () => Promise<void>;
      }
    | undefined,
    InputError
  >
> {
  const asked = flags.evals !== undefined && evalsRequested(flags.evals);
  if (!asked) {
    const stray = evalsOnlyFlag(flags.evals);
    if (stray !== undefined) {
      return err(
        inputError(
          stray,
          "applies to a skill's own evals",
          `add --evals <skill-dir> (or --triggers <file> --skill <dir>), or drop ${stray}`,
        ),
      );
    }
  }
  if (asked && flags.campaign !== undefined) {
    return err(
      inputError(
        '--evals',
        `runs a skill's own evals instead of a campaign file (${flags.campaign} given too)`,
        'give the campaign file or --evals/--triggers, not both',
      ),
    );
  }
  if (asked && flags.resume !== undefined) {
    return err(
      inputError(
        '--evals',
        'cannot be used with --resume: a resume runs the campaign its directory recorded',
        'drop --evals (and its options) to resume',
      ),
    );
  }
  let prepared: PreparedEvals | undefined;
  if (asked && flags.evals !== undefined) {
    const fromFlags = await prepareEvalsFromFlags(flags.evals, cwd);
    if (!fromFlags.ok) return fromFlags;
    prepared = fromFlags.value;
  } else if (flags.resume === undefined && flags.campaign !== undefined) {
    const fromFile = await prepareEvalsFromCampaignFile(path.resolve(cwd, flags.campaign));
    if (fromFile !== undefined && !fromFile.ok) return fromFile;
    prepared = fromFile?.value;
  }
  if (prepared === undefined) return ok(undefined);
  const outDir = path.resolve(
    cwd,
    flags.out ?? path.join('results', `${prepared.id}-${utcStamp(now)}`),
  );
  const fresh = await checkFreshOutput(outDir, '--out', true);
  if (!fresh.ok) return fresh;
  const existed = existsSync(outDir);
  const written = await writePreparedEvals(prepared, outDir, flags.dryRun === true);
  if (!written.ok) return written;
  return ok({
    campaignFile: written.value.campaignFile,
    outDir,
    notes: written.value.notes,
    judged: prepared.options.behaviour.some((item) => item.cases.length > 0),
    discard: written.value.discard,
    undo: async () => {
      await written.value.discard();
      if (flags.dryRun !== true) {
        await rm(path.join(outDir, EVALS_DIR), { recursive: true, force: true });
        if (!existed) await rm(outDir, { recursive: true, force: true });
      }
    },
  });
}

/** An evals option given without --evals or --triggers, by its flag. */
function evalsOnlyFlag(flags: EvalsFlags | undefined): string | undefined {
  if (flags === undefined) return undefined;
  const given: [string, unknown][] = [
    ['--skill', flags.skill],
    ['--old', flags.old],
    ['--eval-arms', flags.evalArms],
    ['--reach', flags.reach],
    ['--library', flags.library],
    ['--split', flags.split],
    ['--split-seed', flags.splitSeed],
  ];
  return given.find(([, value]) => value !== undefined)?.[0];
}

async function resolveCampaignRequest(
  flags: RunFlags,
  cwd: string,
  env: NodeJS.ProcessEnv,
  now: Date,
  generatedEntries: readonly string[],
): Promise<Result<RunRequest, InputError>> {
  let previous: Invocation | undefined;
  if (flags.resume !== undefined) {
    if (flags.out !== undefined) {
      return err(
        inputError(
          '--out',
          `cannot be used with --resume: a resumed run writes into ${flags.resume}`,
          'drop --out to continue that directory, or drop --resume to start a new run in --out',
        ),
      );
    }
    const recorded = await readRecordedInvocation(path.resolve(cwd, flags.resume));
    if (!recorded.ok) return recorded;
    previous = recorded.value;
    if (flags.reps !== undefined && flags.reps < previous.reps) {
      return err(
        inputError(
          `--reps ${flags.reps}`,
          `${flags.resume} schedules ${previous.reps} reps per cell, and a resume cannot shrink its schedule`,
          `resume without --reps, or give --reps ${previous.reps} or more to extend the schedule`,
        ),
      );
    }
  }
  let shard: Shard | null = previous?.shard ?? null;
  if (flags.shard !== undefined) {
    const parsed = parseShard(flags.shard);
    if (parsed === undefined) {
      return err(
        inputError(
          '--shard',
          `"${flags.shard}" is not k/n with 1 <= k <= n`,
          'write it like --shard 2/4',
        ),
      );
    }
    if (previous !== undefined && !sameShard(previous.shard, parsed)) {
      return err(
        inputError(
          '--shard',
          `${flags.resume} holds ${previous.shard === null ? 'a whole campaign' : `shard ${previous.shard.index}/${previous.shard.count}`}, not shard ${parsed.index}/${parsed.count}`,
          'resume it without --shard, and run another shard into its own directory',
        ),
      );
    }
    shard = parsed;
  }
  const faults: FaultRuleInput[] = [];
  for (const spec of flags.faults ?? []) {
    const parsed = parseFaultSpec(spec);
    if (!parsed.ok) return parsed;
    faults.push(parsed.value);
  }

  let only = previous?.only ?? null;
  if (flags.only !== undefined && flags.only.length > 0) {
    const parsed = parseOnly(flags.only);
    if (!parsed.ok) return parsed;
    only = parsed.value;
  }

  const pick = <T>(flag: T | undefined, recorded: T | undefined): T | undefined => flag ?? recorded;
  const arms =
    flags.arms === undefined
      ? (previous?.arms ?? [])
      : flags.arms.map((arm) => absoluteArmSpec(arm, cwd));
  const overrides: CampaignOverrides = { cwd, arms, only };
  const reps = pick(flags.reps, previous?.reps);
  if (flags.backend !== undefined && flags.engines !== undefined && flags.engines.length > 0) {
    return err(
      inputError(
        '--backend and --engine',
        'both name the engine: --backend one, --engine one or several',
        `give only --engine ${[...new Set([flags.backend, ...flags.engines])].join(',')}`,
      ),
    );
  }
  const engines =
    flags.engines !== undefined && flags.engines.length > 0
      ? [...new Set(flags.engines)]
      : flags.backend === undefined
        ? previous?.engines
        : undefined;
  const backend = pick(flags.backend, engines === undefined ? previous?.backend : undefined);
  const seed = pick(flags.seed, previous?.seed);
  const maxTurns = pick(flags.maxTurns, previous?.maxTurns);
  const sessionTimeoutSeconds = pick(flags.sessionTimeout, previous?.sessionTimeoutSeconds);
  const concurrency = pick(flags.concurrency, previous?.concurrency);
  const maxCostUsd = flags.maxCost ?? previous?.maxCostUsd;
  const retryIndeterminate = pick(flags.retryIndeterminate, previous?.retryIndeterminate) ?? 0;
  const judgeGiven =
    flags.judge === true || flags.judgeModel !== undefined
      ? { model: flags.judgeModel ?? null }
      : undefined;
  const judge = judgeGiven ?? previous?.judge;
  const campaignFile = flags.campaign ?? previous?.campaignFile ?? defaultCampaignFile();
  if (campaignFile === undefined) {
    return err(
      inputError(
        'campaign',
        'no campaign file is named, and no installed pack names a default campaign',
        'name one: redgreen run <campaign-file>',
      ),
    );
  }
  const loaded = await loadCampaign(campaignFile, {
    ...overrides,
    ...(reps === undefined ? {} : { reps }),
    ...(concurrency === undefined ? {} : { concurrency }),
    ...(backend === undefined ? {} : { backend }),
    ...(engines === undefined ? {} : { engines }),
    ...(seed === undefined ? {} : { seed }),
    ...(maxTurns === undefined ? {} : { maxTurns }),
    ...(sessionTimeoutSeconds === undefined ? {} : { sessionTimeoutSeconds }),
    ...(maxCostUsd === undefined || maxCostUsd === null ? {} : { maxCostUsd }),
  });
  if (!loaded.ok) return loaded;
  const engineNames = loaded.value.engines;
  const policyFiles = campaignPolicyFiles(loaded.value.file);
  const several = engineNames.length > 1;
  const baseModels = resolveModels({
    config: loaded.value.config,
    campaignFile: loaded.value.file,
    requested:
      flags.models !== undefined && flags.models.length > 0
        ? flags.models
        : (previous?.models ?? (previous === undefined ? undefined : [previous.model])),
    env,
    knownPolicies:
      loaded.value.replay === undefined
        ? [...policyNames(), ...policyFiles.keys()]
        : [REPLAY_POLICY],
    backend: loaded.value.backend,
    // With several engines `--only model=` names an entry of the crossed axis, checked below.
    only: several ? [] : (only?.models ?? []),
  });
  if (!baseModels.ok) return baseModels;
  const models = ok(crossWithEngines(baseModels.value, engineNames, only?.models ?? []));
  for (const wanted of several ? (only?.models ?? []) : []) {
    if (!models.value.all.some((model) => model.name === wanted)) {
      return err(
        inputError(
          `--only model=${wanted}`,
          `the run has no model "${wanted}"`,
          `use one of ${models.value.all.map((model) => model.name).join(', ')}`,
        ),
      );
    }
  }
  const brains = await loadCampaignBrains(
    models.value.all.flatMap((model) =>
      model.choice.kind === 'scripted' ? [model.choice.policy] : [],
    ),
    policyFiles,
  );
  if (!brains.ok) return brains;
  const gates = gatesForModels(loaded.value, models.value);
  if (!gates.ok) return gates;
  const campaign: ResolvedCampaign = { ...loaded.value, ...gates.value };
  const first = models.value.models[0];
  if (first === undefined) throw new Error('a run resolved no model');
  if (faults.length > 0 && models.value.models.some((model) => model.choice.kind !== 'scripted')) {
    return err(
      inputError(
        '--fault',
        'faults are injected into the scripted model server only',
        'use it with --model scripted:<policy>',
      ),
    );
  }
  const outDir = path.resolve(
    cwd,
    flags.resume ?? flags.out ?? path.join('results', `${campaign.config.id}-${utcStamp(now)}`),
  );
  if (flags.resume === undefined) {
    // Checked here, so --dry-run checks it too, and nothing is built for a run that cannot land.
    const fresh = await checkFreshOutput(outDir, '--out', true, generatedEntries);
    if (!fresh.ok) return fresh;
  }
  return ok({
    campaign,
    models: models.value,
    shard,
    faults,
    outDir,
    resume: flags.resume !== undefined,
    ...(previous === undefined
      ? {}
      : {
          resumeNote: resumeSettingsNote(previous, {
            concurrency: flags.concurrency,
            maxCost: flags.maxCost,
            retry: flags.retryIndeterminate,
            judge:
              judgeGiven === undefined ? undefined : (judgeGiven.model ?? "each scenario's judge"),
          }),
        }),
    ...(judge === undefined ? {} : { judge: { model: judge.model ?? undefined } }),
    ...(brains.value.size === 0 ? {} : { brains: brains.value }),
    invocation: {
      campaignFile: campaign.file,
      arms,
      reps: campaign.reps,
      model: first.choice.id,
      // Several models, or one with an endpoint or a name, are recorded as specs, so a resume
      // runs the same ones; a plain one-model run records only `model`, as it always did.
      ...(baseModels.value.all.length > 1 ||
      baseModels.value.all.some((model) => model.spec !== model.choice.id)
        ? { models: baseModels.value.all.map((model) => model.spec) }
        : {}),
      backend: campaign.backend,
      ...(several ? { engines: [...engineNames] } : {}),
      seed: campaign.seed,
      maxTurns: campaign.limits.maxTurns,
      sessionTimeoutSeconds: campaign.limits.sessionTimeoutSeconds,
      shard,
      only,
      concurrency: campaign.concurrency,
      maxCostUsd: campaign.limits.maxCostUsd,
      retryIndeterminate,
      ...(judge === undefined ? {} : { judge }),
    },
  });
}

/** The line every run starts with, saying what the "model" (or each model) is. */
export function modelBanner(request: RunRequest): string {
  return modelBannerLines(request.models, request.campaign).join('\n');
}
