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
 *   them). Each agent step's tool_calls become tool calls under their own
 *   names (a call named Agent or Task stays one), with the observation that
 *   answers each as its output. ATIF keeps subagents in separate
 *   trajectories, so every call read from one is the controller's.
 *
 * Both JSON-lines formats go through readTranscript (transcript-reader.ts):
 * calls deduplicated by id, calls inside subagents marked by
 * `parentToolUseId`, unreadable lines listed rather than fatal. Input that is
 * none of the three is an InputError naming the source and what was expected.
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { type InputError, inputError } from '../lib/input-error.js';
import { err, ok, type Result } from '../lib/result.js';
import type { RunnerStatus } from './score-rep.js';
import { isInsideSubagent, type ToolCall } from './tool-call.js';
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
  /** Lines of a JSON-lines transcript that could not be read (never fatal once the format is known). */
  readonly malformed: readonly MalformedLine[];
  /**
   * How the session ended, as the transcript records it: completed, or
   * indeterminate (it hit a limit, the engine reported an error, or the
   * transcript has no final result), as the runner decides for its own reps.
   */
  readonly ending: RunnerStatus;
  /** The subagent seats the controller started (transcript-seats.ts); none read from ATIF yet. */
  readonly seats: readonly TranscriptSeat[];
  /**
   * The questions a scripted user was asked, with its answers
   * (user-question-record.ts); undefined when the transcript records no
   * scripted user (a session without one, or run elsewhere).
   */
  readonly questions: readonly RecordedQuestion[] | undefined;
}

const EXPECTED =
  'Claude Code stream-json or redgreen transcript.jsonl (JSON lines of system/assistant/user/result messages), or one ATIF-v1.4 JSON document';
const ATIF_VERSION = 'ATIF-v1.4';
const KNOWN_MESSAGE_TYPES = new Set(['system', 'assistant', 'user', 'result']);

