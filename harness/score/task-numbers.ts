/**
 * Find task numbers in one clause of plain lower-case text (see
 * reply-clauses.ts): `task 3`, `tasks 1-2`, `tasks 1–2`, `tasks 1 & 2`,
 * `tasks 1 and 2`, `task 1 and task 2`, `tasks 1, 2, and 3`, `task three`,
 * `the first task`, `all 5 tasks`, and a clause that is just numbers (`3`,
 * `1, 2`, `1 and 2 (commits …)`). Paths, commit hashes, dates, times and
 * counts (`2 of 5`, `5 tasks`) are not task numbers.
 */

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
const NUMBER_LIST = `${NUMBER}(?:(?:${RANGE_SEPARATOR}|${LIST_SEPARATOR})${NUMBER})*`;

const TASK_GROUP = new RegExp(`\\b${TASK_WORD}(${NUMBER_LIST})`, 'g');
/** The shorthand `T3`. */
const T_SHORTHAND = /\bt(\d{1,2})\b/g;
const LEADING_LIST = new RegExp(`^[\\s,#]*(${NUMBER_LIST})`);
const COUNT_NOUN_AFTER =
  /^\s*(?:[a-z-]+\s+)?(?:tasks?|of\b|commits?|files?|ledgers?|items?|lines?|entries|entry|steps?|calls?|tool|%|percent|minutes?|hours?|days?|reps?|records?|claims?)\b/;
const ALL_TASKS = new RegExp(
  `\\b(?:all|every)\\s+(?:of\\s+)?(?:the\\s+)?(?:(${NUMBER})\\s+)?(?:(?:of\\s+)?(?:my|our|its|the|plan'?s?|own)\\s+)*(?:tasks|task)\\b`,
  'g',
);
const ORDINAL_TASK = new RegExp(`\\b(${Object.keys(ORDINAL_WORDS).join('|')})\\s+task\\b`, 'g');

/** A run of task numbers found in a clause, with where it was found. */
export interface TaskGroup {
  readonly numbers: readonly number[];
  readonly start: number;
  readonly end: number;
  /** How it was written: after the word "task", as a bare number list, `all N tasks`, or `the third task`. */
  readonly form: 'task-word' | 'bare' | 'all' | 'ordinal';
}

function numberValue(token: string): number | undefined {
  if (/^\d+$/.test(token)) return Number(token);
  return NUMBER_WORDS[token];
}

/** `1-3, 5 and 7` → [1, 2, 3, 5, 7]; a descending or huge "range" is read as two numbers. */
export function expandNumberList(list: string): number[] {
  const tokenPattern = new RegExp(`(${NUMBER})|(${RANGE_SEPARATOR})`, 'g');
  const numbers: number[] = [];
  let rangeOpen = false;
  for (const found of list.matchAll(tokenPattern)) {
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

/**
 * Blank out what looks like a number but is not a task number, keeping every
 * other character where it was (so positions still line up with the clause).
 */
export function maskNonTaskNumbers(clause: string): string {
  const blank = (match: string): string => ' '.repeat(match.length);
  return clause
    .replace(/\S*[/\\]\S*/g, blank)
    .replace(/\b[\w-]+\.(?:md|py|ts|js|json|cfg|txt|sh|yml|yaml|toml|jsonl|csv)\b/g, blank)
    .replace(/\b(?=[0-9a-f]*\d)(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}\b/g, blank)
    .replace(/\b\d{7,40}\b/g, blank)
    .replace(/\b\d{4}-\d{2}-\d{2}(?:[t ]\d{2}:\d{2}(?::\d{2})?)?\b/g, blank)
    .replace(/\b\d{1,2}:\d{2}\b/g, blank)
    .replace(/\b(?:v|version\s+)\d+(?:\.\d+)*\b/g, blank)
    .replace(new RegExp(`(?<!tasks?\\s*)\\b${NUMBER}\\s+(?:of|out of|/)\\s+${NUMBER}`, 'g'), blank)
    .replace(new RegExp(`\\b(?:of|out of)\\s+${NUMBER}(?!\\s*[-\\u2013])`, 'g'), blank)
    .replace(
      /\b\d+\s*(?:tool[_ ]uses?|tool calls?|calls?|commits?|files?|lines?|ledgers?)\b/g,
      blank,
    );
}

/**
 * Every task-number group in a clause, in order of appearance. `taskCount`
 * (how many tasks the plan has) lets `all tasks` expand to 1..taskCount.
 */
export function findTaskGroups(clause: string, taskCount?: number): TaskGroup[] {
  const text = maskNonTaskNumbers(clause);
  const groups: TaskGroup[] = [];

  for (const found of text.matchAll(TASK_GROUP)) {
    const list = found[1] ?? '';
    const numbers = expandNumberList(list);
    if (numbers.length === 0) continue;
    groups.push({
      numbers,
      start: found.index,
      end: found.index + found[0].length,
      form: 'task-word',
    });
  }

  for (const found of text.matchAll(T_SHORTHAND)) {
    if (groups.some((group) => group.start <= found.index && found.index < group.end)) continue;
    groups.push({
      numbers: [Number(found[1])],
      start: found.index,
      end: found.index + found[0].length,
      form: 'task-word',
    });
  }

  for (const found of text.matchAll(ALL_TASKS)) {
    const stated = found[1] === undefined ? undefined : numberValue(found[1]);
    const count = stated ?? taskCount;
    if (count === undefined || count < 1 || count > 50) continue;
    const numbers = Array.from({ length: count }, (_, i) => i + 1);
    groups.push({ numbers, start: found.index, end: found.index + found[0].length, form: 'all' });
  }

  for (const found of text.matchAll(ORDINAL_TASK)) {
    const value = ORDINAL_WORDS[found[1] ?? ''];
    if (value === undefined) continue;
    groups.push({
      numbers: [value],
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
    if (!overlapsTaskWord && !COUNT_NOUN_AFTER.test(text.slice(end))) {
      const numbers = expandNumberList(list);
      if (numbers.length > 0) groups.push({ numbers, start: end - list.length, end, form: 'bare' });
    }
  }

  return groups.sort((a, b) => a.start - b.start);
}
