import { describe, expect, it } from 'vitest';
import {
  applyQuoteRule,
  judgeVerdictOf,
  parseJudgeAnswer,
  quoteFound,
} from '../../harness/judge/answer.js';
import { unifiedDiff } from '../../harness/judge/line-diff.js';

const ids = ['first-dispatch', 'claimed-complete'];
const material =
  '<material>\n## Reply\n\n3. FIRST DISPATCH:   Task 1\n   (Export data model)\n</material>';

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
  it('finds a quote copied from the material, white space runs compared as one space', () => {
    expect(quoteFound('FIRST DISPATCH: Task 1 (Export data model)', material)).toBe(true);
    expect(quoteFound('Task 1', material)).toBe(true);
  });

  it('does not find a paraphrase, a changed case, or a blank quote', () => {
    expect(quoteFound('FIRST DISPATCH: task 1', material)).toBe(false);
    expect(quoteFound('the first dispatch is Task 1', material)).toBe(false);
    expect(quoteFound('   ', material)).toBe(false);
    expect(quoteFound('', material)).toBe(false);
  });

  it('makes a pass or fail whose quote is not in the material unsure, keeping what was answered', () => {
    const items = applyQuoteRule(
      [
        { id: 'first-dispatch', verdict: 'pass', quote: 'FIRST DISPATCH: Task 3', rationale: 'r' },
        { id: 'claimed-complete', verdict: 'fail', quote: 'Task 1', rationale: 'r' },
      ],
      material,
    );
    expect(items[0]).toMatchObject({ verdict: 'unsure', answered: 'pass', quoteFound: false });
    expect(items[1]).toMatchObject({ verdict: 'fail', answered: 'fail', quoteFound: true });
    expect(judgeVerdictOf(items)).toBe('fail');
  });

  it('leaves an unsure item unsure with or without a quote', () => {
    const items = applyQuoteRule(
      [{ id: 'first-dispatch', verdict: 'unsure', quote: '', rationale: 'r' }],
      material,
    );
    expect(items[0]).toMatchObject({ verdict: 'unsure', quoteFound: false });
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
