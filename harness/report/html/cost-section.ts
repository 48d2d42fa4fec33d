/**
 * report.html's "Cost by arm" section: the chart of tokens, cost and bytes
 * written per decided rep, and results.md's table of every cost metric.
 */
import { costByArmRule, costByArmTable } from '../metrics-markdown.js';
import type { ResultsModel } from '../results-schema.js';
import { figure } from './cell-sections.js';
import { html, type SafeHtml, scrollingTable } from './html-template.js';

export function costSection(model: ResultsModel, chartSvg: string): SafeHtml | '' {
  if (model.reps.length === 0) return '';
  const { header, rows } = costByArmTable(model);
  const body = rows.map(
    (cells) =>
      html`<tr>${cells.map((text, index) => (index === 0 ? html`<th scope="row">${text}</th>` : html`<td class="num">${text}</td>`))}</tr>`,
  );
  return html`<section id="cost" aria-labelledby="cost-title">
<h2 id="cost-title">Cost by arm</h2>
${chartSvg === '' ? '' : figure('cost-chart', chartSvg, html`One dot per decided rep, one row of panels per metric (each with its own scale); the bar is the cell's median.`)}
${scrollingTable('Cost by arm', header, html`<tbody>${body}</tbody>`)}
<p class="muted">${costByArmRule(model)}</p>
</section>`;
}
