import { infrastructurePhrase } from '../model-summary.js';
import { axisNoun, interactionColumns, modelColumns } from '../model-tables.js';
import type { ResultsModel } from '../results-schema.js';
import { modelName } from './badges.js';
import { scenarioLabel } from './cell-labels.js';
import { pValue } from './format.js';
import { html, type SafeHtml, scrollingTable, trustedHtml } from './html-template.js';

/**
 * The page's model axis, for a campaign of several models: the Models table
 * (what each model ran and what the API reported back, its endpoint, its
 * reps, and the indeterminate ones its infrastructure caused, highlighted),
 * and "Across models": the interaction plot, a sentence per scenario, and
 * the per-model tests with their Holm-adjusted p-values. Nothing for a
 * one-model campaign.
 */
export function modelAxisSection(model: ResultsModel, interactionSvg: string): SafeHtml {
  if (model.models === undefined) return html``;
  const modelRows = model.models.map((entry) => {
    const infrastructure = infrastructurePhrase(entry.infrastructure);
    return html`<tr>
  <th scope="row">${entry.name}</th>
  <td>${modelName(entry.requested, entry.scripted)}${entry.standsInFor === null ? '' : html` <span class="muted">standing in for <code>${entry.standsInFor}</code></span>`}</td>
  <td>${entry.reported.length === 0 ? html`<span class="muted">none reported back</span>` : entry.reported.map((id, index) => html`${index > 0 ? ', ' : ''}<code>${id}</code>`)}</td>
  <td>${entry.endpoint ?? 'default'}</td>
  <td class="num">${entry.recorded}/${entry.planned}</td>
  <td class="num">${entry.pass} / ${entry.fail} / ${entry.indeterminate}</td>
  <td class="${infrastructure === '' ? '' : 'hl-indeterminate'}">${infrastructure === '' ? 'none' : `${infrastructure} (not the model's doing)`}</td>
</tr>`;
  });
  const interactionRows = (model.interaction ?? []).flatMap((interaction) =>
    interaction.rows.map(
      (row) => html`<tr>
  <th scope="row">${scenarioLabel(interaction.scenario)}</th>
  <td>${row.model}</td>
  <td class="num">${row.red.pass}/${row.red.decided}</td>
  <td class="num">${row.green.pass}/${row.green.decided}</td>
  <td class="num">${row.difference === null ? 'n/a' : `${row.difference >= 0 ? '+' : ''}${Math.round(row.difference * 100)} pts`}</td>
  <td class="num">${pValue(row.pGreenBetter)}</td>
  <td class="num">${pValue(row.holmGreenBetter)}</td>
  <td class="num">${pValue(row.pRedBetter)}</td>
  <td class="num">${pValue(row.holmRedBetter)}</td>
  <td class="effect effect-${row.effect.replace(/ /g, '-')}${row.note === null ? '' : ' hl-indeterminate'}">${row.effect}${row.note === null ? '' : html`: ${row.note}`}</td>
</tr>`,
    ),
  );
  const summaries = (model.interaction ?? []).map(
    (interaction) =>
      html`<li><strong>${scenarioLabel(interaction.scenario)}</strong>: ${interaction.summary}.</li>`,
  );
  const alpha = model.interaction?.[0]?.alpha ?? 0.05;
  const noun = axisNoun(model);
  return html`<section id="models" aria-labelledby="models-title">
<h2 id="models-title">${noun.title}</h2>
${scrollingTable(noun.title, modelColumns(model), html`<tbody>${modelRows}</tbody>`)}
</section>
<section id="across-models" aria-labelledby="across-models-title">
<h2 id="across-models-title">Across ${noun.many}: does the change help on every ${noun.one}?</h2>
<ul class="interaction-summary">${summaries}</ul>
<figure id="interaction-chart" class="chart"><div class="chart-scroll" tabindex="0" role="region" aria-label="interaction chart">${trustedHtml(interactionSvg)}</div><figcaption>Pass rate of RED and GREEN on each ${noun.one} (decided reps), one line per ${noun.one}: a line that climbs is a ${noun.one} GREEN helps; lines that cross or part show an effect that depends on the ${noun.one}.</figcaption></figure>
${scrollingTable(`RED vs GREEN on each ${noun.one}`, interactionColumns(model), html`<tbody>${interactionRows}</tbody>`)}
<p class="muted">Per ${noun.one}: one-sided Fisher exact tests on decided reps, Holm-adjusted across the scenario's ${noun.many}; "helps" or "hurts" when the adjusted p is below α = ${alpha}.</p>
</section>`;
}
