/**
 * A trigger set (queries a skill's description should, or should not, make
 * the agent use the skill) in the shapes the survey found (SHAPES.md,
 * "Trigger sets"): skill-creator's `[{query, should_trigger}]` (an extra
 * note per item allowed); `{should_trigger: [...], should_not_trigger:
 * [...]}` of strings or `{id, query}`; `{skill_name | skill, queries:
 * [...]}` with `{query, should_trigger}` or `{q, should}`; `[{prompt,
 * should_trigger}]`; `{cases: [...]}` with `expected: "should_trigger" |
 * "should_not_trigger"`, `should_trigger` or `expected_trigger`, and an
 * optional `description_under_test`. Refused: a routing set
 * (`should_trigger` naming a skill), a set with no query, an unknown field.
 */
import { isRecord, kindOf, type Refusal, refusal } from './refusal.js';

export interface TriggerQuery {
  /** The author's id, or `#<n>` (1-based position). */
  readonly id: string;
  readonly query: string;
  readonly shouldTrigger: boolean;
  /** A note the author kept with it (`note`, `_comment`, `why`, `rationale`, `reason`). */
  readonly note: string | undefined;
  /** The author's own split label, when the set has one (kept for the record; `--split` decides). */
  readonly authorSplit: string | undefined;
  readonly field: string;
}

export interface TriggerSet {
  readonly kind: 'triggers';
  readonly shape: string;
  readonly skillName: string | undefined;
  /** A description the author wrote the set for (kept for the record: the arms' descriptions are tested). */
  readonly descriptionUnderTest: string | undefined;
  readonly queries: readonly TriggerQuery[];
}

const NOTE_KEYS = ['note', '_comment', 'why', 'rationale', 'reason'];
const ITEM_KEYS = new Set([
  'id',
  'query',
  'prompt',
  'q',
  'should_trigger',
  'should',
  'expected',
  'expected_trigger',
  'expect',
  'split',
  'tags',
  'kind',
  'name',
  // A trigger set written as evals.json carries skill-creator's case fields.
  'expected_output',
  ...NOTE_KEYS,
]);

function labelOf(
  item: Record<string, unknown>,
  field: string,
  fixed: boolean | undefined,
): boolean | Refusal {
  if (fixed !== undefined) return fixed;
  for (const key of ['should_trigger', 'should', 'expected_trigger'] as const) {
    const value = item[key];
    if (value === undefined) continue;
    if (typeof value === 'boolean') return value;
    if (key === 'should_trigger' && (typeof value === 'string' || value === null)) {
      return refusal(
        `${field}.should_trigger`,
        `is ${value === null ? 'null' : `"${value}"`}: the set routes queries among several skills`,
        'write one trigger set per skill, with should_trigger true or false',
      );
    }
    return refusal(
      `${field}.${key}`,
      `is ${kindOf(value)}, not true or false`,
      'give true or false',
    );
  }
  const expected = item.expected;
  if (expected === 'should_trigger' || expected === 'should_not_trigger')
    return expected === 'should_trigger';
  if (expected !== undefined) {
    return refusal(
      `${field}.expected`,
      `is ${JSON.stringify(expected)}, not "should_trigger" or "should_not_trigger"`,
      'use one of those',
    );
  }
  return refusal(
    field,
    'does not say whether the skill should trigger',
    'give should_trigger: true or false',
  );
}

function queryOf(
  item: unknown,
  index: number,
  field: string,
  fixed?: boolean,
): TriggerQuery | Refusal {
  if (typeof item === 'string') {
    if (item.trim() === '') return refusal(field, 'is blank', 'remove it');
    if (fixed === undefined)
      return refusal(
        field,
        'is a query without a label',
        'give {"query": …, "should_trigger": true|false}',
      );
    return {
      id: `#${index + 1}`,
      query: item.trim(),
      shouldTrigger: fixed,
      note: undefined,
      authorSplit: undefined,
      field,
    };
  }
  if (!isRecord(item))
    return refusal(
      field,
      `is ${kindOf(item)}, not a query`,
      'give {"query": …, "should_trigger": true|false}',
    );
  const stray = Object.keys(item).find((key) => !ITEM_KEYS.has(key));
  if (stray !== undefined) {
    return refusal(
      `${field}.${stray}`,
      'is not a field redgreen knows on a trigger query',
      `remove it (known: ${[...ITEM_KEYS].join(', ')})`,
    );
  }
  const texts = ['query', 'prompt', 'q'].filter((key) => item[key] !== undefined);
  if (texts.length > 1 && new Set(texts.map((key) => item[key])).size > 1) {
    return refusal(
      `${field}.${texts[1]}`,
      `differs from ${field}.${texts[0]}: two queries in one item`,
      'keep one',
    );
  }
  const textKey = texts[0];
  const text = textKey === undefined ? undefined : item[textKey];
  if (typeof text !== 'string' || text.trim() === '') {
    return refusal(
      textKey === undefined ? field : `${field}.${textKey}`,
      textKey === undefined
        ? 'has no query'
        : `is ${typeof text === 'string' ? 'blank' : kindOf(text)}, not a query`,
      'give the user message as "query"',
    );
  }
  const label = labelOf(item, field, fixed);
  if (typeof label !== 'boolean') return label;
  const id = item.id;
  const note = NOTE_KEYS.map((key) => item[key]).find((value) => typeof value === 'string') as
    | string
    | undefined;
  return {
    id: typeof id === 'string' || typeof id === 'number' ? String(id) : `#${index + 1}`,
    query: text.trim(),
    shouldTrigger: label,
    note,
    authorSplit: typeof item.split === 'string' ? item.split : undefined,
    field,
  };
}

