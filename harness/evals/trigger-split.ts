/**
 * A trigger set's queries as scenarios, and its split. With `--split f`, a
 * fixed, seeded share f of each label's queries (should trigger, should not)
 * is the part a description is tuned on; the rest is held out, and only the
 * held-out part is gated, so a description tuned on one part is judged on the
 * other (skill-creator splits 60/40 by label the same way). The order is a
 * hash of seed, id and query, so the same set and seed always split alike
 * and adding a query moves no other. Without a split every query is gated.
 */
import { sha256Hex } from '../lib/hash.js';
import type { TriggerQuery } from './trigger-file.js';

export type QueryPart = 'tune' | 'held-out' | 'all';

export interface SplitQuery {
  readonly scenarioId: string;
  readonly query: TriggerQuery;
  readonly part: QueryPart;
}

/** The queries of one label put in the seeded order, the first `share` of them tuned on. */
function tuned(queries: readonly TriggerQuery[], share: number, seed: number): Set<TriggerQuery> {
  const ordered = [...queries].sort((a, b) => {
    const ka = sha256Hex(`${seed}\u0000${a.id}\u0000${a.query}`);
    const kb = sha256Hex(`${seed}\u0000${b.id}\u0000${b.query}`);
    return ka < kb ? -1 : ka > kb ? 1 : 0;
  });
  return new Set(ordered.slice(0, Math.round(share * queries.length)));
}

export function splitQueries(
  queries: readonly TriggerQuery[],
  prefix: string,
  split: number | undefined,
  seed: number,
): SplitQuery[] {
  const tune =
    split === undefined
      ? new Set<TriggerQuery>()
      : new Set([
          ...tuned(
            queries.filter((query) => query.shouldTrigger),
            split,
            seed,
          ),
          ...tuned(
            queries.filter((query) => !query.shouldTrigger),
            split,
            seed,
          ),
        ]);
  const width = Math.max(2, String(queries.length).length);
  return queries.map((query, index) => ({
    scenarioId: `${prefix}${String(index + 1).padStart(width, '0')}`,
    query,
    part: split === undefined ? 'all' : tune.has(query) ? 'tune' : 'held-out',
  }));
}
