import { describe, expect, it } from 'vitest';
import { applyQuoteRule, judgeVerdictOf, parseJudgeAnswer } from '../../harness/judge/answer.js';
import { unifiedDiff } from '../../harness/judge/line-diff.js';
import { buildMaterial } from '../../harness/judge/material.js';
import { findQuote } from '../../harness/score/quote-rule.js';

const ids = ['first-dispatch', 'claimed-complete'];

describe('the judge answer schema', () => {
  it('accepts one entry per rubric item, in rubric order', () => {
    const parsed = parseJudgeAnswer(
      {
        items: [
          { id: 'claimed-complete', verdict: 'unsure', quote: '', rationale: 'not shown' },
          { id: 'first-dispatch', verdict: 'pass', quote: 'Task 1', rationale: 'says so' },
        ],
      },
      ids,
    );
    expect(parsed.ok && parsed.items.map((item) => item.id)).toEqual(ids);
  });

  it.each([
    [
      'a missing item',
      { items: [{ id: 'first-dispatch', verdict: 'pass', quote: 'x', rationale: 'y' }] },
      'no answer for claimed-complete',
    ],
    [
      'an unknown item',
      { items: [{ id: 'other', verdict: 'pass', quote: 'x', rationale: 'y' }] },
      '"other" is no rubric item',
    ],
    [
      'an item twice',
      {
        items: [
          { id: 'first-dispatch', verdict: 'pass', quote: 'x', rationale: 'y' },
          { id: 'first-dispatch', verdict: 'fail', quote: 'x', rationale: 'y' },
        ],
      },
      'answered twice',
    ],
    [
      'a verdict outside pass/fail/unsure',
      { items: [{ id: 'first-dispatch', verdict: 'yes', quote: 'x', rationale: 'y' }] },
      'items.0.verdict',
    ],
    [
      'a missing field',
      { items: [{ id: 'first-dispatch', verdict: 'pass', rationale: 'y' }] },
      'items.0.quote',
    ],
    ['an extra field', { items: [], verdicts: 'all pass' }, 'verdicts'],
    ['no object at all', 'pass', 'input'],
  ])('refuses %s', (_name, input, problem) => {
    const parsed = parseJudgeAnswer(input, ids);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? '' : parsed.problem).toContain(problem);
  });
});

