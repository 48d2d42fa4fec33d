/**
 * A recorded session as a replay brain reads it: the controller's tool calls
 * in order, each with the output it got, and the final reply; the working
 * directory and prompt it was given, when known. Built from the readers'
 * common output (harness/score/transcripts/), so a replay reads
 * every format `redgreen check` reads. Calls inside subagents are not part
 * of it (a subagent's requests are not replayed), nor calls a first-dispatch
 * capture refused as "Not run." (the session never made them).
 */

import { callRan, isInsideSubagent } from '../../score/tool-call.js';
import type { SessionTranscript } from '../../score/transcripts/session-transcript.js';

export interface RecordedCall {
  readonly name: string;
  readonly input: Readonly<Record<string, unknown>>;
  readonly output: string;
  readonly isError: boolean;
}

export interface Recording {
  /** Where it was read from, for messages. */
  readonly source: string;
  readonly format: string;
  readonly cwd: string | undefined;
  /** The prompt it was given: the transcript's own, or one recorded beside it. */
  readonly prompt: string | undefined;
  readonly calls: readonly RecordedCall[];
  readonly reply: string | undefined;
  /** How many subagent seats the recorded controller started (their sessions are not replayed). */
  readonly seats: number;
}

export function recordingOf(
  transcript: SessionTranscript,
  source: string,
  prompt?: string,
): Recording {
  const calls = transcript.toolCalls
    .filter((call) => !isInsideSubagent(call) && callRan(call))
    .map((call) => ({
      name: call.name,
      input:
        typeof call.input === 'object' && call.input !== null && !Array.isArray(call.input)
          ? (call.input as Record<string, unknown>)
          : {},
      output: call.output ?? '',
      isError: call.isError === true,
    }));
  return {
    source,
    format: transcript.format,
    cwd: transcript.cwd,
    prompt: prompt ?? transcript.prompt,
    calls,
    reply: transcript.reply,
    seats: transcript.seats.length,
  };
}
