/**
 * One rep of the adjudication walk-through as text for the terminal: why it
 * is asked about, the reply, the captured dispatch, the key tool calls, the
 * failing checks and the judge's items and rationale, then the keys. Pure.
 */
import type { QueuedRep } from './adjudication-queue.js';
import { capText, toolCallDigest } from './material.js';

const REPLY_LINES = 40;
const CALLS_SHOWN = 25;

function replyExcerpt(reply: string): string[] {
  if (reply.trim() === '') return ['  (no reply text)'];
  const lines = reply.replace(/\s+$/, '').split('\n');
  const shown = lines.slice(0, REPLY_LINES).map((line) => `  ${line}`);
  if (lines.length > REPLY_LINES)
    shown.push(`  [… ${lines.length - REPLY_LINES} more lines in reply.md]`);
  return shown;
}

export const ADJUDICATION_KEYS = '[p] pass  [f] fail  [s] skip (ask again next time)  [q] quit';

export function adjudicationScreen(rep: QueuedRep, position: number, total: number): string {
  const why =
    rep.why === 'disagreement'
      ? `checks say ${rep.checksVerdict}, the judge says ${rep.judgeVerdict}`
      : `indeterminate: ${rep.reasons[0] ?? 'no reason recorded'}`;
  const dispatches =
    rep.dispatches.length === 0
      ? ['  none']
      : rep.dispatches.map(
          (dispatch) =>
            `  ${dispatch.tool}${dispatch.captured ? ' (captured)' : ''}: ${capText(JSON.stringify(dispatch.input), 600)}`,
        );
  const controllerCalls = (rep.toolCalls ?? []).filter(
    (call) => call.parentToolUseId === undefined || call.parentToolUseId === null,
  );
  const calls =
    rep.toolCalls === undefined
      ? ['  (no transcript)']
      : controllerCalls.length === 0
        ? ['  none']
        : toolCallDigest(controllerCalls, CALLS_SHOWN).map((line) => `  ${line}`);
  const checks =
    rep.checkProblems.length === 0 ? ['  none'] : rep.checkProblems.map((line) => `  ${line}`);
  const judge =
    rep.judgement === undefined
      ? ['  not judged']
      : [
          `  ${rep.judgement.model.requested}: ${rep.judgement.status === 'error' ? `no judgement (${rep.judgement.error ?? ''})` : rep.judgement.verdict}`,
          ...rep.judgement.items.map(
            (item) =>
              `  ${item.id}: ${item.verdict}${item.answered === item.verdict ? '' : ` (answered ${item.answered}; quote not in the material)`}${item.quote === '' ? '' : ` — "${item.quote}"`} — ${item.rationale}`,
          ),
        ];
  return [
    '',
    '='.repeat(78),
    `[${position}/${total}] ${rep.id} — ${why}`,
    '='.repeat(78),
    'Reply:',
    ...replyExcerpt(rep.reply),
    'Captured dispatch / subagent dispatches:',
    ...dispatches,
    `Key tool calls (controller, ${controllerCalls.length}):`,
    ...calls,
    'Checks that failed or could not decide:',
    ...checks,
    'Judge:',
    ...judge,
    '',
    ADJUDICATION_KEYS,
  ].join('\n');
}
