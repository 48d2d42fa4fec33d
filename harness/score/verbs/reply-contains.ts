/**
 * `reply-contains`: a section's text (or, with no section, the whole reply)
 * matches a pattern, with the case rule stated explicitly. An absent section
 * leaves it undecided. With `turn` (turn-selector.ts) it reads the reply that
 * ended that conversation turn instead of the session's last one; a
 * transcript that records no such turn leaves it undecided.
 */
import { z } from 'zod';
import { required } from '../evidence.js';
import { registeredExtractors } from '../extractor-table.js';
import { withoutEmphasis } from '../extractors/language/markdown.js';
import { regexSource } from '../param-types.js';
import {
  NO_TURNS_RECORDED,
  replyOfTurn,
  turnProblem,
  turnSelectorSchema,
  turnText,
} from '../turn-selector.js';
import { defineVerb, quotedPattern, type VerbResult } from '../verb.js';
import { sectionParam, sectionProblem } from './reply-value.js';

export const replyContains = defineVerb({
  summary:
    'a section (or the whole reply) matches a regular expression after markdown emphasis is removed',
  params: z
    .object({
      section: sectionParam.optional(),
      pattern: regexSource,
      caseSensitive: z.boolean(),
      /** The reply that ended this conversation turn (its number, or a declared turn's id). */
      turn: turnSelectorSchema.optional(),
    })
    .strict()
    .refine((params) => params.section === undefined || params.turn === undefined, {
      message: 'sections are read from the last reply: give section or turn, not both',
      path: ['turn'],
    }),
  reads: (params) => (params.turn === undefined ? ['reply'] : ['transcript']),
  validate: (params, context) =>
    params.section === undefined
      ? turnProblem(params.turn, 'turn', context)
      : sectionProblem(
          params.section,
          context,
          registeredExtractors().map(({ name }) => name),
        ),
  run: (params, evidence) => {
    if (params.turn !== undefined) {
      const transcript = required(evidence.transcript, 'transcript');
      const text = replyOfTurn(transcript, evidence.reply?.text, params.turn);
      if (text === undefined) {
        return {
          outcome: 'undecided',
          detail:
            transcript.turns === undefined
              ? NO_TURNS_RECORDED
              : `the transcript records no ${turnText(params.turn)}, or not its reply`,
        };
      }
      return matchOutcome(`the reply of ${turnText(params.turn)}`, text, params);
    }
    const reply = required(evidence.reply, 'reply');
    const where = params.section === undefined ? 'the reply' : `"${params.section}"`;
    const text = params.section === undefined ? reply.text : reply.sections[params.section];
    if (text === undefined) {
      return { outcome: 'undecided', detail: `the reply has no "${params.section}" section` };
    }
    return matchOutcome(where, text, params);
  },
});

function matchOutcome(
  where: string,
  text: string,
  params: { readonly pattern: string; readonly caseSensitive: boolean },
): VerbResult {
  const found = new RegExp(params.pattern, params.caseSensitive ? 'm' : 'im').exec(
    withoutEmphasis(text),
  );
  return found === null
    ? {
        outcome: 'fail',
        observed: 'no match',
        detail: `${where} does not match ${quotedPattern(params.pattern)}`,
      }
    : {
        outcome: 'pass',
        observed: found[0].slice(0, 80),
        detail: `${where} matches ${quotedPattern(params.pattern)}`,
      };
}
