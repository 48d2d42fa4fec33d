/**
 * Judging on report.html: the disagreements between the checks and the judge
 * (placed right under the gates, before any rate: they say the instrument
 * itself is in doubt), each with the checks and the judge's items and quotes
 * side by side, and the agreement table. Everything from the results is
 * escaped by the html tag.
 */

import type { Disagreement } from '../../judge/report-model.js';
import {
  AGREEMENT_COLUMNS,
  AGREEMENT_RULE,
  agreementCells,
  judgeSummaryLine,
  noDisagreementText,
  scopeLabel,
} from '../judge-text.js';
import type { ResultsModel } from '../results-schema.js';
import { verdictBadge } from './badges.js';
import { repAnchor } from './format.js';
import { html, type SafeHtml, scrollingTable } from './html-template.js';

function disagreementBlock(row: Disagreement): SafeHtml {
  const rows = row.items.map(
    (item) =>
      html`<tr${item.check_outcome !== item.judge_verdict ? html` class="hl-integrity"` : ''}><td><code>${item.id}</code></td><td>${item.check_outcome}: ${item.check_detail}</td><td>${item.judge_verdict}${item.answered === item.judge_verdict ? '' : ` (answered ${item.answered})`}</td><td>${item.quote === '' ? html`<span class="muted">—</span>` : html`<q>${item.quote}</q>${item.quote_found ? '' : html` <span class="badge badge-warn">not in the material</span>`}`}</td><td>${item.rationale}</td></tr>`,
  );
  return html`<article class="disagreement${row.adjudicated ? ' hl-override' : ' hl-integrity'}">
<h3><a href="#${repAnchor(row.rep_id)}"><code>${row.rep_id}</code></a>: checks ${row.checks_verdict}, judge ${row.judge_verdict} ${row.adjudicated ? html`<span class="badge badge-override">adjudicated</span> ${verdictBadge(row.verdict)} <span class="muted">${row.override_reason}</span>` : html`<span class="badge badge-warn">unresolved</span>`}</h3>
${scrollingTable(`Checks and judge on ${row.rep_id}`, ['Item', 'Checks', 'Judge', "Judge's quote", "Judge's rationale"], html`<tbody>${rows}</tbody>`)}
</article>`;
}

/** Disagreements first: every rep where the checks and the judge both decided and differ. */
export function disagreementSection(model: ResultsModel): SafeHtml {
  if (model.judge === undefined) return html``;
  const { disagreements } = model.judge;
  const body =
    disagreements.length === 0
      ? html`<p>${noDisagreementText(model.judge)}</p>`
      : html`<p>${disagreements.filter((row) => !row.adjudicated).length} unresolved, ${disagreements.filter((row) => row.adjudicated).length} adjudicated (<code>redgreen adjudicate</code> settles them).</p>${disagreements.map(disagreementBlock)}`;
  return html`<section id="disagreements" aria-labelledby="disagreements-title"><h2 id="disagreements-title">Disagreements: checks vs judge</h2>${body}</section>`;
}

/** The agreement table: per cell, per scenario, overall. */
export function agreementSection(model: ResultsModel): SafeHtml {
  if (model.judge === undefined) return html``;
  const rows = model.judge.rows.map(
    (row) =>
      html`<tr><th scope="row">${scopeLabel(row)}</th>${agreementCells(row.agreement).map((cell) => html`<td>${cell}</td>`)}</tr>`,
  );
  return html`<section id="agreement" aria-labelledby="agreement-title"><h2 id="agreement-title">Agreement: checks vs judge</h2>
<p>${judgeSummaryLine(model.judge)}</p>
${scrollingTable('Agreement between checks and judge', AGREEMENT_COLUMNS, html`<tbody>${rows}</tbody>`)}
<p class="muted">${AGREEMENT_RULE}</p></section>`;
}
