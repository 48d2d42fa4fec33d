/**
 * The scripted user on the Claude Code engine (2.1.332, through the Agent
 * SDK), for `stop: complete` sessions:
 *
 * - a question tool call: headless, the engine offers `AskUserQuestion` only
 *   with a permission prompt tool named (`stdio`, the SDK's control channel).
 *   A PreToolUse hook answers the controller's call before any permission
 *   rule: it allows the call with the answers filled into its input
 *   (`updatedInput.answers`, by question text, as the engine's own dialog
 *   fills them), and the engine's tool writes its usual result for answered
 *   questions. A call the user answers none of is denied with
 *   UNANSWERED_RESULT (the engine puts `PreToolUse:AskUserQuestion hook
 *   error: ` in front). Calls inside a subagent (they carry an `agent_id`) are
 *   left to the engine.
 * - a reply that ends on a question: the session runs on streaming input. The
 *   first message is the prompt; after each `result` of the controller whose
 *   text ends on a question the user answers, the answer is sent as the next
 *   user message (and recorded in the transcript as one, since the engine
 *   does not echo it); otherwise the input ends and the engine finishes.
 * - the user's declared turns (harness/score/user-turns.ts) go the same way,
 *   after any controller result; `/compact` among them is the engine's own
 *   compaction (it answers it with a `compact_boundary` and a result of no
 *   turns, after which the next turn is sent).
 */
import type {
  HookCallback,
  Options,
  SDKMessage,
  SDKUserMessage,
} from '@anthropic-ai/claude-agent-sdk';
import type { ScriptedUser } from '../score/scripted-user.js';
import { CONTROLLER_SEAT } from '../score/seat-record.js';
import type { StopMode } from '../score/stop-mode.js';
import type { UserPlayer } from './played-user.js';
import {
  type ReplyAnswer,
  replyAnswerMarker,
  ScriptedUserSession,
  scriptedUserFor,
  UNANSWERED_RESULT,
} from './scripted-user-session.js';
import { dispatchInputProblem } from './tools/dispatch-tools.js';
import type { TranscriptSink } from './transcript-sink.js';

/** A model playing the user (played-user.ts), and who hears when it fails. */
export interface PlayedUserOptions {
  readonly player: UserPlayer;
  readonly onFailure?: (reason: string) => void;
}

/** The PreToolUse hook that answers the controller's AskUserQuestion calls. */
export function questionAnswerHook(user: ScriptedUserSession): HookCallback {
  return async (input) => {
    if (input.hook_event_name !== 'PreToolUse') return {};
    if (input.tool_name !== 'AskUserQuestion' || input.agent_id !== undefined) return {};
    if (dispatchInputProblem('AskUserQuestion', input.tool_input) !== undefined) return {};
    const answered = await user.answerQuestionCall(
      input.tool_use_id,
      input.tool_input,
      CONTROLLER_SEAT,
    );
    if (answered.isError) {
      return {
        hookSpecificOutput: {
          hookEventName: 'PreToolUse',
          permissionDecision: 'deny',
          permissionDecisionReason: UNANSWERED_RESULT,
        },
      };
    }
    return {
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'allow',
        updatedInput: {
          ...(input.tool_input as Record<string, unknown>),
          answers: answered.answers,
        },
      },
    };
  };
}

/** One session's scripted user on the engine: the hook, and the streaming input. */
export class ClaudeCodeUser {
  readonly #user: ScriptedUserSession;
  readonly #transcript: TranscriptSink;
  #started = false;
  /** Each controller result's verdict, in order: an answer to send, or undefined (end the input). */
  readonly #decisions: (ReplyAnswer | undefined)[] = [];
  #wake: (() => void) | undefined;
  #sessionId = '';
  #ended = false;

  /** The scripted user of a session in `stop` mode, or undefined when it has none. */
  static for(
    stop: StopMode,
    user: ScriptedUser | undefined,
    transcript: TranscriptSink,
    played?: PlayedUserOptions,
  ): ClaudeCodeUser | undefined {
    const scripted = scriptedUserFor(stop, user);
    return scripted === undefined ? undefined : new ClaudeCodeUser(scripted, transcript, played);
  }

  private constructor(user: ScriptedUser, transcript: TranscriptSink, played?: PlayedUserOptions) {
    this.#user = new ScriptedUserSession(user, transcript, () => this.#sessionId, played);
    this.#transcript = transcript;
  }

  /** Why the model playing the user gave no words, when it failed (played-user.ts). */
  get playerFailure(): string | undefined {
    return this.#user.failure;
  }

  /** What to add to `query()`'s options. */
  queryOptions(): Pick<Options, 'hooks' | 'permissionPromptToolName'> {
    return {
      hooks: { PreToolUse: [{ hooks: [questionAnswerHook(this.#user)] }] },
      permissionPromptToolName: 'stdio',
    };
  }

  /** The session's input: the prompt, then each answer to a reply that ends on a question. */
  async *input(prompt: string): AsyncGenerator<SDKUserMessage> {
    yield this.#message(prompt);
    for (;;) {
      while (this.#decisions.length === 0) {
        await new Promise<void>((resolve) => {
          this.#wake = resolve;
        });
      }
      const answer = this.#decisions.shift();
      if (answer === undefined) return;
      this.#transcript.write({
        ...this.#message(answer.text),
        session_id: this.#sessionId,
        ...replyAnswerMarker(answer),
      });
      yield this.#message(answer.text);
    }
  }

  /**
   * Watch one engine message: a controller result decides whether the user
   * answers (settled when the decision is made: a played user's takes a
   * model request).
   */
  async observe(message: SDKMessage): Promise<void> {
    if ('session_id' in message && typeof message.session_id === 'string') {
      this.#sessionId = message.session_id;
    }
    if (!this.#started && message.type === 'system' && message.subtype === 'init') {
      this.#started = true;
      this.#user.start();
    }
    if (message.type !== 'result' || this.#ended) return;
    this.#decide(
      message.subtype === 'success' && !message.is_error
        ? await this.#user.answerReply(message.result, CONTROLLER_SEAT)
        : undefined,
    );
  }

  /** Whether the user has ended the input: no answer follows the last result. */
  get inputEnded(): boolean {
    return this.#ended;
  }

  /** End the input (the session is over, or was stopped). */
  close(): void {
    this.#decide(undefined);
  }

  #decide(answer: ReplyAnswer | undefined): void {
    if (this.#ended) return;
    if (answer === undefined) this.#ended = true;
    this.#decisions.push(answer);
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }

  #message(text: string): SDKUserMessage {
    return {
      type: 'user',
      message: { role: 'user', content: text },
      parent_tool_use_id: null,
    } as SDKUserMessage;
  }
}
