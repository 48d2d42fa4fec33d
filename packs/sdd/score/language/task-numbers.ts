/**
 * Find task references in one clause of plain lower-case text (see
 * reply-clauses.ts): `task 3`, `tasks 1-2`, `tasks 1–2`, `tasks 1 & 2`,
 * `tasks 1 and 2`, `task 1 and task 2`, `tasks 1, 2, and 3`, `task 1 through
 * task 5`, `task 1 onwards`, `up to task 2`, `task 2 and everything before
 * it`, `task three`, `the first task`, `the first two
 * tasks`, a title of the own plan's tasks (`JSON writer`), `all 5 tasks`,
 * `everything`, `all of them`, and a clause that is just numbers (`3`,
 * `1, 2`, `1 and 2 (commits …)`). Paths, commit hashes, dates, times and
 * counts (`2 of 5`, `5 tasks`) are not task numbers.
 */
import type { TaskTitle } from './plan-vocabulary.js';
import { findTitleMentions } from './task-titles.js';

const NUMBER_WORDS: Readonly<Record<string, number>> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
};

const ORDINAL_WORDS: Readonly<Record<string, number>> = {
  first: 1,
  second: 2,
  third: 3,
  fourth: 4,
  fifth: 5,
  sixth: 6,
  seventh: 7,
  eighth: 8,
  ninth: 9,
  tenth: 10,
};

const NUMBER = `(?:\\d{1,3}(?![\\d.]\\d|\\d)|(?:${Object.keys(NUMBER_WORDS).join('|')})\\b)`;
const RANGE_SEPARATOR = `(?:\\s*(?:[-\\u2010-\\u2015\\u2212]|\\.\\.)\\s*|\\s+(?:to|through|thru)\\s+)`;
const TASK_WORD = `tasks?\\s*(?:#\\s*|no\\.\\s*|number\\s+)?`;
const LIST_SEPARATOR = `(?:\\s*[,&+/]\\s*(?:(?:and|or|nor)\\s+)?|\\s+(?:and|or|nor|plus)\\s+)(?:${TASK_WORD})?`;
/** A range may repeat the word: `task 1 through task 5`. */
const RANGE_STEP = `${RANGE_SEPARATOR}(?:${TASK_WORD})?`;
const NUMBER_LIST = `${NUMBER}(?:(?:${RANGE_STEP}|${LIST_SEPARATOR})${NUMBER})*`;

const TASK_GROUP = new RegExp(`\\b${TASK_WORD}(${NUMBER_LIST})`, 'g');
/** The shorthand `T3`. */
const T_SHORTHAND = /\bt(\d{1,2})\b/g;
const LEADING_LIST = new RegExp(`^[\\s,#]*(${NUMBER_LIST})`);
const COUNT_NOUN_AFTER =
  /^\s*(?:[a-z-]+\s+)?(?:tasks?|of\b|commits?|files?|items?|lines?|entries|entry|steps?|calls?|tool|%|percent|minutes?|hours?|days?|reps?|records?|claims?)\b/;
const ALL_TASKS = new RegExp(
  `\\b(?:all|every)\\s+(?:of\\s+)?(?:the\\s+)?(?:(${NUMBER})\\s+)?(?:(?:of\\s+)?(?:my|our|its|the|plan'?s?|own)\\s+)*(?:tasks|task)\\b`,
  'g',
);
/** Where a quantifier without the word "task" ends its phrase: clause end, punctuation, or "is done". */
const QUANTIFIER_END = String.raw`(?=\s*$|\s*[(),.;:!"]|\s+(?:(?:are|were|is|was|have\s+been|has\s+been)\s+)?(?:already\s+)?(?:all\s+)?(?:done|complete|completed|finished)\b)`;
/** `everything`, `all of them`, `the whole plan`, `all`, `all five`: every task, without saying "tasks". */
const ALL_WITHOUT_TASK_WORD = new RegExp(
  [
    String.raw`\beverything\b(?!\s+else)`,
    String.raw`\ball\s+of\s+(?:them|it|those|these)\b`,
    String.raw`\b(?:the\s+)?(?:whole|entire|full)\s+plan\b`,
    `\\ball(?:\\s+(${NUMBER}))?${QUANTIFIER_END}`,
  ].join('|'),
  'g',
);
const ORDINAL_TASK = new RegExp(`\\b(${Object.keys(ORDINAL_WORDS).join('|')})\\s+task\\b`, 'g');
/** `the first two tasks`, `first 3`, `the first two (…)`: tasks 1..N. */
const FIRST_N_TASKS = new RegExp(
  `\\b(?:the\\s+)?first\\s+(${NUMBER})(?:\\s+(?:of\\s+(?:the|my|our|this|its)\\s+)?(?:(?:own|plan'?s?)\\s+)*tasks?\\b|${QUANTIFIER_END})`,
  'g',
);
/** After `task 2`: the tasks before it too. */
const AND_EARLIER_AFTER =
  /^\s*and\s+(?:(?:everything|all(?:\s+tasks)?|the\s+ones|those)\s+(?:before|prior\s+to)(?:\s+(?:it|that))?|(?:all\s+)?(?:the\s+)?(?:earlier|previous|prior)(?:\s+(?:ones|tasks))?)\b/;
