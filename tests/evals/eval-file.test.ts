/**
 * The eval-file reader's accept and refuse rules (SHAPES.md), each
 * deviation accepted as documented or refused naming its field; the trigger
 * set shapes; what each recognisable expectation becomes (a check, a
 * transcript check) and that everything else, compounds and other languages
 * included, is left to the judge; the seeded split.
 */
import { describe, expect, it } from 'vitest';
import {
  compileExpectation,
  recogniseStatement,
} from '../../harness/evals/classify-expectation.js';
import { type EvalFile, looksLikeTriggerSet, readEvalFile } from '../../harness/evals/eval-file.js';
import { expectationOf } from '../../harness/evals/expectation-forms.js';
import type { Refusal } from '../../harness/evals/refusal.js';
import { readTriggerFile, type TriggerSet } from '../../harness/evals/trigger-file.js';
import { splitQueries } from '../../harness/evals/trigger-split.js';

const one = (item: Record<string, unknown>, suite: Record<string, unknown> = {}) => ({
  skill_name: 'notes',
  ...suite,
  evals: [{ id: 1, prompt: 'Save a note.', expectations: ['It saves.'], ...item }],
});

function read(json: unknown): EvalFile {
  const result = readEvalFile(json);
  if ('problem' in result) throw new Error(`${result.field}: ${result.problem}`);
  return result;
}

function refused(json: unknown): Refusal {
  const result = readEvalFile(json);
  if (!('problem' in result)) throw new Error('expected a refusal');
  return result;
}

