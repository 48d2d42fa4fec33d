/**
 * The Claude Code engine's own file tools (Write, Edit, NotebookEdit) run in
 * the engine, as redgreen's user. When that is root and the session's
 * commands run as an unprivileged host user (in bubblewrap or the process
 * fallback), a file the engine
 * writes would be root's, and the session's next command could not change
 * it: so after each such call, the fixture (the file and the directories
 * made for it among it) is handed to the sandbox's user (a PostToolUse hook,
 * for every seat).
 */
import type { HookCallback, Options } from '@anthropic-ai/claude-agent-sdk';
import type { Sandbox } from '../sandbox/sandbox.js';
import { handOverTree } from '../sandbox/sandbox-owner.js';

const FILE_TOOLS = 'Write|Edit|MultiEdit|NotebookEdit';

/** The path a file tool's input names, if any. */
function writtenPath(input: unknown): string | undefined {
  if (typeof input !== 'object' || input === null) return undefined;
  const record = input as Record<string, unknown>;
  const named = record.file_path ?? record.notebook_path;
  return typeof named === 'string' ? named : undefined;
}

/** The hook's query options; none when the engine and the sandbox's commands are one user. */
export function engineWritesHandOver(
  sandbox: Sandbox,
  fixtureDir: string,
): Pick<Options, 'hooks'> | undefined {
  const owner = sandbox.hostUser;
  if (owner === undefined) return undefined;
  const hook: HookCallback = async (input) => {
    if (input.hook_event_name === 'PostToolUse') {
      const file = writtenPath(input.tool_input);
      // The whole fixture, walked safely: a path-by-path walk to the file could be raced.
      if (file !== undefined) await handOverTree(fixtureDir, owner);
    }
    return {};
  };
  return { hooks: { PostToolUse: [{ matcher: FILE_TOOLS, hooks: [hook] }] } };
}
