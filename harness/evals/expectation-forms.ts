/**
 * One expectation of an eval, in every form authors write it (SHAPES.md,
 * "Expectation form"): a string; an object with the statement under `text`
 * (with an `id`, a `type: qualitative`, a pre-filled `passed`/`evidence`
 * pair, …) or under `description`/`check`/`pass_if`; an object with a
 * machine type and regular expressions (`behavior_contains`,
 * `content_not_contains`, `ordered_content`, `regex`); a judge criterion
 * (`llm_judge`); a command (`cmd` with `expect_exit`). Each becomes a
 * statement (free words, classified later by what they say), a judge item
 * (the author says so), a pattern over the reply, the output or the
 * behaviour, or a command. An object in no known form is refused, naming
 * its keys: an unknown key might carry what the author meant.
 */
import { compiles } from '../score/param-types.js';
import { isRecord, kindOf, type Refusal, refusal } from './refusal.js';

/** Where a pattern looks: the reply; the reply and every file the session wrote; the reply and its commands. */
export type PatternTarget = 'reply' | 'output' | 'behaviour';

export type ExpectationForm =
  /** Free words: what they become depends on what they say (classify-expectation.ts). */
  | { readonly kind: 'statement' }
  /** The author asks for a judge (`type: qualitative`, `llm_judge`, `kind: manual`). */
  | { readonly kind: 'judge' }
  /** Regular expressions (JavaScript syntax) that must (or must not) match, in order when `ordered`. */
  | {
      readonly kind: 'pattern';
      readonly target: PatternTarget;
      readonly negate: boolean;
      readonly patterns: readonly string[];
      readonly ordered: boolean;
    }
  /** A literal string the reply must (or must not) hold. */
  | { readonly kind: 'literal'; readonly negate: boolean; readonly value: string }
  /** At least `min` fenced code blocks in the reply, of `language` when given. */
  | { readonly kind: 'code-blocks'; readonly language: string | undefined; readonly min: number }
  /** A command that must exit with `exit` (0), its output holding `substring` when given. */
  | {
      readonly kind: 'command';
      readonly argv: readonly string[];
      readonly exit: number;
      readonly substring: string | undefined;
    };

export interface Expectation {
  /** The author's id or name for it, when it has one. */
  readonly authorId: string | undefined;
  /** The statement in the author's words (for a machine form, what it asks, in words). */
  readonly text: string;
  /** Where it is in the file: `evals[2].assertions[0]`. */
  readonly field: string;
  /** The form it was written in, for `evals lint`: `string`, `{id, text, type: qualitative}`, `must_have`. */
  readonly shape: string;
  readonly form: ExpectationForm;
}

/** Pattern types of the objects `{text, type, pattern | patterns}`. */
const PATTERN_TYPES: Readonly<
  Record<string, { target: PatternTarget; negate: boolean; ordered: boolean }>
> = {
  behavior_contains: { target: 'behaviour', negate: false, ordered: false },
  behavior_not_contains: { target: 'behaviour', negate: true, ordered: false },
  content_contains: { target: 'output', negate: false, ordered: false },
  content_not_contains: { target: 'output', negate: true, ordered: false },
  ordered_content: { target: 'output', negate: false, ordered: true },
  regex: { target: 'output', negate: false, ordered: false },
};

function keysText(item: Record<string, unknown>): string {
  return `{${Object.keys(item).join(', ')}}`;
}

function stringField(
  item: Record<string, unknown>,
  key: string,
  field: string,
): string | Refusal | undefined {
  const value = item[key];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || value.trim() === '') {
    return refusal(
      `${field}.${key}`,
      `is ${typeof value === 'string' ? 'blank' : kindOf(value)}, not the text of an expectation`,
      'write the expectation as a sentence',
    );
  }
  return value.trim();
}

function authorIdOf(item: Record<string, unknown>, key: 'id' | 'name'): string | undefined {
  const value = item[key];
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}

/** Regular expressions of a pattern item, each checked to compile as JavaScript. */
export function patternList(value: unknown, field: string): readonly string[] | Refusal {
  const list = typeof value === 'string' ? [value] : value;
  if (!Array.isArray(list) || list.length === 0) {
    return refusal(
      field,
      `is ${kindOf(value)}, not a regular expression or a list of them`,
      'give the pattern as a string',
    );
  }
  for (const [index, pattern] of list.entries()) {
    const at = Array.isArray(value) ? `${field}[${index}]` : field;
    if (typeof pattern !== 'string' || pattern === '') {
      return refusal(
        at,
        `is ${kindOf(pattern)}, not a regular expression`,
        'give each pattern as a non-empty string',
      );
    }
    if (!compiles(pattern)) {
      return refusal(
        at,
        `/${pattern}/ is not a regular expression JavaScript can compile (PCRE-only syntax such as (?i) or possessive quantifiers?)`,
        'rewrite it in the common syntax (JavaScript, Python re and PCRE share most of it)',
      );
    }
  }
  return list as string[];
}

