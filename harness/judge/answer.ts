/**
 * The judge's answer: a call of the `record_judgement` tool whose input is,
 * per rubric item, a verdict (pass, fail or unsure), a quote of the evidence
 * copied from the material, and a short rationale. This module holds the
 * tool's JSON schema (sent to the model), the zod schema the answer is
 * validated with, and the rules applied to a valid answer:
 *
 * - every rubric item is answered exactly once, and nothing else;
 * - a pass or fail whose quote is not found, whole, in one evidence part of
 *   the material becomes unsure (quote-rule.ts: what counts as evidence, how
 *   long a quote must be, what copying may lose); the part it was found in
 *   is recorded;
 * - the judge's verdict on the rep is the strong Kleene conjunction of its
 *   items: fail if any item fails, else unsure if any is unsure, else pass.
 */
import { z } from 'zod';
import { JUDGE_TOOL_NAME } from '../model-server/judge-policies.js';
import { findQuote } from '../score/quote-rule.js';
import type { Material } from './material.js';

export { JUDGE_TOOL_NAME };

export const JUDGE_VERDICTS = ['pass', 'fail', 'unsure'] as const;
export type JudgeVerdict = (typeof JUDGE_VERDICTS)[number];

/** The tool the judge must call, with the rubric's item ids as the only allowed ids. */
export function judgeTool(itemIds: readonly string[]): {
  name: string;
  description: string;
  input_schema: { type: 'object'; [key: string]: unknown };
} {
  return {
    name: JUDGE_TOOL_NAME,
    description:
      'Record your judgement: one entry per rubric item, each with pass, fail or unsure, a quote copied character for character from the material, and a one-sentence rationale.',
    input_schema: {
      type: 'object',
      properties: {
        items: {
          type: 'array',
          description: 'exactly one entry per rubric item',
          items: {
            type: 'object',
            properties: {
              id: { type: 'string', enum: [...itemIds], description: 'the rubric item' },
              verdict: { type: 'string', enum: [...JUDGE_VERDICTS] },
              quote: {
                type: 'string',
                description:
                  'the evidence, copied exactly from ONE part of the material (the reply, one dispatch, one tool call, one changed file), at least three words, never a heading; empty only when unsure',
              },
              rationale: { type: 'string', description: 'why, in one sentence' },
            },
            required: ['id', 'verdict', 'quote', 'rationale'],
            additionalProperties: false,
          },
        },
      },
      required: ['items'],
      additionalProperties: false,
    },
  };
}

const itemSchema = z
  .object({
    id: z.string(),
    verdict: z.enum(JUDGE_VERDICTS),
    quote: z.string(),
    rationale: z.string(),
  })
  .strict();

const answerSchema = z.object({ items: z.array(itemSchema) }).strict();
export type JudgeAnswerItem = z.infer<typeof itemSchema>;

/** Validate a tool input against the schema and the rubric: the items, or what is wrong (one line). */
export function parseJudgeAnswer(
  input: unknown,
  itemIds: readonly string[],
): { ok: true; items: JudgeAnswerItem[] } | { ok: false; problem: string } {
  const parsed = answerSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue === undefined || issue.path.length === 0 ? 'input' : issue.path.join('.');
    return { ok: false, problem: `${where}: ${issue?.message ?? 'does not match the schema'}` };
  }
  const seen = new Set<string>();
  for (const item of parsed.data.items) {
    if (!itemIds.includes(item.id)) return { ok: false, problem: `"${item.id}" is no rubric item` };
    if (seen.has(item.id)) return { ok: false, problem: `"${item.id}" is answered twice` };
    seen.add(item.id);
  }
  const missing = itemIds.filter((id) => !seen.has(id));
  if (missing.length > 0) return { ok: false, problem: `no answer for ${missing.join(', ')}` };
  return {
    ok: true,
    items: itemIds.map((id) => parsed.data.items.find((item) => item.id === id) as JudgeAnswerItem),
  };
}

/** One rubric item as stored: what the judge said, and what stands after the quote rule. */
export interface JudgedItem {
  readonly id: string;
  readonly verdict: JudgeVerdict;
  /** The verdict the judge gave, before the quote rule. */
  readonly answered: JudgeVerdict;
  readonly quote: string;
  readonly quoteFound: boolean;
  /** The evidence part the quote was found in (`reply`, `dispatch 1`, ...); null when not found. */
  readonly quotePart: string | null;
  readonly rationale: string;
}

/** Apply the quote rule: a pass or fail whose quote the material does not hold becomes unsure. */
export function applyQuoteRule(
  items: readonly JudgeAnswerItem[],
  material: Pick<Material, 'evidence'>,
): JudgedItem[] {
  return items.map((item) => {
    const part = findQuote(item.quote, material.evidence);
    return {
      id: item.id,
      verdict: item.verdict !== 'unsure' && part === null ? 'unsure' : item.verdict,
      answered: item.verdict,
      quote: item.quote,
      quoteFound: part !== null,
      quotePart: part,
      rationale: item.rationale,
    };
  });
}

/** The judge's verdict on the rep: fail on any fail, else unsure on any unsure, else pass. */
export function judgeVerdictOf(items: readonly { readonly verdict: JudgeVerdict }[]): JudgeVerdict {
  if (items.some((item) => item.verdict === 'fail')) return 'fail';
  if (items.length === 0 || items.some((item) => item.verdict === 'unsure')) return 'unsure';
  return 'pass';
}
