/**
 * Fault injection, so the runner's reliability can be tested against the real
 * clients: HTTP errors (429 with `retry-after`, 529 overloaded, 500), a delay
 * per turn (fixed, or random in a range, seeded), a connection dropped
 * mid-stream (after `message_start`), and a malformed or truncated body.
 *
 * A rule applies to every session, or to sessions whose key matches a glob;
 * to every turn, or to one turn (`@N`, the session's N-th assistant turn).
 * Counted rules (`xN`, default once; `x*` for always) keep their counter per
 * session by default, or one for the whole server (`counter=server`). These
 * counters are the ONLY per-session state the server holds; they are lost on
 * restart (a restarted server injects the faults afresh).
 *
 * CLI syntax, one rule per `--fault`:
 *   429x2                 the first two requests of each session get 429
 *   429x2:retry-after=0   ... with `retry-after: 0` (default 1 second)
 *   529x*  500x1          overloaded on every request; one 500
 *   401x*                 every request refused as unauthenticated (a bad API key)
 *   delay=200ms           every turn waits 200 ms
 *   delay=50-300ms        every turn waits 50..300 ms (seeded by --seed and session)
 *   drop@2                turn 2 of each session: connection dropped after message_start
 *   malformed@1           turn 1: invalid JSON (a broken SSE event when streaming)
 *   truncated@1           turn 1: the body stops partway
 *   ...:session=rep-*     only sessions whose key matches the glob
 *   ...:counter=server    one counter for all sessions
 */
import { z } from 'zod';
import { type InputError, inputError } from '../lib/input-error.js';
import { err, ok, type Result } from '../lib/result.js';
import { type ApiError, apiError } from './api-error.js';
import { seededRng } from './rng.js';

const TimesSchema = z.union([z.number().int().positive(), z.literal('*')]);
const TurnSchema = z.number().int().positive();
const scope = {
  /** Only sessions whose key matches this glob (`*` and `?`). */
  session: z.string().min(1).optional(),
  /** Only this assistant turn of a session (1 = the first request of a conversation). */
  turn: TurnSchema.optional(),
};
const counted = {
  ...scope,
  times: TimesSchema.default(1),
  counter: z.enum(['session', 'server']).default('session'),
};

export const FaultRuleSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('status'),
    status: z.union([z.literal(401), z.literal(429), z.literal(500), z.literal(529)]),
    /** Seconds for the `retry-after` header (429 and 529). */
    retryAfterSeconds: z.number().nonnegative().default(1),
    ...counted,
  }),
  z.strictObject({ kind: z.literal('drop'), ...counted }),
  z.strictObject({ kind: z.literal('malformed'), ...counted }),
  z.strictObject({ kind: z.literal('truncated'), ...counted }),
  z
    .strictObject({
      kind: z.literal('delay'),
      minMs: z.number().int().nonnegative(),
      maxMs: z.number().int().nonnegative(),
      ...scope,
    })
    .refine((rule) => rule.maxMs >= rule.minMs, { message: 'maxMs must be at least minMs' }),
]);

/** A fault rule as the programmatic API takes it (defaults optional). */
export type FaultRuleInput = z.input<typeof FaultRuleSchema>;
/** A fault rule with its defaults filled in. */
export type FaultRule = z.output<typeof FaultRuleSchema>;

export type Failure =
  | {
      readonly kind: 'status';
      readonly status: 401 | 429 | 500 | 529;
      readonly retryAfterSeconds: number;
    }
  | { readonly kind: 'drop' }
  | { readonly kind: 'malformed' }
  | { readonly kind: 'truncated' };

export interface FaultDecision {
  readonly delayMs: number;
  readonly failure: Failure | undefined;
}

export interface FaultBook {
  /** Decide the faults for one request, counting it against the rules that fire. */
  decide(sessionKey: string, turn: number): FaultDecision;
}

export function createFaultBook(rules: readonly FaultRule[], seed: string): FaultBook {
  const fired = new Map<string, number>();
  return {
    decide(sessionKey, turn) {
      let delayMs = 0;
      let failure: Failure | undefined;
      rules.forEach((rule, index) => {
        if (!appliesTo(rule, sessionKey, turn)) return;
        if (rule.kind === 'delay') {
          const span = rule.maxMs - rule.minMs;
          const draw = seededRng('delay', seed, String(index), sessionKey, String(turn)).next();
          delayMs += rule.minMs + Math.round(draw * span);
          return;
        }
        if (failure !== undefined) return;
        const counterKey = `${index}\u0000${rule.counter === 'server' ? '' : sessionKey}`;
        const count = fired.get(counterKey) ?? 0;
        if (rule.times !== '*' && count >= rule.times) return;
        fired.set(counterKey, count + 1);
        failure =
          rule.kind === 'status'
            ? { kind: 'status', status: rule.status, retryAfterSeconds: rule.retryAfterSeconds }
            : { kind: rule.kind };
      });
      return { delayMs, failure };
    },
  };
}

function appliesTo(rule: FaultRule, sessionKey: string, turn: number): boolean {
  if (rule.turn !== undefined && rule.turn !== turn) return false;
  return rule.session === undefined || globMatches(rule.session, sessionKey);
}

