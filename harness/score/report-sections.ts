/**
 * Find the sections of a reply's report, however it is laid out: numbered
 * (`1.`, `1)`), bold, markdown headings, bullets, two-column tables
 * (label | answer), tables whose header row holds the labels, with or
 * without colons or dashes after the label. Which labels open which section
 * is the scenario's report contract (see compileSectionLabels).
 *
 * A section runs from its label to the next label. When a label occurs more
 * than once (a preamble that mentions a label, then the report), the last
 * occurrence wins: the report is what the prompt asked for last.
 */
import { escapeRegExp } from '../lib/escape-reg-exp.js';

/** The labels that open one section, as one case-insensitive pattern anchored at the line start. */
export interface SectionLabel {
  readonly name: string;
  readonly pattern: RegExp;
}

export type ReplySections = Readonly<Record<string, string>>;

/**
 * One label pattern per section: literal labels match case-insensitively with
 * any white space between their words; patterns are regular expressions
 * matched at the start of the line (after list, heading and emphasis markup).
 * Both must end at a word boundary.
 */
export function compileSectionLabel(
  name: string,
  labels: readonly string[],
  patterns: readonly string[],
): SectionLabel {
  const literal = labels.map((label) =>
    label
      .trim()
      .split(/\s+/)
      .map((word) => escapeRegExp(word))
      .join('\\s+'),
  );
  const alternatives = [...literal, ...patterns].map((source) => `(?:${source})`).join('|');
  return { name, pattern: new RegExp(`^(?:${alternatives})\\b`, 'i') };
}

/** Characters that may follow a label when it is used as a heading. */
const AFTER_LABEL = /^(?:$|[\s:：*_|()\-–—.`])/;

/** Remove list, heading, quote, table and emphasis markup from the start of a line. */
export function stripLinePrefix(line: string): string {
  let current = line;
  for (;;) {
    const next = current
      .replace(/^\s+/, '')
      .replace(/^>+/, '')
      .replace(/^#{1,6}(?=\s|\d|[A-Za-z*_])/, '')
      .replace(/^[-*+•◦▪](?=\s)/, '')
      .replace(/^\|/, '')
      .replace(/^(?:\*\*|__|\*|_|`)/, '')
      .replace(/^\(?\d{1,2}[.)](?=\s|\*|_|[A-Za-z])/, '')
      .replace(/^\[\s?[xX ]?\s?\]/, '');
    if (next === current) return current;
    current = next;
  }
}

/** Remove the markup between a label and its answer: closing bold, a colon, a dash, a cell bar. */
function stripAfterLabel(rest: string): string {
  return rest
    .replace(/^\s*(?:\*\*|__|\*|_|`)?\s*(?:\([^)]*\))?\s*(?:\*\*|__|\*|_)?\s*/, '')
    .replace(/^[:：\-–—|.]+/, '')
    .replace(/^\s*(?:\*\*|__)?\s*\|?\s*/, '')
    .replace(/\s*\|\s*$/, '')
    .trim();
}

interface LabelMatch {
  readonly name: string;
  /** What follows the label on the same line. */
  readonly rest: string;
}

/** The section a line opens, and the answer written after the label on that line. */
export function matchLabel(line: string, labels: readonly SectionLabel[]): LabelMatch | undefined {
  const stripped = stripLinePrefix(line);
  for (const label of labels) {
    const found = label.pattern.exec(stripped);
    if (found === null) continue;
    const rest = stripped.slice(found[0].length);
    if (!AFTER_LABEL.test(rest)) continue;
    return { name: label.name, rest: stripAfterLabel(rest) };
  }
  return undefined;
}

function isTableRow(line: string): boolean {
  return /^\s*\|.*\|\s*$/.test(line);
}

function tableCells(line: string): string[] {
  return line.trim().replace(/^\|/, '').replace(/\|$/, '').split('|');
}

function isTableSeparator(line: string): boolean {
  return /^\s*\|?[\s:|-]+\|?\s*$/.test(line) && line.includes('-');
}

/** When a table row's cells are labels (`| DONE | NEXT STEP |`), the section of each column. */
function columnHeader(
  line: string,
  labels: readonly SectionLabel[],
): (string | undefined)[] | undefined {
  if (!isTableRow(line)) return undefined;
  const columns = tableCells(line).map((cell) => {
    const label = matchLabel(cell, labels);
    return label !== undefined && label.rest === '' ? label.name : undefined;
  });
  return columns.filter((name) => name !== undefined).length >= 2 ? columns : undefined;
}

interface Occurrence {
  readonly name: string;
  readonly lines: string[];
}

/** Split a reply into its report sections; a section the reply lacks is absent. */
export function splitReplySections(reply: string, labels: readonly SectionLabel[]): ReplySections {
  const lines = reply.replace(/\r\n?/g, '\n').split('\n');
  const occurrences: Occurrence[] = [];
  let current: Occurrence | undefined;

  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] ?? '';
    const columns = columnHeader(line, labels);
    if (columns !== undefined) {
      const byColumn = new Map<string, string[]>();
      let row = index + 1;
      while (row < lines.length && isTableRow(lines[row] ?? '')) {
        const rowLine = lines[row] ?? '';
        if (!isTableSeparator(rowLine)) {
          tableCells(rowLine).forEach((cell, column) => {
            const name = columns[column];
            if (name === undefined) return;
            const collected = byColumn.get(name) ?? [];
            collected.push(cell.trim());
            byColumn.set(name, collected);
          });
        }
        row++;
      }
      for (const [name, cells] of byColumn) occurrences.push({ name, lines: cells });
      current = undefined;
      index = row - 1;
      continue;
    }
    const label = matchLabel(line, labels);
    if (label !== undefined) {
      current = { name: label.name, lines: label.rest === '' ? [] : [label.rest] };
      occurrences.push(current);
      continue;
    }
    current?.lines.push(line);
  }

  const sections: Record<string, string> = {};
  for (const occurrence of occurrences) {
    sections[occurrence.name] = occurrence.lines.join('\n').trim();
  }
  return sections;
}
