/** `reply-one-of`: a `choice` or `task` section's value is one of several. */
import { z } from 'zod';
import { nonBlank, taskOrNone } from '../param-types.js';
import { defineVerb } from '../verb.js';
import {
  describeTask,
  sectionParam,
  sectionProblem,
  sectionValue,
  sectionValuesProblem,
} from './reply-value.js';

export const replyOneOf = defineVerb({
  summary: "a choice or task section's value is one of several",
  params: z
    .object({ section: sectionParam, values: z.array(z.union([taskOrNone, nonBlank])).min(1) })
    .strict(),
  reads: () => ['reply'],
  validate: (params, context) =>
    sectionProblem(params.section, context, ['choice', 'task']) ??
    sectionValuesProblem('values', params.section, params.values, context),
  run: (params, evidence) => {
    const read = sectionValue(evidence, params.section);
    if ('undecided' in read) return read.undecided;
    let said: string | number;
    let observed: string;
    if (read.value.kind === 'task') {
      said = read.value.task;
      observed = describeTask(read.value.task);
    } else if (read.value.kind === 'choice') {
      said = read.value.choice;
      observed = said;
    } else {
      throw new Error(`section ${params.section} holds no choice or task`);
    }
    const wanted = params.values.map((value) => String(value)).join(', ');
    return params.values.some((value) => value === said)
      ? {
          outcome: 'pass',
          observed,
          detail: `"${params.section}" is ${observed}, one of ${wanted}`,
        }
      : {
          outcome: 'fail',
          observed,
          detail: `"${params.section}" is ${observed}, not one of ${wanted}`,
        };
  },
});
