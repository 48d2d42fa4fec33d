/**
 * Finding a name in prose: a short name or a title, written with whatever
 * punctuation and spacing a writer puts between its words.
 */
import { escapeRegExp } from '../../../lib/escape-reg-exp.js';

/** Last words after which a name may read as the start of a verb phrase ("option a" in "option a new one"). */
const ARTICLE_ENDING = /(?:^|[^a-z0-9])(?:a|an)$/;

/**
 * A RegExp finding a prose name in lower-case text: whole words only,
 * tolerant of the punctuation and spacing between the words ("end-to-end
 * test" matches "end to end test", "registry load save" matches
 * "registry load/save"). A name ending in an article does not match where
 * one of `verbPhraseWords` follows it (the caller's domain says which words
 * make it a verb phrase).
 */
export function proseNamePattern(
  name: string,
  flags = '',
  verbPhraseWords: readonly string[] = [],
): RegExp {
  const lower = name.toLowerCase().trim();
  const words = lower.split(/[^a-z0-9]+/).filter((word) => word !== '');
  if (words.length === 0) return new RegExp('(?!)', flags);
  const body = words.map(escapeRegExp).join('[^a-z0-9\\n]{1,3}');
  const guard =
    verbPhraseWords.length > 0 && ARTICLE_ENDING.test(lower)
      ? `(?!\\s+(?:${verbPhraseWords.map(escapeRegExp).join('|')})\\b)`
      : '';
  return new RegExp(`(?<![a-z0-9])${body}(?![a-z0-9])${guard}`, flags);
}
