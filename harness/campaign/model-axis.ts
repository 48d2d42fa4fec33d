import { type InputError, inputError } from '../lib/input-error.js';
import { err, ok, type Result } from '../lib/result.js';
import type { BackendName, CampaignConfig } from './config-schema.js';
import {
  credentialVariables,
  DEFAULT_KEY_ENV,
  type ResolvedEndpoint,
  resolveEndpoint,
} from './endpoint-profile.js';
import { firstBadKeyValue } from './key-value.js';
import { type ModelChoice, SCRIPTED_PREFIX } from './model-choice.js';
import type { ModelEntryConfig, PricingConfig } from './model-config.js';
import { defaultModelName, formatModelSpec, parseModelSpec } from './model-spec.js';

/**
 * The models a run compares: each campaign `models` entry (or each
 * `--model`, which replace them) resolved to what actually runs — a live
 * model at its endpoint, or, when no key is set at all, the scripted policy
 * that stands in for it on redgreen's local model server — with the name
 * tables, gates and rep directories use, its endpoint profile and its
 * pricing. A campaign with `model` + `offlineModel` is a one-model campaign.
 *
 * Live or offline: a campaign's models run live when any of their key
 * variables is set, and then every live model's must be; with none set the
 * run is offline, every model replaced by its stand-in. A model given with
 * `--model` is run as given (a live id needs its key). Keys are read from the
 * environment by name at run time; only names ever appear here.
 */

export interface CampaignModel {
  /** What tables, gates, `--only model=` and rep directories call it. */
  readonly name: string;
  /** What runs: a scripted policy, or a live model id at a base URL. */
  readonly choice: ModelChoice;
  /** The endpoint profile its entry names (kept offline too: its concurrency still applies). */
  readonly endpoint: ResolvedEndpoint | null;
  /** Offline: the live model id this scripted policy stands in for. */
  readonly standsInFor: string | null;
  readonly pricing: PricingConfig;
  /** Where the model was given, for messages: `--model x` or `<file>: models[1]`. */
  readonly source: string;
  /** A `--model` spec that resolves to this model again (recorded for --resume). */
  readonly spec: string;
  /** In a campaign of several engines: the engine this entry runs on (engine-axis.ts); else the campaign's. */
  readonly engine?: BackendName;
}

export interface ModelAxis {
  /** The models this run runs (after `--only model=`), in campaign order. */
  readonly models: readonly CampaignModel[];
  /** Every model of the campaign, before `--only`. */
  readonly all: readonly CampaignModel[];
  /** True when the campaign has more than one model: rep ids and directories carry the model. */
  readonly multi: boolean;
  /** True when the models came from `--model` rather than the campaign file. */
  readonly fromFlags: boolean;
}

function isSet(env: NodeJS.ProcessEnv, name: string): boolean {
  return (env[name] ?? '').trim() !== '';
}

/** One model as given: an entry and where it came from. */
interface GivenModel {
  readonly entry: ModelEntryConfig;
  readonly source: string;
  /** Where its offline stand-in came from, to blame the right field. */
  readonly offlineSource: string;
}

function campaignEntries(config: CampaignConfig, file: string): GivenModel[] {
  if (config.models === undefined) {
    return [
      {
        entry: {
          id: config.model ?? '',
          ...(config.offlineModel === undefined ? {} : { offline: config.offlineModel }),
        },
        source: `${file}: model`,
        offlineSource: `${file}: offlineModel`,
      },
    ];
  }
  return config.models.map((entry, index) => ({
    entry: {
      ...entry,
      ...(entry.offline === undefined && config.offlineModel !== undefined
        ? { offline: config.offlineModel }
        : {}),
    },
    source: `${file}: models[${index}]`,
    offlineSource:
      entry.offline === undefined ? `${file}: offlineModel` : `${file}: models[${index}].offline`,
  }));
}

/** `--model` specs, each completed by the campaign entry of the same id (and endpoint) when there is one. */
function flagEntries(
  specs: readonly string[],
  campaign: readonly GivenModel[],
): Result<GivenModel[], InputError> {
  const given: GivenModel[] = [];
  const seen = new Set<string>();
  for (const spec of specs) {
    const parsed = parseModelSpec(spec);
    if (!parsed.ok) return parsed;
    if (seen.has(spec)) {
      return err(inputError(`--model ${spec}`, 'is given twice', 'give each model one --model'));
    }
    seen.add(spec);
    const own = parsed.value;
    const match = campaign.find(
      (candidate) =>
        candidate.entry.id === own.id &&
        (own.endpoint === undefined || own.endpoint === candidate.entry.endpoint),
    )?.entry;
    given.push({
      entry: { ...match, ...own },
      source: `--model ${spec}`,
      offlineSource: `--model ${spec}`,
    });
  }
  return ok(given);
}

