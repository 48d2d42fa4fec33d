/** Every extractor a report contract may name: the core's, then each installed pack's. */
import type { AnyExtractor } from './extractors/extractor.js';
import { CORE_EXTRACTORS } from './extractors/index.js';
import { derived, type Registered, table } from './score-registry.js';

/** Every extractor, the core's first. */
export const registeredExtractors = derived(() =>
  table('extractor', CORE_EXTRACTORS, (contribution) => contribution.extractors),
);

const byKind = derived(() => new Map(registeredExtractors().map((one) => [one.name, one])));

/** The extractor of that kind, with who brought it, if any. */
export function extractorOf(kind: string): Registered<AnyExtractor> | undefined {
  return byKind().get(kind);
}
