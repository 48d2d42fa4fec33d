/**
 * report.html's "Tool calls by seat" section: for each full-session
 * scenario, the same table as results.md (seat group, arm, decided reps,
 * seats, calls per decided rep, mean, median, range), and the grouping rule.
 * Nothing when no scenario ran full sessions.
 */
import { axisNoun } from '../model-tables.js';
import type { ResultsModel } from '../results-schema.js';
import {
  SEAT_TOOLS_NUMERIC_COLUMNS,
  seatToolsColumns,
  seatToolsRow,
} from '../seat-tools-markdown.js';
import { html, type SafeHtml, scrollingTable } from './html-template.js';

export function seatToolsHtmlSection(model: ResultsModel): SafeHtml | '' {
  const seatTools = model.seatTools;
  if (seatTools === undefined) return '';
  const scenarios = [...new Set(seatTools.cells.map((cell) => cell.scenario))];
  const tables = scenarios.map((scenario) => {
    const cells = seatTools.cells.filter((cell) => cell.scenario === scenario);
    const withModel = cells.some((cell) => cell.model !== undefined);
    const columns = seatToolsColumns(withModel, axisNoun(model).column);
    const rows = cells.map((cell) => {
      const tds = seatToolsRow(cell, withModel).map((text, index) =>
        SEAT_TOOLS_NUMERIC_COLUMNS.has(columns[index] ?? '')
          ? html`<td class="num">${text}</td>`
          : html`<td>${text}</td>`,
      );
      return html`<tr class="seat-row">${tds}</tr>`;
    });
    return html`<h3>${scenario}</h3>
${scrollingTable(`Tool calls by seat, ${scenario}`, columns, html`<tbody>${rows}</tbody>`)}`;
  });
  return html`<section id="seat-tools" aria-labelledby="seat-tools-title">
<h2 id="seat-tools-title">Tool calls by seat</h2>
${tables}
<p class="muted">${seatTools.rule}</p>
${seatTools.unrecorded.length > 0 ? html`<p class="muted">${seatTools.unrecorded.length} full-session rep(s) recorded before per-seat counts are not in these figures: <code>redgreen score</code> adds them from the kept transcripts.</p>` : ''}
</section>`;
}
