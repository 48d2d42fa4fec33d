/**
 * `choice`: which one of a scenario's declared values a section states, each
 * value recognised by its name, its synonyms (whole words, any case) or its
 * patterns. A section naming none, or more than one, cannot be read.
 */
import { z } from 'zod';
import { nameSchema, nonBlank, regexSource } from '../param-types.js';
import { defineExtractor, quoteOf } from './extractor.js';
import { plainText } from './language/clauses.js';
import { proseNamePattern } from './language/prose-names.js';

const choiceValueSchema = z
  .object({
    synonyms: z.array(nonBlank).default([]),
    /** Regular expressions over the section in lower case. */
    patterns: z.array(regexSource).default([]),
  })
  .strict();

const choiceParams = z
  .object({
    kind: z.literal('choice'),
    values: z
      .record(nameSchema, choiceValueSchema)
      .refine((values) => Object.keys(values).length >= 2, 'declare at least two values'),
  })
  .strict();

/** What a choice section reads. */
export interface ChoiceValue {
  readonly kind: 'choice';
  readonly choice: string;
}

export const choiceExtractor = defineExtractor<typeof choiceParams, ChoiceValue>({
  summary: 'one of the declared values, by name, synonym or pattern; none or several is unreadable',
  params: choiceParams,
  value: z.object({ kind: z.literal('choice'), choice: z.string() }).strict(),
  empty: undefined,
  shown: (value) => value.choice,
  scalar: (value) => ({ said: value.choice, observed: value.choice }),
  valuesProblem: (field, section, values, context) => {
    const spec = context.sectionSpecs?.[section]?.values;
    const declared = typeof spec === 'object' && spec !== null ? Object.keys(spec) : undefined;
    for (const value of values) {
      if (typeof value === 'number') {
        return {
          field,
          problem: `${value} is a number, but the "${section}" section reads a choice`,
          fix:
            declared === undefined ? 'give a declared value' : `use one of ${declared.join(', ')}`,
        };
      }
      if (declared !== undefined && !declared.includes(value)) {
        return {
          field,
          problem: `"${value}" is not a value the "${section}" section declares, so it could never be read`,
          fix: `use one of ${declared.join(', ')}`,
        };
      }
    }
    return undefined;
  },
  dependsOn: () => [],
  extract: (section, params) => {
    const text = plainText(section);
    const found = Object.entries(params.values)
      .filter(([name, value]) => {
        const words = [name.replace(/-/g, ' '), ...value.synonyms];
        return (
          words.some((word) => proseNamePattern(word).test(text)) ||
          value.patterns.some((pattern) => new RegExp(pattern).test(text))
        );
      })
      .map(([name]) => name);
    if (found.length === 0) return { ok: false, why: 'states none of the declared values' };
    if (found.length > 1) return { ok: false, why: `states several values (${found.join(', ')})` };
    return { ok: true, value: { kind: 'choice', choice: found[0] ?? '' }, quote: quoteOf(section) };
  },
});
