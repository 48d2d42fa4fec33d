/**
 * The verbatim-quote rule, apart from everything else so the scripted judges
 * on the local model server quote by the same rule they are held to.
 *
 * A quote supports a pass or a fail only when it is evidence: long enough to
 * say something (at least MIN_QUOTE_WORDS words or MIN_QUOTE_CHARS
 * characters that are not white space) and found, whole, inside ONE evidence
 * part of the material (the reply, one dispatch, one tool call, one changed
 * file, or one fact the recording establishes), never in redgreen's own
 * framing: delimiters, headings, notes that evidence is missing, the skill
 * text. Comparing forgives only what copying from a rendered page loses:
 * runs of white space are one space, markdown emphasis and code marks
 * (`*`, `_`, backticks) are dropped, curly quotes are straight ones.
 */

export const MIN_QUOTE_WORDS = 3;
export const MIN_QUOTE_CHARS = 12;

/** A quote or a part as compared: emphasis dropped, quotes straightened, white space squashed. */
export function normaliseForQuote(text: string): string {
  return text
    .replace(/[\u2018\u2019]/g, "'")
    .replace(/[\u201C\u201D]/g, '"')
    .replace(/[*_`]+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Whether a quote is long enough to be evidence: enough words, or enough characters. */
export function quoteLongEnough(quote: string): boolean {
  const text = normaliseForQuote(quote);
  const words = text.split(' ').filter((word) => /[\p{L}\p{N}]/u.test(word)).length;
  return words >= MIN_QUOTE_WORDS || text.replace(/\s/g, '').length >= MIN_QUOTE_CHARS;
}

/** One part of the material a quote may come from, named as the tables name it. */
export interface EvidencePart {
  /** `reply`, `dispatch 1`, `tool call 3`, `diff: docs/notes.md`, `git state`, ... */
  readonly label: string;
  readonly text: string;
}

/** The part a quote is found in, whole; null when it is too short or in no single part. */
export function findQuote(quote: string, parts: readonly EvidencePart[]): string | null {
  if (!quoteLongEnough(quote)) return null;
  const needle = normaliseForQuote(quote);
  for (const part of parts) {
    if (normaliseForQuote(part.text).includes(needle)) return part.label;
  }
  return null;
}
