import type Anthropic from '@anthropic-ai/sdk';
import type { z } from 'zod';
import { bashInputSchema, runBashTool } from './bash-tool.js';
import { globInputSchema, runGlobTool } from './glob-tool.js';
import { grepInputSchema, runGrepTool } from './grep-tool.js';
import { readInputSchema, runReadTool } from './read-tool.js';
import { type ToolContext, type ToolOutput, toolError } from './tool-context.js';

export type { ToolContext, ToolOutput } from './tool-context.js';

/**
 * The tools the `messages` backend offers, under Claude Code's names and
 * input schemas, so a model (or a scripted policy) sees the same interface
 * on both backends and its tool_uses mean the same thing.
 */
export const toolDefinitions: Anthropic.Tool[] = [
  {
    name: 'Bash',
    description:
      'Run a bash command in the repository (the working directory) and return its combined output. ' +
      'Commands run in a sandbox: the repository is writable, the skill directory read-only, no network. ' +
      '`timeout` is in milliseconds.',
    input_schema: {
      type: 'object',
      properties: {
        command: { type: 'string', description: 'The command to execute' },
        timeout: { type: 'number', description: 'Optional timeout in milliseconds' },
        description: { type: 'string', description: 'What the command does, in a few words' },
        run_in_background: { type: 'boolean', description: 'Not supported here; ignored' },
      },
      required: ['command'],
    },
  },
  {
    name: 'Read',
    description:
      'Read a text file by absolute path. Lines come back numbered like `cat -n`; use offset and limit for long files.',
    input_schema: {
      type: 'object',
      properties: {
        file_path: { type: 'string', description: 'Absolute path of the file to read' },
        offset: { type: 'number', description: 'Line number to start from (1-based)' },
        limit: { type: 'number', description: 'How many lines to read' },
      },
      required: ['file_path'],
    },
  },
  {
    name: 'Glob',
    description: 'Find files by glob pattern (e.g. `**/*.md`), under `path` or the repository.',
    input_schema: {
      type: 'object',
      properties: {
        pattern: { type: 'string', description: 'The glob pattern to match' },
        path: { type: 'string', description: 'Absolute directory to search in' },
      },
      required: ['pattern'],
    },
  },
  {
    name: 'Grep',
    description:
      'Search file contents with an extended regular expression. output_mode: files_with_matches (default), content, or count.',
    input_schema: {
      type: 'object',
      properties: {
        pattern: { type: 'string', description: 'Regular expression to search for' },
        path: { type: 'string', description: 'Absolute file or directory to search' },
        glob: { type: 'string', description: 'Only search files matching this glob' },
        output_mode: { type: 'string', enum: ['content', 'files_with_matches', 'count'] },
        '-i': { type: 'boolean', description: 'Case-insensitive' },
        '-n': { type: 'boolean', description: 'Show line numbers (content mode)' },
        '-A': { type: 'number', description: 'Lines of context after each match' },
        '-B': { type: 'number', description: 'Lines of context before each match' },
        '-C': { type: 'number', description: 'Lines of context around each match' },
        head_limit: { type: 'number', description: 'Only the first N results' },
      },
      required: ['pattern'],
    },
  },
];

/**
 * Validate a tool call's input against its schema and run it, within the
 * per-call timeout (a Read of a pipe or a Glob over a huge tree must not hang
 * the session) and the session's abort signal. Never throws for bad input.
 */
export async function executeTool(
  name: string,
  input: unknown,
  context: ToolContext,
  signal?: AbortSignal,
): Promise<ToolOutput> {
  let timer: NodeJS.Timeout | undefined;
  let onAbort: (() => void) | undefined;
  const limit = new Promise<ToolOutput>((resolve) => {
    timer = setTimeout(
      () => resolve(toolError(`${name} did not finish within ${context.timeoutMs} ms`)),
      context.timeoutMs + 1000,
    );
    onAbort = () => resolve(toolError(`${name} was stopped: the session ended`));
    signal?.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([runTool(name, input, context), limit]);
  } finally {
    clearTimeout(timer);
    if (onAbort !== undefined) signal?.removeEventListener('abort', onAbort);
  }
}

/** A tool: the schema its input must match, and what runs it. */
interface ToolImplementation<Input> {
  readonly schema: z.ZodType<Input>;
  readonly run: (input: Input, context: ToolContext) => Promise<ToolOutput>;
}

function tool<Input>(
  schema: z.ZodType<Input>,
  run: ToolImplementation<Input>['run'],
): ToolImplementation<unknown> {
  return {
    schema,
    run: (input, context) => run(input as Input, context),
  };
}

const tools: Readonly<Record<string, ToolImplementation<unknown>>> = {
  Bash: tool(bashInputSchema, runBashTool),
  Read: tool(readInputSchema, runReadTool),
  Glob: tool(globInputSchema, runGlobTool),
  Grep: tool(grepInputSchema, runGrepTool),
};

async function runTool(name: string, input: unknown, context: ToolContext): Promise<ToolOutput> {
  const implementation = Object.hasOwn(tools, name) ? tools[name] : undefined;
  if (implementation === undefined) return toolError(`No such tool available: ${name}`);
  try {
    const parsed = implementation.schema.safeParse(input);
    return parsed.success
      ? await implementation.run(parsed.data, context)
      : invalid(name, parsed.error);
  } catch (error) {
    return toolError(`${name} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
}

function invalid(
  name: string,
  error: { issues: readonly { path: PropertyKey[]; message: string }[] },
): ToolOutput {
  const issue = error.issues[0];
  const where =
    issue === undefined ? '' : `${issue.path.map(String).join('.') || 'input'}: ${issue.message}`;
  return toolError(`InputValidationError: ${name} ${where}`);
}
