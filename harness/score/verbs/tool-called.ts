/** `tool-called`: at least one tool call matches (tool, seat, input, runs, reads, readsCommit). */
import { z } from 'zod';
import { required } from '../evidence.js';
import { defineVerb } from '../verb.js';
import {
  describeCalls,
  matchingCalls,
  missingCalls,
  toolMatchProblem,
  toolMatchShape,
} from './tool-match.js';

export const toolCalled = defineVerb({
  summary: 'at least one tool call matches (tool, seat, input patterns, runs, reads, readsCommit)',
  params: z.object(toolMatchShape).strict(),
  reads: () => ['transcript'],
  validate: (params, context) => toolMatchProblem(params, context),
  run: (params, evidence) => {
    const found = matchingCalls(params, evidence);
    const missing = missingCalls(
      params.seat,
      required(evidence.transcript, 'transcript'),
      params.turn,
    );
    if (found.length === 0 && missing !== undefined) {
      return { outcome: 'undecided', observed: '0', detail: `0 matching calls; ${missing}` };
    }
    return {
      outcome: found.length > 0 ? 'pass' : 'fail',
      observed: String(found.length),
      detail: describeCalls(found),
    };
  },
});