/** Before `task 2`: every task up to it. */
const UP_TO_BEFORE = /\bup\s+(?:to|through|thru|until)(?:\s+and\s+including)?\s+$/;
/** How far before a group UP_TO_BEFORE looks: enough for its longest wording. */
const LOOK_BEHIND = 40;
/** After `task 1`: the rest of the plan from there on. */
const ONWARDS_AFTER =
  /^\s*(?:onwards?|and\s+(?:up|onwards?|later|beyond|everything\s+after(?:\s+(?:it|that))?|all\s+later\s+(?:ones|tasks)))\b/;
/** What may stand between two task mentions that name one list: `Data model and CSV writer`. */
const LIST_GAP = /^["'\s]*(?:,\s*(?:and\s+)?|&|\+|\/|and|plus)?["'\s]*$/;

/** A run of task numbers found in a clause, with where it was found. */
export interface TaskGroup {
  readonly numbers: readonly number[];
  readonly start: number;
  readonly end: number;
  /**
   * How it was written: after the word "task", as a bare number list, by
   * title, `all N tasks`, a quantifier without "task" (`everything`, `all of
   * them`), or an ordinal (`the third task`, `the first two tasks`).
   */
  readonly form: 'task-word' | 'bare' | 'title' | 'all' | 'everything' | 'ordinal';
}

export interface TaskGroupOptions {
  /** How many tasks the own plan has, so `all tasks` and `task 1 onwards` can be expanded. */
  readonly taskCount?: number | undefined;
  /** The own plan's task titles, so a title reads as its task number. */
  readonly titles?: readonly TaskTitle[] | undefined;
  /**
   * Further nouns of the scenario's domain that make a number a count, not a
   * task (`2 records`); see countNounPatterns.
   */
  readonly countNouns?: CountNouns | undefined;
}

/** A scenario's extra count nouns: right after the number, or after one adjective (`2 stale records`). */
export interface CountNouns {
  readonly direct: RegExp;
  readonly afterAdjective: RegExp;
}

/** The patterns for a scenario's extra count nouns (each a regular expression source), or undefined for none. */
export function countNounPatterns(nouns: readonly string[]): CountNouns | undefined {
  if (nouns.length === 0) return undefined;
  const alternatives = nouns.map((noun) => `(?:${noun})`).join('|');
  return {
    direct: new RegExp(`^(?:${alternatives})\\b`),
    afterAdjective: new RegExp(`^(?:[a-z-]+\\s+)?(?:${alternatives})\\b`),
  };
}

function numberValue(token: string): number | undefined {
  if (/^\d+$/.test(token)) return Number(token);
  return NUMBER_WORDS[token];
}

const NUMBER_OR_RANGE = new RegExp(`(${NUMBER})|(${RANGE_SEPARATOR})`, 'g');

/** `1-3, 5 and 7` → [1, 2, 3, 5, 7]; a descending or huge "range" is read as two numbers. */
export function expandNumberList(list: string): number[] {
  const numbers: number[] = [];
  let rangeOpen = false;
  for (const found of list.matchAll(NUMBER_OR_RANGE)) {
    if (found[2] !== undefined) {
      rangeOpen = true;
      continue;
    }
    const value = numberValue((found[1] ?? '').trim());
    if (value === undefined) continue;
    const previous = numbers[numbers.length - 1];
    if (rangeOpen && previous !== undefined && value > previous && value - previous <= 20) {
      for (let n = previous + 1; n <= value; n++) numbers.push(n);
    } else {
      numbers.push(value);
    }
    rangeOpen = false;
  }
  return numbers;
}

/** `2 of 5`, `2 out of 5`, `2 / 5`: a count, unless it follows the word "task" (`task 3 of 5`). */
const COUNT_OF = new RegExp(`\\b${NUMBER}\\s+(?:of|out of|/)\\s+${NUMBER}`, 'g');

/** `of 5`, `out of 5`: the total of a count. */
const OF_COUNT = new RegExp(`\\b(?:of|out of)\\s+${NUMBER}(?!\\s*[-\\u2013])`, 'g');

/** Whether the word "task" (or "tasks") ends just before `at`, spaces aside. */
function followsTaskWord(text: string, at: number): boolean {
  let end = at;
  while (end > 0 && /\s/.test(text.charAt(end - 1))) end--;
  return /tasks?$/.test(text.slice(Math.max(0, end - 5), end));
}

/**
 * Blank out what looks like a number but is not a task number, keeping every
 * other character where it was (so positions still line up with the clause).
 */
/** A slash between a task number and the next task word (`3/task` in "task 3/task 4"): no path. */
const TASK_SLASH_TASK = /^\d{1,3}\/(?:tasks?|t)\b/i;

export function maskNonTaskNumbers(clause: string, countNouns?: CountNouns): string {
  const blank = (match: string): string => ' '.repeat(match.length);
  const extraCount = (match: string, at: number, whole: string): string => {
    if (countNouns === undefined) return match;
    const rest = whole.slice(at + match.length).replace(/^\s*/, '');
    return countNouns.direct.test(rest) ? blank(match) : match;
  };
  // No pattern here rescans a long token or run from each of its characters
  // (as `\S*[/\\]\S*` did), so masking stays linear in the clause length.
  return clause
    .replace(/\S+/g, (token) =>
      /[/\\]/.test(token) && !TASK_SLASH_TASK.test(token) ? blank(token) : token,
    )
    .replace(/(?<![\w-])[\w-]+\.(?:md|py|ts|js|json|cfg|txt|sh|yml|yaml|toml|jsonl|csv)\b/g, blank)
    .replace(/\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b/g, blank)
    .replace(/\b\d{7,40}\b/g, blank)
    .replace(/\b\d{4}-\d{2}-\d{2}(?:[t ]\d{2}:\d{2}(?::\d{2})?)?\b/g, blank)
    .replace(/\b\d{1,2}:\d{2}\b/g, blank)
    .replace(/\b(?:v|version\s+)\d+(?:\.\d+)*\b/g, blank)
    .replace(COUNT_OF, (match: string, at: number, whole: string) =>
      followsTaskWord(whole, at) ? match : blank(match),
    )
    .replace(OF_COUNT, blank)
    .replace(/\b\d+\s*(?:tool[_ ]uses?|tool calls?|calls?|commits?|files?|lines?)\b/g, blank)
    .replace(/\b\d+\b/g, extraCount);
}

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

function plausibleCount(count: number | undefined): count is number {
  return count !== undefined && count >= 1 && count <= 50;
}

/** Where a list repeats the word "task" after a comma: `task 2, task 3`, `task 2, or task 3`. */
const REPEATED_TASK_WORD = /,\s*(?:(?:and|or)\s+)?(?=tasks?\b)/g;

function sameNumbers(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((n, i) => b[i] === n);
}

/**
 * A list that repeats the word "task" after a comma (`Task 2, Task 3`), as
 * one group per repetition, for text where each may say something different
 * ("Having finished Task 2, Task 3"). Any other group is returned as it is,
 * and so is a group whose numbers were widened beyond its words (`up to
 * task 2`). `maskedText` is the clause the group was found in, as
 * maskNonTaskNumbers returns it.
 */
export function splitAtRepeatedTaskWord(maskedText: string, group: TaskGroup): TaskGroup[] {
  if (group.form !== 'task-word') return [group];
  const span = maskedText.slice(group.start, group.end);
  if (!sameNumbers(expandNumberList(span), group.numbers)) return [group];
  const bounds: [number, number][] = [];
  let pieceStart = 0;
  for (const cut of span.matchAll(REPEATED_TASK_WORD)) {
    bounds.push([pieceStart, cut.index]);
    pieceStart = cut.index + cut[0].length;
  }
  if (bounds.length === 0) return [group];
  bounds.push([pieceStart, span.length]);
  const pieces = bounds.map(([from, to]) => ({
    numbers: expandNumberList(span.slice(from, to)),
    start: group.start + from,
    end: group.start + to,
    form: group.form,
  }));
  return pieces.every((piece) => piece.numbers.length > 0) ? pieces : [group];
}

/** Join neighbouring mentions that form one list when at least one is a title. */
function mergeTitleLists(text: string, groups: readonly TaskGroup[]): TaskGroup[] {
  const merged: TaskGroup[] = [];
  for (const group of groups) {
    const previous = merged[merged.length - 1];
    const listable = (candidate: TaskGroup): boolean =>
      candidate.form === 'title' || candidate.form === 'task-word' || candidate.form === 'ordinal';
    if (
      previous !== undefined &&
      listable(previous) &&
      listable(group) &&
      (previous.form === 'title' || group.form === 'title') &&
      LIST_GAP.test(text.slice(previous.end, group.start))
    ) {
      merged[merged.length - 1] = {
        numbers: [...previous.numbers, ...group.numbers],
        start: previous.start,
        end: group.end,
        form: previous.form,
      };
      continue;
    }
    merged.push(group);
  }
  return merged;
}

/**
 * Every task group in a clause, in order of appearance. Where two readings
 * overlap, the more explicit one wins (`task 3` over a title over `all`).
 */
export function findTaskGroups(clause: string, options: TaskGroupOptions = {}): TaskGroup[] {
  const { taskCount } = options;
  const text = maskNonTaskNumbers(clause, options.countNouns);
  const groups: TaskGroup[] = [];
  // Which characters a group already covers: an overlap test that costs the
  // group's length, not the number of groups found so far.
  const covered = new Uint8Array(text.length + 1);
  const add = (group: TaskGroup): void => {
    if (covered.subarray(group.start, group.end).includes(1)) return;
    covered.fill(1, group.start, group.end);
    groups.push(group);
  };

  for (const found of text.matchAll(TASK_GROUP)) {
    const listed = expandNumberList(found[1] ?? '');
    const only = listed.length === 1 ? listed[0] : undefined;
    let numbers = listed;
    let start = found.index;
    let end = found.index + found[0].length;
    const lookBehindStart = Math.max(0, start - LOOK_BEHIND);
    const upTo = UP_TO_BEFORE.exec(text.slice(lookBehindStart, start));
    const earlier = AND_EARLIER_AFTER.exec(text.slice(end));
    const onwards = ONWARDS_AFTER.exec(text.slice(end));
    if (only !== undefined && upTo !== null) {
      numbers = range(1, only);
      start = lookBehindStart + upTo.index;
    } else if (only !== undefined && earlier !== null) {
      numbers = range(1, only);
      end += earlier[0].length;
    } else if (only !== undefined && onwards !== null && plausibleCount(taskCount)) {
      if (only <= taskCount) {
        numbers = range(only, taskCount);
        end += onwards[0].length;
      }
    }
    if (numbers.length === 0) continue;
    add({ numbers, start, end, form: 'task-word' });
  }

  for (const found of text.matchAll(T_SHORTHAND)) {
    add({
      numbers: [Number(found[1])],
      start: found.index,
      end: found.index + found[0].length,
      form: 'task-word',
    });
  }

  for (const mention of findTitleMentions(clause, options.titles ?? [])) {
    add({ numbers: [mention.number], start: mention.start, end: mention.end, form: 'title' });
  }

  for (const found of text.matchAll(ALL_TASKS)) {
    const stated = found[1] === undefined ? undefined : numberValue(found[1]);
    const count = stated ?? taskCount;
    if (!plausibleCount(count)) continue;
    add({
      numbers: range(1, count),
      start: found.index,
      end: found.index + found[0].length,
      form: 'all',
    });
  }

  for (const found of text.matchAll(ALL_WITHOUT_TASK_WORD)) {
    const stated = found[1] === undefined ? undefined : numberValue(found[1]);
    // "all five" only means every task when the plan has five.
    if (!plausibleCount(taskCount) || (stated !== undefined && stated !== taskCount)) continue;
    add({
      numbers: range(1, taskCount),
      start: found.index,
      end: found.index + found[0].length,
      form: 'everything',
    });
  }

  for (const found of text.matchAll(ORDINAL_TASK)) {
    const value = ORDINAL_WORDS[found[1] ?? ''];
    if (value === undefined) continue;
    add({
      numbers: [value],
      start: found.index,
      end: found.index + found[0].length,
      form: 'ordinal',
    });
  }

  for (const found of text.matchAll(FIRST_N_TASKS)) {
    const count = numberValue(found[1] ?? '');
    if (!plausibleCount(count)) continue;
    add({
      numbers: range(1, count),
      start: found.index,
      end: found.index + found[0].length,
      form: 'ordinal',
    });
  }

  const leading = LEADING_LIST.exec(text);
  if (leading !== null) {
    const list = leading[1] ?? '';
    const end = leading[0].length;
    const overlapsTaskWord = groups.some((group) => group.start < end);
    const rest = text.slice(end);
    const extraNoun = options.countNouns?.afterAdjective.test(rest.replace(/^\s*/, '')) === true;
    if (!overlapsTaskWord && !COUNT_NOUN_AFTER.test(rest) && !extraNoun) {
      const numbers = expandNumberList(list);
      if (numbers.length > 0) add({ numbers, start: end - list.length, end, form: 'bare' });
    }
  }

  return mergeTitleLists(
    clause,
    groups.sort((a, b) => a.start - b.start),
  );
}
