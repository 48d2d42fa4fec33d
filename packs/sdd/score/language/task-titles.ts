/**
 * Find where a clause names one of the own plan's tasks by its title
 * ("Data model", "csv writer", "end to end test"): whole words,
 * any case, any punctuation or spacing between the words. Only whole titles
 * count; a fragment ("the data model") is not a mention.
 */
import { planNamePattern } from './plan-names.js';
import type { TaskTitle } from './plan-vocabulary.js';

/**
 * The compiled pattern for each name seen so far: a reply is read clause by
 * clause, and compiling the same few titles for every clause dominated the
 * time. (matchAll works on a copy, so sharing a global RegExp is safe.)
 */
const compiled = new Map<string, RegExp>();

function namePattern(name: string): RegExp {
  let pattern = compiled.get(name);
  if (pattern === undefined) {
    pattern = planNamePattern(name, 'g');
    compiled.set(name, pattern);
  }
  return pattern;
}

export interface TitleMention {
  readonly number: number;
  readonly start: number;
  readonly end: number;
}

/** Every mention of a title in lower-case text, in order of appearance. */
export function findTitleMentions(text: string, titles: readonly TaskTitle[]): TitleMention[] {
  const mentions: TitleMention[] = [];
  for (const task of titles) {
    for (const found of text.matchAll(namePattern(task.title))) {
      mentions.push({
        number: task.number,
        start: found.index,
        end: found.index + found[0].length,
      });
    }
  }
  return mentions.sort((a, b) => a.start - b.start);
}

/** Every mention of one of `names` (titles without numbers, such as another plan's) in lower-case text. */
export function findNameMentions(
  text: string,
  names: readonly string[],
): { readonly start: number; readonly end: number }[] {
  return names
    .flatMap((name) =>
      [...text.matchAll(namePattern(name))].map((found) => ({
        start: found.index,
        end: found.index + found[0].length,
      })),
    )
    .sort((a, b) => a.start - b.start);
}
