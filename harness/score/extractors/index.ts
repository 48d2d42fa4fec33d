/**
 * Every extractor a report contract may name, in one table: the kind a
 * section's `extract` names is a key of it, and the section schema is derived
 * from it.
 */
import { z } from 'zod';
import { choiceExtractor } from './choice.js';
import { pathJudgementsExtractor } from './path-judgements.js';
import { taskExtractor } from './task.js';
import { tasksExtractor } from './tasks.js';
import { textExtractor } from './text.js';

export const EXTRACTORS = {
  task: taskExtractor,
  tasks: tasksExtractor,
  choice: choiceExtractor,
  text: textExtractor,
  'path-judgements': pathJudgementsExtractor,
} as const;

export type ExtractorKind = keyof typeof EXTRACTORS;
export const EXTRACTOR_KINDS = Object.keys(EXTRACTORS) as ExtractorKind[];

/** An extractor spec as a scenario declares it: its kind plus its params. */
export const extractorSpecSchema = z.discriminatedUnion('kind', [
  taskExtractor.params,
  tasksExtractor.params,
  choiceExtractor.params,
  textExtractor.params,
  pathJudgementsExtractor.params,
]);
export type ExtractorSpec = z.infer<typeof extractorSpecSchema>;
