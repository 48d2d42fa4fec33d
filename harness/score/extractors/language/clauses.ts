/**
 * Turn a section of a reply into plain lower-case text and cut it into
 * sentences and clauses, the units the parser reasons about.
 *
 * A sentence ends at a line break between list items, a table row, `;`, or a
 * full stop. Within a sentence, clauses are separated by spaced dashes, a
 * colon, an arrow, and parentheses: a parenthetical is its own clause. A
 * short parenthetical (a handful of words, like `(reporting-api)` or
 * `(spec A's)`) is also kept attached to the clause before it, because it
 * usually says whose something is.
 */

export interface Clause {
  /** The clause on its own. */
  readonly text: string;
  /** The clause plus the short parentheticals that qualify it. */
  readonly withQualifiers: string;
  readonly parenthetical: boolean;
}

export interface Sentence {
  /** The whole sentence except long parentheticals. */
  readonly text: string;
  readonly clauses: readonly Clause[];
}

const SHORT_PARENTHETICAL_WORDS = 5;

/**
 * Remove struck-out HTML (`<del>…</del>`, any case): each opening tag up to
 * the first closing tag after it becomes a space; an opening tag with no
 * closing tag after it is left as it is. One pass over the tags, however many
 * of them go unclosed (a lazy regex would rescan the rest of the text for each).
 */
function withoutDeletedHtml(text: string): string {
  let result = '';
  let copied = 0;
  let openedAt: number | undefined;
  for (const found of text.matchAll(/<(\/?)del>/gi)) {
    const closing = found[1] === '/';
    if (openedAt === undefined && !closing) openedAt = found.index;
    if (openedAt === undefined || !closing) continue;
    result += `${text.slice(copied, openedAt)} `;
    copied = found.index + found[0].length;
    openedAt = undefined;
  }
  return result + text.slice(copied);
}

/** Plain lower-case text: no markdown emphasis, code ticks, links, struck-out text or curly quotes. */
export function plainText(markdown: string): string {
  return withoutDeletedHtml(markdown.replace(/~~[\s\S]*?~~/g, ' '))
    .replace(/\[\s\]/g, ' ❌ ')
    .replace(/\[[xX✓✔]\]/g, ' ✅ ')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<[^<>\n]+>/g, ' ')
    .replace(/\[([^[\]\n]*)\]\([^()\n]*\)/g, '$1')
    .replace(/\*\*|__|\*/g, '')
    .replace(/`/g, '')
    .replace(/[\u2018\u2019\u02bc]/g, "'")
    .replace(/[\u201c\u201d]/g, '"')
    .replace(/[\u00a0\u2007\u202f]/g, ' ')
    .toLowerCase();
}

/** Cut a section (markdown) into blocks: one per list item, table row or paragraph line group. */
function blocks(section: string): string[] {
  const result: string[] = [];
  let paragraph: string[] = [];
  const flush = (): void => {
    if (paragraph.length > 0) result.push(paragraph.join(' '));
    paragraph = [];
  };
  for (const raw of section.replace(/\r\n?/g, '\n').split('\n')) {
    // One space for every run of white space: no later pattern then has a
    // long run of it to rescan.
    const line = raw.trim().replace(/\s+/g, ' ');
    if (line === '') {
      flush();
      continue;
    }
    if (/^\|.*\|$/.test(line) || /^\|/.test(line)) {
      flush();
      if (/^[\s|:-]+$/.test(line)) continue;
      const cells = line
        .replace(/^\|/, '')
        .replace(/\|$/, '')
        .split('|')
        .map((cell) => cell.trim())
        .filter((cell) => cell !== '');
      result.push(cells.join(' | '));
      continue;
    }
    const item = /^(?:[-*+•◦▪]\s+|\(?\d{1,2}[.)]\s+|#{1,6}\s+|>\s*)/.exec(line);
    if (item !== null) {
      flush();
      paragraph.push(line.slice(item[0].length));
      continue;
    }
    paragraph.push(line);
  }
  flush();
  return result;
}

const SENTENCE_END = /(?<!\b(?:e\.g|i\.e|vs|no|etc|cf))[.!?](?=\s|$)|;/;

function splitSentencesOfBlock(block: string): string[] {
  return block
    .split(new RegExp(SENTENCE_END.source, 'g'))
    .map((part) => part.trim())
    .filter((part) => part !== '');
}

const DASH_SEPARATOR = /\s+[-–]+\s+|(?<!\d)\s*[—―]+\s*(?!\d)|\s*(?:→|=>|->)\s*|,\s*(?=but\b)/g;
const DASH_OR_COLON_SEPARATOR = new RegExp(`${DASH_SEPARATOR.source}|:\\s`, 'g');

export interface SplitOptions {
  /** Also end a clause at a colon (default true). */
  readonly splitOnColon?: boolean;
}

function wordCount(text: string): number {
  return text.split(/\s+/).filter((word) => word !== '').length;
}

interface ClauseDraft {
  readonly text: string;
  readonly parenthetical: boolean;
  readonly qualifiers: string[];
}

/** Split a sentence into clauses, taking parentheticals out as their own clauses. */
function clausesOf(sentence: string, separator: RegExp): Sentence {
  const drafts: ClauseDraft[] = [];
  const addMainText = (text: string): void => {
    for (const part of text.split(separator)) {
      const trimmed = part.trim();
      if (trimmed !== '') drafts.push({ text: trimmed, parenthetical: false, qualifiers: [] });
    }
  };
  let mainText = '';
  let last = 0;
  for (const found of sentence.matchAll(/[([]([^()[\]]*)[)\]]/g)) {
    const before = sentence.slice(last, found.index);
    addMainText(before);
    mainText += before;
    last = found.index + found[0].length;
    const inner = (found[1] ?? '').trim();
    if (inner === '') continue;
    if (wordCount(inner) <= SHORT_PARENTHETICAL_WORDS) {
      mainText += ` (${inner}) `;
      drafts[drafts.length - 1]?.qualifiers.push(inner);
    }
    drafts.push({ text: inner, parenthetical: true, qualifiers: [] });
  }
  const tail = sentence.slice(last);
  addMainText(tail);
  mainText += tail;
  return {
    text: mainText.replace(/\s+/g, ' ').trim(),
    clauses: drafts.map((draft) => ({
      text: draft.text,
      withQualifiers: [draft.text, ...draft.qualifiers].join(' '),
      parenthetical: draft.parenthetical,
    })),
  };
}

/** The sentences of a section, each with its clauses, in reading order. */
export function sentencesOf(section: string, options: SplitOptions = {}): Sentence[] {
  const separator = options.splitOnColon === false ? DASH_SEPARATOR : DASH_OR_COLON_SEPARATOR;
  return blocks(plainText(section))
    .flatMap((block) => splitSentencesOfBlock(block))
    .map((sentence) => clausesOf(sentence, separator))
    .filter((sentence) => sentence.clauses.length > 0);
}
