/** `reply-one-of`: a section whose value is one scalar (a choice, or one a pack reads) is one of several. */
import { z } from 'zod';
import { extractorOf } from '../extractor-table.js';
import { nonBlank, numberOrNone } from '../param-types.js';
import { defineVerb } from '../verb.js';
import {
  scalarKinds,
  sectionParam,
  sectionProblem,
  sectionValue,
  sectionValuesProblem,
} from './reply-value.js';

export const replyOneOf = defineVerb({
  summary: "a section's single value (a choice, or one a pack reads) is one of several",
  params: z
    .object({ section: sectionParam, values: z.array(z.union([numberOrNone, nonBlank])).min(1) })
    .strict(),
  reads: () => ['reply'],
  validate: (params, context) =>
    sectionProblem(params.section, context, scalarKinds()) ??
    sectionValuesProblem('values', params.section, params.values, context),
  run: (params, evidence) => {
    const read = sectionValue(evidence, params.section);
    if ('undecided' in read) return read.undecided;
    const scalar = extractorOf(read.value.kind)?.entry.scalar?.(read.value);
    if (scalar === undefined) throw new Error(`section ${params.section} holds no single value`);
    const { said, observed } = scalar;
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
