/**
 * `tasks`: the set of a named plan's tasks a section claims (done, say).
 * Another plan's numbers and titles are set aside; "none", "N/A", "0 of 5"
 * read as the empty set; "everything" is every task less those it excepts.
 */
import { z } from 'zod';
import { regexSource } from '../param-types.js';
import { defineExtractor, quoteOf } from './extractor.js';
import { readClaimedComplete } from './language/task-answer.js';
import { planReadingContext } from './plan-context.js';

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
  empty: undefined,
  dependsOn: () => [],
  extract: (section, params, context) => {
    const { attribution, options } = planReadingContext(
      context.catalogue,
      params.plan,
      params.otherPlans,
      params,
    );
    const reading = readClaimedComplete(section, attribution, options);
    if (reading.answer === 'unreadable') {
      return { ok: false, why: 'names no recognisable task and does not say none' };
    }
    return { ok: true, value: { kind: 'tasks', tasks: reading.claimed }, quote: quoteOf(section) };
  },
});
