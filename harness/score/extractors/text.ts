/** `text`: the section as written, trimmed; an empty section cannot be read. */
import { z } from 'zod';
import { defineExtractor, quoteOf } from './extractor.js';

export const textExtractor = defineExtractor({
  summary: 'the section text, trimmed (empty is unreadable)',
  params: z.object({ kind: z.literal('text') }).strict(),
  empty: { kind: 'text', text: '' },
  dependsOn: () => [],
  extract: (section) => {
    const text = section.trim();
    if (text === '') return { ok: false, why: 'is empty' };
    return { ok: true, value: { kind: 'text', text }, quote: quoteOf(text) };
  },
});
