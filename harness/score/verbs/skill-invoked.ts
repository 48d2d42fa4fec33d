/**
 * `skill-invoked`: the session invoked the skill (skill-use.ts: by name or
 * pattern, in the form asked for, default the Skill tool, in the seat asked
 * for). `observed` says the forms that happened, so a session that only read
 * the SKILL.md fails a `form: tool` check and shows `read`.
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

export const skillInvoked = defineVerb({
  summary: 'the session invoked the skill (skill or pattern; form: tool, read, shell, any; seat)',
  params: z.object(skillUseShape).strict(),
  reads: () => ['transcript'],
  validate: skillUseProblem,
  run: (params, evidence) => {
    const { counted, anyForm } = invocationsOf(params, evidence);
    const observed = formsObserved(anyForm);
    if (counted.length > 0) {
      return { outcome: 'pass', observed, detail: `invoked: ${describeInvocations(counted)}` };
    }
    const other =
      anyForm.length > 0 ? `; only in another form: ${describeInvocations(anyForm)}` : '';
    if (required(evidence.transcript, 'transcript').partial === true) {
      return {
        outcome: 'undecided',
        observed,
        detail: `${skillNamed(params)}: ${PARTIAL_ABSENCE}`,
      };
    }
    return {
      outcome: 'fail',
      observed,
      detail: `${skillNamed(params)} was not invoked${params.form === 'any' ? '' : ` by form ${params.form}`}${other}`,
    };
  },
});
