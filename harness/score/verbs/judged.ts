/**
 * `judged`: a rubric item only a judge can decide (an eval's expectation in
 * plain words), decided by the rep's judgement of that item: pass or fail as
 * the judge answered it (its quote found in the material), undecided when
 * the judge was unsure or when the rep has no judgement that fits the
 * scenario's rubric as it is now (not judged yet: `redgreen judge`, or
 * `run --judge`). The item must be a key of the scenario's judge rubric
 * (load-scenario.ts checks it); agreement tables leave such items out, since
 * the check is the judge's own answer.
 */
import { z } from 'zod';
import { required } from '../evidence.js';
import { nameSchema } from '../param-types.js';
import { defineVerb } from '../verb.js';

export const JUDGED_VERB = 'judged';

export const judged = defineVerb({
  summary:
    "a rubric item only a judge decides: the rep's judgement of `item` (pass, fail; unsure or not judged is undecided)",
  params: z.object({ item: nameSchema }).strict(),
  reads: () => ['judgement'],
  run: (params, evidence) => {
    const judgement = required(evidence.judgement, 'judgement');
    const answer = judgement.items[params.item];
    if (answer === undefined) {
      return {
        outcome: 'undecided',
        detail: `the judgement (${judgement.model}) has no item "${params.item}"`,
      };
    }
    const quoted = answer.quote === '' ? '' : `: "${answer.quote.slice(0, 80)}"`;
    if (answer.verdict === 'unsure') {
      return {
        outcome: 'undecided',
        observed: 'unsure',
        detail: `the judge (${judgement.model}) could not decide it`,
      };
    }
    return {
      outcome: answer.verdict,
      observed: answer.verdict,
      detail: `the judge (${judgement.model}) says ${answer.verdict}${quoted}`,
    };
  },
});
