/**
 * The shape every extractor has: params validated when the scenario loads,
 * the schema of the value it reads (so a score.json read back is checked),
 * and a pure `extract` that reads one value from one reply section or says
 * why it could not (never a guess). Extractors are the only code with
 * language heuristics; what they read for (labels, names, phrases of the
 * scenario's domain) comes from the scenario file.
 */
import type { z } from 'zod';
import type { ExtractedValue, Reading } from '../evidence.js';
import type { ParamProblem, ValidationContext } from '../validation.js';

export interface ExtractContext {
  /** The scenario file's fields (a pack's extractor reads the data its pack adds there). */
  readonly scenario: Readonly<Record<string, unknown>>;
  /** Values of the sections read before this one (see `dependsOn`). */
  readonly earlier: Readonly<Record<string, Reading<ExtractedValue>>>;
}

/** One value a check may compare a section's value with (`reply-one-of`), and how a detail names it. */
export interface ScalarValue {
  readonly said: string | number;
  readonly observed: string;
}

export interface Extractor<S extends z.ZodType, V extends ExtractedValue = ExtractedValue> {
  /** One line for the README's table. */
  readonly summary: string;
  readonly params: S;
  /** The schema of the value it reads: an object whose `kind` is the extractor's. */
  readonly value: z.ZodType<V>;
  /**
   * What a section the reply lacks reads as when the contract marks it
   * optional; undefined when absence can only be undecided.
   */
  readonly empty: V | undefined;
  /** The kind of section `dependsOn` may name. */
  readonly earlierKind?: string | undefined;
  /** Sections whose values this reading uses; they are read first. */
  readonly dependsOn: (params: z.infer<S>) => readonly string[];
  readonly extract: (section: string, params: z.infer<S>, context: ExtractContext) => Reading<V>;
  /** The value as a results table shows it, short. */
  readonly shown: (value: V) => string;
  /** The value as one scalar, for verbs that compare a section with a list of values. */
  readonly scalar?: ((value: V) => ScalarValue) | undefined;
  /**
   * A problem with values a check compares this section's value with
   * (`field` names the check's param): a value the section could never read.
   */
  readonly valuesProblem?:
    | ((
        field: string,
        section: string,
        values: readonly (string | number)[],
        context: ValidationContext,
      ) => ParamProblem | undefined)
    | undefined;
}

// biome-ignore lint/suspicious/noExplicitAny: an extractor of any params and value, as the registry holds them
export type AnyExtractor = Extractor<any, any>;

/** Define an extractor, keeping its params and value types. */
export function defineExtractor<S extends z.ZodType, V extends ExtractedValue>(
  extractor: Extractor<S, V>,
): Extractor<S, V> {
  return extractor;
}

const QUOTE_LIMIT = 300;

/** A section as quoted beside its value: trimmed, on one line, cut at QUOTE_LIMIT characters. */
export function quoteOf(section: string): string {
  const flat = section.replace(/\s+/g, ' ').trim();
  return flat.length > QUOTE_LIMIT ? `${flat.slice(0, QUOTE_LIMIT)}…` : flat;
}
