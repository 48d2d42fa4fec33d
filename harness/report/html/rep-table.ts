import { parseReplyFile } from '../../score/reply-file.js';
import type { RecordedQuestion } from '../../score/user-question-record.js';
import type { RepRow, ResultsModel } from '../results-schema.js';
import { legendBadge, modelName, repVerdict } from './badges.js';
import { cellKey, cellLabel } from './cell-labels.js';
import { legendIndex } from './chart-theme.js';
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

/** The table's columns; the legend column is titled after the legend observation. */
function columns(model: ResultsModel): string[] {
  return [
    'Rep',
    'Cell',
    'Verdict',
    model.legend?.title ?? 'Observed',
    'tool_uses',
    'Values read',
    'Failed checks',
    'Model (reported back)',
    'Failure reason',
    'Findings',
    'Duration',
  ];
}

function legendValue(model: ResultsModel, row: RepRow): string {
  return model.legend === null ? '' : (row.observations[model.legend.id] ?? '');
}

/** The filter controls; hidden until the page's script shows them (without JS, every rep is listed). */
function filterForm(model: ResultsModel): SafeHtml {
  const cells = model.cells.map(
    (cell) => html`<option value="${cellKey(cell)}">${cellLabel(cell)}</option>`,
  );
  const values = (model.legend?.values ?? []).map(
    (value) => html`<option value="${value}">${value}</option>`,
  );
  return html`<form id="rep-filter" class="filter" hidden>
<label>Verdict <select name="verdict"><option value="">all</option><option value="pass">pass</option><option value="fail">fail</option><option value="indeterminate">indeterminate</option></select></label>
<label>Cell <select name="cell"><option value="">all</option>${cells}</select></label>
${model.legend === null ? '' : html`<label>${model.legend.title} <select name="legend"><option value="">all</option>${values}</select></label>`}
<button type="reset">Show all</button>
<output id="rep-count" aria-live="polite"></output>
</form>
<noscript><p class="muted">Filtering needs JavaScript; every rep is listed below.</p></noscript>`;
}

/** What the scripted user was asked and how it answered, question by question (`stop: complete`). */
function scriptedUserPanel(detail: RepDetail): SafeHtml | string {
  if (detail.questions === undefined) return '';
  if (detail.questions.length === 0)
    return html`<h4>Scripted user</h4><p class="muted">The session asked the scripted user nothing.</p>`;
  const answered = (question: RecordedQuestion): string =>
    question.source === null
      ? 'no answer recorded'
      : question.source === 'unanswered'
        ? 'not answered (past maxAnswers)'
        : `${question.source === 'rule' ? `rule ${question.rule ?? ''}` : question.source === 'played' ? `played by ${question.playedBy ?? 'a model'}` : 'the default'}: ${question.answer ?? ''}`;
  return html`<h4>Scripted user</h4><ul class="user-answers">${detail.questions.map(
    (question) =>
      html`<li><span class="muted">${question.seat}, via ${question.via}:</span> ${question.text} <strong>→</strong> ${answered(question)}</li>`,
  )}</ul>`;
}

