/**
 * `reply-tasks`: a `tasks` section's set includes some tasks, excludes
 * others, or is exactly a given set.
 */
import { z } from 'zod';
import { defineVerb } from '../../../../harness/score/verb.js';
import {
  sectionParam,
  sectionProblem,
  sectionValue,
} from '../../../../harness/score/verbs/reply-value.js';
import type { TasksValue } from '../extractors/tasks.js';
import { sectionPlanOf } from '../known-plans.js';
import { describeTasks, taskListSchema, taskRangeProblem } from '../task-values.js';

export const replyTasks = defineVerb({
  summary: 'a task-set section includes / excludes tasks, or is exactly a set',
  params: z
    .object({
      section: sectionParam,
      includes: taskListSchema.min(1).optional(),
      excludes: taskListSchema.min(1).optional(),
      exactly: taskListSchema.optional(),
    })
    .strict(),
  reads: () => ['reply'],
  validate: (params, context) => {
    const hasSet = params.includes !== undefined || params.excludes !== undefined;
    if (hasSet === (params.exactly !== undefined)) {
      return {
        field: 'exactly',
        problem: 'needs either exactly, or includes and/or excludes',
        fix: 'give exactly: [...] alone, or includes/excludes',
      };
    }
    const both = (params.includes ?? []).filter((n) => (params.excludes ?? []).includes(n));
    if (both.length > 0) {
      return {
        field: 'excludes',
        problem: `${describeTasks(both)} both included and excluded, so it could never pass`,
        fix: 'remove them from one list',
      };
    }
    const plan = sectionPlanOf(context, params.section);
    return (
      sectionProblem(params.section, context, ['tasks']) ??
      taskRangeProblem('includes', params.includes ?? [], plan) ??
      taskRangeProblem('excludes', params.excludes ?? [], plan) ??
      taskRangeProblem('exactly', params.exactly ?? [], plan)
    );
  },
  run: (params, evidence) => {
    const read = sectionValue(evidence, params.section);
    if ('undecided' in read) return read.undecided;
    if (read.value.kind !== 'tasks') throw new Error(`section ${params.section} holds no tasks`);
    const said = (read.value as TasksValue).tasks;
    const observed = describeTasks(said);
    const names = `"${params.section}" names ${observed}`;
    if (params.exactly !== undefined) {
      const wanted = [...new Set(params.exactly)].sort((a, b) => a - b);
      const same = wanted.length === said.length && wanted.every((n, i) => said[i] === n);
      return same
        ? { outcome: 'pass', observed, detail: `${names}, as expected` }
        : {
            outcome: 'fail',
            observed,
            detail: `expected exactly ${describeTasks(wanted)}, ${names}`,
          };
    }
    const missing = (params.includes ?? []).filter((n) => !said.includes(n));
    const forbidden = (params.excludes ?? []).filter((n) => said.includes(n));
    if (missing.length === 0 && forbidden.length === 0) {
      return { outcome: 'pass', observed, detail: `${names}, as expected` };
    }
    const problems = [
      ...(missing.length > 0 ? [`${describeTasks(missing)} missing`] : []),
      ...(forbidden.length > 0 ? [`${describeTasks(forbidden)} wrongly named`] : []),
    ];
    return { outcome: 'fail', observed, detail: `${problems.join('; ')} (${names})` };
  },
});
