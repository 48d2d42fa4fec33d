/**
 * Claude Code's own compaction, as the model server sees it: the engine
 * (2.1.332) asks for a summary of the conversation so far, as the last user
 * message of an ordinary request (measured offline: `/compact` sent as a
 * user turn over `--input-format stream-json` makes one such request, the
 * engine then emits `compact_boundary` and goes on from the summary alone).
 * The request's last user text begins with its "Respond with TEXT ONLY"
 * banner and asks for "a detailed summary of the conversation so far", to be
 * given as an `<analysis>` block then a `<summary>` block.
 *
 * A scripted policy may write the summary itself (`summarise`); otherwise
 * the server's summary keeps every user message verbatim (the engine's
 * context reminders left out) and counts the tool calls, and nothing else:
 * a session resumes from that and from what it wrote to disk, which is what
 * a compaction scenario asks about.
 */
import type { MessageParam } from './api-schema.js';

const BANNER = /^CRITICAL: Respond with TEXT ONLY\./;
const ASK = /summary of the conversation so far/;

function textsOf(message: MessageParam): string[] {
  const content = message.content;
  if (typeof content === 'string') return [content];
  return content.flatMap((block) =>
    block.type === 'text' && typeof block.text === 'string' ? [block.text] : [],
  );
}

/** Whether a request is the engine's compaction request. */
export function isEngineCompaction(messages: readonly MessageParam[]): boolean {
  const last = messages.at(-1);
  if (last === undefined || last.role !== 'user') return false;
  const text = textsOf(last).join('\n');
  return BANNER.test(text.trimStart()) && ASK.test(text);
}

/** The user's messages before the compaction request, without the engine's reminders. */
export function userMessagesBefore(messages: readonly MessageParam[]): string[] {
  return messages
    .slice(0, -1)
    .filter((message) => message.role === 'user')
    .flatMap(textsOf)
    .map((text) => text.replace(/<system-reminder>[\s\S]*?<\/system-reminder>/g, '').trim())
    .filter((text) => text !== '');
}

/** The server's summary: the user's messages verbatim and how many tool calls were made. */
export function compactionSummary(messages: readonly MessageParam[]): string {
  const calls = messages
    .filter((message) => message.role === 'assistant' && typeof message.content !== 'string')
    .flatMap((message) => (typeof message.content === 'string' ? [] : message.content))
    .filter((block) => block.type === 'tool_use').length;
  const users = userMessagesBefore(messages);
  return [
    '<analysis>Scripted summary: the user messages verbatim, and the count of tool calls.</analysis>',
    '<summary>',
    'All user messages, in order, each as it was written:',
    '',
    ...users.flatMap((text) => [text, '']),
    `Tool calls made before the summary: ${calls}.`,
    '</summary>',
  ].join('\n');
}

/** The engine's opening of the message that carries a summary (2.1.332). */
const CONTINUED = /^This session is being continued from a previous conversation/m;

/** How many compaction summaries the user's texts hold (0 or 1: the engine keeps only the last). */
export function compactionsIn(promptText: string): number {
  return CONTINUED.test(promptText) ? 1 : 0;
}
