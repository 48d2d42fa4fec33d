/**
 * Which task of a plan a subagent dispatch addresses, read from its input:
 * its description first; then the scenario's rules for dispatches that
 * address no task of the plan (a whole-branch review: `none`); then a file
 * of the plan it names, by the scenario's patterns (a brief in the plan's own
 * workspace; another plan's brief is not this plan's task); then what its
 * prompt asks to be done (dispatch-work.ts): the task its opening names, the
 * one task brief it points at (when the scenario declares no brief files of
 * its own), a review of a git range or of the whole branch (`none`: no
 * task's), and only then the first task the prompt mentions anywhere.
 *
 * In the description and in the prompt the first mention decides: a mention
 * of exactly one task of the plan (by number or title, however markdown
 * decorates it), or one of the scenario's `none` phrases ("the whole-branch
 * review"), which reads as addressing no single task. So a prompt that opens
 * with its task and goes on to mention a later review still addresses its
 * task, and a whole-branch review that quotes ledger lines about tasks still
 * reads as the review. A `none` phrase that is negated ("this is not the
 * whole-branch review") is no mention; a number the plan has no task for is
 * no mention of it; sentences about another plan are skipped.
 */

import { sentencesOf } from '../../../../harness/score/extractors/language/clauses.js';
import type { Attribution } from './attribution.js';
import {
  addressesNoTask,
  type DispatchConventions,
  NO_CONVENTIONS,
  taskFromFiles,
} from './dispatch-conventions.js';
import {
  asksReview,
  briefTask,
  namesGitRange,
  openingOf,
  reviewsWholeBranch,
} from './dispatch-work.js';
import type { TaskReadingOptions } from './task-answer.js';
import { findTaskGroups } from './task-numbers.js';

/** A comma and "then" that begin the next action of an instruction. */
const THEN_ACTION = /,\s+(?:and\s+)?then\s+/gi;

/** Words that deny the phrase after them: "not the whole-branch review", "unlike the final review". */
const NEGATED_BEFORE =
  /(?:\bnot|n't|\bnever|\bno|\bunlike|\brather\s+than|\binstead\s+of|\bnor)\s+(?:[\w-]+\s+){0,3}$/;

type Mention = number | 'none';

/** Whether `task` can be a task of a plan with `taskCount` tasks (any, when the count is unknown). */
function inPlan(task: number | undefined, taskCount: number | undefined): boolean {
  return task !== undefined && task >= 1 && (taskCount === undefined || task <= taskCount);
}

/** The first single-task mention or `none` phrase in `text` that is not about another plan. */
function firstMention(
  text: string,
  attribution: Attribution,
  options: TaskReadingOptions,
): Mention | undefined {
  // ", then …" starts another action: a sentence about another plan's files
  // ("read plan Q's brief to see how it was done, then implement Task 1")
  // does not take the action after it along.
  for (const sentence of sentencesOf(text.replace(THEN_ACTION, '. Then '))) {
    if (attribution.isForeign(sentence.text)) continue;
    for (const clause of sentence.clauses) {
      if (attribution.isForeign(clause.withQualifiers)) continue;
      const task = findTaskGroups(clause.text, options).find(
        (candidate) =>
          candidate.numbers.length === 1 &&
          inPlan(candidate.numbers[0], options.taskCount) &&
          (candidate.form === 'task-word' ||
            candidate.form === 'title' ||
            candidate.form === 'ordinal'),
      );
      const none = firstNonePhrase(clause.text, options.nonePatterns ?? []);
      if (task?.numbers[0] !== undefined && (none === undefined || task.start <= none)) {
        return task.numbers[0];
      }
      if (none !== undefined) return 'none';
    }
  }
  return undefined;
}

/** Where the first `none` phrase that is not negated starts in a clause, if any. */
function firstNonePhrase(clause: string, patterns: readonly RegExp[]): number | undefined {
  let first: number | undefined;
  for (const pattern of patterns) {
    const global = new RegExp(
      pattern.source,
      pattern.flags.includes('g') ? pattern.flags : `${pattern.flags}g`,
    );
    for (const found of clause.matchAll(global)) {
      if (NEGATED_BEFORE.test(clause.slice(Math.max(0, found.index - 40), found.index))) continue;
      if (first === undefined || found.index < first) first = found.index;
      break;
    }
  }
  return first;
}

/** The task a dispatch addresses, `none` when it addresses none, undefined when it cannot be told. */
export function readDispatchTask(
  input: {
    readonly description: string | null;
    readonly prompt: string | null;
    readonly subagentType?: string | null | undefined;
  },
  attribution: Attribution,
  options: TaskReadingOptions,
  conventions: DispatchConventions = NO_CONVENTIONS,
): Mention | undefined {
  const description = input.description ?? '';
  const prompt = input.prompt ?? '';
  const fromDescription = firstMention(description, attribution, options);
  if (fromDescription !== undefined) return fromDescription;
  if (addressesNoTask({ ...input, subagentType: input.subagentType ?? null }, conventions.noTask)) {
    return 'none';
  }
  const file =
    taskFromFiles(prompt, conventions.taskFiles, options.taskCount) ??
    taskFromFiles(description, conventions.taskFiles, options.taskCount);
  if (file !== undefined) return file;
  return promptWork(prompt, attribution, options, conventions.taskFiles.length > 0);
}

/** The task the prompt asks to be worked on, by where it says so (dispatch-work.ts). */
function promptWork(
  prompt: string,
  attribution: Attribution,
  options: TaskReadingOptions,
  scenarioNamesBriefs: boolean,
): Mention | undefined {
  const opening = openingOf(prompt);
  const opened = firstMention(opening, attribution, options);
  if (opened !== undefined) return opened;
  const brief = scenarioNamesBriefs ? undefined : briefTask(prompt, options.taskCount);
  if (brief !== undefined) return brief;
  if (asksReview(opening) && (namesGitRange(prompt) || reviewsWholeBranch(opening))) return 'none';
  return firstMention(prompt, attribution, options);
}
