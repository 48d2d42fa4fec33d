/**
 * A small HTML builder that escapes by default. Every value interpolated into
 * the `html` tag is escaped unless it is already `SafeHtml` (built by this tag,
 * or marked with `trustedHtml` for markup the report itself produced, such as
 * a chart's SVG). Results text (replies, transcripts, reasons) is untrusted, so
 * it can only ever reach the page as text.
 */

/** Markup that is safe to place in the page as is. */
export class SafeHtml {
  constructor(readonly markup: string) {}
  toString(): string {
    return this.markup;
  }
}

/** A value the `html` tag accepts: text (escaped), markup, or a list of either. */
export type HtmlValue =
  | SafeHtml
  | string
  | number
  | boolean
  | null
  | undefined
  | readonly HtmlValue[];

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Escape text for an HTML text node or a quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}

function render(value: HtmlValue): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof SafeHtml) return value.markup;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

/** Tagged template: literal parts are markup, interpolated values are escaped. */
export function html(strings: TemplateStringsArray, ...values: readonly HtmlValue[]): SafeHtml {
  let markup = strings[0] ?? '';
  for (const [index, value] of values.entries()) {
    markup += render(value) + (strings[index + 1] ?? '');
  }
  return new SafeHtml(markup);
}

/** Mark markup the report produced itself (never results text) as safe to embed. */
export function trustedHtml(markup: string): SafeHtml {
  return new SafeHtml(markup);
}

/** A table's `<thead>`: one column header per name. */
export function tableHead(columns: readonly string[]): SafeHtml {
  return html`<thead><tr>${columns.map((column) => html`<th scope="col">${column}</th>`)}</tr></thead>`;
}

/**
 * A data table inside a box that scrolls sideways on its own when the table
 * is wider than the screen, so the page itself never does. The box is a
 * labelled, focusable region so keyboard users can scroll it too.
 */
export function scrollingTable(
  label: string,
  columns: readonly string[],
  body: HtmlValue,
  className = 'data',
): SafeHtml {
  return html`<div class="table-scroll" tabindex="0" role="region" aria-label="${label}"><table class="${className}">${tableHead(columns)}${body}</table></div>`;
}
