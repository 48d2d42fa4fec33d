/**
 * Tool calls under Claude Code's names and input schemas, and the readers that
 * turn what the client sent back into plain text. Claude Code's Read returns
 * `cat -n`-style numbered lines and may append `<system-reminder>` blocks; a
 * policy that wants a file's text strips both.
 */
import type { ToolCall, ToolOutcome } from './program.js';

export function bash(command: string, description: string): ToolCall {
  return { name: 'Bash', input: { command, description } };
}

export function read(filePath: string): ToolCall {
  return { name: 'Read', input: { file_path: filePath } };
}

export function glob(pattern: string, path: string): ToolCall {
  return { name: 'Glob', input: { pattern, path } };
}

export function grep(
  pattern: string,
  path: string,
  outputMode: 'content' | 'files_with_matches' | 'count',
): ToolCall {
  return { name: 'Grep', input: { pattern, path, output_mode: outputMode } };
}

/** A subagent dispatch through 'Agent' or its legacy name 'Task' (the same input schema). */
export function agent(
  tool: 'Agent' | 'Task',
  input: { readonly description: string; readonly prompt: string; readonly subagent_type: string },
): ToolCall {
  return { name: tool, input: { ...input } };
}

/** Quote a string for bash, single-quoted unless it is plainly safe. */
export function shellQuote(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`;
}

const systemReminder = /<system-reminder>[\s\S]*?<\/system-reminder>/g;
const numberedLine = /^\s*\d+(?:\t|\u2192|$)/;

/** The text of a file as a Read outcome shows it: reminders removed, line numbers stripped. */
export function fileText(outcome: ToolOutcome): string {
  const lines = outcome.text.replace(systemReminder, '').replace(/\n+$/, '').split('\n');
  const numbered = lines.filter((line) => line.trim() !== '');
  if (numbered.length === 0 || !numbered.every((line) => numberedLine.test(line))) {
    return lines.join('\n');
  }
  return lines.map((line) => line.replace(numberedLine, '')).join('\n');
}

/** The non-empty lines of a command's output, trimmed. */
export function outputLines(outcome: ToolOutcome): readonly string[] {
  return outcome.text
    .replace(systemReminder, '')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
}
