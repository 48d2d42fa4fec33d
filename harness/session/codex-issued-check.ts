/**
 * The calls inside a spawned thread, checked against the model server's own
 * record of what it issued on that thread (model-server/responses/
 * issued-calls.ts). Codex's `--json` stream reports the root thread only
 * (codex-stream.ts checks those calls), so a seat's calls come from its
 * thread's rollout, a file the session's commands can write; the server,
 * which decided every call it sent, keeps its record in redgreen's process.
 *
 * - a seat's call the server never issued on that thread (by `call_id`) is
 *   dropped, never counted, and named in `dropped`;
 * - a seat's call whose name or arguments are not what the server issued
 *   under that id (each read as the rollout reader reads a function_call)
 *   is dropped too, and is a `problem`: the rep is indeterminate;
 * - a call the server issued on a seat's thread that the rollout does not
 *   hold is a `problem`, except when redgreen ended the engine itself (a
 *   capture: the thread was cut off, its calls may be unwritten);
 * - no record (the server could not be asked) makes every seat call
 *   unverified: each is dropped and the rep is indeterminate when any was
 *   there, never read as written.
 *
 * The root thread's calls (already kept to what the --json stream reports)
 * are checked too when the stream named the root thread: one the server
 * never issued there, or issued otherwise, is left out and is a `problem`
 * (the stream itself then reports a call the model never made: a command
 * can write into the engine's stdout by attaching to it, README "The codex
 * backend"). A root call the server issued and the rollout lacks is the
 * stream check's to find (at a capture the engine is ended before it runs
 * the rest).
 *
 * Seats stay as codex-stream.ts kept them (a streamed spawn started each);
 * a seat's call count is recounted. Pure.
 */
import { isDeepStrictEqual } from 'node:util';
import type { IssuedCall, IssuedCalls } from '../model-server/responses/issued-calls.js';
import { stringField, type ToolCall } from '../score/tool-call.js';
import { functionCall } from '../score/transcripts/codex-tools.js';
import type { SessionTranscript } from '../score/transcripts/session-transcript.js';

export type ServerRecord =
  | { readonly kind: 'record'; readonly issued: IssuedCalls }
  | { readonly kind: 'unavailable'; readonly why: string };

export interface CheckedAgainstIssued {
  readonly transcript: SessionTranscript;
  /** Seat calls left out, each with why. */
  readonly dropped: readonly string[];
  /** Disagreements with the server's record: the rep is indeterminate. */
  readonly problems: readonly string[];
}

function describe(call: ToolCall): string {
  const command = stringField(call.input, 'command');
  const what = command === undefined ? '' : ` (${command.slice(0, 80)})`;
  return `${call.id} ${call.recordedAs ?? call.name}${what}`;
}

/** Whether the rollout's call is the issued one, as the rollout reader would read the issue. */
function sameCall(call: ToolCall, issued: IssuedCall): boolean {
  const read = functionCall(issued.name, issued.namespace, issued.arguments);
  return (
    read.name === call.name &&
    (read.recordedAs ?? undefined) === (call.recordedAs ?? undefined) &&
    isDeepStrictEqual(read.input, call.input)
  );
}

/** The transcript's seat calls kept to what the server issued on each seat's thread. */
export function checkedAgainstIssued(
  read: SessionTranscript,
  record: ServerRecord,
  options: {
    readonly endedByRedgreen: boolean;
    /** The root thread's id, as the --json stream named it (`thread.started`). */
    readonly rootThread?: string | undefined;
  },
): CheckedAgainstIssued {
  const dropped: string[] = [];
  const problems: string[] = [];
  const threadOf = new Map(read.seats.map((seat) => [seat.dispatch, seat.agentId]));
  const issuedOn = new Map<string, Map<string, IssuedCall>>();
  if (record.kind === 'record') {
    for (const { thread, calls } of record.issued.threads) {
      if (thread !== null) issuedOn.set(thread, new Map(calls.map((call) => [call.call_id, call])));
    }
  }
  const seen = new Map<string, Set<string>>();
  const rootCallIssued = (call: ToolCall): boolean => {
    const root = options.rootThread;
    if (record.kind !== 'record' || root === undefined) return true;
    const issued = issuedOn.get(root)?.get(call.id);
    if (issued !== undefined && sameCall(call, issued)) return true;
    const why =
      issued === undefined
        ? `the model server issued no such call on the root thread ${root}`
        : 'not the call the model server issued under that id';
    dropped.push(`${describe(call)}: ${why}`);
    problems.push(
      `the root thread's call ${describe(call)}, which the --json stream reports: ${why}`,
    );
    return false;
  };
  let unverified = 0;
  const toolCalls = read.toolCalls.filter((call) => {
    const dispatch = call.parentToolUseId ?? null;
    if (dispatch === null) return rootCallIssued(call);
    const thread = threadOf.get(dispatch) ?? null;
    if (record.kind === 'unavailable') {
      unverified += 1;
      dropped.push(`${describe(call)}: unverified (${record.why})`);
      return false;
    }
    const issued = thread === null ? undefined : issuedOn.get(thread)?.get(call.id);
    if (thread !== null) seen.set(thread, (seen.get(thread) ?? new Set()).add(call.id));
    if (issued === undefined) {
      dropped.push(
        `${describe(call)}: the model server issued no such call on thread ${thread ?? dispatch}`,
      );
      return false;
    }
    if (!sameCall(call, issued)) {
      dropped.push(`${describe(call)}: not the call the model server issued under that id`);
      problems.push(
        `thread ${thread}'s rollout call ${describe(call)} is not what the model server issued (${issued.name} ${issued.arguments.slice(0, 80)})`,
      );
      return false;
    }
    return true;
  });
  if (unverified > 0 && record.kind === 'unavailable') {
    problems.push(
      `the model server's record of the spawned threads could not be read (${record.why}), so their ${unverified} calls are unverified`,
    );
  }
  if (!options.endedByRedgreen) {
    for (const seat of read.seats) {
      if (seat.agentId === null) continue;
      const issued = issuedOn.get(seat.agentId);
      const held = seen.get(seat.agentId) ?? new Set<string>();
      for (const call of issued?.values() ?? []) {
        if (held.has(call.call_id)) continue;
        problems.push(
          `the model server issued ${call.call_id} (${call.name} ${call.arguments.slice(0, 80)}) on thread ${seat.agentId}, which its rollout does not hold`,
        );
      }
    }
  }
  const kept = new Map<string, number>();
  for (const call of toolCalls) {
    const dispatch = call.parentToolUseId ?? null;
    if (dispatch !== null) kept.set(dispatch, (kept.get(dispatch) ?? 0) + 1);
  }
  return {
    transcript: {
      ...read,
      toolCalls,
      seats: read.seats.map((seat) =>
        seat.toolCalls === null ? seat : { ...seat, toolCalls: kept.get(seat.dispatch) ?? 0 },
      ),
    },
    dropped,
    problems,
  };
}
