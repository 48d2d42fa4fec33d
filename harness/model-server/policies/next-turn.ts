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
 */

import { sha256Hex } from '../../lib/hash.js';
import { err, ok, type Result } from '../../lib/result.js';
import type { ToolResultBlock } from '../api-schema.js';
import type { ToolExchange } from '../conversation.js';
import type { BrainCall } from '../data-policy/brain-program.js';
import { scriptedModelId } from '../model-id.js';
import { asksUserProgram, isAsksUserPolicy } from './asks-user.js';
import type { ExtraCallOptions, PolicyContext } from './context.js';
import { ENV_DUMP_POLICY, envDumpProgram } from './env-dump.js';
import { briefPathIn } from './finish.js';
import {
  fixerVariantOf,
  fullSessionProgram,
  isFullSessionPolicy,
  isFullSessionPrompt,
  reviewerVariantOf,
} from './full-session.js';
import { implementerProgram } from './implementer.js';
import { type PolicyName, policyByName } from './index.js';
import type { PolicyProgram, ToolOutcome } from './program.js';
import { promptForbidsDispatch, readPromptFacts } from './prompt-facts.js';
import { seededRng } from './rng.js';
import {
  reviewerProgram,
  implementerProgram as seatImplementerProgram,
  seatPromptOf,
} from './seat-programs.js';
import {
  type ConversationText,
  emptyConversation,
  isTriggerPolicy,
  triggerProgram,
} from './skill-trigger.js';
import { TASK_FOLLOWER, taskFollowerProgram } from './task-follower.js';

export interface TurnRequest {
  readonly policy: PolicyName;
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
  | { readonly kind: 'text'; readonly step: number; readonly text: string };

/** The history holds tool turns this program did not ask for (another policy, seed or session). */
export interface ReplayDivergence {
  readonly step: number;
  readonly message: string;
}

export function nextPolicyTurn(request: TurnRequest): Result<PolicyTurn, ReplayDivergence> {
  const played = replayProgram(programFor(request), {
    key: conversationKey(request),
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

function programFor(request: TurnRequest): PolicyProgram {
  const policy = policyByName(request.policy);
  const label = scriptedModelId(request.policy);
  // The key canary's session: its controller and its own seats (env-dump.ts).
  if (request.policy === ENV_DUMP_POLICY) {
    return envDumpProgram(label, request.promptText, request.offeredTools);
  }
  // A full session's subagent: its conversation starts from a seat's dispatch
  // prompt; the session's policy (the model id) picks how its reviewers work.
  const seat = seatPromptOf(request.promptText);
  if (seat !== undefined) {
    return seat.role === 'reviewer'
      ? reviewerProgram(seat, request.promptText, reviewerVariantOf(request.policy))
      : seatImplementerProgram(seat, request.promptText, fixerVariantOf(request.policy));
  }
  if (isFullSessionPolicy(request.policy)) {
    return fullSessionProgram(request.policy, label, request.promptText, request.offeredTools);
  }
  if (request.policy === 'skill-reader' && isFullSessionPrompt(request.promptText)) {
    return fullSessionProgram('full-skill-reader', label, request.promptText, request.offeredTools);
  }
  if (isTriggerPolicy(request.policy)) {
    return triggerProgram(
      request.policy,
      label,
      request.conversation ?? emptyConversation(request),
      request.offeredTools,
    );
  }
  if (request.policy === TASK_FOLLOWER) {
    return taskFollowerProgram(
      label,
      request.conversation ?? emptyConversation(request),
      request.offeredTools,
    );
  }
  if (isAsksUserPolicy(request.policy)) {
    return asksUserProgram(request.policy, label, request.promptText, request.offeredTools);
  }
  const facts = readPromptFacts(request.promptText);
  const brief = facts.ok ? undefined : briefPathIn(request.promptText);
  if (brief !== undefined && request.offeredTools.has('Read')) {
    return implementerProgram(label, brief);
  }
  if (!facts.ok) {
    return say(
      `${label} could not find ${facts.error.item} in the prompt (expected ${facts.error.expected}); no tools were run.`,
    );
  }
  const missing = policy.needs.filter((tool) => !request.offeredTools.has(tool));
  if (missing.length > 0) {
    return say(
      `${label} cannot act: the request offers no ${missing.join(' or ')} tool (offered: ${[...request.offeredTools].join(', ') || 'none'}); no tools were run.`,
    );
  }
  const context: PolicyContext = {
    facts: facts.value,
    offeredTools: request.offeredTools,
    dispatchAllowed: !promptForbidsDispatch(request.promptText),
    rng:
      request.seed === undefined
        ? undefined
        : seededRng('policy', request.seed, request.sessionKey),
    extras: request.extras,
  };
  return policy.program(context);
}

// biome-ignore lint/correctness/useYield: a program that ends at once is still a program
function* say(text: string): PolicyProgram {
  return text;
}

/**
 * The conversation a request continues, for tool_use ids: the session key;
 * for a full session's subagent also the seat its dispatch prompt names
 * (role, task, brief, range, round), since the Claude Code engine sends
 * every subagent's requests under the controller's session key and two
 * subagents must never share ids, while a resumed one must keep its own.
 */
export function conversationKey(request: Pick<TurnRequest, 'sessionKey' | 'promptText'>): string {
  const seat = seatPromptOf(request.promptText);
  return seat === undefined
    ? request.sessionKey
    : `${request.sessionKey}\u0000${JSON.stringify(seat)}`;
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
