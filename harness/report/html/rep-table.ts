import type { RepRow, ResultsModel } from '../results-schema.js';
import { modelName, repVerdict, shapeBadge } from './badges.js';
import { cellKey, cellLabel } from './cell-labels.js';
import { SHAPE_ORDER } from './chart-theme.js';
import { repAnchor, seconds } from './format.js';
import { html, type SafeHtml, scrollingTable } from './html-template.js';
import type { RepDetail, RepDetails } from './rep-details.js';
import {
  DEFAULT_TRANSCRIPT_LIMITS,
  type TranscriptLimits,
  transcriptView,
} from './transcript-view.js';
import { cutToBytes, formatBytes } from './truncate.js';

/** Limits on what one rep embeds: its transcript (see transcript-view.ts) and its reply. */
export interface RepEmbedLimits extends TranscriptLimits {
  readonly replyBytes: number;
}

export const DEFAULT_REP_EMBED_LIMITS: RepEmbedLimits = {
  ...DEFAULT_TRANSCRIPT_LIMITS,
  replyBytes: 64_000,
};

const COLUMNS = [
  'Rep',
  'Cell',
  'Verdict',
  'Shape',
  'tool_uses',
  'First dispatch',
  'Claimed complete',
  'Model (reported back)',
  'Failure reason',
  'Findings',
  'Duration',
] as const;

/** The filter controls; hidden until the page's script shows them (without JS, every rep is listed). */
function filterForm(model: ResultsModel): SafeHtml {
  const cells = model.cells.map(
    (cell) => html`<option value="${cellKey(cell)}">${cellLabel(cell)}</option>`,
  );
  const shapes = SHAPE_ORDER.map((shape) => html`<option value="${shape}">${shape}</option>`);
  return html`<form id="rep-filter" class="filter" hidden>
<label>Verdict <select name="verdict"><option value="">all</option><option value="pass">pass</option><option value="fail">fail</option><option value="indeterminate">indeterminate</option></select></label>
<label>Cell <select name="cell"><option value="">all</option>${cells}</select></label>
<label>Shape <select name="shape"><option value="">all</option>${shapes}</select></label>
<button type="reset">Show all</button>
<output id="rep-count" aria-live="polite"></output>
</form>
<noscript><p class="muted">Filtering needs JavaScript; every rep is listed below.</p></noscript>`;
}

function findingsCell(row: RepRow): SafeHtml {
  const parts: SafeHtml[] = [];
  if (row.integrity_findings !== '')
    parts.push(html`<span class="badge badge-integrity">integrity</span> `);
  if (row.scope_violations !== '')
    parts.push(html`<span class="badge badge-integrity">scope</span> `);
  if (row.verdict === 'indeterminate')
    parts.push(
      html`<span class="badge verdict-indeterminate">${row.indeterminate_stage === '' ? 'indeterminate' : `indeterminate: ${row.indeterminate_stage}`}</span> `,
    );
  return parts.length === 0 ? html`<span class="muted">none</span>` : html`${parts}`;
}

/** Why a rep did not pass: the scorer's reasons (or the override's), nothing for a pass. */
function failureReason(row: RepRow): SafeHtml | string {
  if (row.verdict === 'pass') return html`<span class="muted">—</span>`;
  const reason = row.verdict_source === 'override' ? row.override_reason : row.reasons;
  return reason === '' ? html`<span class="muted">no reason recorded</span>` : reason;
}

function list(items: readonly string[]): SafeHtml {
  return html`<ul>${items.map((item) => html`<li>${item}</li>`)}</ul>`;
}

function fileLinks(detail: RepDetail): SafeHtml {
  const href = (file: string): string =>
    `${detail.relativeDir.split('/').map(encodeURIComponent).join('/')}/${file}`;
  return html`<p class="files">Files: ${[
    'reply.md',
    'transcript.jsonl',
    'score.json',
    'meta.json',
  ].map(
    (file, index) => html`${index > 0 ? ' · ' : ''}<a href="${href(file)}">${file}</a>`,
  )} <span class="muted">(relative to this report)</span></p>`;
}

