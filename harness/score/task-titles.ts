/**
 * Find where a clause names one of the own plan's tasks by its title
 * ("Export data model", "csv serializer", "end to end test"): whole words,
 * any case, any punctuation or spacing between the words. Only whole titles
 * count; a fragment ("the data model") is not a mention.
 */
import { proseNamePattern } from './plan-names.js';
import type { TaskTitle } from './plan-vocabulary.js';

export interface TitleMention {
  readonly number: number;
  readonly start: number;
  readonly end: number;
}

/** Every mention of a title in lower-case text, in order of appearance. */
export function findTitleMentions(text: string, titles: readonly TaskTitle[]): TitleMention[] {
  const mentions: TitleMention[] = [];
  for (const task of titles) {
    for (const found of text.matchAll(proseNamePattern(task.title, 'g'))) {
      mentions.push({
        number: task.number,
        start: found.index,
        end: found.index + found[0].length,
      });
    }
  }
  return mentions.sort((a, b) => a.start - b.start);
}
