/**
 * `choice`: which one of a scenario's declared values a section states, each
 * value recognised by its name, its synonyms (whole words, any case) or its
 * patterns. A section naming none, or more than one, cannot be read.
 */
import { z } from 'zod';
import { nameSchema, nonBlank, regexSource } from '../param-types.js';
import { defineExtractor, quoteOf } from './extractor.js';
import { plainText } from './language/clauses.js';
import { proseNamePattern } from './language/plan-names.js';

const choiceValueSchema = z
  .object({
    synonyms: z.array(nonBlank).default([]),
    /** Regular expressions over the section in lower case. */
    patterns: z.array(regexSource).default([]),
  })
  .strict();

export const choiceExtractor = defineExtractor({
  summary: 'one of the declared values, by name, synonym or pattern; none or several is unreadable',
  params: z
    .object({
      kind: z.literal('choice'),
      values: z
        .record(nameSchema, choiceValueSchema)
        .refine((values) => Object.keys(values).length >= 2, 'declare at least two values'),
    })
    .strict(),
  empty: undefined,
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
