/**
 * `judge.json`, one per judged rep, beside its score.json: the judge's
 * answer on every rubric item (verdict, quote, whether the quote was found
 * in the material, rationale), its verdict on the rep, and what it cost. It
 * is keyed by a hash of the protocol, rubric, material and model
 * (prompt.ts), so `redgreen judge` asks again only when one of them changed,
 * and `report`, `score` and `gate` read it without calling any model.
 *
 * A judgement that could not be had (API errors after the SDK's retries) is
 * recorded with status `error`: its verdict is unsure, never a pass, and
 * `redgreen judge` tries it again. An answer that stayed invalid against the
 * schema after one retry is status `judged` with every item unsure and the
 * raw answers kept in `invalidAnswers`.
 */

import path from 'node:path';
import { z } from 'zod';
import { readRegularText } from '../lib/contained-file.js';
import { tokenUsageSchema } from '../results/rep-meta.js';
import { JUDGE_VERDICTS } from './answer.js';

export const JUDGEMENT_FILE = 'judge.json';

export const judgedItemSchema = z
  .object({
    id: z.string(),
    verdict: z.enum(JUDGE_VERDICTS),
    answered: z.enum(JUDGE_VERDICTS),
    quote: z.string(),
    quoteFound: z.boolean(),
    /** The evidence part the quote was found in; null when not found (absent in judgements before protocol 2). */
    quotePart: z.string().nullable().default(null),
    rationale: z.string(),
  })
  .strict();

export const judgementSchema = z
  .object({
    schemaVersion: z.literal(1),
    rep: z.string(),
    /** sha256 of protocol, rubric, material and model: the judgement is current while this matches. */
    key: z.string().regex(/^[0-9a-f]{64}$/),
    rubricHash: z.string(),
    materialHash: z.string(),
    model: z
      .object({
        requested: z.string(),
        reported: z.string().nullable(),
        scripted: z.boolean(),
        /** A live judge's endpoint other than the Anthropic API (origin and path); part of the key. */
        endpoint: z.string().nullable().default(null),
      })
      .strict(),
    status: z.enum(['judged', 'error']),
    /** Why there is no judgement (status error). */
    error: z.string().nullable(),
    verdict: z.enum(JUDGE_VERDICTS),
    items: z.array(judgedItemSchema),
    /** Requests made (1, or 2 after an invalid answer). */
    attempts: z.number().int().nonnegative(),
    /** The raw answers that were not valid against the schema, verbatim. */
    invalidAnswers: z.array(z.string()),
    tokens: tokenUsageSchema.nullable(),
    tokensEstimated: z.boolean(),
    /** At the repository's price table; null when unpriced (a scripted judge, an unknown model). */
    costUsd: z.number().nonnegative().nullable(),
    pricingAsOf: z.string(),
    judgedAt: z.string(),
  })
  .strict();

export type Judgement = z.infer<typeof judgementSchema>;
export type JudgedItemRecord = z.infer<typeof judgedItemSchema>;

/** A rep's judge.json: undefined when there is none; an Error when it exists but cannot be read. */
export async function readJudgement(repDir: string): Promise<Judgement | undefined | Error> {
  let text: string;
  try {
    text = await readRegularText(path.join(repDir, JUDGEMENT_FILE));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    return error instanceof Error ? error : new Error(String(error));
  }
  try {
    return judgementSchema.parse(JSON.parse(text));
  } catch (error) {
    return new Error(
      `${JUDGEMENT_FILE} is not a judgement (${error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error)})`,
    );
  }
}
