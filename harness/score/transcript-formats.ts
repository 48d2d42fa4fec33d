/**
 * Reading a session another tool ran (or redgreen did) into what scoring
 * needs: its tool calls and its final reply. The format is detected from the
 * content:
 *
 * - `claude-code-stream-json`: JSON lines of Claude Code messages, as
 *   `claude -p --output-format stream-json --verbose` prints them (the Agent
 *   SDK yields the same messages, and redgreen's claude-code backend records
 *   exactly those in transcript.jsonl);
 * - `redgreen`: JSON lines written by redgreen's own `messages` backend (the
 *   same message shapes; its `system/init` line names the redgreen engine);
 * - `atif-1.4`: one ATIF v1.4 JSON document (`redgreen export --atif` writes
 *   them), read by transcript-atif.ts: the controller's calls, and each
 *   subagent trajectory its dispatch results link to, read back as a seat.
 *
 * Both JSON-lines formats go through readTranscript (transcript-reader.ts):
 * calls deduplicated by id, calls inside subagents marked by
 * `parentToolUseId`, unreadable lines listed rather than fatal. Input that is
 * none of the three is an InputError naming the source and what was expected.
 */
import { readFile } from 'node:fs/promises';
import { type InputError, inputError } from '../lib/input-error.js';
import { err, ok, type Result } from '../lib/result.js';
import { readAtifSubTrajectories } from './atif-subtrajectories.js';
import type { RunnerStatus } from './score-rep.js';
import { isInsideSubagent, type ToolCall } from './tool-call.js';
import { readAtif } from './transcript-atif.js';
import { type MalformedLine, readTranscript, type TranscriptRead } from './transcript-reader.js';
import { readSeats, type TranscriptSeat } from './transcript-seats.js';
import { type RecordedQuestion, readQuestions } from './user-question-record.js';

export type TranscriptFormat = 'claude-code-stream-json' | 'redgreen' | 'atif-1.4';

export interface SessionTranscript {
  readonly format: TranscriptFormat;
  /** Every tool call in order; `parentToolUseId` non-null for calls inside a subagent. */
  readonly toolCalls: readonly ToolCall[];
  /** The session's final reply, when it has one. */
  readonly reply: string | undefined;
  /** The model the session reports, when it names one. */
  readonly model: string | undefined;
  /** The session's prompt (its first user message), when the transcript holds it. */
  readonly prompt: string | undefined;
  /** The session's working directory, when the transcript names it (its init message). */
  readonly cwd?: string | undefined;
  /** Lines of a JSON-lines transcript that could not be read (never fatal once the format is known). */
  readonly malformed: readonly MalformedLine[];
  /**
   * How the session ended, as the transcript records it: completed, or
   * indeterminate (it hit a limit, the engine reported an error, or the
   * transcript has no final result), as the runner decides for its own reps.
   */
  readonly ending: RunnerStatus;
  /** The subagent seats the controller started (transcript-seats.ts; from ATIF: transcript-atif.ts). */
  readonly seats: readonly TranscriptSeat[];
  /**
   * The questions a scripted user was asked, with its answers
   * (user-question-record.ts); undefined when the transcript records no
   * scripted user (a session without one, or run elsewhere).
   */
  readonly questions: readonly RecordedQuestion[] | undefined;
}

export const EXPECTED =
  'Claude Code stream-json or redgreen transcript.jsonl (JSON lines of system/assistant/user/result messages), or one ATIF-v1.4 JSON document';
const KNOWN_MESSAGE_TYPES = new Set(['system', 'assistant', 'user', 'result']);

