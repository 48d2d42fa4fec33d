/**
 * Which task of a plan a subagent dispatch addresses, read from its input:
 * its description first, then the brief file it points at
 * (`task-3-brief.md`), then its prompt. In the description and in the
 * prompt the first mention decides: a mention of exactly one task of the
 * plan (by number or title, however markdown decorates it), or one of the
 * scenario's `none` phrases ("the whole-branch review"), which reads as
 * addressing no single task. So a prompt that opens with its task and goes
 * on to mention a later review still addresses its task, and a whole-branch
 * review that quotes ledger lines about tasks still reads as the review. A
 * `none` phrase that is negated ("this is not the whole-branch review") is
 * no mention; sentences about another plan are skipped.
 *
 * Task files count only when they say one thing: brief files
 * (`task-N-brief.md`) when the input names any, else other task files
 * (`task_3.md`, `task-3-report.md`); files naming different tasks decide
 * nothing.
 */
import type { Attribution } from './attribution.js';
import { sentencesOf } from './clauses.js';
import type { TaskReadingOptions } from './task-answer.js';
import { findTaskGroups } from './task-numbers.js';

/** A file name that carries a task number: `task-3-brief.md`, `task_3.md`, `task3-notes.txt`. */
const TASK_FILE = /(?:^|[/\s"'`(*[])task[-_]?(\d{1,3})((?:[-_.][\w.-]*)?)\.(?:md|txt|json)\b/gi;

/** Words that deny the phrase after them: "not the whole-branch review", "unlike the final review". */
const NEGATED_BEFORE =
  /(?:\bnot|n't|\bnever|\bno|\bunlike|\brather\s+than|\binstead\s+of|\bnor)\s+(?:[\w-]+\s+){0,3}$/;

type Mention = number | 'none';

/** The first single-task mention or `none` phrase in `text` that is not about another plan. */
function firstMention(
  text: string,
  attribution: Attribution,
  options: TaskReadingOptions,
): Mention | undefined {
  for (const sentence of sentencesOf(text)) {
    if (attribution.isForeign(sentence.text)) continue;
    for (const clause of sentence.clauses) {
      if (attribution.isForeign(clause.withQualifiers)) continue;
      const task = findTaskGroups(clause.text, options).find(
        (candidate) =>
          candidate.numbers.length === 1 &&
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

/** The one task the input's task files name: brief files first; undefined when none or several. */
function taskFromFiles(text: string): number | undefined {
  const files = [...text.matchAll(TASK_FILE)].map((found) => ({
    task: Number(found[1]),
    brief: /brief/i.test(found[2] ?? ''),
  }));
  const briefs = files.filter((file) => file.brief);
  const pool = briefs.length > 0 ? briefs : files;
  const tasks = new Set(pool.map((file) => file.task));
  return tasks.size === 1 ? [...tasks][0] : undefined;
}

/** The task a dispatch addresses, `none` when it addresses none, undefined when it cannot be told. */
export function readDispatchTask(
  input: { readonly description: string | null; readonly prompt: string | null },
  attribution: Attribution,
  options: TaskReadingOptions,
): Mention | undefined {
  const description = input.description ?? '';
  const prompt = input.prompt ?? '';
  const fromDescription = firstMention(description, attribution, options);
  if (fromDescription !== undefined) return fromDescription;
  const file = taskFromFiles(prompt) ?? taskFromFiles(description);
  if (file !== undefined) return file;
  return firstMention(prompt, attribution, options);
}
