/**
 * `reply-equals`: a `choice` section states this value, or a `text` section
 * reads exactly this (white space collapsed, case kept).
 */
import { z } from 'zod';
import type { ChoiceValue } from '../extractors/choice.js';
import type { TextValue } from '../extractors/text.js';
import { nonBlank } from '../param-types.js';
import { defineVerb } from '../verb.js';
import { sectionParam, sectionProblem, sectionValue, sectionValuesProblem } from './reply-value.js';

const collapse = (text: string): string => text.replace(/\s+/g, ' ').trim();

export const replyEquals = defineVerb({
  summary: 'a choice section states this value, or a text section reads exactly this',
  params: z.object({ section: sectionParam, value: nonBlank }).strict(),
  reads: () => ['reply'],
  validate: (params, context) =>
    sectionProblem(params.section, context, ['choice', 'text']) ??
    sectionValuesProblem('value', params.section, [params.value], context),
  run: (params, evidence) => {
    const read = sectionValue(evidence, params.section);
    if ('undecided' in read) return read.undecided;
    const said =
      read.value.kind === 'choice'
        ? (read.value as ChoiceValue).choice
        : read.value.kind === 'text'
          ? (read.value as TextValue).text
          : undefined;
    if (said === undefined) throw new Error(`section ${params.section} holds no choice or text`);
    return collapse(said) === collapse(params.value)
      ? { outcome: 'pass', observed: said, detail: `"${params.section}" is ${params.value}` }
      : {
          outcome: 'fail',
          observed: said,
          detail: `expected ${params.value}, "${params.section}" is ${said}`,
        };
  },
});
