/**
 * What a request carries besides its tools and tool results: the system
 * text (the system prompt and any `system` messages, where the engine lists
 * installed skills and states the working directory) and each user
 * message's text blocks; and what a brain reads out of them.
 */

export interface ConversationText {
  readonly system: string;
  readonly userMessages: readonly (readonly string[])[];
}

const REMINDER = /<system-reminder>[\s\S]*?<\/system-reminder>/g;

/** The user's request: the first user message's text, without the engine's reminders. */
export function userRequest(conversation: ConversationText): string {
  return (conversation.userMessages[0] ?? [])
    .map((block) => block.replace(REMINDER, '').trim())
    .filter((block) => block !== '')
    .join('\n\n');
}

/** The session's working directory, as the system text states it. */
export function workingDirectory(system: string): string | undefined {
  return /(?:Primary working directory|Working directory):\s*(\/\S+)/.exec(system)?.[1];
}
