/**
 * The shape every extractor has: params validated when the scenario loads,
 * and a pure `extract` that reads one value from one reply section or says
 * why it could not (never a guess). Extractors are the only code with
 * language heuristics; what they read for (labels, plans, titles, phrases of
 * the scenario's domain) comes from the scenario file.
 */
import type { z } from 'zod';
import type { ExtractedValue, Reading } from '../evidence.js';
import type { PlanCatalogue } from './plan-context.js';

export interface ExtractContext {
  readonly catalogue: PlanCatalogue;
  /** Values of the sections read before this one (see `dependsOn`). */
  readonly earlier: Readonly<Record<string, Reading<ExtractedValue>>>;
}

export interface Extractor<S extends z.ZodType> {
  /** One line for the README's table. */
  readonly summary: string;
  readonly params: S;
  /**
   * What a section the reply lacks reads as when the contract marks it
   * optional; undefined when absence can only be undecided.
   */
  readonly empty: ExtractedValue | undefined;
  /** Sections whose values this reading uses; they are read first. */
  readonly dependsOn: (params: z.infer<S>) => readonly string[];
  readonly extract: (
    section: string,
    params: z.infer<S>,
    context: ExtractContext,
  ) => Reading<ExtractedValue>;
}

/** Define an extractor, keeping its params type. */
export function defineExtractor<S extends z.ZodType>(extractor: Extractor<S>): Extractor<S> {
  return extractor;
}

const QUOTE_LIMIT = 300;

/** A section as quoted beside its value: trimmed, on one line, cut at QUOTE_LIMIT characters. */
export function quoteOf(section: string): string {
  const flat = section.replace(/\s+/g, ' ').trim();
  return flat.length > QUOTE_LIMIT ? `${flat.slice(0, QUOTE_LIMIT)}…` : flat;
}
