/**
 * `task`: the one task of a named plan a section puts forward (a number), or
 * `none` when it says nothing is left. Tasks the reply claims done in another
 * section (`after`) are set aside when the answer names them before the next
 * one; an answer with alternatives, or one that contradicts itself, cannot be
 * read.
 */
import { z } from 'zod';
import { defineExtractor, quoteOf } from '../../../../harness/score/extractors/extractor.js';
import { nameSchema, regexSource } from '../../../../harness/score/param-types.js';
import { catalogueOf, sectionPlanOf } from '../known-plans.js';
import { readFirstDispatch } from '../language/task-answer.js';
import { planReadingContext } from '../plan-context.js';
import { describeTask, taskRangeProblem } from '../task-values.js';
import type { TasksValue } from './tasks.js';

/** What a task section reads: one task number, or none. */
export interface TaskValue {
  readonly kind: 'task';
  readonly task: number | 'none';
}

export const taskExtractor = defineExtractor({
  summary:
    'one task number of a named plan (by number, range word, title or alias), or none; alternatives are unreadable',
  params: z
    .object({
      kind: z.literal('task'),
      /** The plan whose tasks are read (a path of the `plans` catalogue or a placeholder). */
      plan: z.string().min(1).default('{{ownPlan}}'),
      /** Other plans whose task numbers and titles are set aside as not this plan's. */
      otherPlans: z.array(z.string().min(1)).default(['{{foreignPlans}}']),
      /** A `tasks` section whose claimed tasks this answer may name as done before the next one. */
      after: nameSchema.optional(),
      /** Further phrases (regular expressions over lower-case text) that mean "no task is next". */
      none: z.array(regexSource).default([]),
      /** Further nouns (regular expressions) that make a number a count, not a task (`2 records`). */
      countNouns: z.array(regexSource).default([]),
    })
    .strict(),
  value: z
    .object({ kind: z.literal('task'), task: z.union([z.number().int(), z.literal('none')]) })
    .strict() as z.ZodType<TaskValue>,
  empty: undefined,
  shown: (value: TaskValue) => (value.task === 'none' ? 'none' : `Task ${value.task}`),
  scalar: (value: TaskValue) => ({ said: value.task, observed: describeTask(value.task) }),
  valuesProblem: (field, section, values, context) => {
    const word = values.find((value) => typeof value === 'string' && value !== 'none');
    if (word !== undefined) {
      return {
        field,
        problem: `"${word}" is no task: the "${section}" section reads a task number or none`,
        fix: 'use task numbers or none',
      };
    }
    return taskRangeProblem(
      field,
      values.filter(
        (value): value is number | 'none' => value === 'none' || typeof value === 'number',
      ),
      sectionPlanOf(context, section),
      true,
    );
  },
  earlierKind: 'tasks',
  dependsOn: (params) => (params.after === undefined ? [] : [params.after]),
  extract: (section, params, context) => {
    const { attribution, options } = planReadingContext(
      catalogueOf(context.scenario),
      params.plan,
      params.otherPlans,
      params,
    );
    const earlier = params.after === undefined ? undefined : context.earlier[params.after];
    const claimed =
      earlier?.ok === true && earlier.value.kind === 'tasks'
        ? (earlier.value as TasksValue).tasks
        : [];
    const task = readFirstDispatch(section, attribution, options, claimed);
    if (task === undefined) {
      return {
        ok: false,
        why: 'names no recognisable task and does not say none (or offers alternatives, or contradicts itself)',
      };
    }
    return { ok: true, value: { kind: 'task' as const, task }, quote: quoteOf(section) };
  },
});
