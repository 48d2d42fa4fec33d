/**
 * Markdown decoration removed, so a pattern written for the words matches
 * however a model decorated them (`**Step 3**`, `` `Step 3` ``, `_Step 3_`).
 *
 * Only decoration goes. Emphasis is a pair of delimiters around words, so a
 * delimiter inside a name stays: `snake_case`, `__init__.py`, `__main__`,
 * `src/**\/*.py`, `a**2`. A code span loses its ticks and keeps its content
 * exactly. Struck-through text (`~~Step 2~~`) is what the writer took back:
 * it is removed with one space beside it.
 */

/** A code span on one line: a run of up to three ticks, its content, the same run again. */
const CODE_SPAN = /(?<!`)(`{1,3})(?!`)([^\n]{0,2000}?[^`\n])\1(?!`)/g;
/** Struck-through text, with one space before it when there is one. */
const STRUCK = / ?~~(?=\S)[^~]*?\S~~/g;
/**
 * Strong emphasis: `**…**` or `__…__` around text on one line that starts and
 * ends with a visible character (bounded, so a line of unclosed delimiters
 * costs linear time).
 */
const STRONG = /(?<![\w*\\])(\*\*|__)(?=[^\s*_/.])([^\n]{0,400}?[^\s*_])\1(?![\w*])/g;
/** Emphasis with one `*` or `_` around text that starts and ends like words do. */
const EMPHASIS =
  /(?<![\w*_\\])([*_])(?=[A-Za-z0-9("'[])([^\n]{0,400}?[A-Za-z0-9)"'\].!?])\1(?![\w*_])/g;
/** A dunder name (`__init__`, `__main__`): a word inside `__`, not emphasis. */
const DUNDER = /^\w+$/;

function withoutEmphasisOutsideCode(text: string): string {
  return text
    .replace(STRUCK, '')
    .replace(STRONG, (whole, delimiter: string, inner: string, offset: number, all: string) =>
      delimiter === '__' && (DUNDER.test(inner) || /^\.\w/.test(all.slice(offset + whole.length)))
        ? whole
        : inner,
    )
    .replace(EMPHASIS, (_whole, _delimiter: string, inner: string) => inner)
    .replace(/`+/g, '');
}

export function withoutEmphasis(text: string): string {
  let out = '';
  let last = 0;
  for (const span of text.matchAll(CODE_SPAN)) {
    out += withoutEmphasisOutsideCode(text.slice(last, span.index));
    out += span[2] ?? '';
    last = span.index + span[0].length;
  }
  return out + withoutEmphasisOutsideCode(text.slice(last));
}
