import type { ResultsModel } from '../results-schema.js';
import { verdictBadge } from './badges.js';
import { repAnchor } from './format.js';
import { html, type SafeHtml } from './html-template.js';

/**
 * Findings: every failing check, and every failing observation that declares
 * no summary (files that had to stay untouched, commits, subagents, …),
 * listed and highlighted per rep.
 */
export function findingsSection(model: ResultsModel): SafeHtml {
  const rows = model.reps.filter((row) => row.findings !== '');
  const body =
    rows.length === 0
      ? html`<p>None: no check failed (observations never gate: what they saw is in each rep's row).</p>`
      : html`<ul class="findings">${rows.map(
          (row) =>
            html`<li class="hl-integrity"><a href="#${repAnchor(row.rep_id)}"><code>${row.rep_id}</code></a> ${verdictBadge(row.verdict)}<ul>${row.findings
              .split('; ')
              .map((finding) => html`<li>${finding}</li>`)}</ul></li>`,
        )}</ul>`;
  return html`<section id="findings" aria-labelledby="findings-title"><h2 id="findings-title">Findings</h2>${body}</section>`;
}

/** Indeterminate reps with why: reported, never dropped, excluded from rate denominators. */
export function indeterminateSection(model: ResultsModel): SafeHtml {
  const rows = model.reps.filter((row) => row.verdict === 'indeterminate');
  const body =
    rows.length === 0
      ? html`<p>None.</p>`
      : html`<p>${rows.length} indeterminate rep(s), excluded from every pass rate's denominator:</p><ul>${rows.map(
          (row) =>
            html`<li class="hl-indeterminate"><a href="#${repAnchor(row.rep_id)}"><code>${row.rep_id}</code></a>${row.indeterminate_stage === '' ? '' : ` (stage: ${row.indeterminate_stage})`}: ${row.reasons || row.override_reason || 'no reason recorded'}${row.verdict_source === 'override' ? html` <span class="badge badge-override">override</span>` : ''}</li>`,
        )}</ul>`;
  return html`<section id="indeterminate" aria-labelledby="indeterminate-title"><h2 id="indeterminate-title">Indeterminate reps</h2>${body}</section>`;
}
