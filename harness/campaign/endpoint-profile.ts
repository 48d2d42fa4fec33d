import { type InputError, inputError } from '../lib/input-error.js';
import { err, ok, type Result } from '../lib/result.js';
import type { EndpointProfileConfig, PricingConfig } from './model-config.js';

/**
 * An endpoint profile of a campaign file with its defaults filled in and its
 * fields checked against its provider: an Anthropic-compatible Messages API
 * (the default: Anthropic, a gateway, another provider), or Claude on
 * Bedrock or Vertex through the Claude Code engine's own switches. It names
 * the variables its credentials are read from, never their values.
 */

export type ProviderName = EndpointProfileConfig['provider'];

/** An endpoint profile with its defaults filled in. */
export interface ResolvedEndpoint {
  readonly name: string;
  readonly provider: ProviderName;
  /** The API's base URL; undefined: the provider's own (bedrock, vertex). */
  readonly baseUrl: string | undefined;
  /** The variable holding the key, or null when the credentials come only through passEnv. */
  readonly keyEnv: string | null;
  readonly auth: 'api-key' | 'bearer';
  readonly passEnv: readonly string[];
  readonly region: string | undefined;
  readonly project: string | undefined;
  readonly headers: Readonly<Record<string, string>>;
  readonly concurrency: number | undefined;
  readonly pricing: PricingConfig | undefined;
}

/** The default endpoint's key: a model without a profile uses ANTHROPIC_API_KEY and ANTHROPIC_BASE_URL. */
export const DEFAULT_KEY_ENV = 'ANTHROPIC_API_KEY';

const DEFAULT_KEY_ENV_BY_PROVIDER: Readonly<Record<ProviderName, string>> = {
  anthropic: DEFAULT_KEY_ENV,
  bedrock: 'AWS_BEARER_TOKEN_BEDROCK',
  vertex: 'GOOGLE_APPLICATION_CREDENTIALS',
};

/** The public Messages API, for a profile that names no base URL (never the caller's ANTHROPIC_BASE_URL). */
export const ANTHROPIC_API_URL = 'https://api.anthropic.com';

/** The variables a model's credentials are read from (names only). */
export function credentialVariables(endpoint: ResolvedEndpoint | null): string[] {
  if (endpoint === null) return [DEFAULT_KEY_ENV];
  return [...(endpoint.keyEnv === null ? [] : [endpoint.keyEnv]), ...endpoint.passEnv];
}

/** Check an endpoint profile's fields against its provider, and fill in its defaults. */
export function resolveEndpoint(
  name: string,
  profile: EndpointProfileConfig,
  where: string,
): Result<ResolvedEndpoint, InputError> {
  const field = (key: string): string => `${where}.${key}`;
  const { provider } = profile;
  const refuse = (key: string, problem: string, fix: string): Result<never, InputError> =>
    err(inputError(field(key), problem, fix));
  if (provider === 'anthropic') {
    for (const key of ['passEnv', 'region', 'project'] as const) {
      if (profile[key] !== undefined)
        return refuse(
          key,
          'applies to bedrock and vertex profiles only',
          `remove it, or set "provider"`,
        );
    }
  } else {
    if (profile.auth !== undefined)
      return refuse(
        'auth',
        `a ${provider} profile authenticates as the engine's ${provider} support does`,
        'remove "auth"',
      );
    if (profile.region === undefined)
      return refuse(
        'region',
        `a ${provider} profile needs its region`,
        'give "region", e.g. us-east-1',
      );
    if (provider === 'vertex' && profile.project === undefined)
      return refuse('project', 'a vertex profile needs its Google Cloud project', 'give "project"');
    if (provider === 'bedrock' && profile.project !== undefined)
      return refuse('project', 'applies to vertex profiles only', 'remove it');
  }
  const keyEnv =
    profile.keyEnv === undefined ? DEFAULT_KEY_ENV_BY_PROVIDER[provider] : profile.keyEnv;
  const passEnv = profile.passEnv ?? [];
  if (keyEnv === null && passEnv.length === 0) {
    return refuse(
      'keyEnv',
      'is null and passEnv names no variable: the endpoint gets no credentials',
      'name the key variable in keyEnv',
    );
  }
  return ok({
    name,
    provider,
    baseUrl: profile.baseUrl ?? (provider === 'anthropic' ? ANTHROPIC_API_URL : undefined),
    keyEnv,
    auth: profile.auth ?? 'api-key',
    passEnv,
    region: profile.region,
    project: profile.project,
    headers: profile.headers ?? {},
    concurrency: profile.concurrency,
    pricing: profile.pricing,
  });
}