/** Passages of literal text, as regular expressions that match them exactly. */
function literalList(value: unknown, field: string): readonly string[] | Refusal {
  const list = typeof value === 'string' ? [value] : value;
  if (
    !Array.isArray(list) ||
    list.length === 0 ||
    list.some((part) => typeof part !== 'string' || part === '')
  ) {
    return refusal(
      field,
      `is ${kindOf(value)}, not a list of passages`,
      'give the passages as non-empty strings, in order',
    );
  }
  return (list as string[]).map((part) => part.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'));
}

function typedPattern(
  item: Record<string, unknown>,
  field: string,
  type: string,
): Expectation | Refusal {
  const spec = PATTERN_TYPES[type];
  if (spec === undefined) throw new Error(`no pattern type ${type}`);
  const allowed = new Set(['id', 'name', 'text', 'type', 'pattern', 'patterns', 'description']);
  const stray = Object.keys(item).find((key) => !allowed.has(key));
  if (stray !== undefined) {
    return refusal(
      `${field}.${stray}`,
      `is not a field of a "${type}" expectation`,
      `remove it, or write the expectation as a sentence`,
    );
  }
  const raw = item.patterns ?? item.pattern;
  if (raw === undefined) {
    return refusal(
      field,
      `is a "${type}" expectation without pattern or patterns`,
      'give the regular expression it checks',
    );
  }
  const at = `${field}.${item.patterns === undefined ? 'pattern' : 'patterns'}`;
  // ordered_content lists passages of text in the order they must appear: literal text, not
  // regular expressions (the survey's file writes them plainly, one with `**` no engine compiles).
  const patterns = spec.ordered ? literalList(raw, at) : patternList(raw, at);
  if (!Array.isArray(patterns)) return patterns as Refusal;
  if (!spec.ordered && patterns.length > 1) {
    return refusal(
      at,
      `lists ${patterns.length} expressions for one "${type}" check, without saying whether any or all must match`,
      'write one expectation per expression (all must match), or one alternation a|b (any)',
    );
  }
  if (spec.ordered && patterns.length < 2) {
    return refusal(
      `${field}.patterns`,
      'an ordered_content expectation needs two or more patterns',
      'list the patterns in the order they must appear',
    );
  }
  const text =
    (typeof item.text === 'string' && item.text.trim() !== '' ? item.text.trim() : undefined) ??
    (typeof item.description === 'string' ? item.description.trim() : undefined) ??
    `${type} ${patterns.map((pattern) => `/${pattern}/`).join(' ')}`;
  return {
    authorId: authorIdOf(item, item.id === undefined ? 'name' : 'id'),
    text,
    field,
    shape: `{${Object.keys(item).join(', ')}} (type: ${type})`,
    form: {
      kind: 'pattern',
      target: spec.target,
      negate: spec.negate,
      patterns,
      ordered: spec.ordered,
    },
  };
}

function commandItem(item: Record<string, unknown>, field: string): Expectation | Refusal {
  const argv = item.cmd;
  if (!Array.isArray(argv) || argv.length === 0 || argv.some((part) => typeof part !== 'string')) {
    return refusal(
      `${field}.cmd`,
      `is ${kindOf(argv)}, not an argument list`,
      'give cmd as a list of strings, e.g. ["make", "check"]',
    );
  }
  const exit = item.expect_exit ?? 0;
  if (typeof exit !== 'number' || exit !== 0) {
    return refusal(
      `${field}.expect_exit`,
      `is ${JSON.stringify(exit)}: redgreen's command check passes on exit 0 only`,
      'expect exit 0 (wrap the command to turn another status into 0), or write the expectation as a sentence',
    );
  }
  const substring = item.expect_substring;
  if (substring !== undefined && (typeof substring !== 'string' || substring === '')) {
    return refusal(
      `${field}.expect_substring`,
      `is ${kindOf(substring)}, not a string`,
      'give the text the output must hold',
    );
  }
  const stray = Object.keys(item).find(
    (key) => !['check', 'cmd', 'expect_exit', 'expect_substring', 'id', 'name'].includes(key),
  );
  if (stray !== undefined) {
    return refusal(`${field}.${stray}`, 'is not a field of a command expectation', 'remove it');
  }
  const check = typeof item.check === 'string' ? item.check : undefined;
  return {
    authorId: check ?? authorIdOf(item, 'id'),
    text: `\`${(argv as string[]).join(' ')}\` exits 0${substring === undefined ? '' : ` and prints "${substring}"`}`,
    field,
    shape: keysText(item),
    form: {
      kind: 'command',
      argv: argv as string[],
      exit: 0,
      substring: substring as string | undefined,
    },
  };
}

/**
 * One item of an expectation list. `undefined` for an item its author
 * retired (`{check, retired: true}`): it states nothing any more.
 */
export function expectationOf(item: unknown, field: string): Expectation | Refusal | undefined {
  if (typeof item === 'string') {
    if (item.trim() === '')
      return refusal(field, 'is blank', 'remove it, or write the expectation');
    return {
      authorId: undefined,
      text: item.trim(),
      field,
      shape: 'string',
      form: { kind: 'statement' },
    };
  }
  if (!isRecord(item)) {
    return refusal(
      field,
      `is ${kindOf(item)}, not an expectation`,
      'write each expectation as a string or an object with "text"',
    );
  }
  const keys = new Set(Object.keys(item));
  const type = typeof item.type === 'string' ? item.type : undefined;
  if (item.retired === true && keys.has('check')) return undefined;
  if (keys.has('cmd')) return commandItem(item, field);
  if (
    type !== undefined &&
    Object.hasOwn(PATTERN_TYPES, type) &&
    (keys.has('pattern') || keys.has('patterns'))
  ) {
    return typedPattern(item, field, type);
  }
  if (type === 'llm_judge') {
    const criterion = stringField(item, keys.has('criterion') ? 'criterion' : 'text', field);
    if (criterion === undefined) {
      return refusal(
        field,
        'is an llm_judge expectation without criterion',
        'give the criterion the judge decides',
      );
    }
    if (typeof criterion !== 'string') return criterion;
    const stray = [...keys].find(
      (key) => !['type', 'name', 'id', 'criterion', 'text'].includes(key),
    );
    if (stray !== undefined)
      return refusal(
        `${field}.${stray}`,
        'is not a field of an llm_judge expectation',
        'remove it',
      );
    return {
      authorId: authorIdOf(item, keys.has('name') ? 'name' : 'id'),
      text: criterion,
      field,
      shape: `${keysText(item)} (type: llm_judge)`,
      form: { kind: 'judge' },
    };
  }
  // The statement: `text`, else `description` ({name, description}), `check` ({name, check}), `pass_if` ({dimension, pass_if}).
  const textKey = ['text', 'description', 'check', 'pass_if'].find((key) => keys.has(key));
  if (textKey === undefined) {
    return refusal(
      field,
      `is an object ${keysText(item)} with no statement (text, description, check or pass_if)`,
      'give the expectation a "text"',
    );
  }
  const text = stringField(item, textKey, field);
  if (typeof text !== 'string') return text ?? refusal(field, 'has no text', 'give it a "text"');
  // Fields that describe the statement, or that a grader fills in (passed, evidence), and nothing else.
  const known = new Set([
    'id',
    'name',
    'text',
    'description',
    'check',
    'pass_if',
    'dimension',
    'type',
    'kind',
    'passed',
    'evidence',
  ]);
  const stray = [...keys].find((key) => !known.has(key));
  if (stray !== undefined) {
    return refusal(
      `${field}.${stray}`,
      `is not a field redgreen knows on an expectation ${keysText(item)}`,
      "remove it, or write what it means into the expectation's text",
    );
  }
  if (keys.has('check') && textKey !== 'check') {
    return refusal(
      `${field}.check`,
      'is a check beside the statement (a script over the output?), which redgreen would not run',
      'drop "check" and keep the statement, or make it a command expectation {cmd, expect_exit}',
    );
  }
  if (type !== undefined && !['qualitative', 'boolean', 'quantitative'].includes(type)) {
    return refusal(
      `${field}.type`,
      `"${type}" is not an expectation type redgreen knows`,
      'use qualitative or boolean, a pattern type with pattern, or drop "type"',
    );
  }
  const kind = typeof item.kind === 'string' ? item.kind : undefined;
  if (kind !== undefined && kind !== 'script' && kind !== 'manual') {
    return refusal(
      `${field}.kind`,
      `"${kind}" is not an expectation kind redgreen knows`,
      'use script or manual, or drop "kind"',
    );
  }
  const judge = type === 'qualitative' || kind === 'manual';
  return {
    authorId:
      authorIdOf(item, keys.has('id') ? 'id' : keys.has('name') ? 'name' : 'id') ??
      (typeof item.dimension === 'string' ? item.dimension : undefined),
    text,
    field,
    shape: `${keysText(item)}${type === undefined ? '' : ` (type: ${type})`}${kind === undefined ? '' : ` (kind: ${kind})`}`,
    form: judge ? { kind: 'judge' } : { kind: 'statement' },
  };
}
