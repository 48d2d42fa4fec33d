/**
 * One rep of the adjudication walk-through as text for the terminal: why it
 * is asked about, the reply, the captured dispatch, the key tool calls, the
 * failing checks and the judge's items and rationale, then the keys. Pure.
 *
 * Nearly all of it is the session's or the judge's text, which must not
 * drive the adjudicator's terminal: every control character but newline
 * and tab (C0, DEL, C1: escape sequences that clear the screen, move the
 * cursor, retitle the window) is shown as a visible stand-in instead.
 */

import { blindWorkPaths, capText, inputLines, toolCallDigest } from '../judge/material.js';
import type { QueuedRep } from './adjudication-queue.js';

const REPLY_LINES = 40;
const CALLS_SHOWN = 25;

function replyExcerpt(reply: string): string[] {
  if (reply.trim() === '') return ['  (no reply text)'];
  // Paths in the work root are blinded as in the tool calls (material.ts): they name the arm.
  const lines = blindWorkPaths(reply.replace(/\s+$/, '')).split('\n');
  const shown = lines.slice(0, REPLY_LINES).map((line) => `  ${line}`);
  if (lines.length > REPLY_LINES)
    shown.push(`  [… ${lines.length - REPLY_LINES} more lines in reply.md]`);
  return shown;
}

/** Control characters shown, not obeyed: C0 as their Unicode pictures (ESC is ␛), DEL as ␡, C1 as <U+0080>..<U+009F>. */
export function visibleControls(text: string): string {
  let out = '';
  for (const char of text) {
    const code = char.charCodeAt(0);
    if (char === '\n' || char === '\t' || (code >= 0x20 && code < 0x7f) || code > 0x9f) {
      out += char;
    } else if (code < 0x20) {
      out += String.fromCharCode(0x2400 + code);
    } else if (code === 0x7f) {
      out += '\u2421';
    } else {
      out += `<U+${code.toString(16).toUpperCase().padStart(4, '0')}>`;
    }
  }
  return out;
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
            `  ${dispatch.tool}${dispatch.captured ? ' (captured)' : ''}:\n${capText(blindWorkPaths(inputLines(dispatch.input, '    ').join('\n')), 1200)}`,
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
              `  ${item.id}: ${item.verdict}${item.answered === item.verdict ? '' : ` (answered ${item.answered}; quote not found)`}${item.quote === '' ? '' : ` — "${item.quote}"`} — ${item.rationale}`,
          ),
        ];
  // The header is said again above the keys: a screen taller than the terminal scrolls it away.
  const header = `[${position}/${total}] ${rep.id} — ${why}`;
  const text = [
    '',
    '='.repeat(78),
    header,
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
    '-'.repeat(78),
    header,
    `${rep.id}: ${ADJUDICATION_KEYS}`,
  ].join('\n');
  return visibleControls(text);
}