/**
 * The first model given twice, as the file or the flags give it, before
 * anything decides live or offline (so an offline check refuses what a live
 * run would): the same scripted policy (its brain is the same wherever its
 * entry points), or the same live id at the same endpoint profile (or both
 * at the default endpoint). One id at two endpoints is two models.
 */
function listedTwice(given: readonly GivenModel[]): InputError | null {
  const seen = new Map<string, GivenModel>();
  for (const model of given) {
    const { id, endpoint } = model.entry;
    const scripted = id.startsWith(SCRIPTED_PREFIX);
    const key = scripted ? id : `${id}\u0000${endpoint ?? ''}`;
    const first = seen.get(key);
    if (first !== undefined) {
      const where = scripted
        ? ''
        : ` at ${endpoint === undefined ? 'the default endpoint' : `endpoint ${endpoint}`}`;
      return inputError(
        model.source,
        `"${id}"${where} is listed twice (also ${first.source})`,
        'list each model once; raise "reps" for more sessions',
      );
    }
    seen.set(key, model);
  }
  return null;
}

function scriptedChoice(
  id: string,
  source: string,
  knownPolicies: readonly string[],
  reason: 'requested' | 'no-api-key',
): Result<ModelChoice, InputError> {
  const policy = id.slice(SCRIPTED_PREFIX.length);
  if (!knownPolicies.includes(policy)) {
    return err(
      inputError(
        source,
        `"${id}" names no scripted policy`,
        `use one of ${knownPolicies.map((name) => SCRIPTED_PREFIX + name).join(', ')}, or write the policy file policies/${policy}.yaml beside the campaign file`,
      ),
    );
  }
  return ok({ kind: 'scripted', id, policy, reason });
}

export interface ResolveModelsOptions {
  readonly config: CampaignConfig;
  readonly campaignFile: string;
  /** `--model` specs (or those a resumed run recorded); undefined or empty: the campaign's models. */
  readonly requested: readonly string[] | undefined;
  readonly env: NodeJS.ProcessEnv;
  readonly knownPolicies: readonly string[];
  readonly backend: BackendName;
  /** `--only model=` names; empty: every model. */
  readonly only: readonly string[];
}

/**
 * Resolve a run's models. The first problem — an unknown endpoint profile,
 * a profile field its provider does not take, a key variable unset for a
 * live model or holding a control character, a model listed twice, an unknown scripted policy, a Bedrock or
 * Vertex model on the messages backend — is one InputError naming the field.
 */