describe('readEvalFile: the shapes authors write', () => {
  it('accepts every container, skill field and id form, and says which deviations it saw', () => {
    for (const container of ['cases', 'tests', 'test_cases']) {
      const file = read({
        skill: 'notes',
        [container]: [{ id: 'a-1', query: 'Hi', assertions: ['x'] }],
      });
      expect(file.container).toBe(container);
      expect(file.skillName).toBe('notes');
      expect(file.cases[0]?.prompt).toBe('Hi');
      expect(file.deviations.join('; ')).toMatch(/under "cases"|under "tests"|under "test_cases"/);
    }
    const array = read([
      { prompt: 'A', assertions: ["contains 'x'"] },
      { prompt: 'B', expectations: ['y'] },
    ]);
    expect(array.container).toBe('(top-level array)');
    expect(array.cases.map((item) => item.id)).toEqual(['#1', '#2']);
    expect(array.deviations.join('; ')).toMatch(/top-level array.*numbered by position/s);
    expect(read(one({ id: 0 })).cases[0]?.idSource).toBe('integer');
  });

  it('accepts prompt, query or input (two only when equal), and the expected-output fields', () => {
    expect(read(one({ prompt: undefined, input: 'Do it.' })).cases[0]?.promptField).toBe('input');
    expect(read(one({ query: 'Save a note.' })).cases[0]?.prompt).toBe('Save a note.');
    expect(refused(one({ query: 'Something else.' })).field).toBe('evals[0].query');
    expect(read(one({ expected_behavior: 'It saves.' })).cases[0]?.expectedOutput).toBe(
      'It saves.',
    );
    expect(refused(one({ expected_behavior: ['a', 'b'] })).field).toBe(
      'evals[0].expected_behavior',
    );
  });

  it('merges expectation fields in their order, keeping each item’s form', () => {
    const file = read(
      one({
        expectations: ['A file is written.'],
        assertions: [
          { id: 'q', text: 'Quality.', type: 'qualitative' },
          { id: 'A1', text: 'Graded before.', passed: false, evidence: '' },
        ],
        must_have: ['module\\s+x'],
        must_not_have: ['\\binitial\\b'],
        checks: { must_contain: ['```mermaid'], min_code_blocks: 2 },
        expect: ['good'],
        fail: ['bad'],
      }),
    );
    const forms = file.cases[0]?.expectations.map((item) => item.form.kind);
    expect(forms).toEqual([
      'statement',
      'judge',
      'statement',
      'literal',
      'code-blocks',
      'pattern',
      'pattern',
      'statement',
      'judge',
    ]);
    expect(file.cases[0]?.expectations.at(-1)?.text).toBe('Not: bad');
  });

  it('reads typed pattern objects, ordered passages as literal text, commands and retired checks', () => {
    const typed = expectationOf(
      { text: 'vision', type: 'behavior_contains', pattern: 'vision|视觉' },
      'x',
    );
    expect(typed).toMatchObject({ form: { kind: 'pattern', target: 'behaviour', negate: false } });
    const ordered = expectationOf(
      { text: 'order', type: 'ordered_content', patterns: ['a. b', '> **译文：**'] },
      'x',
    );
    expect(ordered).toMatchObject({
      form: { kind: 'pattern', ordered: true, patterns: ['a\\. b', '> \\*\\*译文：\\*\\*'] },
    });
    expect(
      expectationOf({ check: 'builds', cmd: ['make', 'check'], expect_exit: 0 }, 'x'),
    ).toMatchObject({ form: { kind: 'command', argv: ['make', 'check'] } });
    expect(expectationOf({ check: 'old', retired: true }, 'x')).toBeUndefined();
    expect(
      expectationOf({ type: 'llm_judge', name: 'tone', criterion: 'Friendly.' }, 'x'),
    ).toMatchObject({ authorId: 'tone', form: { kind: 'judge' } });
    expect(expectationOf({ name: 'n', description: 'Described.' }, 'x')).toMatchObject({
      text: 'Described.',
    });
  });

  it('refuses, naming the field, what it cannot read without guessing', () => {
    const cases: [unknown, RegExp][] = [
      [{ agent_name: 'a', evals: [] }, /^agent_name$/],
      [{ evals: [] }, /^evals$/],
      [{ evals: [], cases: [] }, /^cases$/],
      [
        { skill_name: 'x', scoring: {}, evals: [{ prompt: 'p', expectations: ['e'] }] },
        /^scoring$/,
      ],
      [one({ weight: 2 }), /^evals\[0\]\.weight$/],
      [one({ expected_skill: 'other' }), /^evals\[0\]\.expected_skill$/],
      [one({ query_flow: ['a', 'b'] }), /^evals\[0\]\.query_flow$/],
      [one({ prompt: 'Tidy {case_dir} please' }), /^evals\[0\]\.prompt$/],
      [one({ prompt: 'Read <your-file.pdf>' }), /^evals\[0\]\.prompt$/],
      [one({ expectations: undefined }), /^evals\[0\]$/],
      [one({ expectations: 'see grade.py check_all' }), /^evals\[0\]\.expectations$/],
      [
        one({ expectations: [{ text: 'x', check: 'grep -q x <output>' }] }),
        /^evals\[0\]\.expectations\[0\]\.check$/,
      ],
      [
        one({ expectations: [{ text: 'x', weight: 3 }] }),
        /^evals\[0\]\.expectations\[0\]\.weight$/,
      ],
      [
        one({ expectations: [{ type: 'content_contains', pattern: '(?i)x' }] }),
        /^evals\[0\]\.expectations\[0\]\.pattern$/,
      ],
      [
        one({ expectations: [{ type: 'content_contains', patterns: ['a', 'b'] }] }),
        /^evals\[0\]\.expectations\[0\]\.patterns$/,
      ],
      [
        {
          skill_name: 'x',
          evals: [
            { id: 1, prompt: 'a', expectations: ['e'] },
            { id: 1, prompt: 'b', expectations: ['e'] },
          ],
        },
        /^evals\[1\]\.id$/,
      ],
    ];
    for (const [json, field] of cases) {
      expect(refused(json).field, JSON.stringify(json)).toMatch(field);
    }
    expect(refused(one({ prompt: 'Tidy <SANDBOX> now' })).problem).toContain('<SANDBOX>');
  });

  it('keeps a behaviour case that says whether the skill should fire, and takes a set of labels for a trigger set', () => {
    const file = read(one({ should_trigger: false, expectations: [] }));
    expect(file.cases[0]?.shouldTrigger).toBe(false);
    expect(
      looksLikeTriggerSet([
        { prompt: 'a', query: 'a', should_trigger: true, expected_output: 'Trigger the skill.' },
      ]),
    ).toBe(true);
    expect(looksLikeTriggerSet(one({}))).toBe(false);
  });
});

