/**
 * `question-asked`: the session put a question to the human: the controller
 * called a question tool (Claude Code's `AskUserQuestion`, by default), or
 * its final reply ends on a question or a request for a decision or the
 * go-ahead (extractors/language/closing-question.ts), or (in a full session
 * with a scripted user) an earlier reply did, as the transcript records.
 * Wrap it in `not` for "did not stop to ask". A session that dispatched and
 * wrote no reply text asked nothing: with a transcript at hand, a rep without
 * reply text is read as an empty reply. `via` limits the evidence to one of
 * the two; with `via: ["reply"]` and neither a reply nor a transcript the
 * check is undecided.
 */
import { z } from 'zod';
import { type Evidence, required, seatOf } from '../evidence.js';
import { closingQuestion } from '../extractors/language/closing-question.js';
import { nonBlank, seatSelectorSchema } from '../param-types.js';
import { counted, defineVerb, type VerbResult } from '../verb.js';
import { missingCalls } from './tool-match.js';

const VIA = ['tool', 'reply'] as const;

export const questionAsked = defineVerb({
  summary:
    'the session asked the human: a question-tool call, or a final reply that ends on a question',
  params: z
    .object({
      via: z
        .array(z.enum(VIA))
        .min(1)
        .default([...VIA]),
      tool: z.array(nonBlank).min(1).default(['AskUserQuestion']),
      seat: seatSelectorSchema.default('controller'),
    })
    .strict(),
  reads: (params) => (params.via.includes('tool') ? ['transcript'] : []),
  run: (params, evidence): VerbResult => {
    const reply = replyText(evidence);
    if (!params.via.includes('tool') && reply === undefined) {
      return {
        outcome: 'undecided',
        detail: 'no reply of the controller to read (neither a reply nor a transcript holding it)',
      };
    }
    const found: string[] = [];
    if (params.via.includes('tool')) {
      const calls = required(evidence.transcript, 'transcript').calls.filter(
        (call) =>
          params.tool.includes(call.name) &&
          (params.seat === 'any' || seatOf(call) === params.seat),
      );
      if (calls.length > 0) found.push(counted(calls.length, `${calls[0]?.name} call`));
    }
    if (params.via.includes('reply')) {
      const question = closingQuestion(reply ?? '');
      if (question !== undefined) found.push(`the reply ends on "${question.slice(0, 80)}"`);
      // A reply the scripted user answered is not the final one: its question is recorded.
      const answered = (evidence.transcript?.questions ?? []).filter(
        (asked) => asked.via === 'reply' && (params.seat === 'any' || params.seat === 'controller'),
      );
      if (question === undefined && answered[0] !== undefined) {
        found.push(
          `a reply ended on "${answered[0].text.slice(0, 80)}" (answered by the scripted user)`,
        );
      }
    }
    const where = params.via.map((via) => (via === 'tool' ? params.tool.join('/') : 'reply'));
    // No question seen, but the question-tool call may be among calls the files do not hold.
    const missing =
      found.length === 0 && params.via.includes('tool') && evidence.transcript !== undefined
        ? missingCalls(params.seat, evidence.transcript)
        : undefined;
    if (missing !== undefined) {
      return {
        outcome: 'undecided',
        observed: 'none seen',
        detail: `no question seen (looked at: ${where.join(', ')}); ${missing}`,
      };
    }
    return found.length > 0
      ? { outcome: 'pass', observed: found[0], detail: `asked: ${found.join('; ')}` }
      : {
          outcome: 'fail',
          observed: 'no question',
          detail: `no question asked (looked at: ${where.join(', ')})`,
        };
  },
});

/** The final reply's text; with a transcript and no reply text, the session replied nothing. */
function replyText(evidence: Evidence): string | undefined {
  if (evidence.reply !== undefined) return evidence.reply.text;
  // A transcript without the controller's calls (a subagent's log alone) does not hold its reply.
  const { transcript } = evidence;
  if (transcript === undefined || transcript.unknownSeats?.includes('controller') === true) {
    return undefined;
  }
  return '';
}
