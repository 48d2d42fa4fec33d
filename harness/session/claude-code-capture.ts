/**
 * First-dispatch capture on the Claude Code engine (2.1.332, through the
 * Agent SDK). A PreToolUse hook decides each call's fate (see
 * dispatch-capture.ts): the engine calls it before every tool call, after
 * validating the call's input and before any permission rule. For the
 * controller's first dispatch (or question to the human, AskUserQuestion) it
 * denies the call with the fixed refusal and
 * answers `continue: false`: the engine finishes the turn's tool calls and
 * ends without another model request. Calls after it are denied as not run.
 *
 * Measured on 2.1.332, and why this and nothing else: a `canUseTool`
 * callback is never consulted for Agent (the subagent just starts);
 * `continue: false` without a denial lets the subagent start too; an abort
 * from the hook races the engine's next request. Only calls inside a
 * subagent carry an `agent_id`, so a call without one is the controller's.
 *
 * The hook sees the engine's view of a call: a call named `Task` arrives as
 * `Agent`, and SendMessage's input gains derived fields (in the assistant
 * message the engine emits too). The capture records the model's own call,
 * reassembled from the raw streamed API events (`includePartialMessages`),
 * or from the assistant message when a turn was not streamed.
 */
import type { HookCallback, Options, SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import {
  type CapturedDispatch,
  DispatchCapture,
  NOT_RUN_RESULT,
  refusalFor,
  type StopRule,
} from './dispatch-capture.js';
import { StreamedToolInputs } from './streamed-tool-inputs.js';

/** The PreToolUse hook that captures the controller's first dispatch into `capture`. */
export function firstDispatchHook(capture: DispatchCapture): HookCallback {
  return async (input) => {
    if (input.hook_event_name !== 'PreToolUse') return {};
    const fate = capture.decide({
      toolUseId: input.tool_use_id,
      tool: input.tool_name,
      input: input.tool_input,
      insideSubagent: input.agent_id !== undefined,
    });
    if (fate === 'run') return {};
    return {
      continue: false,
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: fate === 'capture' ? refusalFor(input.tool_name) : NOT_RUN_RESULT,
      },
    };
  };
}

/** A controller tool_use block as the engine emitted it. */
interface EmittedToolUse {
  readonly name: string;
  readonly input: unknown;
  readonly messageId: string | undefined;
}

/** What a session's capture came to: the dispatch as sent, and the text of its turn. */
export interface EngineCapture {
  readonly dispatch: CapturedDispatch;
  /** Text the controller wrote in the turn that holds the dispatch; null when none. */
  readonly turnText: string | null;
}

/** One session's capture: the hook, and the messages it needs to record the call as sent. */
export class ClaudeCodeCapture {
  readonly #capture: DispatchCapture;
  readonly #streamed = new StreamedToolInputs();
  readonly #emitted = new Map<string, EmittedToolUse>();
  readonly #textByMessage = new Map<string, string>();

  /** A capture of the first call `rule` picks (default: the first dispatch or question). */
  constructor(rule?: StopRule) {
    this.#capture = new DispatchCapture(rule);
  }

  /** What to add to `query()`'s options. */
  queryOptions(): Pick<Options, 'hooks' | 'includePartialMessages'> {
    return {
      hooks: { PreToolUse: [{ hooks: [firstDispatchHook(this.#capture)] }] },
      includePartialMessages: true,
    };
  }

  /**
   * Watch one engine message. Returns false for the streamed API events the
   * capture asked for, which are not part of the session's transcript.
   */
  observe(message: SDKMessage): boolean {
    if (message.type === 'stream_event') {
      this.#streamed.add(message);
      return false;
    }
    if (message.type === 'assistant' && message.parent_tool_use_id === null) {
      const messageId = message.message.id as string | undefined;
      for (const block of message.message.content) {
        if (block.type === 'tool_use' && !this.#emitted.has(block.id)) {
          this.#emitted.set(block.id, { name: block.name, input: block.input, messageId });
        } else if (block.type === 'text' && messageId !== undefined) {
          this.#textByMessage.set(
            messageId,
            (this.#textByMessage.get(messageId) ?? '') + block.text,
          );
        }
      }
    }
    return true;
  }

  /** The captured dispatch as the model sent it, or null when the session made none. */
  result(): EngineCapture | null {
    const captured = this.#capture.captured;
    if (captured === null) return null;
    const emitted = this.#emitted.get(captured.toolUseId);
    const sent = this.#streamed.get(captured.toolUseId) ?? emitted;
    const text =
      emitted?.messageId === undefined ? undefined : this.#textByMessage.get(emitted.messageId);
    return {
      dispatch:
        sent === undefined
          ? captured
          : { toolUseId: captured.toolUseId, tool: sent.name, input: sent.input },
      turnText: text === undefined || text.trim() === '' ? null : text,
    };
  }
}
