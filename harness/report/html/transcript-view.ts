import type { CheckResult } from '../../score/evaluate.js';
import type { ToolCall } from '../../score/tool-call.js';
import { html, type SafeHtml } from './html-template.js';
import type { RepDetail } from './rep-details.js';
import { type Cut, cutToBytes, formatBytes, previewLine, utf8Bytes } from './truncate.js';

/** How much of one rep's transcript the page embeds, and how long a single input or output may be. */
export interface TranscriptLimits {
  /** All tool-call text embedded for one rep (inputs, outputs, previews). */
  readonly repBudgetBytes: number;
  /** One input or one output, when expanded. */
  readonly fieldBytes: number;
  /** The one-line preview in a call's summary. */
  readonly previewChars: number;
}

export const DEFAULT_TRANSCRIPT_LIMITS: TranscriptLimits = {
  repBudgetBytes: 200_000,
  fieldBytes: 20_000,
  previewChars: 160,
};

/** What a call's summary line shows of its input: the command, path or pattern when there is one. */
function inputPreviewSource(call: ToolCall): string {
  const input = call.input;
  if (typeof input === 'object' && input !== null) {
    const fields = input as Record<string, unknown>;
    for (const key of ['command', 'file_path', 'pattern', 'path', 'prompt', 'description']) {
      const value = fields[key];
      if (typeof value === 'string' && value.trim() !== '') return value;
    }
  }
  return inputText(call);
}

function inputText(call: ToolCall): string {
  if (typeof call.input === 'string') return call.input;
  return JSON.stringify(call.input, null, 2) ?? String(call.input);
}

/** Spends a rep's byte budget as calls are embedded. */
class Budget {
  constructor(private remaining: number) {}
  get left(): number {
    return this.remaining;
  }
  take(text: string, cap: number): Cut {
    const cut = cutToBytes(text, Math.min(cap, this.remaining));
    this.remaining -= utf8Bytes(cut.text);
    return cut;
  }
  spend(text: string): void {
    this.remaining -= utf8Bytes(text);
  }
}

function omittedNote(cut: Cut, what: string): SafeHtml | string {
  if (cut.omittedBytes === 0) return '';
  return html`<p class="cut">… ${formatBytes(cut.omittedBytes)} more of this ${what} not embedded (see transcript.jsonl)</p>`;
}

/** The leaf checks and observations whose detail cites a call, by call id: `(toolu_…)`. */
function citingChecks(detail: RepDetail): Map<string, CheckResult[]> {
  const byCall = new Map<string, CheckResult[]>();
  const visit = (result: CheckResult): void => {
    if (result.children !== undefined) {
      result.children.forEach(visit);
      return;
    }
    for (const found of result.detail.matchAll(/\(([^()\s]+)\)/g)) {
      const list = byCall.get(found[1] ?? '') ?? [];
      list.push(result);
      byCall.set(found[1] ?? '', list);
    }
  };
  [...detail.checks, ...detail.observations].forEach(visit);
  return byCall;
}

function checkBadges(call: ToolCall, citing: ReadonlyMap<string, CheckResult[]>): SafeHtml[] {
  return (citing.get(call.id) ?? []).map(
    (result) => html`<span class="badge badge-check" title="${result.detail}">${result.id}</span>`,
  );
}

function callItem(
  call: ToolCall,
  index: number,
  citing: ReadonlyMap<string, CheckResult[]>,
  limits: TranscriptLimits,
  budget: Budget,
): SafeHtml {
  const inputPreview = previewLine(inputPreviewSource(call), limits.previewChars);
  const outputPreview =
    call.output === undefined
      ? '(no result recorded)'
      : previewLine(call.output, limits.previewChars);
  budget.spend(inputPreview);
  budget.spend(outputPreview);
  const input = budget.take(inputText(call), limits.fieldBytes);
  const output =
    call.output === undefined ? undefined : budget.take(call.output, limits.fieldBytes);
  const subagent = call.parentToolUseId !== undefined && call.parentToolUseId !== null;
  const classes = [
    'call',
    call.isError === true ? 'call-error' : '',
    subagent ? 'call-subagent' : '',
  ]
    .filter(Boolean)
    .join(' ');
  const badges = html`${subagent ? html` <span class="badge">inside a subagent</span>` : ''}${
    call.isError === true ? html` <span class="badge badge-warn">error</span>` : ''
  } ${checkBadges(call, citing)}`;
  const outputSize = call.output === undefined ? '' : ` (${formatBytes(utf8Bytes(call.output))})`;
  const outputBody =
    output === undefined
      ? html`<p class="muted">No tool result was recorded for this call.</p>`
      : html`<pre>${output.text}</pre>${omittedNote(output, 'output')}`;
  return html`<li class="${classes}"><details>
<summary>
  <span class="call-no">#${index + 1}</span> <code class="tool">${call.name}</code>${badges}
  <span class="preview">${inputPreview}</span>
  <span class="preview preview-out">→ ${outputPreview}${outputSize}</span>
</summary>
<div class="io">
  <h5>Input</h5><pre>${input.text}</pre>${omittedNote(input, 'input')}
  <h5>Output</h5>${outputBody}
</div>
</details></li>`;
}

/**
 * A rep's tool calls in the order they were made, each a <details> whose
 * summary shows the input and output cut to one line, and whose body shows
 * them in full up to the field cap. Embedding stops at the rep's budget, and
 * the page says how many calls were left out.
 */
export function transcriptView(
  detail: RepDetail,
  limits: TranscriptLimits = DEFAULT_TRANSCRIPT_LIMITS,
): SafeHtml {
  if (detail.transcript.kind === 'unavailable') {
    return html`<p class="warn">Transcript unavailable: ${detail.transcript.why}.</p>`;
  }
  const { toolCalls, malformedLines } = detail.transcript;
  const malformed =
    malformedLines > 0
      ? html`<p class="warn">${malformedLines} transcript line(s) could not be read and are not shown.</p>`
      : '';
  if (toolCalls.length === 0) return html`${malformed}<p class="muted">No tool calls.</p>`;
  const budget = new Budget(limits.repBudgetBytes);
  const citing = citingChecks(detail);
  const items: SafeHtml[] = [];
  for (const [index, call] of toolCalls.entries()) {
    if (budget.left <= 0) break;
    items.push(callItem(call, index, citing, limits, budget));
  }
  const left = toolCalls.length - items.length;
  const cap = formatBytes(limits.repBudgetBytes);
  const truncated =
    left > 0
      ? html`<p class="cut warn">Transcript truncated: ${left} of ${toolCalls.length} tool calls not embedded (this page embeds at most ${cap} of transcript per rep). The full record is transcript.jsonl.</p>`
      : budget.left <= 0
        ? html`<p class="cut warn">Transcript truncated: the last call shown is cut at this page's limit of ${cap} of transcript per rep. The full record is transcript.jsonl.</p>`
        : '';
  return html`${malformed}<ol class="calls">${items}</ol>${truncated}`;
}