/** Detect the format of a transcript's text and read it. `source` names it in errors. */
export function readSessionTranscript(
  text: string,
  source = 'transcript',
  options: {
    /** An ATIF trajectory's subagent trajectories, by the trajectory_path its links name (atif-subtrajectories.ts). */
    readonly subTrajectories?: ReadonlyMap<string, string>;
  } = {},
): Result<SessionTranscript, InputError> {
  const content = text.replace(/^\uFEFF/, '');
  if (content.trim() === '') {
    return err(inputError(source, 'is empty', `give a ${EXPECTED}`));
  }
  const whole = parseJson(content);
  if (whole !== undefined && typeof whole === 'object' && whole !== null) {
    if (!Array.isArray(whole) && 'schema_version' in whole) {
      return readAtif(whole, source, options.subTrajectories ?? new Map());
    }
    if (Array.isArray(whole) || !('type' in whole)) {
      return err(
        inputError(
          source,
          `is a JSON ${Array.isArray(whole) ? 'array' : 'object'} in no format redgreen reads`,
          `give a ${EXPECTED}`,
        ),
      );
    }
  }
  return readJsonLines(content, source);
}

/** Read a transcript file of any of the three formats. */
export async function readSessionTranscriptFile(
  file: string,
): Promise<Result<SessionTranscript, InputError>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return err(
      inputError(
        file,
        code === 'ENOENT' ? 'no such transcript' : `cannot be read (${code ?? String(error)})`,
        `give the path of a ${EXPECTED}`,
      ),
    );
  }
  return readSessionTranscript(text, file, {
    subTrajectories: await readAtifSubTrajectories(text, file),
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function readJsonLines(text: string, source: string): Result<SessionTranscript, InputError> {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  const origin = originOf(lines);
  const read = readTranscript(text);
  if (origin === undefined) {
    const first = read.malformed[0];
    const why =
      first === undefined
        ? 'holds no system, assistant, user or result message'
        : `has no readable message (line ${first.line}: ${first.problem})`;
    return err(inputError(source, why, `give a ${EXPECTED}`));
  }
  const seats = readSeats(text, read.toolCalls, origin === 'claude-code-stream-json');
  const questions = readQuestions(text);
  return ok({
    format: origin,
    toolCalls: read.toolCalls,
    reply: read.reply,
    model: read.model,
    prompt: read.prompt,
    cwd: read.cwd,
    malformed: [...read.malformed, ...seats.malformed, ...questions.malformed].sort(
      (a, b) => a.line - b.line,
    ),
    ending: jsonLinesEnding(read),
    seats: seats.seats,
    questions: questions.questions,
  });
}

/** Tools through which a controller dispatches a subagent (a resume is a dispatch too). */
const DISPATCH_TOOLS: readonly string[] = ['Agent', 'Task', 'SendMessage'];

/**
 * How a JSON-lines session ended, from its final `result` message: success
 * without an error is completed; a stop by a hook after the controller
 * dispatched (a first-dispatch capture) is completed whatever the engine did
 * next; anything else, or no result at all, is indeterminate.
 */
function jsonLinesEnding(read: TranscriptRead): RunnerStatus {
  const { result } = read;
  if (result === undefined) {
    return {
      kind: 'indeterminate',
      stage: 'engine',
      reason: 'the transcript has no final result message, so the session may not have finished',
    };
  }
  const dispatched = read.toolCalls.some(
    (call) => !isInsideSubagent(call) && DISPATCH_TOOLS.includes(call.name),
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

/**
 * Which JSON-lines format the lines are: `redgreen` when the `system/init`
 * line names redgreen's own messages engine, `claude-code-stream-json` for
 * any other transcript holding a message of a known type, undefined when no
 * line holds one. Stops at the init line (normally the first).
 */
function originOf(lines: readonly string[]): TranscriptFormat | undefined {
  let sawMessage = false;
  for (const line of lines) {
    const message = parseJson(line);
    if (typeof message !== 'object' || message === null) continue;
    const { type, subtype, engine } = message as Record<string, unknown>;
    if (typeof type !== 'string' || !KNOWN_MESSAGE_TYPES.has(type)) continue;
    sawMessage = true;
    if (type === 'system' && subtype === 'init') {
      return typeof engine === 'string' && engine.startsWith('redgreen-messages')
        ? 'redgreen'
        : 'claude-code-stream-json';
    }
  }
  return sawMessage ? 'claude-code-stream-json' : undefined;
}
