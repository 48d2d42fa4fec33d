/**
 * What the report contract read from a reply, as score.json records it: each
 * section's reading, its value checked by the schema of the extractor whose
 * kind it names (score-registry.ts), and how a results table shows it.
 */
import { z } from 'zod';
import type { ExtractedValue, Reading } from './evidence.js';
import { extractorOf, registeredExtractors } from './extractor-table.js';
import { derived } from './score-registry.js';

const extractedValueSchema = derived(() =>
  z.discriminatedUnion(
    'kind',
    registeredExtractors().map(({ entry }) => entry.value) as unknown as [
      z.ZodObject<{ kind: z.ZodLiteral<string> }>,
    ],
  ),
);

/** A section's reading as score.json records it (checked when the file is read, after packs are installed). */
export const readingSchema: z.ZodType<Reading<ExtractedValue>> = z.lazy(() =>
  z.union([
    z.object({ ok: z.literal(true), value: extractedValueSchema(), quote: z.string() }).strict(),
    z.object({ ok: z.literal(false), why: z.string() }).strict(),
  ]),
) as unknown as z.ZodType<Reading<ExtractedValue>>;

/** One extracted value as a table shows it: `B`, `1 2`, `path adopted`; `?` when unreadable. */
export function shownValue(reading: Reading<ExtractedValue>): string {
  if (!reading.ok) return '?';
  const extractor = extractorOf(reading.value.kind);
  return extractor === undefined ? '?' : extractor.entry.shown(reading.value);
}
