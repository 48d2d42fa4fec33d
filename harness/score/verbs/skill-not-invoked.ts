/**
 * `skill-not-invoked`: the session did not invoke the skill (skill-use.ts:
 * by name or pattern, or any skill when neither is given; in the form asked
 * for, default the Skill tool; in the seat asked for). A partial transcript
 * cannot prove an absence: undecided.
 */
import { skillUseVerb } from './skill-use.js';

export const skillNotInvoked = skillUseVerb(
  false,
  'the session did not invoke the skill (skill or pattern, or any; form; seat)',
);
