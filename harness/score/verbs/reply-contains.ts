/**
 * `reply-contains`: a section's text (or, with no section, the whole reply)
 * matches a pattern, with the case rule stated explicitly. An absent section
 * leaves it undecided.
 */
import { z } from 'zod';
import { required } from '../evidence.js';
import { withoutEmphasis } from '../extractors/language/markdown.js';
import { regexSource } from '../param-types.js';
import { defineVerb, quotedPattern } from '../verb.js';
import { sectionParam, sectionProblem } from './reply-value.js';

export const replyContains = defineVerb({
  summary:
    'a section (or the whole reply) matches a regular expression after markdown emphasis is removed',
  params: z
    .object({ section: sectionParam.optional(), pattern: regexSource, caseSensitive: z.boolean() })
    .strict(),
  reads: () => ['reply'],
  validate: (params, context) =>
    params.section === undefined
      ? undefined
      : sectionProblem(params.section, context, [
          'task',
          'tasks',
          'choice',
          'text',
          'path-judgements',
        ]),
  run: (params, evidence) => {
    const reply = required(evidence.reply, 'reply');
    const where = params.section === undefined ? 'the reply' : `"${params.section}"`;
    const text = params.section === undefined ? reply.text : reply.sections[params.section];
    if (text === undefined) {
      return { outcome: 'undecided', detail: `the reply has no "${params.section}" section` };
    }
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
  },
});