export function globMatches(pattern: string, value: string): boolean {
  const source = [...pattern]
    .map((char) =>
      char === '*' ? '.*' : char === '?' ? '.' : char.replace(/[.+^${}()|[\]\\]/g, '\\$&'),
    )
    .join('');
  return new RegExp(`^${source}$`).test(value);
}

/** Validate rules given programmatically (fills in defaults). */
export function validateFaultRules(
  rules: readonly FaultRuleInput[],
): Result<readonly FaultRule[], InputError> {
  const parsed = z.array(FaultRuleSchema).safeParse(rules);
  if (parsed.success) return ok(parsed.data);
  const issue = parsed.error.issues[0];
  return err(
    inputError(
      `faults[${issue?.path.join('.') ?? ''}]`,
      issue?.message ?? 'invalid fault rule',
      'see FaultRuleSchema in harness/model-server/faults.ts',
    ),
  );
}

const faultSpecHelp =
  'use e.g. 429x2, 429x2:retry-after=0, 529x*, 500x1, 401x*, delay=200ms, delay=50-300ms, drop@2, malformed@1, truncated@1, with optional :session=<glob> and :counter=server';

/** Parse one `--fault` spec (syntax in this module's header comment). */
export function parseFaultSpec(spec: string): Result<FaultRule, InputError> {
  const bad = (problem: string): Result<FaultRule, InputError> =>
    err(inputError(`--fault ${spec}`, problem, faultSpecHelp));
  const [head = '', ...optionParts] = spec.trim().split(':');
  const options = new Map<string, string>();
  for (const part of optionParts) {
    const [key, value, ...rest] = part.split('=');
    if (key === undefined || value === undefined || value === '' || rest.length > 0) {
      return bad(`option "${part}" is not key=value`);
    }
    if (!['session', 'retry-after', 'counter'].includes(key)) {
      return bad(`unknown option "${key}"`);
    }
    options.set(key, value);
  }
  const session = options.get('session');
  const counter = options.get('counter');
  if (counter !== undefined && counter !== 'session' && counter !== 'server') {
    return bad('counter must be session or server');
  }

  const delay = /^delay=(\d+)(ms|s)?(?:-(\d+)(ms|s)?)?(?:@(\d+))?$/.exec(head);
  if (delay !== null) {
    if (options.has('retry-after') || counter !== undefined) {
      return bad('a delay takes only the session option');
    }
    const minUnit = delay[2] ?? delay[4] ?? 'ms';
    const minMs = toMs(Number(delay[1]), minUnit);
    const maxMs = delay[3] === undefined ? minMs : toMs(Number(delay[3]), delay[4] ?? 'ms');
    return checked({
      kind: 'delay',
      minMs,
      maxMs,
      ...(delay[5] === undefined ? {} : { turn: Number(delay[5]) }),
      ...(session === undefined ? {} : { session }),
    });
  }

  const failure = /^(401|429|529|500|drop|malformed|truncated)((?:[@x](?:\d+|\*))*)$/.exec(head);
  if (failure === null) return bad('not a fault spec');
  let turn: number | undefined;
  let times: number | '*' | undefined;
  for (const modifier of (failure[2] ?? '').matchAll(/([@x])(\d+|\*)/g)) {
    const value = modifier[2] ?? '';
    if (modifier[1] === '@') {
      if (value === '*' || turn !== undefined) return bad('@ takes one turn number');
      turn = Number(value);
    } else {
      if (times !== undefined) return bad('give the count (xN) once');
      times = value === '*' ? '*' : Number(value);
    }
  }
  const kind = failure[1] ?? '';
  const retryAfter = options.get('retry-after');
  if (retryAfter !== undefined && !/^\d+(\.\d+)?$/.test(retryAfter)) {
    return bad('retry-after must be a number of seconds');
  }
  const common = {
    ...(turn === undefined ? {} : { turn }),
    ...(times === undefined ? {} : { times }),
    ...(session === undefined ? {} : { session }),
    ...(counter === undefined ? {} : { counter }),
  };
  if (kind === '401' || kind === '429' || kind === '529' || kind === '500') {
    return checked({
      kind: 'status',
      status: Number(kind) as 401 | 429 | 500 | 529,
      ...(retryAfter === undefined ? {} : { retryAfterSeconds: Number(retryAfter) }),
      ...common,
    });
  }
  if (retryAfter !== undefined) return bad('retry-after applies to 429, 529 and 500 only');
  return checked({ kind: kind as 'drop' | 'malformed' | 'truncated', ...common });

  function checked(rule: unknown): Result<FaultRule, InputError> {
    const parsed = FaultRuleSchema.safeParse(rule);
    return parsed.success ? ok(parsed.data) : bad(parsed.error.issues[0]?.message ?? 'invalid');
  }
}

function toMs(value: number, unit: string): number {
  return unit === 's' ? value * 1000 : value;
}

/** The API error a status fault answers with: its type and message, the same on every face. */
export function statusFaultError(status: 401 | 429 | 500 | 529): ApiError {
  const type =
    status === 401
      ? 'authentication_error'
      : status === 429
        ? 'rate_limit_error'
        : status === 529
          ? 'overloaded_error'
          : 'api_error';
  return apiError(type, `injected fault: ${status} ${type}`);
}
