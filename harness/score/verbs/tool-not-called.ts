/** `tool-not-called`: no tool call matches. */
import { z } from 'zod';
import { defineVerb } from '../verb.js';
import { describeCalls, matchingCalls, toolMatchProblem, toolMatchShape } from './tool-match.js';

export const toolNotCalled = defineVerb({
  summary: 'no tool call matches',
  params: z.object(toolMatchShape).strict(),
  reads: () => ['transcript'],
  validate: (params) => toolMatchProblem(params),
  run: (params, evidence) => {
    const found = matchingCalls(params, evidence);
    return {
      outcome: found.length === 0 ? 'pass' : 'fail',
      observed: String(found.length),
      detail: describeCalls(found),
    };
  },
});
