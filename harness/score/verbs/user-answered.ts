/**
 * `user-answered`: the session put a question to its scripted user (a
 * `stop: complete` scenario's `user` block) and got the answer the check
 * names: `answer` (the id of the answer rule that matched), `default: true`
 * (no rule matched), or `unanswered: true` (asked past maxAnswers); with
 * none of them, any answer. `question` (a pattern on the question's text)
 * and `via` (`tool`: AskUserQuestion; `reply`: a reply that ended on a
 * question) narrow which questions count. Reads the question records of the
 * transcript (harness/score/user-question-record.ts): a transcript without a
 * scripted user's records (a session run elsewhere, or before scripted
 * users) leaves it undecided; one with a scripted user and no matching
 * question fails it. An answer a model played (`user.played`, a live run)
 * came from no rule: `answer` and `default` are undecided on it.
 */
import { z } from 'zod';
import { PARTIAL_ABSENCE, required } from '../evidence.js';
import { nameSchema, regexSource } from '../param-types.js';
import type { RecordedQuestion } from '../user-question-record.js';
import { defineVerb, quotedPattern, type VerbResult } from '../verb.js';

const VIA = ['tool', 'reply'] as const;

export const userAnswered = defineVerb({
  summary:
    'the scripted user answered a question (answer rule id, default: true, or unanswered: true; question, via)',
  params: z
    .object({
      question: regexSource.optional(),
      via: z
        .array(z.enum(VIA))
        .min(1)
        .default([...VIA]),
      answer: nameSchema.optional(),
      default: z.literal(true).optional(),
      unanswered: z.literal(true).optional(),
    })
    .strict(),
  reads: () => ['transcript'],
  validate: (params) =>
    [params.answer !== undefined, params.default, params.unanswered].filter(Boolean).length > 1
      ? {
          field: 'answer',
          problem: 'names more than one of answer, default and unanswered',
          fix: 'keep one: an answer rule id, "default": true or "unanswered": true',
        }
      : undefined,
  run: (params, evidence): VerbResult => {
    const transcript = required(evidence.transcript, 'transcript');
    const questions = transcript.questions;
    if (questions === undefined) {
      return {
        outcome: 'undecided',
        detail:
          'the transcript records no scripted user (no user_script event), so no answer can be judged',
      };
    }
    const pattern = params.question === undefined ? undefined : new RegExp(params.question, 'i');
    const asked = questions.filter(
      (question) =>
        params.via.includes(question.via) && (pattern === undefined || pattern.test(question.text)),
    );
    const wanted = params.unanswered
      ? 'unanswered'
      : params.default
        ? 'the default answer'
        : params.answer !== undefined
          ? `answer rule ${params.answer}`
          : 'an answer';
    const hit = asked.find((question) => answeredAsWanted(question, params));
    if (hit !== undefined) {
      return {
        outcome: 'pass',
        observed: describe(hit),
        detail: `${hit.id} "${hit.text.slice(0, 80)}" got ${describe(hit)}`,
      };
    }
    const seen =
      asked.length === 0
        ? `no question${pattern === undefined ? '' : ` matching ${quotedPattern(params.question ?? '')}`} asked via ${params.via.join('/')}`
        : `${asked.length} question(s) asked, none got ${wanted} (got: ${asked.map(describe).join(', ')})`;
    if (transcript.partial === true) {
      return { outcome: 'undecided', observed: 'none', detail: `${seen}; ${PARTIAL_ABSENCE}` };
    }
    const played = asked.find((question) => question.source === 'played');
    if (played !== undefined && (params.answer !== undefined || params.default === true)) {
      return {
        outcome: 'undecided',
        observed: 'played',
        detail: `${seen}: ${played.id} was answered by a model playing the user, not by a rule, so whether it got ${wanted} cannot be said`,
      };
    }
    return { outcome: 'fail', observed: asked.length === 0 ? 'no question' : 'none', detail: seen };
  },
});

function answeredAsWanted(
  question: RecordedQuestion,
  params: {
    answer?: string | undefined;
    default?: true | undefined;
    unanswered?: true | undefined;
  },
): boolean {
  if (params.unanswered) return question.source === 'unanswered';
  if (params.default) return question.source === 'default';
  if (params.answer !== undefined)
    return question.source === 'rule' && question.rule === params.answer;
  return question.answer !== null;
}

function describe(question: RecordedQuestion): string {
  if (question.source === 'rule') return `answer ${question.rule}`;
  if (question.source === 'default') return 'the default answer';
  if (question.source === 'played') return `an answer played by ${question.playedBy ?? 'a model'}`;
  return question.source === 'unanswered' ? 'no answer (maxAnswers reached)' : 'no answer record';
}
