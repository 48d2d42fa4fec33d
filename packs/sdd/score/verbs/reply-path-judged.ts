/**
 * `reply-path-judged`: a `path-judgements` section judges some path matching
 * the globs this way (adopted, rejected or unclear). Wrap it in `not` to say
 * "no such path is adopted".
 */
import { z } from 'zod';
import { globSchema } from '../../../../harness/score/param-types.js';
import { defineVerb, listed } from '../../../../harness/score/verb.js';
import { globMatcher } from '../../../../harness/score/verbs/glob.js';
import {
  sectionParam,
  sectionProblem,
  sectionValue,
} from '../../../../harness/score/verbs/reply-value.js';
import { JUDGEMENTS, type PathJudgementsValue } from '../extractors/path-judgements.js';

export const replyPathJudged = defineVerb({
  summary:
    'a path-judgements section judges some path matching the globs adopted / rejected / unclear',
  params: z
    .object({
      section: sectionParam,
      paths: z.array(globSchema).min(1),
      judgement: z.enum(JUDGEMENTS),
    })
    .strict(),
  reads: () => ['reply'],
  validate: (params, context) => sectionProblem(params.section, context, ['path-judgements']),
  run: (params, evidence) => {
    const read = sectionValue(evidence, params.section);
    if ('undecided' in read) return read.undecided;
    if (read.value.kind !== 'path-judgements')
      throw new Error(`section ${params.section} holds no paths`);
    const matches = globMatcher(params.paths);
    const judged = (read.value as PathJudgementsValue).paths
      .filter((entry) => entry.judgement === params.judgement && matches(entry.path))
      .map((entry) => entry.path);
    return judged.length > 0
      ? {
          outcome: 'pass',
          observed: listed(judged),
          detail: `"${params.section}" judges ${listed(judged)} ${params.judgement}`,
        }
      : {
          outcome: 'fail',
          observed: 'none',
          detail: `"${params.section}" judges no path of ${listed(params.paths)} ${params.judgement}`,
        };
  },
});