function findingsCell(row: RepRow): SafeHtml {
  const parts: SafeHtml[] = [];
  if (row.findings !== '')
    parts.push(
      html`<span class="badge badge-integrity">${row.findings.split('; ').length} finding(s)</span> `,
    );
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

/** The judge's verdict on each rubric item, when the rep was judged (judge.json). */
function judgeItems(row: RepRow): SafeHtml | string {
  if (row.judge_items === undefined) return '';
  return html`<div><strong>Judge</strong> <span class="muted">(${row.judge_model ?? ''}; checks ${row.judge_checks_verdict ?? ''}, judge ${row.judge_verdict ?? ''}: ${row.judge_agreement ?? ''})</span>${list(row.judge_items.split('; '))}</div>`;
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
  const findings =
    row.findings === ''
      ? ''
      : html`<div class="hl-integrity"><strong>Findings</strong>${list(row.findings.split('; '))}</div>`;
  if (detail === undefined) {
    return html`${override}${findings}<p class="muted">Reply and transcript were not loaded for this report.</p>`;
  }
  const reasons =
    detail.reasons.length === 0
      ? html`<p class="muted">The scorer gave no reasons.</p>`
      : html`<div><strong>Scorer's reasons</strong>${list(detail.reasons)}</div>`;
  const wouldFail =
    detail.wouldFail.length === 0
      ? ''
      : html`<div><strong>Would fail a decided rep</strong>${list(detail.wouldFail)}</div>`;
  const observed =
    detail.observations.length === 0
      ? ''
      : html`<div><strong>Observations</strong> <span class="muted">(recorded, never gating)</span>${list(
          detail.observations.map((result) => `${result.outcome}: ${result.detail}`),
        )}</div>`;
  // reply.md's first line (tool_uses) and its captured-dispatch block are redgreen's, not the model's words.
  const replyFile = parseReplyFile(detail.reply);
  const reply = cutToBytes(replyFile.reply, limits.replyBytes);
  const recorded = [
    ...(replyFile.toolUses === undefined ? [] : [`tool_uses: ${replyFile.toolUses}`]),
    ...(replyFile.capturedDispatch === null
      ? []
      : [`captured dispatch: ${replyFile.capturedDispatch.tool} (see the transcript)`]),
  ];
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
${override}${findings}${reasons}${wouldFail}${observed}${judgeItems(row)}
<h4>Reply (the model's final words, from reply.md)</h4>${recorded.length === 0 ? '' : html`<p class="muted">Recorded by redgreen: ${recorded.join('; ')}</p>`}<pre class="reply">${reply.text}</pre>${replyCut}
${scriptedUserPanel(detail)}<h4>Transcript: tool calls in order</h4>${transcriptView(detail, limits)}
${fileLinks(detail)}
</div></details>`;
}

/**
 * One rep's rows. The scripted-policy mark is on the page's model line once;
 * a row repeats it only if its own model differs from the campaign's in that.
 */
function repGroup(
  model: ResultsModel,
  row: RepRow,
  detail: RepDetail | undefined,
  limits: RepEmbedLimits,
): SafeHtml {
  const observed = legendValue(model, row);
  const classes = [
    'rep',
    `verdict-row-${row.verdict}`,
    row.findings !== '' ? 'has-findings' : '',
    row.verdict_source === 'override' ? 'is-override' : '',
  ]
    .filter(Boolean)
    .join(' ');
  const cells = [
    html`<th scope="row"><code>${row.rep_id}</code></th>`,
    html`<td>${cellLabel(row)}</td>`,
    html`<td>${repVerdict(row)}${row.judge_verdict === undefined ? '' : html` <span class="muted judge">judge ${row.judge_verdict} (${row.judge_agreement ?? ''})</span>`}</td>`,
    html`<td>${observed === '' ? '—' : legendBadge(observed, legendIndex(model, observed))}</td>`,
    html`<td class="num">${row.tool_uses}</td>`,
    html`<td>${row.values === '' ? '—' : row.values}</td>`,
    html`<td>${row.failed_checks === '' ? 'none' : row.failed_checks}${row.undecided_checks === '' ? '' : html` <span class="muted">undecided: ${row.undecided_checks}</span>`}</td>`,
    html`<td>${modelName(row.model_reported, row.scripted_model && !model.model.scripted)}</td>`,
    html`<td class="reason">${failureReason(row)}</td>`,
    html`<td>${findingsCell(row)}</td>`,
    html`<td class="num">${seconds(row.duration_ms)}</td>`,
  ];
  const filterKeys = html`data-verdict="${row.verdict}" data-cell="${cellKey(row)}" data-legend="${observed}"`;
  return html`<tbody id="${repAnchor(row.rep_id)}" class="${classes}" ${filterKeys}>
<tr class="rep-row">${cells}</tr>
<tr class="rep-detail-row"><td colspan="${columns(model).length}">${repBody(row, detail, limits)}</td></tr>
</tbody>`;
}

/** Every rep: one row each, filterable by verdict, cell and legend value; each opens its reply and transcript. */
export function repTableSection(
  model: ResultsModel,
  details: RepDetails,
  limits: RepEmbedLimits = DEFAULT_REP_EMBED_LIMITS,
): SafeHtml {
  const groups = model.reps.map((row) => repGroup(model, row, details.get(row.rep_id), limits));
  return html`<section id="reps" aria-labelledby="reps-title">
<h2 id="reps-title">Reps</h2>
${filterForm(model)}
${scrollingTable('Reps', columns(model), groups, 'data reps')}
</section>`;
}
