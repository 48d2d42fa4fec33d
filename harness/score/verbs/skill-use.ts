/**
 * What `skill-invoked` and `skill-not-invoked` share: the skill a check names
 * (`skill`: a name, bare or plugin-qualified, which matches either way;
 * `pattern`: a regular expression over the invoked name and its bare part;
 * neither: any skill), the form that counts (`tool`: the Skill tool, the
 * default; `read`: a Read of its SKILL.md; `shell`: a Bash command reading
 * it; `any`), and the seat. The invocations come from the session's event
 * list (session-events.ts), so they are counted as ordering checks count them:
 * a Skill call or Read whose result is an error loaded nothing, and is none
 * (the call a stop captured and refused is the probe's decision, and counts).
 */
import { z } from 'zod';
import { type EventSelector, eventMatch, invocationCounts, namesSkill } from '../event-selector.js';
import { type Evidence, required } from '../evidence.js';
import { nonBlank, regexSource, seatSelectorSchema } from '../param-types.js';
import { type SessionEvent, sessionEvents } from '../session-events.js';
import { SKILL_FORMS } from '../skill-invocations.js';
import { defineVerb, listed, type ParamProblem } from '../verb.js';
import { dispatchSeatSelectorSchema, missingCalls } from './tool-match.js';

export const skillUseShape = {
  skill: nonBlank.optional(),
  pattern: regexSource.optional(),
  form: z.enum([...SKILL_FORMS, 'any']).default('tool'),
  seat: z.union([seatSelectorSchema, dispatchSeatSelectorSchema]).default('any'),
};
const skillUseSchema = z.object(skillUseShape).strict();
export type SkillUse = z.infer<typeof skillUseSchema>;

export function skillUseProblem(params: SkillUse): ParamProblem | undefined {
  return params.skill !== undefined && params.pattern !== undefined
    ? {
        field: 'pattern',
        problem: 'names the skill twice (skill and pattern)',
        fix: 'give skill (a name) or pattern (a regular expression), not both',
      }
    : undefined;
}

/** What the check names, for details: `superpowers:tdd`, `/^tdd$/`, `any skill`. */
export function skillNamed(params: SkillUse): string {
  return params.skill ?? (params.pattern === undefined ? 'any skill' : `/${params.pattern}/`);
}

/** The invocations of the named skill in the named seat: those of the form asked for, and all forms. */
export function invocationsOf(
  params: SkillUse,
  evidence: Evidence,
): { readonly counted: SessionEvent[]; readonly anyForm: SessionEvent[] } {
  const transcript = required(evidence.transcript, 'transcript');
  const selector = (form: EventSelector & { event: 'skill' }): SessionEvent[] =>
    sessionEvents(transcript).filter(
      (event) => eventMatch(form, event, transcript.dispatches) !== undefined,
    );
  const base = {
    event: 'skill' as const,
    ...(params.skill === undefined ? {} : { skill: params.skill }),
    ...(params.pattern === undefined ? {} : { pattern: params.pattern }),
    seat: params.seat,
  };
  return {
    counted: selector({ ...base, form: params.form }),
    anyForm: selector({ ...base, form: 'any' }),
  };
}

/** The forms that happened, `read+tool`, or `none`. */
export function formsObserved(events: readonly SessionEvent[]): string {
  const forms = [
    ...new Set(events.flatMap((event) => (event.kind === 'skill' ? [event.invocation.form] : []))),
  ].sort();
  return forms.length === 0 ? 'none' : forms.join('+');
}

export function describeInvocations(events: readonly SessionEvent[]): string {
  return listed(
    events.flatMap((event) =>
      event.kind === 'skill' ? [`${event.invocation.how} (${event.invocation.callId})`] : [],
    ),
    3,
  );
}

/**
 * `skill-invoked` (`wanted: true`) or `skill-not-invoked` (`false`): the
 * same reading of the same invocations, the outcome swapped; a transcript
 * that does not show the skill decides neither when calls of the seat it
 * looks at may be missing (unreadable lines, a seat not in the files).
 */
export function skillUseVerb(wanted: boolean, summary: string) {
  return defineVerb({
    summary,
    params: z.object(skillUseShape).strict(),
    reads: () => ['transcript'],
    validate: skillUseProblem,
    run: (params, evidence) => {
      const { counted, anyForm } = invocationsOf(params, evidence);
      const observed = formsObserved(anyForm);
      if (counted.length > 0) {
        return {
          outcome: wanted ? 'pass' : 'fail',
          observed,
          detail: `invoked: ${describeInvocations(counted)}`,
        };
      }
      const missing = missingCalls(params.seat, required(evidence.transcript, 'transcript'));
      if (missing !== undefined) {
        return { outcome: 'undecided', observed, detail: `${skillNamed(params)}: ${missing}` };
      }
      const failed = sessionEvents(required(evidence.transcript, 'transcript')).filter(
        (event) =>
          event.kind === 'skill' &&
          !invocationCounts(event.invocation, event.call) &&
          namesSkill(params, event.invocation),
      );
      const other = [
        wanted && anyForm.length > 0
          ? `; only in another form: ${describeInvocations(anyForm)}`
          : '',
        failed.length > 0
          ? `; a call that failed loaded nothing: ${describeInvocations(failed)}`
          : '',
      ].join('');
      return {
        outcome: wanted ? 'fail' : 'pass',
        observed,
        detail: `${skillNamed(params)} was not invoked${params.form === 'any' ? '' : ` by form ${params.form}`}${other}`,
      };
    },
  });
}