describe('readTriggerFile: the trigger set shapes', () => {
  function set(json: unknown): TriggerSet {
    const result = readTriggerFile(json);
    if ('problem' in result) throw new Error(`${result.field}: ${result.problem}`);
    return result;
  }
  it('reads every shape the survey found', () => {
    const shapes: unknown[] = [
      [
        { query: 'a', should_trigger: true },
        { query: 'b', should_trigger: false, note: 'near miss' },
      ],
      { should_trigger: ['a'], should_not_trigger: ['b'] },
      {
        should_trigger: [{ id: 'p1', query: 'a', expect: 'x' }],
        should_not_trigger: [{ id: 'n1', query: 'b' }],
      },
      {
        skill_name: 's',
        queries: [
          { query: 'a', should_trigger: true },
          { query: 'b', should_trigger: false },
        ],
      },
      [
        { prompt: 'a', should_trigger: true },
        { prompt: 'b', should_trigger: false },
      ],
      {
        skill: 's',
        queries: [
          { q: 'a', should: true },
          { q: 'b', should: false },
        ],
      },
      {
        cases: [
          { id: 1, query: 'a', expected: 'should_trigger', split: 'train' },
          { id: 2, query: 'b', expected: 'should_not_trigger' },
        ],
      },
      {
        cases: [
          { id: 'c1', prompt: 'a', should_trigger: true, reason: 'r', tags: [] },
          { id: 'c2', prompt: 'b', should_trigger: false },
        ],
      },
      {
        description_under_test: 'd',
        cases: [
          { id: 'x', prompt: 'a', expected_trigger: true },
          { id: 'y', prompt: 'b', expected_trigger: false },
        ],
      },
    ];
    for (const json of shapes) {
      expect(
        set(json).queries.map((query) => [query.query, query.shouldTrigger]),
        JSON.stringify(json),
      ).toEqual([
        ['a', true],
        ['b', false],
      ]);
    }
  });
  it('refuses a routing set, an unlabelled query and an unknown field', () => {
    const refusedField = (json: unknown) => {
      const result = readTriggerFile(json);
      return 'problem' in result ? result.field : 'accepted';
    };
    expect(refusedField([{ query: 'a', should_trigger: 'pdf' }])).toBe('[0].should_trigger');
    expect(refusedField([{ query: 'a' }])).toBe('[0]');
    expect(refusedField([{ query: 'a', should_trigger: true, weight: 1 }])).toBe('[0].weight');
    expect(refusedField({ queries: [] })).toBe('(top level)');
  });

  it('refuses a query labelled both ways (one of its outcomes would always count against the description), and says a blank query is blank', () => {
    const problem = (json: unknown) => {
      const result = readTriggerFile(json);
      return 'problem' in result ? `${result.field}: ${result.problem}` : 'accepted';
    };
    expect(
      problem([
        { query: 'Save a note', should_trigger: true },
        { query: ' save a note ', should_trigger: false },
      ]),
    ).toMatch(/^\[1\]\.should_trigger: labels the query of \[0\] the other way/);
    expect(
      problem([
        { query: 'Save a note', should_trigger: true },
        { query: 'Save a note', should_trigger: true },
      ]),
    ).toBe('accepted');
    expect(problem([{ query: '  ', should_trigger: true }])).toMatch(/^\[0\]\.query: is blank/);
    expect(problem({ should_trigger: [''] })).toMatch(/^should_trigger\[0\]: is blank/);
  });
});

