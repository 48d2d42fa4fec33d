/**
 * A skills library as one session has it installed, and what both backends
 * say about it in the engine's own words (Claude Code 2.1.332, measured
 * against the local model server; README "Skills libraries"):
 *
 * - the listing: a `system` message after the first user message holds
 *   `The following skills are available for use with the Skill tool:` and
 *   one `- <plugin>:<name>: <description>` line per skill, after the
 *   SessionStart hooks' context (`SessionStart hook additional context:
 *   <text>`);
 * - the Skill tool: `{ skill: string (required), args?: string }`; a call
 *   naming a listed skill (qualified, or by its bare name) gets the result
 *   `Launching skill: <name as called>` and, beside it in the same user
 *   message, a text block `Base directory for this skill: <dir>\n\n<SKILL.md
 *   after its front matter>` (recorded by the engine as a user message
 *   marked `isSynthetic`); any other name gets `<tool_use_error>Unknown
 *   skill: <name></tool_use_error>` as an error.
 *
 * The engine itself needs only the plugin directory; the messages backend
 * builds the same listing and answers from this description.
 */
import { sameSkill } from '../score/skill-invocations.js';

export interface InstalledSkill {
  /** The name the listing gives and the Skill tool takes: `<plugin>:<name>`. */
  readonly name: string;
  readonly description: string;
  /** Its directory in the installed plugin. */
  readonly dir: string;
  /** SKILL.md after its front matter. */
  readonly body: string;
}

/** A SessionStart hook the harness ran (confined) before the session, and what it printed. */
export interface SessionStartOutput {
  readonly command: string;
  readonly exitCode: number | null;
  /** Its standard output, as the engine reads a hook's. */
  readonly stdout: string;
}

export interface InstalledLibrary {
  readonly pluginName: string;
  /** The plugin directory the session's engine loads (read-only to the session). */
  readonly root: string;
  readonly skills: readonly InstalledSkill[];
  readonly sessionStart: readonly SessionStartOutput[];
}

export const SKILL_LISTING_HEADER =
  'The following skills are available for use with the Skill tool:';
export const SKILL_BASE_DIRECTORY = 'Base directory for this skill:';

/**
 * The skills a session is offered as one listing: the project's own (bare
 * names, project-skills.ts) before its library's; the library itself when
 * there are no project skills, undefined when there is neither.
 */
export function withProjectSkills(
  library: InstalledLibrary | undefined,
  project: readonly InstalledSkill[] | undefined,
): InstalledLibrary | undefined {
  if (project === undefined || project.length === 0) return library;
  return {
    pluginName: library?.pluginName ?? '',
    root: library?.root ?? '',
    skills: [...project, ...(library?.skills ?? [])],
    sessionStart: library?.sessionStart ?? [],
  };
}

/** The listing's lines, as the engine writes them. */
export function skillListing(library: InstalledLibrary): string {
  return [
    SKILL_LISTING_HEADER,
    '',
    ...library.skills.map((skill) => `- ${skill.name}: ${skill.description}`),
  ].join('\n');
}

/**
 * The context a SessionStart hook's output adds, as the engine reads it: a
 * JSON object's `hookSpecificOutput.additionalContext` (or its top-level
 * `additionalContext` / `additional_context`), else the plain output; none
 * for a hook that failed or printed nothing.
 */
export function hookContext(output: SessionStartOutput): string | undefined {
  if (output.exitCode !== 0) return undefined;
  const text = output.stdout.trim();
  if (text === '') return undefined;
  try {
    const parsed = JSON.parse(text) as Record<string, unknown>;
    const specific = parsed.hookSpecificOutput as Record<string, unknown> | undefined;
    const context =
      specific?.additionalContext ?? parsed.additionalContext ?? parsed.additional_context;
    return typeof context === 'string' && context.trim() !== '' ? context : undefined;
  } catch {
    return text;
  }
}

/** The text a session is shown at its start: the hooks' context, then the listing. */
export function librarySystemText(library: InstalledLibrary): string {
  const contexts = library.sessionStart
    .map(hookContext)
    .filter((context): context is string => context !== undefined)
    .map((context) => `SessionStart hook additional context: ${context}`);
  return [...contexts, skillListing(library)].join('\n\n');
}

/** The installed skill a Skill call names (qualified, or by its bare name), or undefined. */
export function skillCalled(library: InstalledLibrary, name: string): InstalledSkill | undefined {
  const wanted = name.trim().replace(/^\//, '');
  return library.skills.find((skill) => sameSkill(wanted, skill.name));
}

/** A Skill call's answer: the tool result, and the text the engine loads beside it. */
export function skillToolAnswer(
  library: InstalledLibrary,
  input: unknown,
): { readonly result: string; readonly isError: boolean; readonly loaded: string | undefined } {
  const name = (input as { skill?: unknown } | null)?.skill;
  const skill = typeof name === 'string' ? skillCalled(library, name) : undefined;
  if (typeof name !== 'string' || skill === undefined) {
    return {
      result: `<tool_use_error>Unknown skill: ${String(name ?? '')}</tool_use_error>`,
      isError: true,
      loaded: undefined,
    };
  }
  return {
    result: `Launching skill: ${name}`,
    isError: false,
    loaded: `${SKILL_BASE_DIRECTORY} ${skill.dir}\n\n${skill.body}`,
  };
}
