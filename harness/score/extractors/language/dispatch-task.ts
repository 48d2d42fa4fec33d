/**
 * Which task of a plan a subagent dispatch addresses, read from its input:
 * its description first; then the scenario's rules for dispatches that
 * address no task of the plan (a whole-branch review: `none`); then a file
 * of the plan it names, by the scenario's patterns (a brief in the plan's own
 * workspace; another plan's brief is not this plan's task); then its prompt.
 * The first mention of exactly one task of the plan decides (a prompt that
 * goes on to mention a later review or earlier tasks still addresses the task
 * it opened with); a number the plan has no task for is no mention of it, and
 * sentences about another plan are skipped. With no task at all, the
 * scenario's `none` phrases say whether it addresses no task.
 */
import type { Attribution } from './attribution.js';
import { sentencesOf } from './clauses.js';
import {
  addressesNoTask,
  type DispatchConventions,
  NO_CONVENTIONS,
  taskFromFiles,
} from './dispatch-conventions.js';
import type { TaskReadingOptions } from './task-answer.js';
import { findTaskGroups } from './task-numbers.js';

/** A comma and "then" that begin the next action of an instruction. */
const THEN_ACTION = /,\s+(?:and\s+)?then\s+/gi;

/** Whether `task` can be a task of a plan with `taskCount` tasks (any, when the count is unknown). */
function inPlan(task: number | undefined, taskCount: number | undefined): boolean {
  return task !== undefined && task >= 1 && (taskCount === undefined || task <= taskCount);
}

/** The first single-task mention in `text` that is not about another plan, if any. */
function firstTask(
  text: string,
  attribution: Attribution,
  options: TaskReadingOptions,
): number | undefined {
  // ", then …" starts another action: a sentence about another plan's files
  // ("read plan Q's brief to see how it was done, then implement Task 1")
  // does not take the action after it along.
  for (const sentence of sentencesOf(text.replace(THEN_ACTION, '. Then '))) {
    if (attribution.isForeign(sentence.text)) continue;
    for (const clause of sentence.clauses) {
      if (attribution.isForeign(clause.withQualifiers)) continue;
      const group = findTaskGroups(clause.text, options).find(
        (candidate) =>
          candidate.numbers.length === 1 &&
          inPlan(candidate.numbers[0], options.taskCount) &&
          (candidate.form === 'task-word' ||
            candidate.form === 'title' ||
            candidate.form === 'ordinal'),
      );
      if (group?.numbers[0] !== undefined) return group.numbers[0];
    }
  }
  return undefined;
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
): number | 'none' | undefined {
  const description = input.description ?? '';
  const prompt = input.prompt ?? '';
  const fromDescription = firstTask(description, attribution, options);
  if (fromDescription !== undefined) return fromDescription;
  if (addressesNoTask({ ...input, subagentType: input.subagentType ?? null }, conventions.noTask)) {
    return 'none';
  }
  const file =
    taskFromFiles(prompt, conventions.taskFiles, options.taskCount) ??
    taskFromFiles(description, conventions.taskFiles, options.taskCount);
  if (file !== undefined) return file;
  const fromPrompt = firstTask(prompt, attribution, options);
  if (fromPrompt !== undefined) return fromPrompt;
  const text = `${description}\n${prompt}`.toLowerCase();
  if ((options.nonePatterns ?? []).some((pattern) => pattern.test(text))) return 'none';
  return undefined;
}
