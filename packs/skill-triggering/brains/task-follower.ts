/**
 * `task-follower`: an offline brain for a skill's own evals, doing what a
 * simple eval prompt asks: write the file it names with the content it
 * names (``Create `notes.txt` containing `Hello` ``), in the working
 * directory, and reply saying what it wrote. Before that it finds the skill
 * as the session was given it: through the Skill tool when a library is
 * installed (the listed skill whose description shares the most words with
 * the request, as `skill-trigger` picks one; fewer than MIN_OVERLAP shared
 * words: none), or by reading the SKILL.md of a skill directory the prompt
 * names. It then follows the loaded text's rules about what it writes:
 *
 * - "Start every file you write with the line `X`." / "End every file you
 *   write with the line `X`.";
 * - "End your reply with `X`." / "Mention `X` in your reply.";
 * - "Run `CMD` after writing a file." (in the working directory).
 *
 * A request it cannot read (no file named with its content) gets a reply
 * saying so and no further call (the skill it picked, if any, is loaded
 * first: on a trigger query it acts as `skill-trigger` does). Everything is read from the conversation, so
 * the program is a pure function of it.
 */
import {
  type ConversationText,
  userRequest,
  workingDirectory,
} from '../../../harness/model-server/conversation-text.js';
import type { ScriptedPolicy } from '../../../harness/model-server/policies/policy.js';
import {
  call,
  type PolicyProgram,
  type SubProgram,
} from '../../../harness/model-server/policies/program.js';
import { bash, fileText, read, shellQuote } from '../../../harness/model-server/policies/tools.js';
import { listedSkills, loadedText, MIN_OVERLAP, rankSkills, writeCall } from './skill-trigger.js';

export const taskFollowerPolicy: ScriptedPolicy = {
  name: 'task-follower',
  summary:
    'writes the files a simple eval prompt names with the content it names, after finding the skill (Skill tool, or the SKILL.md the prompt names) and following its rules on files and replies',
  program: (request) =>
    taskFollowerProgram(request.label, request.conversation, request.offeredTools),
};

const QUOTED = String.raw`(?:\x60([^\x60]+)\x60|"([^"]+)")`;
const QUOTED_BODY = String.raw`(?:\x60([^\x60]*)\x60|"([^"]*)")`;

/** The files a request asks for, each with its content: "create `a.txt` containing `x`". */
export function requestedFiles(request: string): { path: string; content: string }[] {
  const ask = new RegExp(
    String.raw`\b(?:write|create|save|make|add)\s+(?:an?\s+|the\s+)?(?:new\s+)?(?:file\s+)?(?:called\s+|named\s+)?${QUOTED}\s+(?:containing|with(?:\s+the)?\s+(?:content|contents|text|line)|that\s+(?:says|reads|contains))\s+${QUOTED_BODY}`,
    'gi',
  );
  const files: { path: string; content: string }[] = [];
  for (const found of request.matchAll(ask)) {
    const file = found[1] ?? found[2] ?? '';
    if (!/^[\w./-]+$/.test(file) || file.startsWith('/') || file.split('/').includes('..'))
      continue;
    files.push({ path: file, content: found[3] ?? found[4] ?? '' });
  }
  return files;
}

/** What the loaded skill text's rules say about files, replies and commands. */
export interface TaskRules {
  readonly firstLine: string | undefined;
  readonly lastLine: string | undefined;
  readonly replyEnd: string | undefined;
  readonly mentions: readonly string[];
  readonly runAfter: readonly string[];
}

function quotedAfter(line: string, lead: RegExp): string | undefined {
  const found = new RegExp(`${lead.source}\\s*${QUOTED_BODY}`, 'i').exec(line);
  return found === null ? undefined : (found[1] ?? found[2]);
}

export function taskRules(text: string | undefined): TaskRules {
  const lines = (text ?? '').split('\n');
  const first = (lead: RegExp) =>
    lines.map((line) => quotedAfter(line, lead)).find((value) => value !== undefined);
  const all = (lead: RegExp) =>
    lines.map((line) => quotedAfter(line, lead)).filter((value) => value !== undefined);
  return {
    firstLine: first(/\bstart every file you write with the line/),
    lastLine: first(/\bend every file you write with the line/),
    replyEnd: first(/\bend your reply with/),
    mentions: all(/\bmention/).filter((value) => value !== ''),
    runAfter: lines
      .map((line) => /\brun\s+`([^`]+)`\s+after writing/i.exec(line)?.[1])
      .filter((value): value is string => value !== undefined),
  };
}

/** A skill directory the prompt names: the directory of an absolute `…/SKILL.md` path in it. */
function namedSkillDir(request: string): string | undefined {
  return /(\/[^\s`'"]+?)\/SKILL\.md\b/.exec(request)?.[1];
}

/** Find the skill as the session was given it, and read its rules. */
function* findSkill(
  conversation: ConversationText,
  offered: ReadonlySet<string>,
): SubProgram<TaskRules> {
  const request = userRequest(conversation);
  const listed = listedSkills(
    [conversation.system, ...conversation.userMessages.flat()].join('\n\n'),
  );
  if (listed.length > 0 && offered.has('Skill')) {
    const [best] = rankSkills(listed, request);
    if (best === undefined || best.score < MIN_OVERLAP) return taskRules(undefined);
    yield* call({ name: 'Skill', input: { skill: best.skill.name } });
    return taskRules(loadedText(conversation));
  }
  const dir = namedSkillDir(request);
  if (dir === undefined || !offered.has('Read')) return taskRules(undefined);
  const outcome = yield* call(read(`${dir}/SKILL.md`));
  return taskRules(outcome.isError ? undefined : fileText(outcome));
}

function* taskFollowerProgram(
  label: string,
  conversation: ConversationText,
  offered: ReadonlySet<string>,
): PolicyProgram {
  const repo = workingDirectory(conversation.system);
  if (repo === undefined)
    return `${label} found no working directory in what it was sent; no tools were run.`;
  // The skill first, as a model with skills picks one before it works (a trigger probe stops here).
  const rules = yield* findSkill(conversation, offered);
  const files = requestedFiles(userRequest(conversation));
  if (files.length === 0) {
    return `${label} reads only requests that name a file and its content; this one names none, so nothing was done.`;
  }
  for (const file of files) {
    const content = [rules.firstLine, file.content, rules.lastLine]
      .filter((line) => line !== undefined)
      .join('\n');
    yield* call(writeCall(offered, repo, file.path, `${content}\n`));
    for (const command of rules.runAfter) {
      yield* call(bash(`cd ${shellQuote(repo)} && ${command}`, `Run ${command}`));
    }
  }
  return [
    `Wrote ${files.map((file) => `\`${file.path}\``).join(', ')}.`,
    ...rules.mentions,
    ...(rules.replyEnd === undefined ? [] : [rules.replyEnd]),
  ].join('\n');
}