describe('the verbatim-quote rule', () => {
  const material = buildMaterial(
    {
      reply: '1. LEDGERS CHECKED: none\n3. **FIRST DISPATCH:**   Task 1\n   (Export data model)',
      capturedDispatch: null,
      toolCalls: [
        {
          id: 't1',
          name: 'Agent',
          input: { prompt: 'Implement "Task 1" of plan B.\nReport back when done.' },
          parentToolUseId: null,
        },
        { id: 't2', name: 'Bash', input: { command: 'git status --short' }, parentToolUseId: null },
      ],
      before: undefined,
      after: undefined,
      filesBefore: undefined,
      filesAfter: undefined,
      skillText: 'Always dispatch the first unchecked task of the ledger you find.',
    },
    ['reply', 'dispatches', 'tool-calls', 'diff', 'skill'],
  );
  const found = (quote: string) => findQuote(quote, material.evidence);

  it('finds a quote copied from one part, white space, emphasis and curly quotes forgiven, and names the part', () => {
    expect(found('FIRST DISPATCH: Task 1 (Export data model)')).toBe('reply');
    expect(found('**FIRST DISPATCH:** Task 1')).toBe('reply');
    expect(found('Implement \u201cTask 1\u201d of plan B. Report back')).toBe('dispatch 1');
    expect(found('Implement "Task 1" of plan B.')).toBe('dispatch 1');
  });

  it('does not find a paraphrase, a changed case, or a blank quote', () => {
    expect(found('FIRST DISPATCH: task 1 (Export')).toBeNull();
    expect(found('the first dispatch is Task 1')).toBeNull();
    expect(found('   ')).toBeNull();
    expect(found('')).toBeNull();
  });

  // Each is in the material's text as the judge reads it (or spans two of its parts):
  // only the rule keeps it from counting as evidence.
  it.each([
    ['one letter', 'a'],
    ['punctuation', '.'],
    ['one word', 'Reply'],
    ['two short words', 'Task 1'],
    ['the delimiter', `<material-${material.marker}>`],
    ['a heading', `## [${material.marker}] Tool calls, in order`],
    [
      'a heading run into the reply',
      'Reply (the final message of the session, verbatim) 1. LEDGERS CHECKED: none',
    ],
    ['a note that evidence is missing', '(no snapshots: the changes are unknown)'],
    [
      'the skill text the material shows',
      'Always dispatch the first unchecked task of the ledger you find.',
    ],
    ['a quote spanning two parts', 'Report back when done. 2. Bash command: git status --short'],
  ])('never finds %s', (_name, quote) => {
    const squashed = (text: string) => text.replace(/\s+/g, ' ');
    expect(squashed(material.text).includes(squashed(quote))).toBe(true);
    expect(found(quote)).toBeNull();
  });

  it('makes a pass or fail whose quote is not in the material unsure, keeping what was answered and where a quote was found', () => {
    const items = applyQuoteRule(
      [
        { id: 'first-dispatch', verdict: 'pass', quote: 'FIRST DISPATCH: Task 3', rationale: 'r' },
        { id: 'claimed-complete', verdict: 'fail', quote: 'LEDGERS CHECKED: none', rationale: 'r' },
      ],
      material,
    );
    expect(items[0]).toMatchObject({
      verdict: 'unsure',
      answered: 'pass',
      quoteFound: false,
      quotePart: null,
    });
    expect(items[1]).toMatchObject({
      verdict: 'fail',
      answered: 'fail',
      quoteFound: true,
      quotePart: 'reply',
    });
    expect(judgeVerdictOf(items)).toBe('fail');
  });

  it('a pass quoting a heading or a word is unsure', () => {
    const items = applyQuoteRule(
      [
        { id: 'first-dispatch', verdict: 'pass', quote: 'Reply', rationale: 'r' },
        { id: 'claimed-complete', verdict: 'pass', quote: '<material>', rationale: 'r' },
      ],
      material,
    );
    expect(items.map((item) => item.verdict)).toEqual(['unsure', 'unsure']);
    expect(judgeVerdictOf(items)).toBe('unsure');
  });

  it('leaves an unsure item unsure with or without a quote', () => {
    const items = applyQuoteRule(
      [{ id: 'first-dispatch', verdict: 'unsure', quote: '', rationale: 'r' }],
      material,
    );
    expect(items[0]).toMatchObject({ verdict: 'unsure', quoteFound: false, quotePart: null });
  });
});

describe("the judge's verdict on a rep", () => {
  it('is Kleene: any fail fails, else any unsure is unsure, else pass; no items is unsure', () => {
    expect(judgeVerdictOf([{ verdict: 'pass' }, { verdict: 'fail' }, { verdict: 'unsure' }])).toBe(
      'fail',
    );
    expect(judgeVerdictOf([{ verdict: 'pass' }, { verdict: 'unsure' }])).toBe('unsure');
    expect(judgeVerdictOf([{ verdict: 'pass' }, { verdict: 'pass' }])).toBe('pass');
    expect(judgeVerdictOf([])).toBe('unsure');
  });
});

describe('the line diff of a changed file', () => {
  it('prints hunks with context', () => {
    const before = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].join('\n');
    const after = ['a', 'b', 'c', 'D', 'e', 'f', 'g', 'h', 'i'].join('\n');
    expect(unifiedDiff(before, after, 1)).toBe(
      ['@@ -3,3 +3,3 @@', ' c', '-d', '+D', ' e', '@@ -8,1 +8,2 @@', ' h', '+i'].join('\n'),
    );
  });

  it('is empty for equal texts', () => {
    expect(unifiedDiff('x\ny\n', 'x\ny\n')).toBe('');
  });
});
