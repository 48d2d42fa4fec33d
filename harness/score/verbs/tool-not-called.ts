/** `tool-not-called`: no tool call matches. */
import { z } from 'zod';
import { PARTIAL_ABSENCE, required } from '../evidence.js';
import { defineVerb } from '../verb.js';
import { describeCalls, matchingCalls, toolMatchProblem, toolMatchShape } from './tool-match.js';

export const toolNotCalled = defineVerb({
  summary: 'no tool call matches',
  params: z.object(toolMatchShape).strict(),
  reads: () => ['transcript'],
  validate: (params) => toolMatchProblem(params),
  run: (params, evidence) => {
    const found = matchingCalls(params, evidence);
    if (found.length === 0 && required(evidence.transcript, 'transcript').partial === true) {
      return {
        outcome: 'undecided',
        observed: '0',
        detail: `0 matching calls; ${PARTIAL_ABSENCE}`,
      };
    }
    return {
      outcome: found.length === 0 ? 'pass' : 'fail',
      observed: String(found.length),
      detail: describeCalls(found),
    };
  },
});
