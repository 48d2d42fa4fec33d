/**
 * Which task of a plan a subagent dispatch addresses, read from its input:
 * its description first, then a brief file it points at (`task-3-brief.md`,
 * `task_3.md`), then its prompt. The first mention of exactly one task of the
 * plan decides (a prompt that goes on to mention a later review or earlier
 * tasks still addresses the task it opened with); sentences about another
 * plan are skipped. With no task at all, the scenario's `none` phrases say
 * whether it addresses no task (a whole-branch review, say).
 */
import type { Attribution } from './attribution.js';
import { sentencesOf } from './clauses.js';
import type { TaskReadingOptions } from './task-answer.js';
import { findTaskGroups } from './task-numbers.js';

/** A file name that carries a task number: `task-3-brief.md`, `task_3.md`, `task3-notes.txt`. */
const TASK_FILE = /(?:^|[/\s"'`(])task[-_]?(\d{1,3})(?:[-_.][\w.-]*)?\.(?:md|txt|json)\b/i;

/** The first single-task mention in `text` that is not about another plan, if any. */
function firstTask(
  text: string,
  attribution: Attribution,
  options: TaskReadingOptions,
): number | undefined {
  for (const sentence of sentencesOf(text)) {
    if (attribution.isForeign(sentence.text)) continue;
    for (const clause of sentence.clauses) {
      if (attribution.isForeign(clause.withQualifiers)) continue;
      const group = findTaskGroups(clause.text, options).find(
        (candidate) =>
          candidate.numbers.length === 1 &&
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
  input: { readonly description: string | null; readonly prompt: string | null },
  attribution: Attribution,
  options: TaskReadingOptions,
): number | 'none' | undefined {
  const description = input.description ?? '';
  const prompt = input.prompt ?? '';
  const fromDescription = firstTask(description, attribution, options);
  if (fromDescription !== undefined) return fromDescription;
  const file = TASK_FILE.exec(prompt) ?? TASK_FILE.exec(description);
  if (file?.[1] !== undefined) return Number(file[1]);
  const fromPrompt = firstTask(prompt, attribution, options);
  if (fromPrompt !== undefined) return fromPrompt;
  const text = `${description}\n${prompt}`.toLowerCase();
  if ((options.nonePatterns ?? []).some((pattern) => pattern.test(text))) return 'none';
  return undefined;
}
