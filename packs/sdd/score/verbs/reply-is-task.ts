/** `reply-is-task`: a `task` section names this task (or `none`). */
import { z } from 'zod';
import { defineVerb } from '../../../../harness/score/verb.js';
import {
  sectionParam,
  sectionProblem,
  sectionValue,
} from '../../../../harness/score/verbs/reply-value.js';
import type { TaskValue } from '../extractors/task.js';
import { sectionPlanOf } from '../known-plans.js';
import { describeTask, taskOrNone, taskRangeProblem } from '../task-values.js';

export const replyIsTask = defineVerb({
  summary: 'a task section names this task (a number, or none)',
  params: z.object({ section: sectionParam, task: taskOrNone }).strict(),
  reads: () => ['reply'],
  validate: (params, context) =>
    sectionProblem(params.section, context, ['task']) ??
    taskRangeProblem('task', [params.task], sectionPlanOf(context, params.section), true),
  run: (params, evidence) => {
    const read = sectionValue(evidence, params.section);
    if ('undecided' in read) return read.undecided;
    if (read.value.kind !== 'task') throw new Error(`section ${params.section} holds no task`);
    const said = (read.value as TaskValue).task;
    return said === params.task
      ? {
          outcome: 'pass',
          observed: describeTask(said),
          detail: `${describeTask(said)} as expected`,
        }
      : {
          outcome: 'fail',
          observed: describeTask(said),
          detail: `expected ${describeTask(params.task)}, "${params.section}" says ${describeTask(said)}`,
        };
  },
});
