/**
 * Whether a reply ends on a question to its reader: its last line, once
 * markdown emphasis, code spans and closing quotes or brackets are set
 * aside, ends with a question mark, or its last sentence asks the reader
 * for a decision or a go-ahead without one ("Let me know and I will
 * start step 1.", "Please confirm which value governs.", "I'll continue
 * once you decide."). A question followed only by the options it offers (a
 * trailing list: `- 40`, `2. 30`, `(a) ...`) still ends the reply: the list
 * is part of the question. Anything else after it (a next step, a sign-off that
 * is a statement) means the reply did not end on it; a courtesy after the
 * work ("Let me know if you have questions.") asks for nothing.
 */
import { withoutEmphasis } from './markdown.js';

const LIST_ITEM = /^(?:[-*+•]|\d{1,2}[.)]|\(?[a-z]\))\s+\S/i;
const CLOSERS = /[\s"'`)\]*_\u201d\u2019»]+$/u;
const QUESTION_END = /[?\uff1f]$/u;

/** A sentence that asks the reader to decide or to give the go-ahead. */
const REQUEST = new RegExp(
  [
    // "Let me know which …", "let me know and I'll …", "let me know once you …"
    "\\blet\\s+me\\s+know\\s+(?:which|what|how|whether|and\\s+I(?:'ll|\u2019ll|\\s+will)|once|when|your)\\b",
    // "Please confirm", "please decide which", "please advise"
    '\\bplease\\s+(?:confirm|decide|choose|advise|tell\\s+me|let\\s+me\\s+know|say|reply|approve)\\b',
    '\\btell\\s+me\\s+(?:which|what|how|whether)\\b',
    '^(?:confirm|decide|choose)\\s+(?:which|whether|how|what)\\b',
    // "I'll wait / continue / start step 1 once you decide"
    "\\bI(?:'ll|\u2019ll|\\s+will|\\s+can)\\s+(?:wait|hold(?:\\s+off)?|pause|continue|proceed|go\\s+ahead|dispatch|start|resume)\\b[^.!]*\\b(?:once|when|after|as\\s+soon\\s+as|until|if)\\s+you\\b",
    '\\b(?:awaiting|waiting\\s+(?:for|on))\\s+your\\b',
    '^once\\s+you\\s+(?:confirm|decide|reply|tell\\s+me|choose|say|let\\s+me\\s+know)\\b',
  ].join('|'),
  'i',
);

/** The last sentence of a line. */
function lastSentence(line: string): string {
  const sentences = line.split(/(?<=[.!])\s+(?=\S)/);
  return (sentences[sentences.length - 1] ?? line).trim();
}

/** The line that ends the reply on a question or a request, or undefined when it does not end on one. */
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
    if (QUESTION_END.test(bare) || REQUEST.test(lastSentence(bare))) return line;
  }
  return undefined;
}
