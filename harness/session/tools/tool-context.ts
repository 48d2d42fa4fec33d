import type { Sandbox } from '../../sandbox/sandbox.js';

/** What a tool needs to run one call for one session. */
export interface ToolContext {
  readonly sandbox: Sandbox;
  /** Read-write root, and the working directory unless `workDir` names another. */
  readonly fixtureDir: string;
  /** The working directory inside `fixtureDir` (the linked worktree a session starts in); default `fixtureDir`. */
  readonly workDir?: string | undefined;
  /** Read-only roots besides the fixture (the skill copy). */
  readonly readOnlyDirs: readonly string[];
  /** HOME for the unsandboxed fallback. */
  readonly fallbackHome: string;
  readonly timeoutMs: number;
  readonly maxOutputBytes: number;
}

/** A tool's answer, as it goes back to the model in a `tool_result` block. */
export interface ToolOutput {
  readonly content: string;
  readonly isError: boolean;
  /**
   * Text the engine puts beside the result in the same user message (a
   * loaded skill's text, after a Skill call's result), recorded as a
   * synthetic user message, as Claude Code records it.
   */
  readonly followUp?: string | undefined;
}

export function toolError(message: string): ToolOutput {
  return { content: message, isError: true };
}