/** Detect the format of a transcript's text and read it. `source` names it in errors. */
export function readSessionTranscript(
  text: string,
  source = 'transcript',
): Result<SessionTranscript, InputError> {
  const content = text.replace(/^\uFEFF/, '');
  if (content.trim() === '') {
    return err(inputError(source, 'is empty', `give a ${EXPECTED}`));
  }
  const whole = parseJson(content);
  if (whole !== undefined && typeof whole === 'object' && whole !== null) {
    if (!Array.isArray(whole) && 'schema_version' in whole) return readAtif(whole, source);
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
  return readSessionTranscript(text, file);
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

const atifToolCallSchema = z.looseObject({
  tool_call_id: z.string().min(1),
  function_name: z.string().min(1),
  arguments: z.record(z.string(), z.unknown()),
});

const atifStepSchema = z.looseObject({
  step_id: z.number().int().min(1),
  source: z.enum(['system', 'user', 'agent']),
  message: z.string(),
  tool_calls: z.array(atifToolCallSchema).nullish(),
  observation: z
    .looseObject({
      results: z.array(
        z.looseObject({
          source_call_id: z.string().nullish(),
          content: z.string().nullish(),
        }),
      ),
    })
    .nullish(),
  extra: z.record(z.string(), z.unknown()).nullish(),
});

const atifSchema = z.looseObject({
  schema_version: z.string(),
  extra: z.unknown().optional(),
  session_id: z.string().min(1),
  agent: z.looseObject({ name: z.string(), model_name: z.string().nullish() }),
  steps: z.array(atifStepSchema).min(1),
});

type AtifStep = z.infer<typeof atifStepSchema>;

function readAtif(document: object, source: string): Result<SessionTranscript, InputError> {
  const version = (document as { schema_version?: unknown }).schema_version;
  if (version !== ATIF_VERSION) {
    return err(
      inputError(
        source,
        `is ATIF ${typeof version === 'string' ? version : '(no version)'}, not ${ATIF_VERSION}`,
        `give an ${ATIF_VERSION} trajectory (redgreen export --atif writes them)`,
      ),
    );
  }
  const parsed = atifSchema.safeParse(document);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue === undefined ? '' : `${issue.path.join('.')}: ${issue.message}`;
    return err(
      inputError(
        source,
        `is not a readable ${ATIF_VERSION} trajectory (${where})`,
        'give a trajectory that validates against schemas/atif-v1.4.schema.json',
      ),
    );
  }
  const toolCalls: ToolCall[] = [];
  const seen = new Set<string>();
  for (const step of parsed.data.steps) {
    if (step.source !== 'agent') continue;
    for (const call of step.tool_calls ?? []) {
      if (seen.has(call.tool_call_id)) continue;
      seen.add(call.tool_call_id);
      toolCalls.push(atifToolCall(step, call));
    }
  }
  const lastWords = parsed.data.steps
    .filter((step) => step.source === 'agent' && step.message.trim() !== '')
    .at(-1)?.message;
  const ending = atifEnding(parsed.data);
  const firstWords = parsed.data.steps.find(
    (step) => step.source === 'user' && step.message.trim() !== '',
  )?.message;
  return ok({
    format: 'atif-1.4',
    toolCalls,
    reply: lastWords,
    model: parsed.data.agent.model_name ?? undefined,
    prompt: firstWords,
    malformed: [],
    ending,
    seats: [],
    questions: undefined,
  });
}

const recordedStatusSchema = z.looseObject({
  kind: z.enum(['completed', 'indeterminate']),
  stage: z.string().optional(),
  reason: z.string().optional(),
});

/**
 * How an ATIF session ended. ATIF has no final result message: a status the
 * producer recorded in the root `extra.status` (redgreen's export writes the
 * runner's) decides; an agent step carrying an `extra.engine_error`, or a
 * trajectory that ends on a tool call nothing answered, did not finish.
 */
function atifEnding(document: z.infer<typeof atifSchema>): RunnerStatus {
  const extra = (document as { extra?: unknown }).extra;
  const recorded =
    typeof extra === 'object' && extra !== null
      ? recordedStatusSchema.safeParse((extra as { status?: unknown }).status)
      : undefined;
  if (recorded?.success === true && recorded.data.kind === 'indeterminate') {
    return {
      kind: 'indeterminate',
      stage: recorded.data.stage ?? 'session',
      reason: recorded.data.reason ?? 'the trajectory records the session as indeterminate',
    };
  }
  const failed = document.steps.find(
    (step) => step.extra?.engine_error !== undefined && step.extra.engine_error !== null,
  );
  if (failed !== undefined) {
    return {
      kind: 'indeterminate',
      stage: 'engine',
      reason: `step ${failed.step_id} records an engine error: ${String(failed.extra?.engine_error).split('\n')[0]}`,
    };
  }
  const last = document.steps.at(-1);
  const unanswered = (last?.tool_calls ?? []).filter(
    (toolCall) =>
      !(last?.observation?.results ?? []).some(
        (observed) => observed.source_call_id === toolCall.tool_call_id,
      ),
  );
  if (last !== undefined && unanswered.length > 0) {
    return {
      kind: 'indeterminate',
      stage: 'engine',
      reason: `the trajectory ends on a tool call nothing answered (${unanswered[0]?.function_name}), so the session may not have finished`,
    };
  }
  return { kind: 'completed' };
}

/**
 * One ATIF tool call, with its observation as output. ATIF has no error flag:
 * a call the step's `extra.tool_errors` lists (as redgreen's export writes
 * them) is marked isError; for any other call whether it failed is unknown.
 */
function atifToolCall(step: AtifStep, call: z.infer<typeof atifToolCallSchema>): ToolCall {
  const outputs = (step.observation?.results ?? [])
    .filter((result) => result.source_call_id === call.tool_call_id)
    .map((result) => result.content ?? '');
  const errors = step.extra?.tool_errors;
  const failed = Array.isArray(errors) && errors.includes(call.tool_call_id);
  return {
    id: call.tool_call_id,
    name: call.function_name,
    input: call.arguments,
    parentToolUseId: null,
    ...(outputs.length === 0 ? {} : { output: outputs.join('\n') }),
    ...(failed ? { isError: true } : {}),
  };
}
