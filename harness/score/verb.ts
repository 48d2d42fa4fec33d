/**
 * The shape of a check verb: zod params (validated when the scenario loads,
 * so a malformed check never reaches a rep), the evidence kinds it reads
 * (without them the engine answers "not assessed" and never calls it), the
 * problems zod cannot see (a section the report contract lacks, a selector
 * that can never match), and a pure `run` from params and evidence to an
 * outcome, what was observed, and a detail a reader can act on.
 *
 * `run` does no I/O. What it needs from the session's world (file contents,
 * command outcomes) was captured at rep time and sits in the evidence.
 */
import type { z } from 'zod';
import type { Evidence, EvidenceKind } from './evidence.js';
import type { Outcome } from './kleene.js';
import type { ParamProblem, ValidationContext } from './validation.js';

export type { ParamProblem, ValidationContext } from './validation.js';

export interface VerbResult {
  readonly outcome: Outcome;
  /** What was found, as a reader would quote it: `B`, `3 calls`, `file removed`. */
  readonly observed?: string | undefined;
  /** Why, in words; the engine puts the check's id in front. */
  readonly detail: string;
}

/** A command a check needs run at rep time, in the sandbox of the model's tools. */
export interface NeededCommand {
  readonly command: string;
  readonly timeoutSeconds: number;
}

// biome-ignore lint/suspicious/noExplicitAny: a verb's params are any strict zod object
export type ParamsSchema = z.ZodObject<any, z.core.$strict>;

export interface Verb<S extends ParamsSchema> {
  /** One line for the README's verb table and `--help`. */
  readonly summary: string;
  readonly params: S;
  readonly reads: (params: z.infer<S>) => readonly EvidenceKind[];
  readonly validate?: (params: z.infer<S>, context: ValidationContext) => ParamProblem | undefined;
  /** Repository files whose text the check reads, captured at rep time; `start` is the checkout the session started in. */
  readonly files?: (
    params: z.infer<S>,
    where: { readonly start: string | undefined },
  ) => readonly string[];
  /** Commands the check needs run at rep time. */
  readonly commands?: (params: z.infer<S>) => readonly NeededCommand[];
  readonly run: (params: z.infer<S>, evidence: Evidence) => VerbResult;
  /** The pack that added a param field to this verb, if one did (the dispatch verb's are extensible). */
  readonly fieldOwner?: ((field: string) => string | undefined) | undefined;
}

// biome-ignore lint/suspicious/noExplicitAny: a verb of any params, as the registry holds them
export type AnyVerb = Verb<any>;

/** Define a verb, keeping its params type. */
export function defineVerb<S extends ParamsSchema>(verb: Verb<S>): Verb<S> {
  return verb;
}

/** A short list for a detail: the first `limit` items, then how many more. */
export function listed(items: readonly string[], limit = 5): string {
  const shown = items.slice(0, limit).join(', ');
  return items.length > limit ? `${shown} and ${items.length - limit} more` : shown;
}

/** The longest pattern a detail quotes whole; a longer one is cut (score.json keeps it in the check's params). */
const PATTERN_QUOTE = 60;

/** A pattern as a detail quotes it: `/…/`, cut with its length said when it is long. */
export function quotedPattern(pattern: string): string {
  return pattern.length <= PATTERN_QUOTE
    ? `/${pattern}/`
    : `/${pattern.slice(0, PATTERN_QUOTE)}…/ (a ${pattern.length}-character pattern)`;
}

/** `n thing` / `n things`. */
export function counted(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
