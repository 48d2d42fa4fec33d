/**
 * report.html's "Tool calls by seat" section: for each full-session
 * scenario, the same table as results.md (seat group, arm, decided reps,
 * seats, calls per decided rep, mean, median, range), and the grouping rule.
 * Nothing when no scenario ran full sessions.
 */
import type { ResultsModel } from '../results-schema.js';
import { html, type SafeHtml, scrollingTable } from './html-template.js';

function num(value: number | null): string {
  return value === null ? 'n/a' : value.toFixed(1);
}

export function seatToolsHtmlSection(model: ResultsModel): SafeHtml | '' {
  const seatTools = model.seatTools;
  if (seatTools === undefined) return '';
  const scenarios = [...new Set(seatTools.cells.map((cell) => cell.scenario))];
  const tables = scenarios.map((scenario) => {
    const cells = seatTools.cells.filter((cell) => cell.scenario === scenario);
    const withModel = cells.some((cell) => cell.model !== undefined);
    const rows = cells.map(
      (cell) =>
        html`<tr class="seat-row"><td>${cell.group}</td>${withModel ? html`<td>${cell.model ?? ''}</td>` : ''}<td>${cell.arm.toUpperCase()}</td><td class="num">${cell.values.length}</td><td class="num">${cell.seats}</td><td>${cell.values.join(' / ') || '—'}</td><td class="num">${num(cell.mean)}</td><td class="num">${num(cell.median)}</td><td class="num">${cell.min === null || cell.max === null ? 'n/a' : `${cell.min}–${cell.max}`}</td></tr>`,
    );
    return html`<h3>${scenario}</h3>
${scrollingTable(
  `Tool calls by seat, ${scenario}`,
  [
    'Seat group',
    ...(withModel ? ['Model'] : []),
    'Arm',
    'Decided reps',
    'Seats',
    'Tool calls per decided rep',
    'mean',
    'median',
    'range',
  ],
  html`<tbody>${rows}</tbody>`,
)}`;
  });
  return html`<section id="seat-tools" aria-labelledby="seat-tools-title">
<h2 id="seat-tools-title">Tool calls by seat</h2>
${tables}
<p class="muted">${seatTools.rule}</p>
${seatTools.unrecorded.length > 0 ? html`<p class="muted">${seatTools.unrecorded.length} full-session rep(s) recorded before per-seat counts are not in these figures: <code>redgreen score</code> adds them from the kept transcripts.</p>` : ''}
</section>`;
}
