/** `text`: the section as written, trimmed; an empty section cannot be read. */
import { z } from 'zod';
import { defineExtractor, quoteOf } from './extractor.js';

/** What a text section reads. */
export interface TextValue {
  readonly kind: 'text';
  readonly text: string;
}

export const textExtractor = defineExtractor<
  z.ZodObject<{ kind: z.ZodLiteral<'text'> }, z.core.$strict>,
  TextValue
>({
  summary: 'the section text, trimmed (empty is unreadable)',
  params: z.object({ kind: z.literal('text') }).strict(),
  value: z.object({ kind: z.literal('text'), text: z.string() }).strict(),
  empty: { kind: 'text', text: '' },
  shown: (value) => (value.text.length > 60 ? `${value.text.slice(0, 60)}…` : value.text),
  dependsOn: () => [],
  extract: (section) => {
    const text = section.trim();
    if (text === '') return { ok: false, why: 'is empty' };
    return { ok: true, value: { kind: 'text', text }, quote: quoteOf(text) };
  },
});