describe('what an expectation becomes', () => {
  const plan = (text: string) =>
    compileExpectation('e1', {
      authorId: undefined,
      text,
      field: 'f',
      shape: 'string',
      form: { kind: 'statement' },
    });
  it('recognises whole statements of checkable forms', () => {
    expect(plan('`report.json` exists').check).toEqual({
      id: 'e1',
      verb: 'file-exists',
      path: 'report.json',
    });
    expect(plan('The agent creates notes/todo.md.').check).toMatchObject({
      verb: 'file-exists',
      path: 'notes/todo.md',
    });
    expect(plan('`a.txt` contains "Hello, world"').check).toMatchObject({
      verb: 'file-contains',
      pattern: 'Hello, world',
    });
    expect(plan('The reply mentions "Saved."').check).toMatchObject({
      verb: 'output-contains',
      pattern: 'Saved\\.',
      in: ['reply'],
    });
    expect(plan("The output does not contain 'TODO'").check).toMatchObject({
      not: { verb: 'output-contains', in: ['reply', 'files'] },
    });
    expect(plan('`npm test` passes').check).toMatchObject({
      verb: 'command-succeeds',
      command: 'npm test',
    });
    expect(plan('Uses the `pdf` skill').check).toMatchObject({
      verb: 'skill-invoked',
      skill: 'pdf',
      form: 'any',
    });
    expect(plan('The pdf skill is not loaded').check).toMatchObject({
      verb: 'skill-not-invoked',
      skill: 'pdf',
    });
    expect(plan('Agent runs uv run python scripts/doctor.py --format json.')).toMatchObject({
      decidedBy: 'transcript',
      check: { verb: 'tool-called', input: { command: 'doctor\\.py\\s+--format\\s+json' } },
    });
    expect(plan('Runs `lint` before `git commit`').check).toMatchObject({
      verb: 'order',
      first: { input: { command: 'lint' } },
      then: { input: { command: 'git commit' } },
      ifThenAbsent: 'undecided',
    });
    expect(plan("contains 'A' or contains 'B'").check).toMatchObject({
      'any-of': [{ pattern: 'A' }, { pattern: 'B' }],
    });
    expect(plan("contains 'A' and does not contain 'B'").check).toMatchObject({
      'all-of': [{ pattern: 'A' }, { not: { pattern: 'B' } }],
    });
  });
  it('leaves to the judge what a check would decide only in part, and other languages', () => {
    for (const text of [
      'vacation.bpmn exists and parses as well-formed BPMN 2.0',
      'Agent runs probe_media.py on the source file before ffmpeg trim.',
      'Agent runs uv run python scripts/probe_media.py with the provided path.',
      'The run produces a schema-shaped `report.json`',
      "contains 'a' or contains 'b' and contains 'c'",
      '提到了先明确目标与约束（输入/输出/时长）',
      'Opens with a high-conviction judgment call',
    ]) {
      const planned = plan(text);
      expect(planned.decidedBy, text).toBe('judge');
      expect(planned.check).toEqual({ id: 'e1', verb: 'judged', item: 'e1' });
      expect(planned.rubric).toBe(text);
    }
    expect(recogniseStatement('`../etc/passwd` exists')).toBeUndefined();
  });
});

describe('the seeded split of a trigger set', () => {
  const queries = Array.from({ length: 20 }, (_, index) => ({
    id: `#${index + 1}`,
    query: `query ${index}`,
    shouldTrigger: index < 10,
    note: undefined,
    authorSplit: undefined,
    field: `[${index}]`,
  }));
  it('holds out the same 40% of each label for a seed, and another share for another seed', () => {
    const planned = splitQueries(queries, 'q-', 0.6, 42);
    const part = (trigger: boolean, which: string) =>
      planned.filter((query) => query.query.shouldTrigger === trigger && query.part === which)
        .length;
    expect([
      part(true, 'tune'),
      part(true, 'held-out'),
      part(false, 'tune'),
      part(false, 'held-out'),
    ]).toEqual([6, 4, 6, 4]);
    expect(splitQueries(queries, 'q-', 0.6, 42)).toEqual(planned);
    expect(splitQueries(queries, 'q-', 0.6, 7).map((query) => query.part)).not.toEqual(
      planned.map((query) => query.part),
    );
    expect(planned.map((query) => query.scenarioId).slice(0, 2)).toEqual(['q-01', 'q-02']);
    expect(splitQueries(queries, 'q-', undefined, 42).every((query) => query.part === 'all')).toBe(
      true,
    );
  });
});
