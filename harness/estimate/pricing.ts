import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { packageRoot } from '../lib/package-root.js';
import type { TokenUsage } from '../session/session-types.js';

const pricingSchema = z
  .object({
    asOf: z.string(),
    source: z.string(),
    cacheWriteMultiplier: z.number().positive(),
    cacheReadMultiplier: z.number().positive(),
    models: z.record(
      z.string(),
      z.object({ input: z.number().nonnegative(), output: z.number().nonnegative() }).strict(),
    ),
  })
  .strict();

export type PricingTable = z.infer<typeof pricingSchema>;

let cached: PricingTable | undefined;

/** The dated price table kept in the repository (harness/estimate/pricing.json). */
export function pricingTable(): PricingTable {
  cached ??= pricingSchema.parse(
    JSON.parse(readFileSync(path.join(packageRoot(), 'harness/estimate/pricing.json'), 'utf8')),
  );
  return cached;
}

/**
 * What a session cost at the table's prices, in USD; null when the model is
 * not priced (scripted policies, unknown ids) or usage is unknown. Never 0
 * for "don't know".
 */
export function costUsd(
  model: string,
  usage: TokenUsage | null,
  table: PricingTable = pricingTable(),
): number | null {
  if (usage === null) return null;
  const price = table.models[model];
  if (price === undefined) return null;
  const perToken = (perMillion: number): number => perMillion / 1_000_000;
  return (
    usage.input * perToken(price.input) +
    usage.cacheWrite * perToken(price.input) * table.cacheWriteMultiplier +
    usage.cacheRead * perToken(price.input) * table.cacheReadMultiplier +
    usage.output * perToken(price.output)
  );
}
