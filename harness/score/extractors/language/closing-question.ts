/**
 * Whether a reply ends on a question to its reader: its last line, once
 * markdown emphasis, code spans and closing quotes or brackets are set
 * aside, ends with a question mark. A question followed only by the options
 * it offers (a trailing list: `- 40`, `2. 30`, `(a) ...`) still ends the
 * reply: the list is part of the question. Anything after it (a plan, a
 * sign-off that is a statement) means the reply did not end on it.
 */
import { withoutEmphasis } from './markdown.js';

const LIST_ITEM = /^(?:[-*+•]|\d{1,2}[.)]|\(?[a-z]\))\s+\S/i;
const CLOSERS = /[\s"'`)\]*_\u201d\u2019»]+$/u;
const QUESTION_END = /[?\uff1f]$/u;

/** The line that ends the reply on a question, or undefined when it does not end on one. */
export function closingQuestion(reply: string): string | undefined {
  const lines = withoutEmphasis(reply)
    .replace(/\r\n?/g, '\n')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !/^(?:-{3,}|_{3,}|\*{3,})$/.test(line));
  let end = lines.length - 1;
  while (end > 0 && LIST_ITEM.test(lines[end] ?? '')) end -= 1;
  const candidates = end < lines.length - 1 ? [lines[end], lines[lines.length - 1]] : [lines[end]];
  for (const line of candidates) {
    if (line === undefined) continue;
    const bare = line.replace(CLOSERS, '');
    // A trailing list only counts when the line before it asks; the last line counts on its own.
    if (QUESTION_END.test(bare)) return line;
  }
  return undefined;
}
