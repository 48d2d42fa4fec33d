import {
  COMPARISON_COLUMNS,
  costHeading,
  fixtureOf,
  tallyValueText,
  toolUsesRule,
} from '../markdown.js';
import { findCell } from '../model-tables.js';
import type { ResultsModel } from '../results-schema.js';
import { cellLabel, scenarioLabel } from './cell-labels.js';
import { decimal, percent, pValue } from './format.js';
import { html, type SafeHtml, scrollingTable, trustedHtml } from './html-template.js';

const PASS_RATE_COLUMNS = [
  'Cell',
  'Text under test',
  'Fixture',
  'PASS',
  'Rate',
  'Wilson 95%',
  'Indeterminate',
  'Overrides',
];
const COST_COLUMNS = [
  'Cell',
  'tool_uses per decided rep',
  'Median',
  'Mean',
  'Mean 95% CI (bootstrap)',
];

/**
 * A chart (already rendered SVG) with its caption. The chart keeps its drawn
 * size, so its labels stay legible; on a narrow screen it scrolls sideways in
 * its own box rather than shrinking or widening the page.
 */
export function figure(id: string, svg: string, caption: SafeHtml): SafeHtml {
  return html`<figure id="${id}" class="chart"><div class="chart-scroll" tabindex="0" role="region" aria-label="${id.replace(/-/g, ' ')}">${trustedHtml(svg)}</div><figcaption>${caption}</figcaption></figure>`;
}

/** Pass rate per cell: the dot-and-whisker chart and the same numbers as a table. */
export function passRateSection(model: ResultsModel, chartSvg: string): SafeHtml {
  const rows = model.cells.map((cell) => {
    const interval =
      cell.wilson95 === null
        ? 'n/a'
        : `${percent(cell.wilson95.lower)}–${percent(cell.wilson95.upper)}`;
    return html`<tr>
  <th scope="row">${cellLabel(cell)}</th>
  <td>${cell.label}</td>
  <td>${fixtureOf(model, cell.scenario)} ${cell.layout}</td>
  <td class="num">${cell.pass}/${cell.decided}</td>
  <td class="num">${cell.passRate === null ? 'n/a' : percent(cell.passRate)}</td>
  <td class="num">${interval}</td>
  <td class="num${cell.indeterminate > 0 ? ' hl-indeterminate' : ''}">${cell.indeterminate}</td>
  <td class="num${cell.overrides > 0 ? ' hl-override' : ''}">${cell.overrides}</td>
</tr>`;
  });
  return html`<section id="pass-rates" aria-labelledby="pass-rates-title">
<h2 id="pass-rates-title">Pass rate per cell</h2>
${figure('pass-rate-chart', chartSvg, html`Dot: share of decided reps that passed; whisker: Wilson 95% interval. Indeterminate reps are excluded from the denominator and counted beside the dot.`)}
${scrollingTable('Pass rate per cell', PASS_RATE_COLUMNS, html`<tbody>${rows}</tbody>`)}
</section>`;
}

/** tool_uses per rep: the strip plot, the per-cell figures, and the RED vs GREEN comparisons. */
export function toolUsesSection(model: ResultsModel, chartSvg: string): SafeHtml {
  const legend = model.legend;
  const costColumns = legend === null ? COST_COLUMNS : [...COST_COLUMNS, legend.title];
  const costRows = model.cells.map((cell) => {
    const tally = cell.observations.find((summary) => summary.id === legend?.id);
    const counts =
      tally?.kind === 'tally'
        ? Object.entries(tally.counts)
            .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
            .map(([value, count]) => `${count} ${tallyValueText(value, tally.labels)}`)
            .join(', ')
        : '';
    const boot = cell.toolUses.bootstrap95Mean;
    const bootText = boot === null ? 'n/a' : `${decimal(boot.lower)}–${decimal(boot.upper)}`;
    return html`<tr>
  <th scope="row">${cellLabel(cell)}</th>
  <td>${cell.toolUses.values.join(' / ') || '—'}</td>
  <td class="num">${decimal(cell.toolUses.median)}</td>
  <td class="num">${decimal(cell.toolUses.mean)}</td>
  <td class="num">${bootText}</td>
  ${legend === null ? '' : html`<td>${counts || '—'}</td>`}
</tr>`;
  });
  const comparisonRows = model.comparisons.map((comparison) => {
    const red = findCell(model.cells, comparison.red, comparison.scenario, comparison.model);
    const green = findCell(model.cells, comparison.green, comparison.scenario, comparison.model);
    const tools = comparison.toolUses;
    const toolDifference =
      tools === null
        ? 'n/a'
        : `${tools.meanDifference >= 0 ? '+' : ''}${tools.meanDifference.toFixed(1)} (p ${pValue(tools.pValue)}, ${tools.method})`;
    return html`<tr>
  <th scope="row">${comparison.model === undefined ? '' : `${comparison.model} · `}${scenarioLabel(comparison.scenario)}</th>
  <td class="num">${red === undefined ? 'n/a' : `${red.pass}/${red.decided}`}</td>
  <td class="num">${green === undefined ? 'n/a' : `${green.pass}/${green.decided}`}</td>
  <td class="num">${pValue(comparison.fisherTwoSided)}</td>
  <td class="num">${pValue(comparison.fisherGreenBetter)}</td>
  <td class="num">${pValue(comparison.fisherRedBetter)}</td>
  <td>${toolDifference}</td>
</tr>`;
  });
  return html`<section id="tool-uses" aria-labelledby="tool-uses-title">
<h2 id="tool-uses-title">${model.legend === null ? '' : `${costHeading(model)}: `}tool_uses per rep</h2>
${figure('tool-uses-chart', chartSvg, html`One symbol per decided rep, coloured and shaped by ${legend === null ? 'nothing (the scenarios declare no tally observation)' : `what the "${legend.title}" observation saw (from tool calls, not prose)`}; the bar is the cell's median. Indeterminate reps are not drawn.`)}
${scrollingTable('tool_uses per cell', costColumns, html`<tbody>${costRows}</tbody>`)}
<p class="muted">${toolUsesRule(model)}</p>
<h3>RED vs GREEN</h3>
${scrollingTable('RED vs GREEN', COMPARISON_COLUMNS, html`<tbody>${comparisonRows}</tbody>`)}
<p class="muted">Power: ${model.power}.</p>
</section>`;
}
