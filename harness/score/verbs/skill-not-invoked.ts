/**
 * `skill-not-invoked`: the session did not invoke the skill (skill-use.ts:
 * by name or pattern, or any skill when neither is given; in the form asked
 * for, default the Skill tool; in the seat asked for). A partial transcript
 * cannot prove an absence: undecided.
 */
import { z } from 'zod';
import { PARTIAL_ABSENCE, required } from '../evidence.js';
import { defineVerb } from '../verb.js';
import {
  describeInvocations,
  formsObserved,
  invocationsOf,
  skillNamed,
  skillUseProblem,
  skillUseShape,
} from './skill-use.js';

export const skillNotInvoked = defineVerb({
  summary: 'the session did not invoke the skill (skill or pattern, or any; form; seat)',
  params: z.object(skillUseShape).strict(),
  reads: () => ['transcript'],
  validate: skillUseProblem,
  run: (params, evidence) => {
    const { counted, anyForm } = invocationsOf(params, evidence);
    const observed = formsObserved(anyForm);
    if (counted.length > 0) {
      return { outcome: 'fail', observed, detail: `invoked: ${describeInvocations(counted)}` };
    }
    if (required(evidence.transcript, 'transcript').partial === true) {
      return {
        outcome: 'undecided',
        observed,
        detail: `${skillNamed(params)}: ${PARTIAL_ABSENCE}`,
      };
    }
    return {
      outcome: 'pass',
      observed,
      detail: `${skillNamed(params)} was not invoked${params.form === 'any' ? '' : ` by form ${params.form}`}`,
    };
  },
});
