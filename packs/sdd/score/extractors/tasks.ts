/**
 * `tasks`: the set of a named plan's tasks a section claims (done, say).
 * Another plan's numbers and titles are set aside; "none", "N/A", "0 of 5"
 * read as the empty set; "everything" is every task less those it excepts.
 */
import { z } from 'zod';
import { defineExtractor, quoteOf } from '../../../../harness/score/extractors/extractor.js';
import { regexSource } from '../../../../harness/score/param-types.js';
import { catalogueOf } from '../known-plans.js';
import { readClaimedComplete } from '../language/task-answer.js';
import { planReadingContext } from '../plan-context.js';

/** What a tasks section reads: the set of task numbers it claims. */
export interface TasksValue {
  readonly kind: 'tasks';
  readonly tasks: readonly number[];
}

export const tasksExtractor = defineExtractor({
  summary: 'a set of task numbers of a named plan (lists, ranges, titles, "all", "none")',
  params: z
    .object({
      kind: z.literal('tasks'),
      plan: z.string().min(1).default('{{ownPlan}}'),
      otherPlans: z.array(z.string().min(1)).default(['{{foreignPlans}}']),
      countNouns: z.array(regexSource).default([]),
    })
    .strict(),
  value: z
    .object({ kind: z.literal('tasks'), tasks: z.array(z.number().int()) })
    .strict() as z.ZodType<TasksValue>,
  empty: undefined,
  shown: (value: TasksValue) => (value.tasks.length === 0 ? 'none' : value.tasks.join(' ')),
  dependsOn: () => [],
  extract: (section, params, context) => {
    const { attribution, options } = planReadingContext(
      catalogueOf(context.scenario),
      params.plan,
      params.otherPlans,
      params,
    );
    const reading = readClaimedComplete(section, attribution, options);
    if (reading.answer === 'unreadable') {
      return { ok: false, why: 'names no recognisable task and does not say none' };
    }
    return {
      ok: true,
      value: { kind: 'tasks' as const, tasks: reading.claimed },
      quote: quoteOf(section),
    };
  },
});
