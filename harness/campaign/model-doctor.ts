import { readFile } from 'node:fs/promises';
import { describeError } from '../lib/describe-error.js';
import { formatInputError } from '../lib/input-error.js';
import { inputErrorFromZod } from '../lib/zod-input-error.js';
import { type CampaignConfig, campaignSchema } from './config-schema.js';
import {
  credentialVariables,
  DEFAULT_KEY_ENV,
  type ResolvedEndpoint,
  resolveEndpoint,
} from './endpoint-profile.js';
import { firstBadKeyValue, keyValueProblem } from './key-value.js';
import { displayBaseUrl } from './model-choice.js';
import type { PricingConfig } from './model-config.js';
import { defaultModelName } from './model-spec.js';
import { preflightEndpoint } from './preflight.js';

/**
 * `redgreen doctor <campaign>`: the campaign's models and endpoint profiles
 * as this machine would run them. Each profile with its API, base URL and
 * whether each of its key variables is set (by name, never the value); then
 * whether a run of it would be live, offline, or refused because some keys
 * are set and others are not. With `--check`, one cheap request per
 * Messages API endpoint, with its own key, headers and first model.
 */
export interface DoctorCheck {
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
}

/** An endpoint the campaign's models use: a profile, or the default one. */
interface UsedEndpoint {
  readonly name: string;
  readonly endpoint: ResolvedEndpoint | null;
  readonly models: readonly string[];
}

function pricingText(pricing: PricingConfig | undefined): string {
  if (pricing === undefined || pricing === 'table') return 'priced by the dated table';
  if (pricing === 'unpriced') return 'unpriced';
  return `$${pricing.input}/$${pricing.output} per million tokens in/out`;
}

function setText(env: NodeJS.ProcessEnv, name: string): string {
  const value = env[name] ?? '';
  if (value.trim() === '') return `${name} not set`;
  return keyValueProblem(name, value) === null
    ? `${name} set`
    : `${name} set, but holds a control character (a line break, a tab): no key`;
}

async function readConfig(file: string): Promise<CampaignConfig | DoctorCheck> {
  try {
    const parsed = campaignSchema.safeParse(JSON.parse(await readFile(file, 'utf8')));
    if (parsed.success) return parsed.data;
    return {
      name: 'campaign',
      ok: false,
      detail: formatInputError(inputErrorFromZod(file, parsed.error)),
    };
  } catch (error) {
    return {
      name: 'campaign',
      ok: false,
      detail: `${file}: cannot be read (${describeError(error)})`,
    };
  }
}

function usedEndpoints(config: CampaignConfig, file: string): UsedEndpoint[] | DoctorCheck {
  const entries = config.models ?? [{ id: config.model ?? '' }];
  const used = new Map<string, { endpoint: ResolvedEndpoint | null; models: string[] }>();
  for (const entry of entries) {
    if (entry.id.startsWith('scripted:')) continue;
    const name = 'endpoint' in entry && entry.endpoint !== undefined ? entry.endpoint : 'default';
    let known = used.get(name);
    if (known === undefined) {
      let endpoint: ResolvedEndpoint | null = null;
      if (name !== 'default') {
        const profile = config.endpoints?.[name];
        if (profile === undefined) {
          return {
            name: `endpoint ${name}`,
            ok: false,
            detail: `${file}: no endpoint profile "${name}" (a model names it)`,
          };
        }
        const resolved = resolveEndpoint(name, profile, `${file}: endpoints.${name}`);
        if (!resolved.ok)
          return { name: `endpoint ${name}`, ok: false, detail: formatInputError(resolved.error) };
        endpoint = resolved.value;
      }
      known = { endpoint, models: [] };
      used.set(name, known);
    }
    known.models.push(entry.id);
  }
  return [...used].map(([name, value]) => ({ name, ...value }));
}

