/**
 * A scenario's `claudeDir`: the parts of its fixture's `.claude/` a session
 * is given. Nothing of it reaches a session unless named here. A part that
 * would run fixture code in the engine (settings files: hooks, status line,
 * permissions) is refused with the reason: the engine runs those itself,
 * outside the sandbox that confines model commands.
 */
import { z } from 'zod';

/** The parts a scenario may opt in to. */
export const CLAUDE_DIR_PARTS = ['skills'] as const;

const OUTSIDE_THE_SANDBOX = 'would run fixture code in the engine, outside the sandbox';
/** Parts refused, and why (one line each, for the schema error). */
const REFUSED: Readonly<Record<string, string>> = {
  settings: `settings files are never loaded: their hooks, status line and permissions ${OUTSIDE_THE_SANDBOX}`,
  hooks: `hooks are never loaded: they ${OUTSIDE_THE_SANDBOX}`,
  statusline: `a status line is never loaded: it ${OUTSIDE_THE_SANDBOX}`,
  permissions: `permissions are never loaded: they come from settings files, whose hooks ${OUTSIDE_THE_SANDBOX}`,
  agents: 'subagent definitions (.claude/agents) are not supported yet; only "skills" is',
  commands: 'slash commands (.claude/commands) are not supported yet; only "skills" is',
};

function refusalOf(part: string): string | undefined {
  const key = part.replace(/^\.claude\//, '').replace(/\/$/, '');
  if (/^settings(\.local)?\.json$/.test(key)) return REFUSED.settings;
  return Object.hasOwn(REFUSED, key) ? REFUSED[key] : undefined;
}

export const claudeDirSchema = z
  .array(z.string())
  .min(1)
  .superRefine((parts, context) => {
    parts.forEach((part, index) => {
      if ((CLAUDE_DIR_PARTS as readonly string[]).includes(part)) return;
      context.addIssue({
        code: 'custom',
        path: [index],
        message: `"${part}": ${refusalOf(part) ?? `not a part of .claude/ a session can be given (one of: ${CLAUDE_DIR_PARTS.join(', ')})`}`,
      });
    });
  })
  .describe(
    "the parts of the fixture's .claude/ the session is given: skills (.claude/skills/<name>/SKILL.md, through the Skill tool); absent: none. Settings, hooks, status line and permissions are refused",
  );

/** Whether a scenario's `claudeDir` gives the session the fixture's project skills. */
export function givesProjectSkills(claudeDir: readonly string[] | undefined): boolean {
  return claudeDir?.includes('skills') ?? false;
}
