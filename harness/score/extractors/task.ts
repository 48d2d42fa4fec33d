/**
 * `task`: the one task of a named plan a section puts forward (a number), or
 * `none` when it says nothing is left. Tasks the reply claims done in another
 * section (`after`) are set aside when the answer names them before the next
 * one; an answer with alternatives, or one that contradicts itself, cannot be
 * read.
 */
import { z } from 'zod';
import { nameSchema, regexSource } from '../param-types.js';
import { defineExtractor, quoteOf } from './extractor.js';
import { readFirstDispatch } from './language/task-answer.js';
import { planReadingContext } from './plan-context.js';

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
  empty: undefined,
  dependsOn: (params) => (params.after === undefined ? [] : [params.after]),
  extract: (section, params, context) => {
    const { attribution, options } = planReadingContext(
      context.catalogue,
      params.plan,
      params.otherPlans,
      params,
    );
    const earlier = params.after === undefined ? undefined : context.earlier[params.after];
    const claimed =
      earlier?.ok === true && earlier.value.kind === 'tasks' ? earlier.value.tasks : [];
    const task = readFirstDispatch(section, attribution, options, claimed);
    if (task === undefined) {
      return {
        ok: false,
        why: 'names no recognisable task and does not say none (or offers alternatives, or contradicts itself)',
      };
    }
    return { ok: true, value: { kind: 'task', task }, quote: quoteOf(section) };
  },
});
