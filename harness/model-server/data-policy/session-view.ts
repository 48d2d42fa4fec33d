/**
 * What a data brain (a policy file, or a replayed recording) may read of a
 * request: the system text, the user's prompt, the working directory the
 * system text states, and the conversation so far (tool exchanges with the
 * text that came with their results, and the user's answers to replies).
 * Nothing else: no file, no clock, no state kept between requests, so the
 * brain is a pure function of what the session was sent.
 */
import type { ConversationHistory, ToolExchange, UserReply } from '../conversation.js';
import { type ConversationText, userRequest, workingDirectory } from '../conversation-text.js';

export interface SessionView {
  readonly system: string;
  /** The user's first message, the engine's reminders removed. */
  readonly prompt: string;
  /** The working directory the system text names, when it names one. */
  readonly cwd: string | undefined;
  readonly exchanges: readonly ToolExchange[];
  readonly userReplies: readonly UserReply[];
}

export function sessionView(
  conversation: ConversationText,
  history: Pick<ConversationHistory, 'exchanges' | 'userReplies'>,
): SessionView {
  return {
    system: conversation.system,
    prompt: userRequest(conversation),
    cwd: workingDirectory(conversation.system),
    exchanges: history.exchanges,
    userReplies: history.userReplies,
  };
}

/** The marker the engine (and the messages backend) puts before a skill's text the Skill tool loaded. */
export const LOADED_SKILL_HEADER = 'Base directory for this skill:';

/** Skill texts loaded with the results of exchange `index` (0-based). */
export function loadedSkillTexts(view: SessionView, index: number): string[] {
  return (view.exchanges[index]?.texts ?? []).filter((text) =>
    text.trimStart().startsWith(LOADED_SKILL_HEADER),
  );
}
