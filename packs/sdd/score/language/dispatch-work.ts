/**
 * What a dispatch's prompt asks to be done, read from the places a
 * controller puts it, not from whatever task number it happens to mention
 * first (a final review quotes earlier tasks' ledger lines; an implementer
 * is told what earlier tasks already built):
 *
 * - its opening: the first paragraph, where the role and the imperative are
 *   ("You are implementing Task 3: …", "You are a senior code reviewer …
 *   Your job is to review …");
 * - the brief it points at: a file whose name says it is one task's brief
 *   (`task-3-brief.md`, `brief-task-3.md`);
 * - the git range it reviews: `git diff A..B`, `A...B`, or **Base:** /
 *   **Head:** lines, with a review asked for in the opening;
 * - a review of the branch as a whole asked for in the opening ("review
 *   the whole branch", "the entire implementation", "all the commits").
 *
 * Generic language only: what one skill names its files or reviews is the
 * scenario's (dispatch-conventions.ts).
 */
import { withoutEmphasis } from '../../../../harness/score/extractors/language/markdown.js';

/** A label a controller puts before its instruction (`CHILD TASK:`, `Goal:`). */
const LABEL = /^(?:[A-Z][A-Z ]{2,}|(?:task|goal|objective|assignment|instructions?))\s*:\s*/i;

/** A sentence that gives the subagent its role or its work: "You are …", "Your job is …", an imperative. */
const INSTRUCTION =
  /^(?:(?:please|now|next|first)[,\s]+)?(?:you\s+are|you['’]re|you\s+will|your\s+(?:job|task|role|work|assignment)|(?:implement|fix|review|re-review|audit|write|add|build|refactor|update|create|investigate|triage|check|verify|test|run|read|do|make|complete|continue|finish|address|resolve|start|begin|handle|work\s+on|take\s+on)\b)/i;

/**
 * The prompt's opening: the sentences of its first paragraph (after any
 * heading lines; at most three) that give the subagent its role or its work.
 * Sentences of context ("Task 1 and Task 2 are done") are no part of it.
 */
export function openingOf(prompt: string): string {
  const paragraph =
    withoutEmphasis(prompt)
      .split(/\n\s*\n/)
      .map((part) =>
        part
          .split('\n')
          .filter((line) => !/^\s*#{1,6}\s/.test(line))
          .join('\n')
          .trim(),
      )
      .find((part) => part !== '') ?? '';
  return paragraph
    .split(/\n|(?<=[.!?])\s+(?=[A-Z`*_("'[])/)
    .slice(0, 3)
    .map((sentence) => sentence.trim())
    .filter((sentence) => INSTRUCTION.test(sentence.replace(LABEL, '')))
    .join(' ');
}

/** A file name that says it is one task's brief: `task-3-brief.md`, `task_3.brief.md`, `brief-task-3.md`. */
const BRIEF_FILE =
  /(?:^|[\s/"'`(])(?:[\w.-]*[-_.])?(?:task[-_]?(\d+)[-_.](?:[\w-]*[-_.])?brief|brief[-_.](?:[\w-]*[-_.])?task[-_]?(\d+))[\w.-]*\.(?:md|txt)\b/gi;

/** The one task the briefs the prompt points at are for; undefined when none, or several. */
export function briefTask(prompt: string, taskCount: number | undefined): number | undefined {
  const tasks = new Set<number>();
  for (const found of prompt.matchAll(BRIEF_FILE)) {
    const task = Number(found[1] ?? found[2]);
    if (Number.isInteger(task) && task >= 1 && (taskCount === undefined || task <= taskCount)) {
      tasks.add(task);
    }
  }
  return tasks.size === 1 ? [...tasks][0] : undefined;
}

/**
 * A revision a range names: a hash, a placeholder (`BASE_SHA`, `{HEAD}`,
 * `[BASE_SHA]`), `HEAD` (`HEAD~3`), or a trunk branch (`main`, `origin/main`).
 */
const REVISION = String.raw`(?:[0-9a-f]{7,40}|[A-Z][A-Z0-9_]*SHA|\{\w+\}|\[\w+\]|HEAD(?:[~^]\d*)?|(?:origin/)?(?:main|master|trunk|develop))`;
const RANGE = new RegExp(
  String.raw`(?:^|[\s\`'"(])${REVISION}\.\.\.?${REVISION}(?=$|[\s\`'").,;:])`,
  'm',
);
const BASE_AND_HEAD = /^\W*base(?:\s+sha)?\W*:\s*\S+[\s\S]*?^\W*head(?:\s+sha)?\W*:\s*\S+/im;

/** Whether the prompt names a git range (a diff of two revisions) for its subagent to look at. */
export function namesGitRange(prompt: string): boolean {
  const text = withoutEmphasis(prompt);
  return BASE_AND_HEAD.test(text) || RANGE.test(text);
}

/** A review asked for: the verb, or the reviewer's role. */
const ASKS_REVIEW = /\b(?:review|reviewing|reviewer|re-review|audit|inspect)\b/i;

/** An opening that says its work is one task's, though it does not say which ("one task's implementation"). */
const ONE_TASK = /\b(?:one|this|a|single|each)\s+task(?:['’]s)?\b|\btask[-\s]scoped\b/i;

/** Whether the opening asks for a review that is not said to be one task's. */
export function asksReview(opening: string): boolean {
  return ASKS_REVIEW.test(opening) && !ONE_TASK.test(opening);
}

/** The object of a review that is the branch as a whole, not one task. */
const WHOLE_BRANCH =
  /\b(?:review|reviewing|reviewer)\b[^.\n]{0,80}?\b(?:(?:the|this)\s+(?:whole|entire|full|complete)\s+(?:branch|implementation|feature|change\s*set|diff|work)|(?:the\s+)?whole[-\s]branch|(?:the|this)\s+branch\b(?!['’]s)|all\s+(?:the\s+)?(?:tasks|commits|changes)|every\s+(?:task|commit))/i;

/** Whether the opening asks for a review of the branch as a whole. */
export function reviewsWholeBranch(opening: string): boolean {
  return WHOLE_BRANCH.test(withoutEmphasis(opening));
}
