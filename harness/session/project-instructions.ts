/**
 * Project instruction files (`CLAUDE.md`, `AGENTS.md`) a scenario names, as a
 * session is given them. Claude Code 2.1.332 loads a project's CLAUDE.md only
 * with the `project` setting source, which would also read the fixture's
 * `.claude/settings.json` (permissions, hooks), skills and commands; so
 * redgreen never lets the engine read the fixture's settings, and instead
 * hands the session exactly the named files, in the form the engine gives a
 * project's CLAUDE.md (measured: a `<system-reminder>` at the start of the
 * first user message). The engine itself does not read AGENTS.md; a named
 * AGENTS.md is given the same way.
 */

/** One instruction file: its absolute path in the session's repository, and its text. */
export interface ProjectInstruction {
  readonly path: string;
  readonly text: string;
}

const PREAMBLE =
  'Codebase and user instructions are shown below. Be sure to adhere to these instructions. IMPORTANT: These instructions OVERRIDE any default behavior and you MUST follow them exactly as written.';

/** The reminder block the files are given in (the engine's wire format for a project's CLAUDE.md). */
export function instructionsReminder(files: readonly ProjectInstruction[]): string {
  const parts = files.map(
    (file) =>
      `Contents of ${file.path} (project instructions, checked into the codebase):\n\n${file.text.replace(/\n+$/, '')}`,
  );
  return `<system-reminder>\n${PREAMBLE}\n\n${parts.join('\n\n')}\n</system-reminder>`;
}
