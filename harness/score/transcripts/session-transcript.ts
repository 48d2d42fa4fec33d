/**
 * What every transcript reader produces, whatever the format: the seated
 * event list (every tool call in order, a subagent's calls marked with the
 * dispatch that started its seat), the final reply, the models, how the
 * session ended, the subagent seats, and what could not be read. A leaf
 * module of types: the readers (this folder) write these, scoring and
 * `redgreen transcript` read them.
 *
 * Tool calls keep Claude Code's names where a format's own tool does the
 * same thing, so one check reads every format: a shell command is `Bash`
 * with its `command`, a skill tool call is `Skill` with its `skill`, a
 * subagent start is `Agent` and a message to a live one `SendMessage`;
 * `recordedAs` keeps the format's own name.
 */
import type { RunnerStatus } from '../runner-status.js';
import type { ToolCall } from '../tool-call.js';
import type { RecordedQuestion, RecordedTurn } from '../user-question-record.js';

/** The formats read, by the name `redgreen transcript` and `check --json` print. */
export const TRANSCRIPT_FORMATS = [
  'claude-code-stream-json',
  'redgreen',
  'claude-code-session',
  'cursor-stream-json',
  'codex-rollout',
  'atif-1.4',
  'atif-1.5',
  'atif-1.6',
  'atif-1.7',
] as const;
export type TranscriptFormat = (typeof TRANSCRIPT_FORMATS)[number];

import type { MalformedLine } from './malformed-line.js';

export type { MalformedLine };

export interface TranscriptSeat {
  /** The tool_use id of the controller's dispatch that created the seat (`agent:<id>` / `thread:<id>` when the files hold no dispatch). */
  readonly dispatch: string;
  readonly agentId: string | null;
  readonly tool: string;
  /** The dispatch's subagent_type, else the agent type the engine recorded. */
  readonly subagentType: string | null;
  readonly model: string | null;
  /**
   * The model the seat's requests were answered by, as the API reported it
   * (its latest reply's model), or null when it made none.
   */
  readonly modelUsed: string | null;
  readonly description: string | null;
  /** The SendMessage calls that resumed it, in order (tool_use ids). */
  readonly resumes: readonly string[];
  /** How many tool calls the seat made; null when the files given do not hold them. */
  readonly toolCalls: number | null;
  /** Why its calls are unknown (toolCalls null): which file would hold them. */
  readonly unknownWhy?: string | undefined;
  /** `recorded`: from the transcript's own seat records; `derived`: from the dispatch's call. */
  readonly source: 'recorded' | 'derived';
}

export interface SessionTranscript {
  readonly format: TranscriptFormat;
  /** The files read, in the order given (the first is the one named; discovered ones follow). */
  readonly files: readonly string[];
  /** Every tool call in order; `parentToolUseId` non-null for calls inside a subagent. */
  readonly toolCalls: readonly ToolCall[];
  /** The session's final reply, when it has one. */
  readonly reply: string | undefined;
  /** The controller's model as the transcript reports it, when it names one. */
  readonly model: string | undefined;
  /** Every model the transcript's replies name, controller's first, each once. */
  readonly models: readonly string[];
  /** The session's prompt (its first user message), when the transcript holds it. */
  readonly prompt: string | undefined;
  /** The session's working directory, when the transcript names it. */
  readonly cwd?: string | undefined;
  /** Lines that could not be read (never fatal once the format is known): calls may be missing. */
  readonly malformed: readonly MalformedLine[];
  /**
   * How the session ended, as the transcript records it: completed, or
   * indeterminate (it hit a limit, the engine reported an error, or the
   * transcript does not show it finished), as the runner decides for its own reps.
   */
  readonly ending: RunnerStatus;
  /** False when the files hold only subagents' logs, so the controller's calls are unknown. */
  readonly controllerRecorded: boolean;
  /** The subagent seats the controller started. */
  readonly seats: readonly TranscriptSeat[];
  /**
   * The questions a scripted user was asked, with its answers
   * (user-question-record.ts); undefined when the transcript records no
   * scripted user (a session without one, or run elsewhere).
   */
  readonly questions: readonly RecordedQuestion[] | undefined;
  /** The conversation turns after the first (user-question-record.ts); undefined when not recorded. */
  readonly turns?: readonly RecordedTurn[] | undefined;
}

/** The seat name of the controller in `unknownSeatsOf`. */
export const CONTROLLER = 'controller';

/**
 * The seats whose calls the files given do not hold: `controller`, and the
 * dispatch of each subagent seat whose calls are unknown. A check that looks
 * at one of these seats cannot be decided by an absence.
 */
export function unknownSeatsOf(transcript: SessionTranscript): string[] {
  return [
    ...(transcript.controllerRecorded ? [] : [CONTROLLER]),
    ...transcript.seats.filter((seat) => seat.toolCalls === null).map((seat) => seat.dispatch),
  ];
}
