/**
 * The key a conversation's tool_use ids are derived under (policies/next-turn.ts
 * replayProgram): the session's key, then the seat's part when a seat answers
 * (a subagent's conversation, which Claude Code sends under the controller's
 * session key), then the compaction count once the engine has compacted the
 * conversation. After a compaction the program starts over from the summary,
 * so its calls get new ids (a real model never repeats one) and a transcript
 * keeps both rounds. The built-in policies' seats and a policy file's seats
 * are keyed by this one rule.
 */
import { compactionsIn } from './engine-compaction.js';

export interface ConversationKeyParts {
  readonly sessionKey: string;
  /** The seat's own part of the key, when a seat answers the request. */
  readonly seat?: string | undefined;
  /** The user's texts of the request, where the engine's compaction summary would be. */
  readonly userText: string;
}

export function conversationKey(parts: ConversationKeyParts): string {
  const compacted = compactionsIn(parts.userText);
  return [
    parts.sessionKey,
    ...(parts.seat === undefined ? [] : [parts.seat]),
    ...(compacted === 0 ? [] : [`compacted-${compacted}`]),
  ].join('\u0000');
}
