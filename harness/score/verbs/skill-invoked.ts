/**
 * `skill-invoked`: the session invoked the skill (skill-use.ts: by name or
 * pattern, in the form asked for, default the Skill tool, in the seat asked
 * for). `observed` says the forms that happened, so a session that only read
 * the SKILL.md fails a `form: tool` check and shows `read`.
 */
import { skillUseVerb } from './skill-use.js';

export const skillInvoked = skillUseVerb(
  true,
  'the session invoked the skill (skill or pattern; form: tool, read, shell, any; seat)',
);
