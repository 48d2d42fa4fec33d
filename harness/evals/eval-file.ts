/**
 * An `evals/evals.json` in every shape skill authors write it (SHAPES.md),
 * normalised into cases: an id, the user's message, input files, and
 * expectations. Each deviation from skill-creator's documented shape that
 * the survey found is accepted and named (`evals lint` shows it); anything
 * else is refused with the field that stops it and what would fix it. A
 * file is imported whole or refused whole: nothing is dropped silently.
 *
 * Accepted: the cases under `evals`, `cases`, `tests` or `test_cases`, or a
 * top-level array; the skill as `skill_name` or `skill` (or none); ids as
 * integers, strings or absent (numbered by position); the prompt as
 * `prompt`, `query` or `input` (prompt and query both only when equal);
 * `expected_output`, `expected_behavior` (a string) or `intent`;
 * expectations under `expectations`, `assertions`, `checks` (a list, or the
 * object `{must_contain, must_not_contain, code_block_language,
 * min_code_blocks}`), `must_have`/`must_not_have` (regular expressions) and
 * `expect`/`fail` (fail: anti-patterns), merged in that order; `files` as
 * paths or `{path, purpose}`; the case metadata authors add (name,
 * category, notes, tags, …), kept aside. Refused: an agent's evals
 * (`agent_name`), a routing set (`expected_skill`), a multi-turn case
 * (`query_flow`), a prompt with a placeholder a runner must fill
 * (`<SANDBOX>`, `{case_dir}`), a case that states nothing to check (no
 * expectation and no expected output), an unknown field.
 */
import { type Expectation, expectationOf, patternList } from './expectation-forms.js';
import { isRecord, kindOf, type Refusal, refusal } from './refusal.js';

export interface EvalFileEntry {
  /** The path as the author wrote it. */
  readonly entry: string;
  readonly purpose: string | undefined;
  readonly field: string;
}

export interface EvalCase {
  /** The author's id as text (`1`, `toolchain-mismatch`), or `#<n>` (1-based) when the case has none. */
  readonly id: string;
  readonly idSource: 'integer' | 'string' | 'position';
  readonly name: string | undefined;
  readonly prompt: string;
  /** Which field held the prompt: `prompt`, `query`, `input`. */
  readonly promptField: string;
  readonly expectedOutput: string | undefined;
  readonly files: readonly EvalFileEntry[];
  readonly expectations: readonly Expectation[];
  /** `should_trigger` on a behaviour case: the skill must (not) be used. */
  readonly shouldTrigger: boolean | undefined;
  /** Metadata kept aside, by key (`category`, `notes`, `manual_review_expected`, …). */
  readonly metadata: Readonly<Record<string, unknown>>;
  /** Where the case is in the file: `evals[2]`. */
  readonly field: string;
}

export interface EvalFile {
  readonly kind: 'evals';
  /** How the cases are held: `evals`, `cases`, `tests`, `test_cases`, or `(top-level array)`. */
  readonly container: string;
  /** The skill the file names (`skill_name` or `skill`), if any. */
  readonly skillName: string | undefined;
  readonly cases: readonly EvalCase[];
  /** Suite-level fields kept aside (`description`, `version`, `notes`). */
  readonly metadata: Readonly<Record<string, unknown>>;
  /** Every deviation from skill-creator's documented shape, in words. */
  readonly deviations: readonly string[];
}

const CONTAINERS = ['evals', 'cases', 'tests', 'test_cases'] as const;
const SUITE_METADATA = ['description', 'version', 'notes', 'note', '$schema'];
const CASE_METADATA = [
  'name',
  'eval_name',
  'category',
  'notes',
  'note',
  'description',
  'kind',
  'difficulty',
  'tags',
  'manual_review_expected',
  'precondition',
];
const EXPECTED_FIELDS = ['expected_output', 'expected_behavior', 'intent'] as const;
const EXPECTATION_LISTS = ['expectations', 'assertions'] as const;
const PROMPT_FIELDS = ['prompt', 'query', 'input'] as const;

/** Placeholders a runner must substitute before a prompt can be sent (SHAPES.md: `<SANDBOX>`, `{case_dir}`, `<your-file.pdf>`). */
const PLACEHOLDER = /<[A-Z][A-Z0-9_-]+>|<your-[^<>\s]+>|\{[a-z][a-z0-9]*_[a-z0-9_]+\}/;