/** One line per model and per endpoint profile of a campaign, and whether a run of it is live. */
export async function campaignModelChecks(
  file: string,
  env: NodeJS.ProcessEnv,
  check: boolean,
): Promise<DoctorCheck[]> {
  const config = await readConfig(file);
  if ('ok' in config) return [config];
  const endpoints = usedEndpoints(config, file);
  if (!Array.isArray(endpoints)) return [endpoints];
  const checks: DoctorCheck[] = [];
  for (const entry of config.models ?? [{ id: config.model ?? '' }]) {
    const offline = ('offline' in entry ? entry.offline : undefined) ?? config.offlineModel;
    const name =
      'name' in entry && entry.name !== undefined ? entry.name : defaultModelName(entry.id);
    checks.push({
      name: `model ${name}`,
      ok: true,
      detail: entry.id.startsWith('scripted:')
        ? `${entry.id} (a scripted policy, always offline)`
        : `${entry.id} on ${'endpoint' in entry && entry.endpoint !== undefined ? `endpoint ${entry.endpoint}` : 'the default endpoint'}${offline === undefined ? '; no offline stand-in' : `; offline: ${offline}`}`,
    });
  }
  let anySet = false;
  const unset: string[] = [];
  for (const used of endpoints) {
    const variables = credentialVariables(used.endpoint);
    const missing = variables.filter((name) => (env[name] ?? '').trim() === '');
    if (missing.length < variables.length) anySet = true;
    unset.push(...missing);
    const endpoint = used.endpoint;
    const where =
      endpoint === null
        ? `the default endpoint (${env.ANTHROPIC_BASE_URL?.trim() ? displayBaseUrl(env.ANTHROPIC_BASE_URL.trim()) : 'the Anthropic API'})`
        : endpoint.provider === 'anthropic'
          ? `${endpoint.baseUrl === undefined ? 'the Anthropic API' : displayBaseUrl(endpoint.baseUrl)}${endpoint.auth === 'bearer' ? ', bearer key' : ''}`
          : `${endpoint.provider} in ${endpoint.region}${endpoint.project === undefined ? '' : `, project ${endpoint.project}`}${endpoint.baseUrl === undefined ? '' : ` at ${displayBaseUrl(endpoint.baseUrl)}`}`;
    const headers = Object.keys(endpoint?.headers ?? {});
    checks.push({
      name: `endpoint ${used.name}`,
      ok: firstBadKeyValue(env, variables) === null,
      detail: [
        where,
        variables.map((name) => setText(env, name)).join(', '),
        `models ${used.models.join(', ')}`,
        ...(headers.length === 0 ? [] : [`headers ${headers.join(', ')}`]),
        ...(endpoint?.concurrency === undefined ? [] : [`at most ${endpoint.concurrency} at once`]),
        pricingText(endpoint?.pricing),
      ].join('; '),
    });
  }
  checks.push(
    !anySet
      ? {
          name: 'keys',
          ok: true,
          detail:
            'none of its key variables is set: a run is offline (each model replaced by its stand-in)',
        }
      : unset.length === 0
        ? {
            name: 'keys',
            ok: true,
            detail: 'every key variable is set: a run is live (real API calls, real cost)',
          }
        : {
            name: 'keys',
            ok: false,
            detail: `some key variables are set but not ${[...new Set(unset)].join(', ')}: a run stops with exit 2 until each is set (or none, to run offline)`,
          },
  );
  if (check) checks.push(...(await endpointChecks(endpoints, env)));
  return checks;
}

/** `--check`: one one-token request per Messages API endpoint whose key is set. */
async function endpointChecks(
  endpoints: readonly UsedEndpoint[],
  env: NodeJS.ProcessEnv,
): Promise<DoctorCheck[]> {
  const checks: DoctorCheck[] = [];
  for (const used of endpoints) {
    const name = `check ${used.name}`;
    const endpoint = used.endpoint;
    if (endpoint !== null && endpoint.provider !== 'anthropic') {
      checks.push({
        name,
        ok: true,
        detail: `not checked: the engine reaches ${endpoint.provider} itself`,
      });
      continue;
    }
    const keyEnv = endpoint === null ? DEFAULT_KEY_ENV : endpoint.keyEnv;
    const key = keyEnv === null ? '' : (env[keyEnv] ?? '').trim();
    if (key === '') {
      checks.push({ name, ok: true, detail: `not checked: ${keyEnv ?? 'its key'} is not set` });
      continue;
    }
    const model = used.models[0] ?? '';
    const baseUrl =
      endpoint === null ? env.ANTHROPIC_BASE_URL?.trim() || undefined : endpoint.baseUrl;
    const answered = await preflightEndpoint({
      model,
      baseUrl,
      apiKey: key,
      ...(endpoint === null ? {} : { auth: endpoint.auth, headers: endpoint.headers }),
      ...(keyEnv === null ? {} : { keyEnv }),
      ...(endpoint === null ? {} : { urlInput: `endpoints.${used.name}.baseUrl` }),
    });
    checks.push(
      answered.ok
        ? {
            name,
            ok: true,
            detail: answered.value.note ?? `accepted the key and answered for ${model}`,
          }
        : { name, ok: false, detail: formatInputError(answered.error) },
    );
  }
  return checks;
}
