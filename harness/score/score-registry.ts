/**
 * The score room's extension point: the extractors a report contract may
 * name, the check verbs, and the top-level fields of scenario.json that hold
 * the data a contribution's extractors and verbs read. A pack adds its own
 * through `registerScoreContribution`, called when the pack is installed;
 * the tables (extractor-table.ts, verb-table.ts) put the core's first.
 * Everything derived from them (the check and scenario schemas, name lists)
 * is computed when first asked for and again after they change, never at
 * import time.
 */
import type { z } from 'zod';
import type { DispatchReading } from './dispatch-reading.js';
import type { AnyExtractor } from './extractors/extractor.js';
import type { PackMetric } from './pack-metric.js';
import type { Facts } from './placeholders.js';
import type { AnyVerb } from './verb.js';

/** What one pack adds to the score room. */
export interface ScoreContribution {
  /** Extractors by kind, as a section's `extract` names them. */
  readonly extractors?: Readonly<Record<string, AnyExtractor>>;
  /** Check verbs by name. */
  readonly verbs?: Readonly<Record<string, AnyVerb>>;
  /** Top-level scenario.json fields with their schemas (a field absent from a file reads as its schema's default). */
  readonly scenarioFields?: Readonly<Record<string, z.ZodType>>;
  /** What it reads from every dispatch, and the params it adds to the `dispatch` verb to match that. */
  readonly dispatchReading?: DispatchReading;
  /**
   * Facts the scenario file itself fixes (from the pack's fields), used at
   * load in place of sample values when a scenario naming the pack is checked.
   */
  readonly knownFacts?: (scenario: Readonly<Record<string, unknown>>) => Facts;
  /**
   * The pack's scenario fields that say which session runs (string values):
   * recorded by name in the campaign identity and in campaign.json's
   * scenario records, so a change to one is another campaign.
   */
  readonly identityFields?: readonly string[];
  /**
   * Per-rep metrics by name (pack-metric.ts), computed when a rep of a
   * scenario naming the pack is scored and gated like the core's
   * (`metric-ratio`, `metric-cap`).
   */
  readonly metrics?: Readonly<Record<string, PackMetric>>;
}

/** One table entry and who brought it: a pack's name, or undefined for the core. */
export interface Registered<T> {
  readonly name: string;
  readonly owner: string | undefined;
  readonly entry: T;
}

const contributions = new Map<string, ScoreContribution>();
let version = 0;

/** Adds a pack's contribution (a name the core or another pack already uses is refused when the table is built). */
export function registerScoreContribution(owner: string, contribution: ScoreContribution): void {
  if (contributions.get(owner) === contribution) return;
  if (contributions.has(owner)) throw new Error(`pack ${owner} contributes to scoring twice`);
  contributions.set(owner, contribution);
  version += 1;
}

/** Takes a pack's contribution out again (for tests of a core without it); returns it. */
export function removeScoreContribution(owner: string): ScoreContribution | undefined {
  const known = contributions.get(owner);
  if (known === undefined) return undefined;
  contributions.delete(owner);
  version += 1;
  return known;
}

/** The packs that have been handed to the score room, in installation order (with or without a contribution). */
export function scoreContributors(): string[] {
  return [...contributions.keys()];
}

/** Changes whenever the tables do: what is derived from them is recomputed then. */
export function scoreRegistryVersion(): number {
  return version;
}

/** The core's entries, then each pack's: a name given twice is a bug, refused here. */
export function table<T>(
  kind: string,
  core: Readonly<Record<string, T>>,
  field: (contribution: ScoreContribution) => Readonly<Record<string, T>> | undefined,
): Registered<T>[] {
  const entries: Registered<T>[] = [
    ...Object.entries(core).map(([name, entry]) => ({ name, owner: undefined, entry })),
    ...[...contributions].flatMap(([owner, contribution]) =>
      Object.entries(field(contribution) ?? {}).map(([name, entry]) => ({ name, owner, entry })),
    ),
  ];
  const seen = new Map<string, string | undefined>();
  for (const { name, owner } of entries) {
    if (seen.has(name)) {
      const first = seen.get(name);
      throw new Error(
        `the ${kind} ${name} is given by ${first === undefined ? 'the core' : `pack ${first}`} and by pack ${owner}`,
      );
    }
    seen.set(name, owner);
  }
  return entries;
}

/** Every pack's dispatch reading, by pack. */
export const registeredDispatchReadings = derived(() =>
  [...contributions].flatMap(([owner, contribution]) =>
    contribution.dispatchReading === undefined
      ? []
      : [{ name: owner, owner, entry: contribution.dispatchReading }],
  ),
);

/** The facts the named packs fix from a scenario file (scenario-file fields only, before any fixture). */
export function knownFactsOf(
  packs: readonly string[],
  scenario: Readonly<Record<string, unknown>>,
): Facts {
  return Object.assign(
    {},
    ...[...contributions]
      .filter(([owner]) => packs.includes(owner))
      .map(([, contribution]) => contribution.knownFacts?.(scenario) ?? {}),
  );
}

/**
 * The identity fields (see ScoreContribution) a scenario file sets, by name,
 * in installation order; fields it leaves out are absent.
 */
export function identityFieldsOf(scenario: object): Record<string, string> {
  const values: Record<string, string> = {};
  for (const field of registeredIdentityFields()) {
    const value: unknown = (scenario as Readonly<Record<string, unknown>>)[field];
    if (typeof value === 'string') values[field] = value;
  }
  return values;
}

/** Every installed pack's identity fields (see ScoreContribution), in installation order. */
export const registeredIdentityFields = derived(() =>
  [...contributions.values()].flatMap((contribution) => contribution.identityFields ?? []),
);

/** Every pack-added scenario field. */
export const registeredScenarioFields = derived(() =>
  table<z.ZodType>('scenario field', {}, (contribution) => contribution.scenarioFields),
);

/** A value computed from the tables, kept until they change. */
export function derived<T>(compute: () => T): () => T {
  let computedAt = -1;
  let value: T | undefined;
  return () => {
    if (computedAt !== version || value === undefined) {
      value = compute();
      computedAt = version;
    }
    return value;
  };
}
