/**
 * `skill-read`: the text of the skill under test (its `SKILL.md`, or `file`
 * in its directory) was read, by a Read call or a reading program in a Bash
 * command, or loaded by a Skill tool call that succeeded (SKILL.md only:
 * the tool loads nothing else). Only the skill the session was given counts:
 * another skill's SKILL.md (one installed in the user's home, an older copy)
 * is not it; a Skill call counts when it names the skill directory's name
 * and, where the transcript records the directory the engine loaded it from,
 * that directory is the skill's. When the skill's directory is not known (a
 * transcript scored without the prompt or `--skill-dir`), reading some
 * SKILL.md proves nothing: undecided.
 */
import { z } from 'zod';
import { escapeRegExp } from '../../lib/escape-reg-exp.js';
import { required } from '../evidence.js';
import { nonBlank, seatSelectorSchema } from '../param-types.js';
import { type SkillInvocation, skillInvocations } from '../skill-invocations.js';
import { defineVerb } from '../verb.js';
import { describeCalls, matchingCalls, missingCalls } from './tool-match.js';

/** Whether a Skill tool call loaded the skill in `dir` (its last path part is the skill's name). */
function loadsSkillIn(invocation: SkillInvocation, dir: string): boolean {
  if (invocation.form !== 'tool' || !invocation.succeeded) return false;
  if (invocation.bare !== dir.split('/').at(-1)) return false;
  if (invocation.path === null) return true;
  return new RegExp(`(?:^|/)${escapeRegExp(dir.replace(/^\/+/, ''))}/*$`).test(invocation.path);
}

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
    const transcript = required(evidence.transcript, 'transcript');
    const loaded =
      params.file === 'SKILL.md'
        ? skillInvocations(transcript.calls).filter(
            (invocation) =>
              loadsSkillIn(invocation, dir) &&
              (params.seat === 'any' || invocation.seat === params.seat),
          )
        : [];
    const read = matchingCalls(
      {
        tool: ['Read', 'Bash'],
        seat: params.seat,
        reads: `(?:^|/)${escapeRegExp(dir.replace(/^\/+/, ''))}/+${escapeRegExp(params.file)}$`,
        minHashPrefix: 7,
      },
      evidence,
    );
    const found = [
      ...loaded.flatMap((invocation) => {
        const call = transcript.calls[invocation.position];
        return call === undefined ? [] : [{ call, why: invocation.how }];
      }),
      ...read,
    ];
    const missing = missingCalls(params.seat, transcript);
    if (found.length === 0 && missing !== undefined) {
      return { outcome: 'undecided', observed: '0', detail: `${dir}/${params.file}: ${missing}` };
    }
    return {
      outcome: found.length > 0 ? 'pass' : 'fail',
      observed: String(found.length),
      detail: found.length > 0 ? describeCalls(found) : `${dir}/${params.file} was never read`,
    };
  },
});
