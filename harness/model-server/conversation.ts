/**
 * Reading a conversation's history: the tool exchanges it holds (each
 * assistant turn's tool_use blocks paired with the tool_result blocks that
 * answer them), checked the way the API checks them. A tool_result must answer
 * a tool_use of the assistant message right before it, and every tool_use must
 * be answered in the user message right after it; anything else is a 400.
 * `system` messages (Claude Code sends them mid-conversation) are skipped.
 */
import { err, ok, type Result } from '../lib/result.js';
import { type ApiError, apiError } from './api-error.js';
import {
  contentBlocks,
  isTextBlock,
  isToolResultBlock,
  isToolUseBlock,
  type MessageParam,
  type ToolResultBlock,
  type ToolUseBlock,
} from './api-schema.js';

/** One assistant turn that called tools, with the results the client sent back. */
export interface ToolExchange {
  readonly calls: readonly ToolUseBlock[];
  readonly results: ReadonlyMap<string, ToolResultBlock>;
  /**
   * The text blocks the client sent with those results, up to the next
   * assistant turn (a skill the Skill tool loaded arrives this way).
   */
  readonly texts: readonly string[];
}

/** A user message that answers an assistant turn without tool calls (a reply the user answered). */
export interface UserReply {
  /** How many tool exchanges came before it. */
  readonly afterExchanges: number;
  readonly text: string;
}

export interface ConversationHistory {
  readonly exchanges: readonly ToolExchange[];
  /** How many assistant messages the history holds; the turn being asked for is this + 1. */
  readonly assistantMessages: number;
  /** User messages after assistant turns that called no tool, in order. */
  readonly userReplies: readonly UserReply[];
}

interface Turn {
  /** Position in the request's `messages` array, for error messages. */
  readonly index: number;
  readonly role: 'user' | 'assistant';
  readonly calls: readonly ToolUseBlock[];
  readonly results: readonly ToolResultBlock[];
  readonly texts: readonly string[];
}

export function readConversation(
  messages: readonly MessageParam[],
): Result<ConversationHistory, ApiError> {
  const turns: Turn[] = [];
  messages.forEach((message, index) => {
    if (message.role === 'system') return;
    const blocks = contentBlocks(message);
    turns.push({
      index,
      role: message.role,
      calls: blocks.filter(isToolUseBlock),
      results: blocks.filter(isToolResultBlock),
      texts: blocks.filter(isTextBlock).map((block) => block.text),
    });
  });

  const answered = checkResultsAnswerPreviousCalls(turns);
  if (!answered.ok) return answered;

  const seenToolUseIds = new Set<string>();
  const exchanges: ToolExchange[] = [];
  const userReplies: UserReply[] = [];
  for (const [position, turn] of turns.entries()) {
    if (turn.role !== 'assistant') continue;
    const answer = userTextsAfter(turns, position);
    for (const call of turn.calls) {
      if (seenToolUseIds.has(call.id)) {
        return err(
          invalid(`messages.${turn.index}: tool_use id ${call.id} is used more than once`),
        );
      }
      seenToolUseIds.add(call.id);
    }
    if (turn.calls.length === 0) {
      if (answer.length > 0) {
        userReplies.push({ afterExchanges: exchanges.length, text: answer.join('\n\n') });
      }
      continue;
    }
    const next = turns[position + 1];
    if (next === undefined) {
      return err(
        invalid(
          `messages.${turn.index}: the conversation ends with tool_use blocks that have no tool_result`,
        ),
      );
    }
    const results = new Map(next.results.map((result) => [result.tool_use_id, result]));
    const unanswered = turn.calls.filter((call) => !results.has(call.id)).map((call) => call.id);
    if (unanswered.length > 0) {
      return err(
        invalid(
          `messages.${next.index}: tool_use ids were found without tool_result blocks immediately after: ${unanswered.join(', ')}`,
        ),
      );
    }
    exchanges.push({ calls: turn.calls, results, texts: answer });
  }

  return ok({
    exchanges,
    assistantMessages: turns.filter((turn) => turn.role === 'assistant').length,
    userReplies,
  });
}

/** The text blocks of the user messages after turn `position`, up to the next assistant turn. */
function userTextsAfter(turns: readonly Turn[], position: number): string[] {
  const texts: string[] = [];
  for (const turn of turns.slice(position + 1)) {
    if (turn.role === 'assistant') break;
    texts.push(...turn.texts);
  }
  return texts;
}

/** Every tool_result answers, once, a tool_use of the assistant turn right before it. */
function checkResultsAnswerPreviousCalls(turns: readonly Turn[]): Result<void, ApiError> {
  for (const [position, turn] of turns.entries()) {
    if (turn.results.length === 0) continue;
    const previous = turns[position - 1];
    const asked = new Set(
      previous?.role === 'assistant' ? previous.calls.map((call) => call.id) : [],
    );
    const seen = new Set<string>();
    for (const result of turn.results) {
      if (!asked.has(result.tool_use_id)) {
        return err(
          invalid(
            `messages.${turn.index}: unexpected tool_use_id found in tool_result blocks: ${result.tool_use_id}. Each tool_result block must have a corresponding tool_use block in the previous message.`,
          ),
        );
      }
      if (seen.has(result.tool_use_id)) {
        return err(
          invalid(`messages.${turn.index}: tool_use_id ${result.tool_use_id} is answered twice`),
        );
      }
      seen.add(result.tool_use_id);
    }
  }
  return ok(undefined);
}

function invalid(message: string): ApiError {
  return apiError('invalid_request_error', message);
}
