/**
 * The policy's next assistant turn, derived only from the conversation: the
 * program is run from the start and REPLAYED against the tool results already
 * in the history. Step k of the program is matched with the k-th assistant
 * turn that called tools; its outcomes are fed back in; the first step with no
 * turn in the history is the answer, or the program's final report once it
 * returns. Tool_use ids are derived from (session key, policy, step, call), so
 * they are deterministic and prove a history turn is the one this program
 * asked for. Nothing about a session is remembered between requests: the
 * server can restart between turns and the conversation carries on.
 *
 * A policy that says it cannot play the session (ScriptedPolicy.cannotPlay)
 * gets no turn: the answer is `cannot-play` with its reason. It is asked only
 * on a session turn, a request that offers tools; a probe that offers none
 * (the endpoint preflight's one-token ping) is answered as before.
 */

import { sha256Hex } from '../../lib/hash.js';
import { err, ok, type Result } from '../../lib/result.js';
import type { ToolResultBlock } from '../api-schema.js';
import type { ToolExchange } from '../conversation.js';
import { conversationKey } from '../conversation-key.js';
import type { ConversationText } from '../conversation-text.js';
import { scriptedModelId } from '../model-id.js';
import { seededRng } from '../rng.js';
import { cannotPlayReason, type ExtraCallOptions, type PolicyRequest } from './policy.js';
import type { BrainCall, PolicyProgram, ToolOutcome } from './program.js';
import { policyByName, seats } from './registry.js';

export interface TurnRequest {
  /** A known policy's name (registry.ts). */
  readonly policy: string;
  readonly sessionKey: string;
  /** The user's text (the campaign prompt), from which the policy learns its paths. */
  readonly promptText: string;
  /**
   * What the client sent besides the user's words: the system prompt and
   * any `system` messages (where the engine lists installed skills), and the
   * user messages' text blocks in order, one string each.
   */
  readonly conversation?: ConversationText | undefined;
  readonly offeredTools: ReadonlySet<string>;
  readonly exchanges: readonly ToolExchange[];
  /** Without a seed a policy makes no optional extra calls. */
  readonly seed: string | undefined;
  readonly extras: ExtraCallOptions;
}

export interface IdentifiedToolCall extends BrainCall {
  readonly id: string;
}

export type PolicyTurn =
  | {
      readonly kind: 'tool_use';
      readonly step: number;
      readonly calls: readonly IdentifiedToolCall[];
    }
  | { readonly kind: 'text'; readonly step: number; readonly text: string }
  /** The policy cannot play this session: no turn, no verdict (cannotPlayReason's words). */
  | { readonly kind: 'cannot-play'; readonly reason: string };

/** The history holds tool turns this program did not ask for (another policy, seed or session). */
export interface ReplayDivergence {
  readonly step: number;
  readonly message: string;
}

export function nextPolicyTurn(request: TurnRequest): Result<PolicyTurn, ReplayDivergence> {
  const answering = programFor(request);
  if ('cannotPlay' in answering) return ok({ kind: 'cannot-play', reason: answering.cannotPlay });
  const played = replayProgram(answering.program, {
    key: answering.key,
    label: request.policy,
    exchanges: request.exchanges,
  });
  if (!played.ok) return played;
  return ok(
    played.value.kind === 'tool_use'
      ? played.value
      : { kind: 'text', step: played.value.step, text: played.value.value },
  );
}

/** A program's next turn: its calls with their ids, or what it returned. */
export type ReplayedTurn<T> =
  | {
      readonly kind: 'tool_use';
      readonly step: number;
      readonly calls: readonly IdentifiedToolCall[];
    }
  | { readonly kind: 'done'; readonly step: number; readonly value: T };

/**
 * Replay a program against a conversation's tool exchanges: step k of the
 * program is the k-th exchange, its outcomes fed back in, until a step has
 * no exchange yet (the answer) or the program returns. `key` is the
 * conversation (a session, or a seat of one) and `label` the brain, which
 * with the step, the call's place and the call itself derive its tool_use id.
 */
