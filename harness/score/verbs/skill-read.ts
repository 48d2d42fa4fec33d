/**
 * `skill-read`: the skill's text (a file named `SKILL.md`, or `file`) was
 * read, by a Read call or a reading program in a Bash command.
 */
import { z } from 'zod';
import { escapeRegExp } from '../extractors/language/plan-names.js';
import { nonBlank, seatSelectorSchema } from '../param-types.js';
import { defineVerb } from '../verb.js';
import { describeCalls, matchingCalls } from './tool-match.js';

export const skillRead = defineVerb({
  summary: "the skill's SKILL.md (or file) was read",
  params: z
    .object({ seat: seatSelectorSchema.default('any'), file: nonBlank.default('SKILL.md') })
    .strict(),
  reads: () => ['transcript'],
  run: (params, evidence) => {
    const found = matchingCalls(
      {
        tool: ['Read', 'Bash'],
        seat: params.seat,
        reads: `(?:^|/)${escapeRegExp(params.file)}$`,
        minHashPrefix: 7,
      },
      evidence,
    );
    return {
      outcome: found.length > 0 ? 'pass' : 'fail',
      observed: String(found.length),
      detail: found.length > 0 ? describeCalls(found) : `${params.file} was never read`,
    };
  },
});
