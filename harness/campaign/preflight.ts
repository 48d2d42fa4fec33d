import Anthropic from '@anthropic-ai/sdk';
import { type InputError, inputError } from '../lib/input-error.js';
import { err, ok, type Result } from '../lib/result.js';
import { SecretRedactor } from '../session/secret-redactor.js';
import { keyValueProblem } from './key-value.js';
import { displayBaseUrl } from './model-choice.js';

/** A live endpoint as a run would use it. */
export interface LiveEndpoint {
  readonly model: string;
  /** ANTHROPIC_BASE_URL, or undefined for the Anthropic API. */
  readonly baseUrl: string | undefined;
  readonly apiKey: string;
  /** `bearer`: the key goes in `Authorization: Bearer` (a gateway), else in `x-api-key`. */
  readonly auth?: 'api-key' | 'bearer';
  /** An endpoint profile's extra headers, sent as a session would send them. */
  readonly headers?: Readonly<Record<string, string>>;
  /** The variable the key came from, named in errors (default ANTHROPIC_API_KEY). */
  readonly keyEnv?: string;
  /** Where the base URL was given, named in errors (default ANTHROPIC_BASE_URL): an endpoint profile's field. */
  readonly urlInput?: string;
}

/** The endpoint as it may be shown: the Anthropic API, or the base URL without credentials. */
export function endpointName(baseUrl: string | undefined): string {
  return baseUrl === undefined ? 'the Anthropic API' : displayBaseUrl(baseUrl);
}

const PREFLIGHT_TIMEOUT_MS = 20_000;

/**
 * One cheap request to a live endpoint before any session is spent: a
 * one-token message to the run's model. A refused key, an unknown model or
 * an endpoint that cannot be reached is an InputError naming the endpoint
 * and the fix (the key itself never appears in it, nor any line of it; a
 * key holding a control character is refused before anything is sent); a busy endpoint (429,
 * 5xx, 529) is let through with a note, since it did answer. Without this, a
 * wrong key was discovered one session timeout per rep later, every rep
 * indeterminate.
 */
export async function preflightEndpoint(
  endpoint: LiveEndpoint,
  timeoutMs: number = PREFLIGHT_TIMEOUT_MS,
  /**
   * What an endpoint that cannot be reached is: bad input (one model: nothing
   * could run), or a note (one of several models: the others run, its reps
   * are indeterminate unless it comes back).
   */
  unreachable: 'error' | 'note' = 'error',
): Promise<Result<{ readonly note: string | undefined }, InputError>> {
  const where = endpointName(endpoint.baseUrl);
  const keyEnv = endpoint.keyEnv ?? 'ANTHROPIC_API_KEY';
  const urlInput = endpoint.urlInput ?? 'ANTHROPIC_BASE_URL';
  // Before any client is built: a key with a line break would fail inside the client, quoted.
  const badValue = keyValueProblem(keyEnv, endpoint.apiKey);
  if (badValue !== null) return err(badValue);
  const redactor = new SecretRedactor([endpoint.apiKey], '[redacted]');
  const hide = (text: string): string => redactor.redact(text);
  const client = new Anthropic({
    ...(endpoint.auth === 'bearer'
      ? { apiKey: null, authToken: endpoint.apiKey }
      : { apiKey: endpoint.apiKey }),
    ...(endpoint.baseUrl === undefined ? {} : { baseURL: endpoint.baseUrl }),
    ...(endpoint.headers === undefined ? {} : { defaultHeaders: { ...endpoint.headers } }),
    maxRetries: 1,
    timeout: timeoutMs,
  });
  try {
    await client.messages.create({
      model: endpoint.model,
      max_tokens: 1,
      messages: [{ role: 'user', content: 'ping' }],
    });
    return ok({ note: undefined });
  } catch (error) {
    const detail = hide(firstLine(error));
    if (error instanceof Anthropic.AuthenticationError) {
      return err(
        inputError(
          keyEnv,
          `${where} refused the key (${detail})`,
          'set a valid key (it is set, but invalid, revoked or for another endpoint); ANTHROPIC_BASE_URL chooses the endpoint',
        ),
      );
    }
    if (error instanceof Anthropic.PermissionDeniedError) {
      return err(
        inputError(
          keyEnv,
          `${where} does not let this key use ${endpoint.model} (${detail})`,
          'use a key with access to the model, or another --model',
        ),
      );
    }
    if (error instanceof Anthropic.NotFoundError || error instanceof Anthropic.BadRequestError) {
      return err(
        inputError(
          `model ${endpoint.model}`,
          `${where} refused a request for it (${detail})`,
          'check --model (or the campaign file\'s "model") and ANTHROPIC_BASE_URL',
        ),
      );
    }
    if (error instanceof Anthropic.APIConnectionError) {
      if (unreachable === 'note') {
        return ok({
          note: `cannot reach ${where} for ${endpoint.model} (${detail}): the other models run, and its reps are indeterminate (infrastructure) unless it comes back`,
        });
      }
      return err(
        inputError(
          urlInput,
          `cannot reach ${where} (${detail})`,
          endpoint.baseUrl === undefined
            ? 'check the network connection to api.anthropic.com'
            : endpoint.urlInput === undefined
              ? 'check ANTHROPIC_BASE_URL and that the endpoint is running, or unset it for the Anthropic API'
              : `check ${urlInput} and that the endpoint is running`,
        ),
      );
    }
    if (
      error instanceof Anthropic.RateLimitError ||
      error instanceof Anthropic.InternalServerError
    ) {
      return ok({
        note: `${where} is busy (${detail}); it answered, so the run goes ahead and the engine retries`,
      });
    }
    return err(
      inputError(
        urlInput,
        error instanceof Anthropic.APIError && error.status !== undefined
          ? `${where} answered a test request with an error (${detail})`
          : `a test request to ${where} failed before any answer (${detail})`,
        `check ${keyEnv}, ${urlInput} and --model`,
      ),
    );
  }
}

function firstLine(error: unknown): string {
  if (error instanceof Anthropic.APIError && error.status !== undefined) {
    const body = error.error as { error?: { type?: string; message?: string } } | undefined;
    const type = body?.error?.type;
    const message = body?.error?.message;
    return `${error.status}${type ? ` ${type}` : ''}${message ? `: ${message}` : ''}`;
  }
  const text = error instanceof Error ? error.message : String(error);
  const code = causeCode(error);
  return `${(text.split('\n')[0] ?? text).replace(/\.$/, '')}${code === undefined ? '' : `: ${code}`}`;
}

/** The system error code somewhere down a chain of causes (ECONNREFUSED, ENOTFOUND, ...). */
function causeCode(error: unknown, depth = 0): string | undefined {
  if (depth > 5 || typeof error !== 'object' || error === null) return undefined;
  const { code, cause } = error as { code?: unknown; cause?: unknown };
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return code;
  return causeCode(cause, depth + 1);
}
