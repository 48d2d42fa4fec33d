/**
 * `skill-read`: the text of the skill under test (its `SKILL.md`, or `file`
 * in its directory) was read, by a Read call or a reading program in a Bash
 * command. Only the skill the session was given counts: another skill's
 * SKILL.md (one installed in the user's home, an older copy) is not it. When
 * the skill's directory is not known (a transcript scored without the prompt
 * or `--skill-dir`), reading some SKILL.md proves nothing: undecided.
 */
import { z } from 'zod';
import { PARTIAL_ABSENCE, required } from '../evidence.js';
import { escapeRegExp } from '../extractors/language/plan-names.js';
import { nonBlank, seatSelectorSchema } from '../param-types.js';
import { defineVerb } from '../verb.js';
import { describeCalls, matchingCalls } from './tool-match.js';

export const skillRead = defineVerb({
  summary: "the skill under test's SKILL.md (or file in its directory) was read",
  params: z
    .object({ seat: seatSelectorSchema.default('any'), file: nonBlank.default('SKILL.md') })
    .strict(),
  reads: () => ['transcript'],
  run: (params, evidence) => {
    const skillDir = required(evidence.transcript, 'transcript').skillDir ?? null;
    if (skillDir === null) {
      return {
        outcome: 'undecided',
        detail:
          'the skill directory the session was given is not known, so no read of it can be told apart from a read of another skill',
      };
    }
    const dir = skillDir.replace(/\/+$/, '');
    const found = matchingCalls(
      {
        tool: ['Read', 'Bash'],
        seat: params.seat,
        reads: `(?:^|/)${escapeRegExp(dir.replace(/^\/+/, ''))}/+${escapeRegExp(params.file)}$`,
        minHashPrefix: 7,
      },
      evidence,
    );
    if (found.length === 0 && evidence.transcript?.partial === true) {
      return {
        outcome: 'undecided',
        observed: '0',
        detail: `${dir}/${params.file}: ${PARTIAL_ABSENCE}`,
      };
    }
    return {
      outcome: found.length > 0 ? 'pass' : 'fail',
      observed: String(found.length),
      detail: found.length > 0 ? describeCalls(found) : `${dir}/${params.file} was never read`,
    };
  },
});
