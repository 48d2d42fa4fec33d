/**
 * Cursor CLI stream-json (`cursor-agent --print --output-format
 * stream-json`): a Claude-like envelope (`system/init`, `user`, `assistant`,
 * `result`) whose tool calls are top-level `tool_call` events, `started`
 * then `completed`, each holding one `<kind>ToolCall` with its `args` (and,
 * once completed, its `result`). Recognised by those events, or by the
 * `model_call_id` Cursor puts on its assistant messages.
 *
 * A shell call is read as `Bash` with its command, a read as `Read`, a write
 * as `Write`, an edit as `Edit` (path as `file_path`); any other kind keeps
 * its own name without the `ToolCall` suffix, with its args as input.
 * Cursor runs no subagents here: every call is the controller's. The reply
 * is the assistant text after the last tool call (Cursor's `result` joins
 * every assistant message), else the result's text.
 */
import { ok } from '../../lib/result.js';
import type { RunnerStatus } from '../runner-status.js';
import type { ToolCall } from '../tool-call.js';
import { contentText } from './content-text.js';
import { type FormatReader, jsonLines, recordOf } from './format-reader.js';
import type { MalformedLine, SessionTranscript } from './session-transcript.js';
import { unreadCallLine } from './unread-calls.js';

/** Cursor's tool kinds that do what a Claude Code tool does, and how its args map. */
const CLAUDE_NAMES: Readonly<
  Record<string, { name: string; input: (args: Record<string, unknown>) => unknown }>
> = {
  shellToolCall: { name: 'Bash', input: (args) => ({ ...args, command: args.command }) },
  readToolCall: { name: 'Read', input: (args) => ({ ...args, file_path: args.path }) },
  writeToolCall: { name: 'Write', input: (args) => ({ ...args, file_path: args.path }) },
  editToolCall: { name: 'Edit', input: (args) => ({ ...args, file_path: args.path }) },
};

function isToolCallEvent(line: Record<string, unknown> | undefined): boolean {
  return line?.type === 'tool_call' && recordOf(line.tool_call) !== undefined;
}

/** The one `<kind>ToolCall` of a tool_call event. */
function kindOf(event: Record<string, unknown>): { kind: string; body: Record<string, unknown> } {
  const toolCall = recordOf(event.tool_call) ?? {};
  const [kind, body] = Object.entries(toolCall)[0] ?? ['unknown', {}];
  return { kind, body: recordOf(body) ?? {} };
}

/** A completed call's output and whether it failed. */
function resultOf(result: unknown): { output?: string; isError?: boolean } {
  const record = recordOf(result);
  if (record === undefined) return {};
  const success = recordOf(record.success);
  if (success !== undefined) {
    const exitCode = success.exitCode;
    const streams = [success.stdout, success.stderr].filter(
      (part): part is string => typeof part === 'string' && part !== '',
    );
    return {
      output: streams.length > 0 ? streams.join('\n') : JSON.stringify(success),
      ...(typeof exitCode === 'number' && exitCode !== 0 ? { isError: true } : {}),
    };
  }
  return { output: JSON.stringify(record), isError: true };
}

export function readCursorStreamJson(text: string, name: string): SessionTranscript {
  const calls = new Map<string, ToolCall>();
  const malformed: MalformedLine[] = [];
  let model: string | undefined;
  let cwd: string | undefined;
  let prompt: string | undefined;
  let textsSinceCall: string[] = [];
  let result: Record<string, unknown> | undefined;
  for (const { line, value, error } of jsonLines(text)) {
    const record = recordOf(value);
    if (record === undefined || typeof record.type !== 'string') {
      malformed.push({
        line,
        problem: error === undefined ? 'not an event object with a "type"' : `not JSON (${error})`,
      });
      continue;
    }
    if (record.type === 'system' && record.subtype === 'init') {
      if (typeof record.model === 'string' && record.model !== '') model = record.model;
      if (typeof record.cwd === 'string' && record.cwd !== '') cwd = record.cwd;
    } else if (record.type === 'user') {
      const said = contentText(recordOf(record.message)?.content, { separator: '' });
      if (prompt === undefined && said.trim() !== '') prompt = said;
    } else if (record.type === 'assistant') {
      // Cursor's calls are tool_call events; tool_use blocks are another tool's (Claude's) lines.
      const unread = unreadCallLine(record);
      if (unread !== undefined) malformed.push({ line, problem: unread });
      const said = contentText(recordOf(record.message)?.content, { separator: '' });
      if (said.trim() !== '') textsSinceCall.push(said);
    } else if (isToolCallEvent(record)) {
      const id = typeof record.call_id === 'string' ? record.call_id : `line-${line}`;
      const { kind, body } = kindOf(record);
      const args = recordOf(body.args) ?? {};
      const known = CLAUDE_NAMES[kind];
      const call: ToolCall = calls.get(id) ?? {
        id,
        name: known?.name ?? kind.replace(/ToolCall$/, ''),
        input: known === undefined ? args : known.input(args),
        parentToolUseId: null,
        ...(known === undefined ? {} : { recordedAs: kind }),
        ...(model === undefined ? {} : { model }),
      };
      calls.set(id, record.subtype === 'completed' ? { ...call, ...resultOf(body.result) } : call);
      textsSinceCall = [];
    } else if (record.type === 'result') {
      result = record;
    } else {
      const unread = unreadCallLine(record);
      if (unread !== undefined) malformed.push({ line, problem: unread });
    }
  }
  const resultText = typeof result?.result === 'string' ? result.result : undefined;
  const reply = textsSinceCall.length > 0 ? textsSinceCall.join('\n\n') : resultText;
  return {
    format: 'cursor-stream-json',
    files: [name],
    toolCalls: [...calls.values()],
    reply,
    model,
    models: model === undefined ? [] : [model],
    prompt,
    cwd,
    malformed,
    ending: endingOf(result),
    controllerRecorded: true,
    seats: [],
    questions: undefined,
  };
}

function endingOf(result: Record<string, unknown> | undefined): RunnerStatus {
  if (result === undefined) {
    return {
      kind: 'indeterminate',
      stage: 'engine',
      reason: 'the transcript has no final result event, so the session may not have finished',
    };
  }
  if (result.subtype === 'success' && result.is_error !== true) return { kind: 'completed' };
  return {
    kind: 'indeterminate',
    stage: 'engine',
    reason: `the session ended with ${String(result.subtype)}${result.is_error === true ? ' (is_error)' : ''}`,
  };
}

export const cursorStreamJsonReader: FormatReader = {
  label: 'Cursor CLI stream-json',
  formats: ['cursor-stream-json'],
  recognises: (sample) =>
    sample.lines.some((value) => {
      const line = recordOf(value);
      return isToolCallEvent(line) || (line?.type === 'assistant' && 'model_call_id' in line);
    }),
  multiFile: false,
  read: (sources) => {
    const [source] = sources;
    if (source === undefined) throw new Error('cursor: no source given');
    return ok(readCursorStreamJson(source.text, source.name));
  },
};