function promptOf(
  item: Record<string, unknown>,
  field: string,
): { text: string; field: string } | Refusal {
  if (item.query_flow !== undefined) {
    return refusal(
      `${field}.query_flow`,
      'is a conversation of several user turns, which redgreen does not run from an eval file',
      'give the case one prompt, or split the turns into cases',
    );
  }
  const given = PROMPT_FIELDS.filter((key) => item[key] !== undefined);
  const [first] = given;
  if (first === undefined) {
    return refusal(
      field,
      'has no prompt (prompt, query or input)',
      'give the case the user message as "prompt"',
    );
  }
  for (const key of given) {
    const value = item[key];
    if (typeof value !== 'string' || value.trim() === '') {
      return refusal(
        `${field}.${key}`,
        `is ${typeof value === 'string' ? 'blank' : kindOf(value)}, not the user's message`,
        'give the prompt as a non-empty string',
      );
    }
  }
  const texts = new Set(given.map((key) => (item[key] as string).trim()));
  if (texts.size > 1) {
    return refusal(
      `${field}.${given[1]}`,
      `differs from ${field}.${first}: two prompts for one case`,
      `keep one of ${given.join(' and ')}`,
    );
  }
  const text = (item[first] as string).trim();
  const placeholder = PLACEHOLDER.exec(text);
  if (placeholder !== null) {
    return refusal(
      `${field}.${first}`,
      `holds the placeholder ${placeholder[0]}, which a runner must fill before the prompt can be sent`,
      'write the prompt as a user would send it, with the inputs it names in the case\'s "files"',
    );
  }
  return { text, field: first };
}

function filesOf(item: Record<string, unknown>, field: string): EvalFileEntry[] | Refusal {
  const value = item.files;
  if (value === undefined) return [];
  if (!Array.isArray(value)) {
    return refusal(
      `${field}.files`,
      `is ${kindOf(value)}, not a list of paths`,
      'give files as a list',
    );
  }
  const out: EvalFileEntry[] = [];
  for (const [index, entry] of value.entries()) {
    const at = `${field}.files[${index}]`;
    if (typeof entry === 'string' && entry.trim() !== '') {
      out.push({ entry: entry.trim(), purpose: undefined, field: at });
      continue;
    }
    if (isRecord(entry) && typeof entry.path === 'string' && entry.path.trim() !== '') {
      const stray = Object.keys(entry).find((key) => key !== 'path' && key !== 'purpose');
      if (stray !== undefined) {
        return refusal(
          `${at}.${stray}`,
          'is not a field of a file entry {path, purpose}',
          'remove it',
        );
      }
      out.push({
        entry: entry.path.trim(),
        purpose: typeof entry.purpose === 'string' ? entry.purpose : undefined,
        field: at,
      });
      continue;
    }
    return refusal(
      at,
      `is ${typeof entry === 'string' ? 'blank' : kindOf(entry)}, not a path`,
      'give each file as a path, or as {"path": …}',
    );
  }
  return out;
}

