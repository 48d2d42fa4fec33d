/**
 * The session's final reply from the Claude Code engine's result messages.
 * A session with background agents can end in more than one result: the
 * engine reports the root thread's answer, then, once the agents finish, a
 * result for each of their notifications it took in. A result that ran no turn
 * of the root thread (`num_turns: 0`, empty `result`) carries no new words:
 * the reply stays the one the root thread last gave.
 */
import type { SDKResultMessage } from '@anthropic-ai/claude-agent-sdk';

/** The reply once `result` has arrived, given the reply the earlier results gave (null: none yet). */
export function replyAfterResult(earlier: string | null, result: SDKResultMessage): string | null {
  if (result.subtype !== 'success') return earlier;
  if (result.num_turns === 0 && result.result.trim() === '') return earlier;
  return result.result;
}
