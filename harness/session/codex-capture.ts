/**
 * First-dispatch capture on the codex backend. Codex has no hook that
 * refuses a call before it runs, so the capture is made from what the engine
 * did, in two steps:
 *
 * 1. the end: `codex exec --json` reports each step it takes as it takes it;
 *    the root thread's first `collab_tool_call` that spawns an agent or sends
 *    one a message (`spawn_agent`, `send_input`, and v2's follow-up and
 *    message tools) is the controller's dispatch. The backend ends the
 *    engine there (its process group is killed), so the spawned thread is
 *    never served a reply: it runs nothing, and the controller makes no
 *    further decision;
 * 2. the record: the dispatch is read from the root thread's rollout, kept
 *    to the calls the stream reports (codex-stream.ts), so it is the call
 *    the stream reported, with the arguments Codex recorded for the
 *    model's `function_call` (read by the Codex rollout reader under Claude
 *    Code's names: `Agent {prompt, model, …}`, `SendMessage {to,
 *    message}`); the stream's item, which carries the prompt only, is the
 *    fallback when the rollout holds no such call. It is recorded where the claude-code capture
 *    records its own: the outcome's captured dispatch (reply.md's trailer,
 *    meta.json's `dispatchCaptured`) and the transcript, whose call gets the
 *    capture's fixed refusal as its result, so the same checks score it.
 *
 * A question to the human is not captured: Codex offers no question tool in
 * `exec`, so a controller asks in its reply and the `question-asked` verb
 * reads that reply. Pure: lines and transcripts in, decisions out.
 */

import { DISPATCH_REFUSAL } from '../score/refusals.js';
import { functionCall, isCodexDispatchTool } from '../score/transcripts/codex-tools.js';
import type { SessionTranscript } from '../score/transcripts/session-transcript.js';
import type { CapturedDispatch } from './dispatch-capture.js';

/** A dispatch as the `--json` stream reported it. */
export interface StreamedDispatch {
  readonly itemId: string;
  /** Codex's tool: `spawn_agent`, `send_input`, … */
  readonly tool: string;
  readonly prompt: string | undefined;
  readonly receivers: readonly string[];
}

/** Reads `codex exec --json` lines as they arrive; says when the root thread dispatched. */
export class DispatchWatch {
  #rootThread: string | undefined;
  #seen: StreamedDispatch | undefined;

  get seen(): StreamedDispatch | undefined {
    return this.#seen;
  }

  /** Read one stdout line; true when it is the root thread's first dispatch. */
  read(line: string): boolean {
    if (this.#seen !== undefined) return false;
    let event: unknown;
    try {
      event = JSON.parse(line);
    } catch {
      return false;
    }
    if (typeof event !== 'object' || event === null) return false;
    const record = event as Record<string, unknown>;
    if (record.type === 'thread.started' && typeof record.thread_id === 'string') {
      this.#rootThread ??= record.thread_id;
      return false;
    }
    if (record.type !== 'item.started' && record.type !== 'item.completed') return false;
    const item = record.item as Record<string, unknown> | undefined;
    if (item?.type !== 'collab_tool_call' || typeof item.tool !== 'string') return false;
    if (!isCodexDispatchTool(item.tool)) return false;
    // A spawned thread cannot spawn (depth 1), but only the controller's dispatch is its decision.
    if (this.#rootThread !== undefined && item.sender_thread_id !== this.#rootThread) return false;
    this.#seen = {
      itemId: typeof item.id === 'string' ? item.id : 'item',
      tool: item.tool,
      prompt: typeof item.prompt === 'string' ? item.prompt : undefined,
      receivers: Array.isArray(item.receiver_thread_ids)
        ? item.receiver_thread_ids.filter((id): id is string => typeof id === 'string')
        : [],
    };
    return true;
  }
}

const CLAUDE_DISPATCH_TOOLS = new Set(['Agent', 'Task', 'SendMessage']);

/**
 * The captured dispatch and the transcript to record for a session the
 * watch ended: the root thread's first dispatch call (from the rollout, else
 * the stream's item) with the capture's refusal as its result; calls after
 * it that got no result never ran and are left out.
 */
export function capturedFromRollout(
  read: SessionTranscript,
  streamed: StreamedDispatch,
): { readonly captured: CapturedDispatch; readonly transcript: SessionTranscript } {
  const index = read.toolCalls.findIndex(
    (call) => (call.parentToolUseId ?? null) === null && CLAUDE_DISPATCH_TOOLS.has(call.name),
  );
  const fromStream = functionCall(streamed.tool, undefined, {
    ...(streamed.prompt === undefined ? {} : { message: streamed.prompt }),
    ...(streamed.receivers[0] === undefined || streamed.tool === 'spawn_agent'
      ? {}
      : { target: streamed.receivers[0] }),
  });
  const found = read.toolCalls[index];
  const call =
    found === undefined
      ? {
          id: `codex_${streamed.itemId}`,
          name: fromStream.name,
          input: fromStream.input,
          parentToolUseId: null,
          ...(fromStream.recordedAs === undefined ? {} : { recordedAs: fromStream.recordedAs }),
        }
      : found;
  const refused = { ...call, output: DISPATCH_REFUSAL, isError: true };
  const before = found === undefined ? read.toolCalls : read.toolCalls.slice(0, index);
  const after = found === undefined ? [] : read.toolCalls.slice(index + 1);
  return {
    captured: { toolUseId: call.id, tool: call.name, input: call.input },
    transcript: {
      ...read,
      toolCalls: [...before, refused, ...after.filter((later) => later.output !== undefined)],
      seats: read.seats.filter((seat) => seat.dispatch !== call.id),
    },
  };
}