function repBody(row: RepRow, detail: RepDetail | undefined, limits: RepEmbedLimits): SafeHtml {
  const override =
    row.verdict_source === 'override'
      ? html`<p class="hl-override"><strong>Verdict overridden by hand</strong> to ${row.verdict} (scored ${row.scored_verdict}): ${row.override_reason}</p>`
      : '';
  const integrity =
    row.integrity_findings === ''
      ? ''
      : html`<div class="hl-integrity"><strong>Integrity findings</strong>${list(row.integrity_findings.split('; '))}</div>`;
  const scope =
    row.scope_violations === ''
      ? ''
      : html`<div class="hl-integrity"><strong>Scope violations</strong>${list(row.scope_violations.split('; '))}</div>`;
  if (detail === undefined) {
    return html`${override}${integrity}${scope}<p class="muted">Reply and transcript were not loaded for this report.</p>`;
  }
  const reasons =
    detail.reasons.length === 0
      ? html`<p class="muted">The scorer gave no reasons (every criterion held).</p>`
      : html`<div><strong>Scorer's reasons</strong>${list(detail.reasons)}</div>`;
  const flags =
    detail.flags.length === 0 ? '' : html`<div><strong>Flags</strong>${list(detail.flags)}</div>`;
  const reply = cutToBytes(detail.reply, limits.replyBytes);
  const replyCut =
    reply.omittedBytes === 0
      ? ''
      : html`<p class="cut warn">Reply truncated: ${formatBytes(reply.omittedBytes)} not embedded; see reply.md.</p>`;
  const callCount =
    detail.transcript.kind === 'read'
      ? `${detail.transcript.toolCalls.length} tool calls`
      : 'no transcript';
  return html`<details class="rep-detail"><summary>Reply and transcript (${callCount})</summary>
<div class="rep-panels">
${override}${integrity}${scope}${reasons}${flags}
<h4>Reply (reply.md)</h4><pre class="reply">${reply.text}</pre>${replyCut}
<h4>Transcript: tool calls in order</h4>${transcriptView(detail, limits)}
${fileLinks(detail)}
</div></details>`;
}

/**
 * One rep's rows. The scripted-policy mark is on the page's model line once;
 * a row repeats it only if its own model differs from the campaign's in that.
 */
function repGroup(
  row: RepRow,
  detail: RepDetail | undefined,
  limits: RepEmbedLimits,
  campaignScripted: boolean,
): SafeHtml {
  const classes = [
    'rep',
    `verdict-row-${row.verdict}`,
    row.integrity_findings !== '' || row.scope_violations !== '' ? 'has-findings' : '',
    row.verdict_source === 'override' ? 'is-override' : '',
  ]
    .filter(Boolean)
    .join(' ');
  const cells = [
    html`<th scope="row"><code>${row.rep_id}</code></th>`,
    html`<td>${cellLabel(row)}</td>`,
    html`<td>${repVerdict(row)}</td>`,
    html`<td>${shapeBadge(row.shape)}</td>`,
    html`<td class="num">${row.tool_uses}</td>`,
    html`<td>${row.first_dispatch === '' ? '—' : row.first_dispatch}</td>`,
    html`<td>${row.claimed_complete === '' ? 'none' : row.claimed_complete}</td>`,
    html`<td>${modelName(row.model_reported, row.scripted_model && !campaignScripted)}</td>`,
    html`<td class="reason">${failureReason(row)}</td>`,
    html`<td>${findingsCell(row)}</td>`,
    html`<td class="num">${seconds(row.duration_ms)}</td>`,
  ];
  const filterKeys = html`data-verdict="${row.verdict}" data-cell="${cellKey(row)}" data-shape="${row.shape}"`;
  return html`<tbody id="${repAnchor(row.rep_id)}" class="${classes}" ${filterKeys}>
<tr class="rep-row">${cells}</tr>
<tr class="rep-detail-row"><td colspan="${COLUMNS.length}">${repBody(row, detail, limits)}</td></tr>
</tbody>`;
}

/** Every rep: one row each, filterable by verdict, cell and shape; each opens its reply and transcript. */
export function repTableSection(
  model: ResultsModel,
  details: RepDetails,
  limits: RepEmbedLimits = DEFAULT_REP_EMBED_LIMITS,
): SafeHtml {
  const groups = model.reps.map((row) =>
    repGroup(row, details.get(row.rep_id), limits, model.model.scripted),
  );
  return html`<section id="reps" aria-labelledby="reps-title">
<h2 id="reps-title">Reps</h2>
${filterForm(model)}
${scrollingTable('Reps', COLUMNS, groups, 'data reps')}
</section>`;
}
