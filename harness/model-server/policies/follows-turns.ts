/**
 * A scripted controller for conversations (a scripted user's declared turns,
 * harness/score/user-turns.ts): its prompt names the repository
 * (`Repository: /abs/repo`), and every greeting style the user's messages
 * name (`plain-greeting`, `fancy-greeting`), in order, is written to
 * `greeting-style.txt` there, one write per mention; its reply says which
 * style it wrote last and never asks anything. A message naming no style
 * gets `Nothing to change.`
 *
 * Being a pure function of the conversation (program.ts), it redoes every
 * write it finds in the user's messages whenever the conversation lost its
 * tool calls: after the engine's compaction its summary still quotes the
 * user's messages (../engine-compaction.ts), so the writes happen again, and
 * a check counting them in the turn after the compaction sees it.
 */
import { STYLE_FILE } from './asks-user.js';
import type { ScriptedPolicy } from './policy.js';
import { call, type PolicyProgram } from './program.js';
import { bash, shellQuote } from './tools.js';

const repoLine = /^Repository: (\/\S+)$/m;
const styles = /\b(plain-greeting|fancy-greeting)\b/g;

function* followsTurns(label: string, promptText: string): PolicyProgram {
  const repo = repoLine.exec(promptText)?.[1];
  if (repo === undefined) {
    return `${label} needs a "Repository: /abs/repo" line in the prompt; no tools were run.`;
  }
  const named = [...promptText.matchAll(styles)].map((found) => found[1] ?? '');
  for (const style of named) {
    yield* call(
      bash(
        `cd ${shellQuote(repo)} && printf '%s\\n' ${shellQuote(style)} > ${STYLE_FILE}`,
        `Write the ${style}`,
      ),
    );
  }
  const last = named.at(-1);
  return last === undefined ? 'Nothing to change.' : `Wrote ${STYLE_FILE}: ${last}.`;
}

export const followsTurnsPolicy: ScriptedPolicy = {
  name: 'follows-turns',
  summary:
    'conversations: writes each greeting style the user names, in order, and replies without a question',
  program: (request) => followsTurns(request.label, request.promptText),
};
