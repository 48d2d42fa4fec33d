/**
 * Scripted controllers that ask the human before they act, for the scripted
 * user of full sessions (`stop: complete`, harness/score/scripted-user.ts).
 * Their prompt names the repository (`Repository: /abs/repo`); the question
 * is which greeting style to write, `plain-greeting` or `fancy-greeting`, and
 * the answer decides what they write to `greeting-style.txt` there:
 *
 * - `asks-user-tool` asks with `AskUserQuestion` before doing anything; an
 *   answer naming a style writes that style, any other answer (the default
 *   "Your call …") writes `own-call`, a refused question `no-answer`;
 * - `asks-user-reply` replies with the question and stops; once an answer
 *   naming a style is in the conversation it writes that style and reports,
 *   and while none is (a default answer) it asks again, so a scripted user's
 *   answer limit ends it.
 *
 * The answer is read from the conversation's user text (the question tool's
 * result, or the user's next message), so the program stays a pure function
 * of the conversation, as every policy is (program.ts).
 */
import type { ScriptedPolicy } from './policy.js';
import { call, type PolicyProgram } from './program.js';
import { bash, shellQuote } from './tools.js';

type AsksUserPolicyName = 'asks-user-tool' | 'asks-user-reply';

/** The question both ask. */
export const GREETING_QUESTION =
  'Which greeting style should I write: plain-greeting or fancy-greeting?';
export const STYLE_FILE = 'greeting-style.txt';

const repoLine = /^Repository: (\/\S+)$/m;
const styleNamed = /\b(plain-greeting|fancy-greeting)\b/;

function asksUserPolicy(name: AsksUserPolicyName, summary: string): ScriptedPolicy {
  return {
    name,
    summary,
    program: (request) =>
      asksUserProgram(name, request.label, request.promptText, request.offeredTools),
  };
}

export const asksUserToolPolicy = asksUserPolicy(
  'asks-user-tool',
  'scripted user: asks the greeting style with AskUserQuestion, then writes what the answer says',
);

export const asksUserReplyPolicy = asksUserPolicy(
  'asks-user-reply',
  'scripted user: replies with a question, writes the style an answer names, asks again otherwise',
);

/** The style an answer names, if it names one. */
function styleIn(text: string): string | undefined {
  return styleNamed.exec(text)?.[1];
}

function* writeStyle(label: string, repo: string, style: string): PolicyProgram {
  const wrote = yield* call(
    bash(
      `cd ${shellQuote(repo)} && printf '%s\\n' ${shellQuote(style)} > ${STYLE_FILE}`,
      'Write the greeting style',
    ),
  );
  return wrote.isError
    ? `${label} could not write ${STYLE_FILE}.`
    : `Wrote ${STYLE_FILE}: ${style}.`;
}

/**
 * The program of an asking policy. `promptText` is every user text of the
 * conversation (the prompt, then any answer the user gave in a message).
 */
function* asksUserProgram(
  policy: AsksUserPolicyName,
  label: string,
  promptText: string,
  offeredTools: ReadonlySet<string>,
): PolicyProgram {
  const repo = repoLine.exec(promptText)?.[1];
  if (repo === undefined) {
    return `${label} needs a "Repository: /abs/repo" line in the prompt; no tools were run.`;
  }
  if (policy === 'asks-user-reply') {
    const style = styleIn(promptText);
    if (style === undefined) return `Before I start: ${GREETING_QUESTION}`;
    return yield* writeStyle(label, repo, style);
  }
  if (!offeredTools.has('AskUserQuestion')) return yield* writeStyle(label, repo, 'no-answer');
  const asked = yield* call({
    name: 'AskUserQuestion',
    input: {
      questions: [
        {
          question: GREETING_QUESTION,
          header: 'Greeting',
          options: [
            { label: 'plain-greeting', description: 'A plain "Hello, <name>."' },
            { label: 'fancy-greeting', description: 'A warm, decorated greeting' },
          ],
          multiSelect: false,
        },
      ],
    },
  });
  // The result quotes the question (which names both styles) before its answer.
  const answer = asked.text.split(GREETING_QUESTION).at(-1) ?? '';
  const style = asked.isError ? 'no-answer' : (styleIn(answer) ?? 'own-call');
  return yield* writeStyle(label, repo, style);
}