function queryList(list: unknown, field: string, fixed?: boolean): TriggerQuery[] | Refusal {
  if (!Array.isArray(list))
    return refusal(field, `is ${kindOf(list)}, not a list of queries`, 'give a list');
  const out: TriggerQuery[] = [];
  for (const [index, item] of list.entries()) {
    const query = queryOf(item, index, `${field}[${index}]`, fixed);
    if ('problem' in query) return query;
    out.push(query);
  }
  return out;
}

/** Normalise a parsed trigger set, or say which field refuses it. Pure. */
export function readTriggerFile(json: unknown): TriggerSet | Refusal {
  let queries: TriggerQuery[] | Refusal;
  let shape: string;
  let skillName: string | undefined;
  let descriptionUnderTest: string | undefined;
  if (Array.isArray(json)) {
    queries = queryList(json, '');
    shape = '[{query, should_trigger}]';
  } else if (isRecord(json)) {
    const known = new Set([
      'skill_name',
      'skill',
      'queries',
      'cases',
      'should_trigger',
      'should_not_trigger',
      'description_under_test',
      'description',
      'version',
      '$schema',
    ]);
    const stray = Object.keys(json).find((key) => !known.has(key));
    if (stray !== undefined) {
      return refusal(stray, 'is not a field redgreen knows in a trigger set', 'remove it');
    }
    for (const key of ['skill_name', 'skill']) {
      if (typeof json[key] === 'string') skillName = json[key] as string;
    }
    if (typeof json.description_under_test === 'string')
      descriptionUnderTest = json.description_under_test;
    if (json.should_trigger !== undefined || json.should_not_trigger !== undefined) {
      const positives = queryList(json.should_trigger ?? [], 'should_trigger', true);
      const negatives = queryList(json.should_not_trigger ?? [], 'should_not_trigger', false);
      if (!Array.isArray(positives)) return positives;
      if (!Array.isArray(negatives)) return negatives;
      const all = [...positives, ...negatives];
      queries = all.map((query, index) =>
        query.id.startsWith('#') ? { ...query, id: `#${index + 1}` } : query,
      );
      shape = '{should_trigger: [...], should_not_trigger: [...]}';
    } else if (json.queries !== undefined) {
      queries = queryList(json.queries, 'queries');
      shape = '{skill_name, queries: [...]}';
    } else if (json.cases !== undefined) {
      queries = queryList(json.cases, 'cases');
      shape = '{cases: [...]}';
    } else {
      return refusal(
        '(top level)',
        'holds no queries (queries, cases, should_trigger)',
        'give skill-creator\'s shape: [{"query": …, "should_trigger": true|false}]',
      );
    }
  } else {
    return refusal(
      '(top level)',
      `is ${kindOf(json)}, not a trigger set`,
      'give [{"query": …, "should_trigger": true|false}]',
    );
  }
  if (!Array.isArray(queries)) return queries;
  if (queries.length === 0) return refusal('(top level)', 'holds no queries', 'add queries');
  const ids = new Set<string>();
  const labels = new Map<string, TriggerQuery>();
  for (const query of queries) {
    const same = labels.get(query.query.toLowerCase());
    if (same !== undefined && same.shouldTrigger !== query.shouldTrigger) {
      return refusal(
        query.field.startsWith('should_') ? query.field : `${query.field}.should_trigger`,
        `labels the query of ${same.field} the other way ("${query.query}"): one of its outcomes would always count against the description`,
        'keep one label for each query',
      );
    }
    labels.set(query.query.toLowerCase(), query);
    if (ids.has(query.id))
      return refusal(
        `${query.field}.id`,
        `"${query.id}" is the id of another query too`,
        'give every query its own id',
      );
    ids.add(query.id);
  }
  return { kind: 'triggers', shape, skillName, descriptionUnderTest, queries };
}
