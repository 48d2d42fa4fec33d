/** `tool-count`: the number of matching tool calls is within min/max. */
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

export const toolCount = defineVerb({
  summary: 'the number of matching tool calls is within min/max',
  params: z
    .object({
      ...toolMatchShape,
      min: z.number().int().nonnegative().optional(),
      max: z.number().int().nonnegative().optional(),
    })
    .strict(),
  reads: () => ['transcript'],
  validate: (params, context) => {
    if (params.min === undefined && params.max === undefined) {
      return {
        field: 'min',
        problem: 'has neither min nor max, so it could never fail',
        fix: 'give min, max or both',
      };
    }
    if (params.min === 0 && params.max === undefined) {
      return {
        field: 'min',
        problem: 'is 0 with no max: every count is at least 0, so it could never fail',
        fix: 'give min 1 or more, or a max',
      };
    }
    if (params.min !== undefined && params.max !== undefined && params.min > params.max) {
      return {
        field: 'min',
        problem: `min ${params.min} exceeds max ${params.max}, so it could never pass`,
        fix: 'swap or fix them',
      };
    }
    return toolMatchProblem(params, context);
  },
  run: (params, evidence) => {
    const found = matchingCalls(params, evidence);
    const n = found.length;
    const inside =
      (params.min === undefined || n >= params.min) &&
      (params.max === undefined || n <= params.max);
    const bounds = [
      params.min === undefined ? '' : `at least ${params.min}`,
      params.max === undefined ? '' : `at most ${params.max}`,
    ]
      .filter(Boolean)
      .join(' and ');
    // Calls on unreadable lines, or in a seat the files do not hold, can only add to the count: a count above max
    // stands, while one below min or a pass under a max could be wrong.
    const above = params.max !== undefined && n > params.max;
    const missing = missingCalls(
      params.seat,
      required(evidence.transcript, 'transcript'),
      params.turn,
    );
    if (missing !== undefined && !above && (!inside || params.max !== undefined)) {
      return {
        outcome: 'undecided',
        observed: String(n),
        detail: `${describeCalls(found)} (wanted ${bounds}); ${missing}`,
      };
    }
    return {
      outcome: inside ? 'pass' : 'fail',
      observed: String(n),
      detail: `${describeCalls(found)} (wanted ${bounds})`,
    };
  },
});