/** The object form of `checks`: `{must_contain, must_not_contain, code_block_language, min_code_blocks}`. */
function checksObject(value: Record<string, unknown>, field: string): Expectation[] | Refusal {
  const out: Expectation[] = [];
  for (const key of Object.keys(value)) {
    if (
      !['must_contain', 'must_not_contain', 'code_block_language', 'min_code_blocks'].includes(key)
    ) {
      return refusal(
        `${field}.${key}`,
        'is not a check redgreen knows (must_contain, must_not_contain, code_block_language, min_code_blocks)',
        'remove it, or write it as an expectation',
      );
    }
  }
  for (const key of ['must_contain', 'must_not_contain'] as const) {
    const list = value[key];
    if (list === undefined) continue;
    if (!Array.isArray(list))
      return refusal(`${field}.${key}`, `is ${kindOf(list)}, not a list of strings`, 'give a list');
    for (const [index, text] of list.entries()) {
      if (typeof text !== 'string' || text === '') {
        return refusal(
          `${field}.${key}[${index}]`,
          `is ${kindOf(text)}, not a string`,
          'give the literal text',
        );
      }
      const negate = key === 'must_not_contain';
      out.push({
        authorId: undefined,
        text: `The reply ${negate ? 'does not contain' : 'contains'} ${JSON.stringify(text)}`,
        field: `${field}.${key}[${index}]`,
        shape: `checks.${key}`,
        form: { kind: 'literal', negate, value: text },
      });
    }
  }
  const language = value.code_block_language;
  const min = value.min_code_blocks;
  if (language !== undefined && (typeof language !== 'string' || !/^[\w+#.-]+$/.test(language))) {
    return refusal(
      `${field}.code_block_language`,
      `is ${kindOf(language)}, not a language name`,
      'give a fence language such as mermaid',
    );
  }
  if (min !== undefined && (typeof min !== 'number' || !Number.isInteger(min) || min < 1)) {
    return refusal(
      `${field}.min_code_blocks`,
      `is ${JSON.stringify(min)}, not a positive whole number`,
      'give a count such as 1',
    );
  }
  if (language !== undefined || min !== undefined) {
    const count = (min as number | undefined) ?? 1;
    out.push({
      authorId: undefined,
      text: `The reply holds at least ${count} fenced code block${count === 1 ? '' : 's'}${language === undefined ? '' : ` in ${language}`}`,
      field: `${field}.${min === undefined ? 'code_block_language' : 'min_code_blocks'}`,
      shape: 'checks.code_block_language/min_code_blocks',
      form: { kind: 'code-blocks', language: language as string | undefined, min: count },
    });
  }
  return out;
}

/** A list of expectations under one field: each item becomes an expectation (a retired one none). */
function expectationList(value: unknown, field: string): Expectation[] | Refusal {
  if (typeof value === 'string') {
    return refusal(
      field,
      `is one string ("${value.slice(0, 60)}"), not a list of expectations (an external grader?)`,
      'list the expectations the grader checks, one per item',
    );
  }
  if (!Array.isArray(value))
    return refusal(field, `is ${kindOf(value)}, not a list of expectations`, 'give a list');
  const out: Expectation[] = [];
  for (const [index, item] of value.entries()) {
    const expectation = expectationOf(item, `${field}[${index}]`);
    if (expectation === undefined) continue;
    if ('problem' in expectation) return expectation;
    out.push(expectation);
  }
  return out;
}

/** `must_have` / `must_not_have` (regular expressions over the output) and `expect` / `fail`. */
function patternLists(item: Record<string, unknown>, field: string): Expectation[] | Refusal {
  const out: Expectation[] = [];
  for (const [key, negate] of [
    ['must_have', false],
    ['must_not_have', true],
  ] as const) {
    if (item[key] === undefined) continue;
    const list = item[key];
    if (!Array.isArray(list))
      return refusal(
        `${field}.${key}`,
        `is ${kindOf(list)}, not a list of regular expressions`,
        'give a list',
      );
    for (const index of list.keys()) {
      const at = `${field}.${key}[${index}]`;
      const patterns = patternList(list[index], at);
      if (!Array.isArray(patterns)) return patterns as Refusal;
      out.push({
        authorId: undefined,
        text: `The output (the reply, or a file the session wrote) ${negate ? 'does not match' : 'matches'} /${patterns[0]}/`,
        field: at,
        shape: key,
        form: { kind: 'pattern', target: 'output', negate, patterns, ordered: false },
      });
    }
  }
  for (const [key, anti] of [
    ['expect', false],
    ['fail', true],
  ] as const) {
    if (item[key] === undefined) continue;
    const list = expectationList(item[key], `${field}.${key}`);
    if (!Array.isArray(list)) return list;
    // A `fail` item is an anti-pattern: the case fails when it holds, so the expectation is its absence.
    out.push(
      ...list.map((expectation) =>
        anti
          ? {
              ...expectation,
              text: `Not: ${expectation.text}`,
              shape: `fail (anti-pattern): ${expectation.shape}`,
              form: { kind: 'judge' } as const,
            }
          : expectation,
      ),
    );
  }
  return out;
}

function expectationsOf(item: Record<string, unknown>, field: string): Expectation[] | Refusal {
  const out: Expectation[] = [];
  for (const key of EXPECTATION_LISTS) {
    if (item[key] === undefined) continue;
    const list = expectationList(item[key], `${field}.${key}`);
    if (!Array.isArray(list)) return list;
    out.push(...list);
  }
  const checks = item.checks;
  if (checks !== undefined) {
    const list = isRecord(checks)
      ? checksObject(checks, `${field}.checks`)
      : expectationList(checks, `${field}.checks`);
    if (!Array.isArray(list)) return list;
    out.push(...list);
  }
  const lists = patternLists(item, field);
  if (!Array.isArray(lists)) return lists;
  out.push(...lists);
  return out;
}

const CASE_FIELDS = new Set<string>([
  'id',
  ...PROMPT_FIELDS,
  ...EXPECTED_FIELDS,
  ...EXPECTATION_LISTS,
  'checks',
  'must_have',
  'must_not_have',
  'expect',
  'fail',
  'files',
  'should_trigger',
  'query_flow',
  ...CASE_METADATA,
]);

function caseOf(item: unknown, index: number, field: string): EvalCase | Refusal {
  if (!isRecord(item))
    return refusal(
      field,
      `is ${kindOf(item)}, not an eval case`,
      'give each case as an object with a prompt',
    );
  if (item.expected_skill !== undefined) {
    return refusal(
      `${field}.expected_skill`,
      'names which skill should answer: this is a routing set, not evals of one skill',
      'run routing as a trigger set per skill (`redgreen run --triggers <file> --skill <dir>`), with should_trigger per query',
    );
  }
  const stray = Object.keys(item).find((key) => !CASE_FIELDS.has(key));
  if (stray !== undefined) {
    return refusal(
      `${field}.${stray}`,
      'is not a field redgreen knows on an eval case',
      `remove it, or move what it says into the prompt or an expectation (known: ${[...CASE_FIELDS].join(', ')})`,
    );
  }
  const rawId = item.id;
  let id: string;
  let idSource: EvalCase['idSource'];
  if (rawId === undefined) {
    id = `#${index + 1}`;
    idSource = 'position';
  } else if (typeof rawId === 'number' && Number.isInteger(rawId)) {
    id = String(rawId);
    idSource = 'integer';
  } else if (typeof rawId === 'string' && rawId.trim() !== '') {
    id = rawId.trim();
    idSource = 'string';
  } else {
    return refusal(
      `${field}.id`,
      `is ${JSON.stringify(rawId)}, not an integer or a name`,
      'give every case an integer or string id',
    );
  }
  const prompt = promptOf(item, field);
  if ('problem' in prompt) return prompt;
  const expected = EXPECTED_FIELDS.find((key) => item[key] !== undefined);
  const expectedValue = expected === undefined ? undefined : item[expected];
  if (expected !== undefined && typeof expectedValue !== 'string') {
    return refusal(
      `${field}.${expected}`,
      `is ${kindOf(expectedValue)}, not a description of the expected result`,
      expected === 'expected_behavior'
        ? 'write the criteria as assertions, and expected_behavior as a sentence'
        : 'give it as a string',
    );
  }
  const files = filesOf(item, field);
  if (!Array.isArray(files)) return files;
  const expectations = expectationsOf(item, field);
  if (!Array.isArray(expectations)) return expectations;
  const shouldTrigger = item.should_trigger;
  if (shouldTrigger !== undefined && typeof shouldTrigger !== 'boolean') {
    return refusal(
      `${field}.should_trigger`,
      `is ${JSON.stringify(shouldTrigger)}, not true or false`,
      'give true or false',
    );
  }
  const expectedOutput =
    typeof expectedValue === 'string' && expectedValue.trim() !== ''
      ? expectedValue.trim()
      : undefined;
  if (expectations.length === 0 && expectedOutput === undefined && shouldTrigger === undefined) {
    return refusal(
      field,
      'states nothing to check: no expectations and no expected output',
      'add expectations (or at least expected_output, which the judge then checks)',
    );
  }
  const name = [item.name, item.eval_name].find((value) => typeof value === 'string') as
    | string
    | undefined;
  return {
    id,
    idSource,
    name,
    prompt: prompt.text,
    promptField: prompt.field,
    expectedOutput,
    files,
    expectations,
    shouldTrigger: shouldTrigger as boolean | undefined,
    metadata: Object.fromEntries(
      CASE_METADATA.filter((key) => item[key] !== undefined).map((key) => [key, item[key]]),
    ),
    field,
  };
}

/** Whether the cases are a trigger set written as evals.json: every one a query with should_trigger and nothing else to check. */
export function looksLikeTriggerSet(json: unknown): boolean {
  const list = Array.isArray(json)
    ? json
    : isRecord(json)
      ? CONTAINERS.map((key) => json[key]).find(Array.isArray)
      : undefined;
  if (!Array.isArray(list) || list.length === 0) return false;
  return list.every(
    (item) =>
      isRecord(item) &&
      typeof item.should_trigger === 'boolean' &&
      EXPECTATION_LISTS.every(
        (key) =>
          item[key] === undefined ||
          (Array.isArray(item[key]) && (item[key] as unknown[]).length === 0),
      ) &&
      item.checks === undefined,
  );
}

/** Normalise a parsed evals.json, or say which field refuses it. Pure. */
export function readEvalFile(json: unknown): EvalFile | Refusal {
  const deviations: string[] = [];
  let list: unknown;
  let container: string;
  let suite: Record<string, unknown> = {};
  if (Array.isArray(json)) {
    list = json;
    container = '(top-level array)';
    deviations.push('the cases are a top-level array (no {"skill_name", "evals"} wrapper)');
  } else if (isRecord(json)) {
    suite = json;
    if (json.agent_name !== undefined) {
      return refusal(
        'agent_name',
        'names an agent definition: these are evals of an agent, not of a skill',
        'run redgreen on a skill (a folder with SKILL.md) and its evals/evals.json',
      );
    }
    const held = CONTAINERS.filter((key) => json[key] !== undefined);
    if (held.length === 0) {
      return refusal(
        '(top level)',
        'holds no cases (no evals, cases, tests or test_cases list)',
        'put the cases under "evals"',
      );
    }
    if (held.length > 1) {
      return refusal(
        held[1] ?? '',
        `is a second list of cases beside ${held[0]}`,
        'keep the cases in one list',
      );
    }
    container = held[0] as string;
    list = json[container];
    if (container !== 'evals') deviations.push(`the cases are under "${container}", not "evals"`);
    const known = new Set<string>(['skill_name', 'skill', container, ...SUITE_METADATA]);
    const stray = Object.keys(json).find((key) => !known.has(key));
    if (stray !== undefined) {
      return refusal(
        stray,
        'is a suite-level field redgreen does not know (it would change how the cases are run or graded)',
        'remove it, or move what it says into the cases',
      );
    }
  } else {
    return refusal(
      '(top level)',
      `is ${kindOf(json)}, not an object with "evals" or a list of cases`,
      'give the file skill-creator\'s shape: {"skill_name", "evals": [...]}',
    );
  }
  if (!Array.isArray(list))
    return refusal(container, `is ${kindOf(list)}, not a list of cases`, 'give a list');
  if (list.length === 0)
    return refusal(
      container,
      'is empty: the file holds no cases',
      'add a case, or remove the file',
    );
  let skillName: string | undefined;
  for (const key of ['skill_name', 'skill']) {
    const value = suite[key];
    if (value === undefined) continue;
    if (typeof value !== 'string' || value.trim() === '') {
      return refusal(
        key,
        `is ${kindOf(value)}, not the skill's name`,
        "give the name in SKILL.md's front matter",
      );
    }
    if (skillName !== undefined && skillName !== value.trim()) {
      return refusal(key, `("${value}") differs from skill_name ("${skillName}")`, 'keep one');
    }
    skillName = value.trim();
    if (key === 'skill') deviations.push('the skill is named by "skill", not "skill_name"');
  }
  const cases: EvalCase[] = [];
  const fieldOf = (index: number) =>
    container === '(top-level array)' ? `[${index}]` : `${container}[${index}]`;
  for (const [index, item] of list.entries()) {
    const read = caseOf(item, index, fieldOf(index));
    if ('problem' in read) return read;
    const twin = cases.find((other) => other.id === read.id);
    if (twin !== undefined) {
      return refusal(
        `${read.field}.id`,
        `"${read.id}" is also the id of ${twin.field}`,
        'give every case its own id',
      );
    }
    cases.push(read);
  }
  const describe = (what: string, count: number) => {
    if (count > 0) deviations.push(`${count} of ${cases.length} cases ${what}`);
  };
  describe('have string ids', cases.filter((item) => item.idSource === 'string').length);
  describe(
    'have no id (numbered by position)',
    cases.filter((item) => item.idSource === 'position').length,
  );
  describe(
    'give the prompt as "query" or "input"',
    cases.filter((item) => item.promptField !== 'prompt').length,
  );
  describe(
    'use "assertions" (not "expectations")',
    list.filter((item) => isRecord(item) && item.assertions !== undefined).length,
  );
  describe(
    'write expectations as objects',
    cases.filter((item) =>
      item.expectations.some((expectation) => expectation.shape.startsWith('{')),
    ).length,
  );
  describe(
    'have machine checks (checks, must_have, typed patterns, commands)',
    cases.filter((item) =>
      item.expectations.some(
        (expectation) => expectation.form.kind !== 'statement' && expectation.form.kind !== 'judge',
      ),
    ).length,
  );
  describe(
    'have no expectations (the expected output is judged)',
    cases.filter((item) => item.expectations.length === 0).length,
  );
  describe(
    'give files as {path, purpose}',
    cases.filter((item) => item.files.some((file) => file.purpose !== undefined)).length,
  );
  if (skillName === undefined)
    deviations.push('the file names no skill (the skill is the one it sits in)');
  return {
    kind: 'evals',
    container,
    skillName,
    cases,
    metadata: Object.fromEntries(
      SUITE_METADATA.filter((key) => suite[key] !== undefined).map((key) => [key, suite[key]]),
    ),
    deviations,
  };
}
