/**
 * Claude Code stream-json (`claude -p --output-format stream-json
 * --verbose`, and what redgreen's claude-code backend records) and
 * redgreen's own transcript.jsonl (the messages backend: the same message
 * shapes, its `system/init` line naming the redgreen engine). Recognised by
 * the SDK's message envelope (showsStreamJson).
 *
 * The messages are read by claude-messages.ts (calls deduplicated by id,
 * calls inside subagents marked by `parentToolUseId`, unreadable lines
 * listed rather than fatal), the seats by claude-message-seats.ts, the
 * scripted user's records by user-question-record.ts. The model is the init
 * line's, else the one the first reply names.
 */
import { ok } from '../../lib/result.js';
import type { RunnerStatus } from '../runner-status.js';
import { isInsideSubagent, type ToolCall } from '../tool-call.js';
import { readQuestions } from '../user-question-record.js';
import { readSeats } from './claude-message-seats.js';
import { readTranscript, type TranscriptRead } from './claude-messages.js';
import { type ContentSample, type FormatReader, recordOf, sampleOf } from './format-reader.js';
import type { SessionTranscript, TranscriptFormat } from './session-transcript.js';

/** The init line, when the sample has one. */
function initOf(sample: ContentSample): Record<string, unknown> | undefined {
  return sample.lines
    .map(recordOf)
    .find((line) => line?.type === 'system' && line.subtype === 'init');
}

function isRedgreen(init: Record<string, unknown> | undefined): boolean {
  return typeof init?.engine === 'string' && init.engine.startsWith('redgreen-messages');
}

/**
 * Whether the sample shows the Agent SDK's message envelope: an init line
 * naming the Claude Code version, its tools or the redgreen engine; messages
 * carrying `parent_tool_use_id`; or a final result counting its turns.
 */
function showsStreamJson(sample: ContentSample): boolean {
  const init = initOf(sample);
  if (
    init !== undefined &&
    (typeof init.claude_code_version === 'string' || Array.isArray(init.tools) || isRedgreen(init))
  ) {
    return true;
  }
  return sample.lines.some((value) => {
    const line = recordOf(value);
    if (line === undefined || 'isSidechain' in line) return false;
    if (line.type === 'result') return typeof line.num_turns === 'number';
    return (line.type === 'assistant' || line.type === 'user') && 'parent_tool_use_id' in line;
  });
}

/** Tools through which a controller dispatches a subagent (a resume is a dispatch too). */
const DISPATCH_TOOLS: readonly string[] = ['Agent', 'Task', 'SendMessage'];

/**
 * How a stream-json session ended, from its final `result` message: success
 * without an error is completed; a stop by a hook after the controller
 * dispatched (a first-dispatch capture) is completed whatever the engine did
 * next; anything else, or no result at all, is indeterminate.
 */
function ending(read: TranscriptRead): RunnerStatus {
  const { result } = read;
  if (result === undefined) {
    return {
      kind: 'indeterminate',
      stage: 'engine',
      reason: 'the transcript has no final result message, so the session may not have finished',
    };
  }
  const dispatched = read.toolCalls.some(
    (call: ToolCall) => !isInsideSubagent(call) && DISPATCH_TOOLS.includes(call.name),
  );
  if (result.terminalReason === 'hook_stopped' && dispatched) return { kind: 'completed' };
  if (result.subtype === 'success' && !result.isError) return { kind: 'completed' };
  const stage =
    result.subtype === 'success' || result.subtype === 'error_during_execution' ? 'api' : 'limit';
  const terminal =
    result.terminalReason === undefined ? '' : `, terminal_reason ${result.terminalReason}`;
  return {
    kind: 'indeterminate',
    stage,
    reason: `the session ended with ${result.subtype}${result.isError ? ' (is_error)' : ''}${terminal}`,
  };
}

/** Read one stream-json or transcript.jsonl text. */
export function readStreamJson(text: string, name: string): SessionTranscript {
  const read = readTranscript(text);
  const format: TranscriptFormat = isRedgreen(initOf(sampleOf(text)))
    ? 'redgreen'
    : 'claude-code-stream-json';
  const seats = readSeats(text, read.toolCalls, format === 'claude-code-stream-json');
  const questions = readQuestions(text);
  const model = read.model ?? read.replyModel;
  const models = [
    ...new Set(
      [
        model,
        ...read.toolCalls.map((call) => call.model),
        ...seats.seats.map((s) => s.modelUsed),
      ].filter((one): one is string => typeof one === 'string' && one !== ''),
    ),
  ];
  return {
    format,
    files: [name],
    toolCalls: read.toolCalls,
    reply: read.reply,
    model,
    models,
    prompt: read.prompt,
    cwd: read.cwd,
    malformed: [...read.malformed, ...seats.malformed, ...questions.malformed].sort(
      (a, b) => a.line - b.line,
    ),
    ending: ending(read),
    controllerRecorded: true,
    seats: seats.seats,
    questions: questions.questions,
    turns: questions.turns,
  };
}

export const streamJsonReader: FormatReader = {
  label: "Claude Code stream-json or redgreen's transcript.jsonl",
  formats: ['claude-code-stream-json', 'redgreen'],
  recognises: showsStreamJson,
  multiFile: false,
  read: (sources) => {
    const [source] = sources;
    if (source === undefined) throw new Error('stream-json: no source given');
    return ok(readStreamJson(source.text, source.name));
  },
};
