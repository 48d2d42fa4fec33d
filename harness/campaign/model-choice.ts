import { type InputError, inputError } from '../lib/input-error.js';
import { err, ok, type Result } from '../lib/result.js';

/**
 * Which brain a run talks to.
 * - scripted: a policy on redgreen's local Messages API server (offline, no key).
 * - live: a real model through the Messages API (needs ANTHROPIC_API_KEY;
 *   ANTHROPIC_BASE_URL may point at an Anthropic-compatible endpoint).
 */
export type ModelChoice =
  | {
      readonly kind: 'scripted';
      readonly id: string;
      readonly policy: string;
      /** Why this model: asked for with --model, or the offline default because no key is set. */
      readonly reason: 'requested' | 'no-api-key';
    }
  | { readonly kind: 'live'; readonly id: string; readonly baseUrl: string | undefined };

export const SCRIPTED_PREFIX = 'scripted:';

export function chooseModel(options: {
  readonly requested: string | undefined;
  readonly campaignModel: string;
  readonly offlineModel: string;
  readonly env: NodeJS.ProcessEnv;
  readonly knownPolicies: readonly string[];
  /** The campaign file, to name it when the model it gives is wrong. */
  readonly campaignFile: string;
}): Result<ModelChoice, InputError> {
  const hasKey = (options.env.ANTHROPIC_API_KEY ?? '').trim().length > 0;
  const requested = options.requested;
  const id = requested ?? (hasKey ? options.campaignModel : options.offlineModel);
  // Blame the input the id came from: the flag, or the campaign file's field.
  const source =
    requested !== undefined
      ? '--model'
      : `${options.campaignFile}: ${hasKey ? 'model' : 'offlineModel'}`;
  if (id.startsWith(SCRIPTED_PREFIX)) {
    const policy = id.slice(SCRIPTED_PREFIX.length);
    if (!options.knownPolicies.includes(policy)) {
      return err(
        inputError(
          source,
          `"${id}" names no scripted policy`,
          `use one of ${options.knownPolicies.map((name) => SCRIPTED_PREFIX + name).join(', ')}`,
        ),
      );
    }
    return ok({
      kind: 'scripted',
      id,
      policy,
      reason: requested === undefined ? 'no-api-key' : 'requested',
    });
  }
  if (!hasKey) {
    return err(
      inputError(
        source,
        `"${id}" is a live model but ANTHROPIC_API_KEY is not set`,
        'export ANTHROPIC_API_KEY, or run offline with --model scripted:skill-reader',
      ),
    );
  }
  const baseUrl = options.env.ANTHROPIC_BASE_URL?.trim();
  return ok({
    kind: 'live',
    id,
    baseUrl: baseUrl === undefined || baseUrl === '' ? undefined : baseUrl,
  });
}

/**
 * A base URL as it may be recorded and shown: scheme, host, port and path.
 * Credentials in the URL, its query and fragment are dropped.
 */
export function displayBaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname === '/' ? '' : parsed.pathname}`;
  } catch {
    return '(unparseable base URL)';
  }
}
