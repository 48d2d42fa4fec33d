/**
 * The core's extractors, the ones that know no skill: a section's `extract`
 * names one of these or one a pack brings (score-registry.ts).
 */
import { choiceExtractor } from './choice.js';
import type { AnyExtractor } from './extractor.js';
import { textExtractor } from './text.js';

export const CORE_EXTRACTORS: Readonly<Record<string, AnyExtractor>> = {
  choice: choiceExtractor,
  text: textExtractor,
};
