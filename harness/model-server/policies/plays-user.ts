/**
 * `plays-user`: a scripted brain for the user's part, answering the
 * requests of a model playing a scenario's user (harness/session/played-user.ts)
 * offline. The request holds the user's `<story>`, the conversation, and a
 * `<question>` (or a turn's `<gist>`); the answer is the story's line that
 * shares the most words of four letters or more with the question (or the
 * gist), the first such line on a tie, and the story's first line when none
 * shares any. A pure function of the request, as every policy is.
 */
import type { ScriptedPolicy } from './policy.js';
import { callAll, type PolicyProgram } from './program.js';

const tagged = (tag: string, text: string): string | undefined =>
  new RegExp(`<${tag}>\\n?([\\s\\S]*?)\\n?</${tag}>`).exec(text)?.[1];

function words(text: string): Set<string> {
  return new Set((text.toLowerCase().match(/[a-z0-9][a-z0-9-]{3,}/g) ?? []).map(String));
}

/** The story's line that answers `asked` best. */
export function storyLineFor(story: string, asked: string): string {
  const lines = story
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const wanted = words(asked);
  let best: { line: string; shared: number } | undefined;
  for (const line of lines) {
    const shared = [...words(line)].filter((word) => wanted.has(word)).length;
    if (shared > 0 && (best === undefined || shared > best.shared)) best = { line, shared };
  }
  return best?.line ?? lines[0] ?? '';
}

function* playsUser(label: string, promptText: string): PolicyProgram {
  // The user only speaks: no tool calls, one reply.
  yield* callAll([]);
  const story = tagged('story', promptText);
  if (story === undefined) return `${label} needs a <story> in the request; it plays no one.`;
  const asked = tagged('question', promptText) ?? tagged('gist', promptText) ?? '';
  return storyLineFor(story, asked);
}

export const playsUserPolicy: ScriptedPolicy = {
  name: 'plays-user',
  summary:
    "a played user's brain: answers with the line of the user's story that shares most words with the question",
  program: (request) => playsUser(request.label, request.promptText),
};
