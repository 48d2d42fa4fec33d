import path from 'node:path';
import { type InputError, inputError } from '../lib/input-error.js';
import { err, ok, type Result } from '../lib/result.js';
import { type FaultRuleInput, parseFaultSpec, policyNames } from '../model-server/index.js';
import type { Invocation } from './campaign-record.js';
import type { BackendName } from './config-schema.js';
import {
  type CampaignOverrides,
  defaultCampaignFile,
  loadCampaign,
  type ResolvedCampaign,
} from './load-campaign.js';
import { chooseModel, displayBaseUrl, type ModelChoice } from './model-choice.js';
import { parseOnly } from './only.js';
import { parseShard, type Shard } from './plan.js';
import { readRecordedInvocation } from './recorded-invocation.js';
import { checkFreshOutput } from './results-dir.js';

/** What a user asked `redgreen run` for, before anything is resolved. */
export interface RunFlags {
  readonly campaign?: string | undefined;
  readonly reps?: number | undefined;
  readonly concurrency?: number | undefined;
  readonly model?: string | undefined;
  readonly backend?: BackendName | undefined;
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
}

/** A run, fully resolved and checked: nothing is built or started yet. */
export interface RunRequest {
  readonly campaign: ResolvedCampaign;
  readonly model: ModelChoice;
  readonly shard: Shard | null;
  readonly faults: readonly FaultRuleInput[];
  readonly invocation: Invocation;
  readonly outDir: string;
  readonly resume: boolean;
  /** For a resume: the recorded settings it repeats, and the flags given instead. */
  readonly resumeNote?: string;
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
  const repeated = settings
    .filter(([, recorded, flag]) => recorded !== undefined && flag === undefined)
    .map(([name, recorded]) => `${name} ${recorded}`);
  const replaced = settings
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
  const index = text.indexOf('=');
  if (index <= 0) return text;
  const name = text.slice(0, index);
  const source = text.slice(index + 1);
  const git = /^git:(.+)@([^@:]+):(.*)$/.exec(source);
  if (git !== null) return `${name}=git:${path.resolve(cwd, git[1] ?? '')}@${git[2]}:${git[3]}`;
  return source.startsWith('git:') ? text : `${name}=${path.resolve(cwd, source)}`;
}

function sameShard(a: Shard | null, b: Shard | null): boolean {
  return a === null || b === null ? a === b : a.index === b.index && a.count === b.count;
}

/**
 * Turn flags into a checked run request. With `--resume`, the directory's
 * recorded invocation supplies every setting the flags leave out, so
 * `redgreen run --resume <dir>` repeats the run it continues.
 */
export async function resolveRunRequest(
  flags: RunFlags,
  cwd: string,
  env: NodeJS.ProcessEnv,
  now: Date,
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
          `${flags.resume} plans ${previous.reps} reps per cell, and a resume cannot shrink its plan`,
          `resume without --reps, or give --reps ${previous.reps} or more to extend the plan`,
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
  const backend = pick(flags.backend, previous?.backend);
  const seed = pick(flags.seed, previous?.seed);
  const maxTurns = pick(flags.maxTurns, previous?.maxTurns);
  const sessionTimeoutSeconds = pick(flags.sessionTimeout, previous?.sessionTimeoutSeconds);
  const concurrency = pick(flags.concurrency, previous?.concurrency);
  const maxCostUsd = flags.maxCost ?? previous?.maxCostUsd;
  const retryIndeterminate = pick(flags.retryIndeterminate, previous?.retryIndeterminate) ?? 0;
  const loaded = await loadCampaign(
    flags.campaign ?? previous?.campaignFile ?? defaultCampaignFile(),
    {
      ...overrides,
      ...(reps === undefined ? {} : { reps }),
      ...(concurrency === undefined ? {} : { concurrency }),
      ...(backend === undefined ? {} : { backend }),
      ...(seed === undefined ? {} : { seed }),
      ...(maxTurns === undefined ? {} : { maxTurns }),
      ...(sessionTimeoutSeconds === undefined ? {} : { sessionTimeoutSeconds }),
      ...(maxCostUsd === undefined || maxCostUsd === null ? {} : { maxCostUsd }),
    },
  );
  if (!loaded.ok) return loaded;
  const campaign = loaded.value;
  const model = chooseModel({
    requested: pick(flags.model, previous?.model),
    campaignModel: campaign.config.model,
    offlineModel: campaign.config.offlineModel,
    env,
    knownPolicies: policyNames,
    campaignFile: campaign.file,
  });
  if (!model.ok) return model;
  if (faults.length > 0 && model.value.kind !== 'scripted') {
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
    const fresh = await checkFreshOutput(outDir, '--out', true);
    if (!fresh.ok) return fresh;
  }
  return ok({
    campaign,
    model: model.value,
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
          }),
        }),
    invocation: {
      campaignFile: campaign.file,
      arms,
      reps: campaign.reps,
      model: model.value.id,
      backend: campaign.backend,
      seed: campaign.seed,
      maxTurns: campaign.limits.maxTurns,
      sessionTimeoutSeconds: campaign.limits.sessionTimeoutSeconds,
      shard,
      only,
      concurrency: campaign.concurrency,
      maxCostUsd: campaign.limits.maxCostUsd,
      retryIndeterminate,
    },
  });
}

/** The one line every run starts with, saying what the "model" is. */
export function modelBanner(request: RunRequest): string {
  const { model, campaign } = request;
  if (model.kind === 'scripted') {
    return model.reason === 'no-api-key'
      ? `redgreen: no ANTHROPIC_API_KEY set, so this run is OFFLINE: the "model" is ${model.id}, a scripted policy on redgreen's local model server, not a real model. Set ANTHROPIC_API_KEY to run ${campaign.config.model}.`
      : `redgreen: model ${model.id} is a scripted policy on redgreen's local model server, not a real model.`;
  }
  return `redgreen: live run with ${model.id}${model.baseUrl ? ` at ${displayBaseUrl(model.baseUrl)}` : ''}: real API calls, real cost.`;
}