export function replayProgram<T>(
  program: Generator<readonly BrainCall[], T, readonly ToolOutcome[]>,
  options: {
    readonly key: string;
    readonly label: string;
    readonly exchanges: readonly ToolExchange[];
  },
): Result<ReplayedTurn<T>, ReplayDivergence> {
  const { exchanges, label } = options;
  let step = 0;
  let next = program.next();
  while (!next.done) {
    const calls = next.value.map((toolCall, index) => ({
      ...toolCall,
      id: toolUseId(options.key, label, step, index, toolCall),
    }));
    const exchange = exchanges[step];
    if (exchange === undefined) return ok({ kind: 'tool_use', step, calls });
    const historyIds = exchange.calls.map((toolUse) => toolUse.id);
    const expectedIds = calls.map((toolCall) => toolCall.id);
    if (historyIds.join(',') !== expectedIds.join(',')) {
      return err({
        step,
        message: `the conversation's tool turn ${step + 1} (${historyIds.join(', ')}) is not the one ${scriptedModelId(label)} asks for at that point (${expectedIds.join(', ')}); was it started by another policy, seed or session key?`,
      });
    }
    const outcomes = calls.map((toolCall) => outcomeOf(exchange.results.get(toolCall.id)));
    next = program.next(outcomes);
    step += 1;
  }
  if (step < exchanges.length) {
    return err({
      step,
      message: `${scriptedModelId(label)} finished after ${step} tool turns but the conversation holds ${exchanges.length}`,
    });
  }
  return ok({ kind: 'done', step, value: next.value });
}

/**
 * The program that answers a request, and the conversation it continues (for
 * tool_use ids): a seat's, when the conversation starts from a seat's
 * dispatch prompt (under the session key and the seat's own key part), else
 * the session's policy's, unless on a session turn it cannot play the session.
 */
function programFor(
  turn: TurnRequest,
): { readonly key: string; readonly program: PolicyProgram } | { readonly cannotPlay: string } {
  const policy = policyByName(turn.policy);
  if (policy === undefined) throw new Error(`no scripted policy is named ${turn.policy}`);
  const request: PolicyRequest = {
    policy: turn.policy,
    label: scriptedModelId(turn.policy),
    sessionKey: turn.sessionKey,
    promptText: turn.promptText,
    conversation: turn.conversation ?? { system: '', userMessages: [[turn.promptText]] },
    offeredTools: turn.offeredTools,
    rng: turn.seed === undefined ? undefined : seededRng('policy', turn.seed, turn.sessionKey),
    extras: turn.extras,
  };
  const userText = turn.promptText;
  for (const seat of seats()) {
    const taken = seat.take(request);
    if (taken !== undefined) {
      return {
        key: conversationKey({ sessionKey: turn.sessionKey, seat: taken.key, userText }),
        program: taken.program,
      };
    }
  }
  const cannotPlay = isSessionTurn(request) ? policy.cannotPlay?.(request) : undefined;
  if (cannotPlay !== undefined) return { cannotPlay: cannotPlayReason(request.label, cannotPlay) };
  const key = conversationKey({ sessionKey: turn.sessionKey, userText });
  return { key, program: policy.program(request) };
}

/**
 * Whether a request is a turn of a session a policy would act in: it offers
 * tools. A probe offers none (the endpoint preflight's one-token ping, a
 * client's side request), and is never refused as a session it cannot play.
 */
function isSessionTurn(request: PolicyRequest): boolean {
  return request.offeredTools.size > 0;
}

function toolUseId(
  key: string,
  label: string,
  step: number,
  index: number,
  toolCall: BrainCall,
): string {
  const digest = sha256Hex(
    [key, label, String(step), String(index), toolCall.name, JSON.stringify(toolCall.input)].join(
      '\u0000',
    ),
  );
  return `toolu_rg${digest.slice(0, 22)}`;
}

function outcomeOf(result: ToolResultBlock | undefined): ToolOutcome {
  if (result === undefined) return { text: '', isError: true };
  const content = result.content;
  const text =
    typeof content === 'string'
      ? content
      : (content ?? [])
          .map((block) =>
            block.type === 'text' && typeof block.text === 'string' ? block.text : '',
          )
          .filter((part) => part !== '')
          .join('\n');
  return { text, isError: result.is_error === true };
}
