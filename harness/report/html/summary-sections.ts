import { axisNoun, backendFact } from '../model-tables.js';
import type { ResultsModel } from '../results-schema.js';
import { droppedGatesText, subsetPhrase } from '../subset.js';
import { gateOutcomeBadge, modelName, overallGateBadge } from './badges.js';
import { repAnchor } from './format.js';
import { html, type SafeHtml, scrollingTable } from './html-template.js';
import type { RepDetails } from './rep-details.js';

/** The page heading: which campaign, which model (marked when scripted), which run. */
export function headerSection(model: ResultsModel): SafeHtml {
  const reported =
    model.model.reported.length === 0
      ? html`<span class="muted">none reported back</span>`
      : model.model.reported.map(
          (name, index) => html`${index > 0 ? ', ' : ''}<code>${name}</code>`,
        );
  return html`<header class="page-header">
<p class="kicker">redgreen results · campaign <code>${model.campaign.id}</code> · identity <code>${model.campaign.identity.slice(0, 16)}</code></p>
<h1>${model.campaign.title}</h1>
<dl class="facts">
<div><dt>Model requested</dt><dd>${model.models === undefined ? modelName(model.model.requested, model.model.scripted) : html`${model.models.length} ${axisNoun(model).many}: ${model.models.map((entry, index) => html`${index > 0 ? ', ' : ''}${entry.name} = ${modelName(entry.requested, entry.scripted)}`)} <a href="#models">(table)</a>`}</dd></div>
<div><dt>Reported back</dt><dd>${reported}</dd></div>
<div><dt>Reps</dt><dd>${model.recorded}/${model.planned} recorded, ${model.repsPerCell} per cell${model.complete ? '' : html` <span class="badge badge-warn">incomplete</span>`}</dd></div>
<div><dt>${backendFact(model).term}</dt><dd>${backendFact(model).text}</dd></div>
</dl>
${model.model.scripted ? html`<p class="note-scripted">Every session here was driven by a scripted policy on redgreen's local model server, not by a model: the rates show the harness working, not how a model behaves. Token counts are estimates.</p>` : ''}${
  !model.model.scripted && model.models?.some((entry) => entry.scripted)
    ? html`<p class="note-scripted">Some "models" here are scripted policies on redgreen's local model server, not models: ${model.models
        .filter((entry) => entry.scripted)
        .map((entry) => entry.name)
        .join(', ')}.</p>`
    : ''
}
</header>`;
}

/** Gate outcomes first: the overall decision, why, and each gate with its figure. */
export function gatesSection(model: ResultsModel): SafeHtml {
  const { gates } = model;
  const rows =
    gates.results.length === 0
      ? html`<tr><td colspan="3" class="muted">No gates declared.</td></tr>`
      : gates.results.map(
          (gate) =>
            html`<tr class="gate-row gate-row-${gate.outcome}"><td>${gate.gate}</td><td>${gate.figure}</td><td>${gateOutcomeBadge(gate.outcome)}</td></tr>`,
        );
  return html`<section id="gates" class="gates gates-${gates.outcome}" aria-labelledby="gates-title">
<h2 id="gates-title">Gates: ${overallGateBadge(gates.outcome)}${model.subset === undefined ? '' : html` <span class="badge badge-warn">${subsetPhrase(model.subset)}</span>`}</h2>
<p class="why">${gates.why} <span class="muted">(exit code ${gates.exitCode} for <code>redgreen gate</code>)</span></p>
${model.subset === undefined ? '' : html`<p class="subset">This run is a subset of the campaign (<code>${model.subset.only}</code>): ${droppedGatesText(model.subset)}.</p>`}
${scrollingTable('Gates', ['Gate', 'Figure', 'Outcome'], html`<tbody>${rows}</tbody>`)}
</section>`;
}

function repLinks(ids: readonly string[]): SafeHtml[] {
  return ids.map(
    (id, index) => html`${index > 0 ? ', ' : ''}<a href="#${repAnchor(id)}">${id}</a>`,
  );
}

/**
 * Everything a reader must not miss, straight under the gates: findings
 * (failing checks and observations), indeterminate reps, overridden verdicts,
 * missing reps and unreadable transcripts. Said explicitly when there are none.
 */
export function attentionSection(model: ResultsModel, details: RepDetails): SafeHtml {
  const items: SafeHtml[] = [];
  const findings = model.reps.filter((row) => row.findings !== '');
  const indeterminate = model.reps.filter((row) => row.verdict === 'indeterminate');
  const overrides = model.reps.filter((row) => row.verdict_source === 'override');
  const unreadable = model.reps.filter((row) => {
    const detail = details.get(row.rep_id);
    return (
      detail !== undefined &&
      (detail.transcript.kind === 'unavailable' || detail.transcript.malformedLines > 0)
    );
  });
  const ids = (rows: readonly { rep_id: string }[]): string[] => rows.map((row) => row.rep_id);
  if (findings.length > 0)
    items.push(
      html`<li class="alert-integrity"><strong>Failing checks in ${findings.length} rep(s)</strong>: ${repLinks(ids(findings))}. <a href="#findings">Details</a>.</li>`,
    );
  if (indeterminate.length > 0)
    items.push(
      html`<li class="alert-indeterminate"><strong>${indeterminate.length} indeterminate rep(s)</strong>, excluded from every pass rate's denominator: ${repLinks(ids(indeterminate))}. <a href="#indeterminate">Why</a>.</li>`,
    );
  if (overrides.length > 0)
    items.push(
      html`<li class="alert-override"><strong>${overrides.length} verdict(s) overridden by hand</strong>: ${repLinks(ids(overrides))}.</li>`,
    );
  if (!model.complete)
    items.push(
      html`<li class="alert-indeterminate"><strong>${model.missing.length} scheduled rep(s) not recorded</strong>: ${model.missing.join(', ')}.</li>`,
    );
  if (unreadable.length > 0)
    items.push(
      html`<li class="alert-indeterminate"><strong>Transcript problems in ${unreadable.length} rep(s)</strong>: ${repLinks(ids(unreadable))}.</li>`,
    );
  if (items.length === 0) {
    return html`<section id="attention" class="attention attention-clear" aria-label="Needs attention"><p>Nothing needs attention: no failing check, no indeterminate reps, no overridden verdicts, every scheduled rep recorded.</p></section>`;
  }
  return html`<section id="attention" class="attention" aria-labelledby="attention-title"><h2 id="attention-title">Needs attention</h2><ul>${items}</ul></section>`;
}