export function resolveModels(options: ResolveModelsOptions): Result<ModelAxis, InputError> {
  const { config, campaignFile: file, env } = options;
  const fromCampaign = campaignEntries(config, file);
  const fromFlags = options.requested !== undefined && options.requested.length > 0;
  let given = fromCampaign;
  if (fromFlags) {
    const flagged = flagEntries(options.requested ?? [], fromCampaign);
    if (!flagged.ok) return flagged;
    given = flagged.value;
  }

  const endpoints = new Map<string, ResolvedEndpoint>();
  const endpointOf = (model: GivenModel): Result<ResolvedEndpoint | null, InputError> => {
    const name = model.entry.endpoint;
    if (name === undefined) return ok(null);
    const known = endpoints.get(name);
    if (known !== undefined) return ok(known);
    const profile = config.endpoints?.[name];
    if (profile === undefined) {
      const names = Object.keys(config.endpoints ?? {});
      return err(
        inputError(
          model.source.startsWith('--model') ? model.source : `${model.source}.endpoint`,
          `"${name}" is no endpoint profile of the campaign`,
          names.length === 0
            ? 'define it under "endpoints" in the campaign file'
            : `use one of ${names.join(', ')}, or define it under "endpoints"`,
        ),
      );
    }
    const resolved = resolveEndpoint(name, profile, `${file}: endpoints.${name}`);
    if (!resolved.ok) return resolved;
    endpoints.set(name, resolved.value);
    return resolved;
  };

  const profiles: (ResolvedEndpoint | null)[] = [];
  for (const model of given) {
    const endpoint = endpointOf(model);
    if (!endpoint.ok) return endpoint;
    profiles.push(endpoint.value);
  }
  const twice = listedTwice(given);
  if (twice !== null) return err(twice);

  // Offline when none of the campaign's live models has a key: each runs as its stand-in.
  const anyKey = given.some(
    (model, index) =>
      !model.entry.id.startsWith(SCRIPTED_PREFIX) &&
      credentialVariables(profiles[index] ?? null).some((name) => isSet(env, name)),
  );
  const offline = !fromFlags && !anyKey;

  const models: CampaignModel[] = [];
  for (const [index, model] of given.entries()) {
    const { entry, source } = model;
    const endpoint = profiles[index] ?? null;
    const name = entry.name ?? defaultModelName(entry.id);
    let choice: ModelChoice;
    let standsInFor: string | null = null;
    if (entry.id.startsWith(SCRIPTED_PREFIX)) {
      const scripted = scriptedChoice(entry.id, source, options.knownPolicies, 'requested');
      if (!scripted.ok) return scripted;
      choice = scripted.value;
    } else if (offline) {
      if (entry.offline === undefined) {
        return err(
          inputError(
            source,
            `"${entry.id}" has no offline stand-in, and no key is set (${credentialVariables(endpoint).join(', ')})`,
            'give it "offline": "scripted:<policy>" (or the campaign an "offlineModel"), or export its key',
          ),
        );
      }
      const scripted = scriptedChoice(
        entry.offline,
        model.offlineSource,
        options.knownPolicies,
        'no-api-key',
      );
      if (!scripted.ok) return scripted;
      choice = scripted.value;
      standsInFor = entry.id;
    } else {
      const unset = credentialVariables(endpoint).filter((variable) => !isSet(env, variable));
      if (unset.length > 0) {
        const variable = unset[0] ?? DEFAULT_KEY_ENV;
        return err(
          inputError(
            source,
            endpoint === null
              ? `"${entry.id}" is a live model but ${variable} is not set`
              : `"${entry.id}" is a live model on endpoint ${endpoint.name}, whose key variable ${variable} is not set`,
            fromFlags
              ? `export ${variable}, or run offline with --model scripted:skill-reader`
              : `export ${variable}, or unset every model's key to run the campaign offline`,
          ),
        );
      }
      const badValue = firstBadKeyValue(env, credentialVariables(endpoint));
      if (badValue !== null) return err(badValue);
      if (
        options.backend === 'messages' &&
        endpoint !== null &&
        endpoint.provider !== 'anthropic'
      ) {
        return err(
          inputError(
            source,
            `"${entry.id}" is on a ${endpoint.provider} endpoint (${endpoint.name}), which the messages backend cannot reach: it speaks the Anthropic Messages API only`,
            'use --backend claude-code (the engine has its own bedrock and vertex support), or an Anthropic-compatible gateway',
          ),
        );
      }
      const envBaseUrl = env.ANTHROPIC_BASE_URL?.trim();
      choice = {
        kind: 'live',
        id: entry.id,
        baseUrl:
          endpoint === null
            ? envBaseUrl === undefined || envBaseUrl === ''
              ? undefined
              : envBaseUrl
            : endpoint.baseUrl,
      };
    }
    const twin = models.find((other) => other.name === name);
    if (twin !== undefined) {
      return err(
        inputError(
          source,
          `the model name "${name}" is taken (also ${twin.source})`,
          'list each model once (raise "reps" for more sessions), or give one a "name" of its own',
        ),
      );
    }
    models.push({
      name,
      choice,
      endpoint,
      standsInFor,
      pricing: entry.pricing ?? endpoint?.pricing ?? 'table',
      source,
      spec: formatModelSpec({
        id: choice.id,
        // Offline too: a stand-in keeps its profile's concurrency limit across a resume.
        ...(entry.endpoint === undefined ? {} : { endpoint: entry.endpoint }),
        // One model needs no name (its reps carry none); several keep theirs across a resume.
        ...(given.length > 1 || entry.name !== undefined ? { name } : {}),
      }),
    });
  }

  for (const wanted of options.only) {
    if (!models.some((model) => model.name === wanted)) {
      return err(
        inputError(
          `--only model=${wanted}`,
          `the run has no model "${wanted}"`,
          `use one of ${models.map((model) => model.name).join(', ')}`,
        ),
      );
    }
  }
  const selected =
    options.only.length === 0
      ? models
      : models.filter((model) => options.only.includes(model.name));
  return ok({ models: selected, all: models, multi: models.length > 1, fromFlags });
}

/** A run of one model chosen in code (scenario lint, benchmarks): no profile, table pricing. */
export function singleModelAxis(choice: ModelChoice): ModelAxis {
  const model: CampaignModel = {
    name: defaultModelName(choice.id),
    choice,
    endpoint: null,
    standsInFor: null,
    pricing: 'table',
    source: 'model',
    spec: choice.id,
  };
  return { models: [model], all: [model], multi: false, fromFlags: true };
}
