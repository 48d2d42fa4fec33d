/** Markdown tables as every report writes them: one header row, a rule, one line per row. */

/** A table cell: pipes escaped, line breaks joined into one line. */
export function markdownCell(value: string): string {
  return value.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

/** A markdown table; `cell` turns each value into cell text (default: markdownCell). */
export function markdownTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  cell: (value: string) => string = markdownCell,
): string {
  const line = (cells: readonly string[]): string => `| ${cells.map(cell).join(' | ')} |`;
  return [line(header), `|${header.map(() => '---').join('|')}|`, ...rows.map(line)].join('\n');
}
