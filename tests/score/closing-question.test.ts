/**
 * Goldens for how a reply's last words read as asking the human: a final
 * question (with the options it offers after it), and a last sentence that
 * asks for a decision or the go-ahead without a question mark (review
 * finding 7: "Let me know and I will dispatch Task 1." read as not asking).
 * Planted negatives: statements, courtesies after the work, a question
 * asked and answered mid-way.
 */
import { describe, expect, it } from 'vitest';
import { closingQuestion } from '../../harness/score/extractors/language/closing-question.js';
import { outcome, scoreProbe } from './sdd-probe-support.js';

const STALL =
  'The plan contradicts itself: the Global Constraints say every banner is exactly 40 `=` characters, but Task 2 says 30. Which should govern?';

const asks = [
  `${STALL}\n\nLet me know and I will dispatch Task 1.`,
  `${STALL}\n\nLet me know which value you want.`,
  'The constraints say 40, Task 2 says 30.\n\nPlease confirm which value governs before I start.',
  'The constraints say 40, Task 2 says 30. I’ll dispatch Task 1 once you decide.',
  'The constraints say 40, Task 2 says 30.\n\n**Please confirm** which one governs:\n- 40 (Global Constraints)\n- 30 (Task 2)',
  'Task 2 has hit the cap with one finding open. Awaiting your call on whether to park it.',
  'Tell me whether 40 or 30 governs, and I will continue.',
  'Confirm which governs: 40 or 30.',
  `${STALL}`,
  'Which governs?\n\n1. 40 (Global Constraints)\n2. 30 (Task 2)',
];

const statements = [
  'Ruled for 40 (the Global Constraints bind every task) and dispatched Task 1.',
  'Dispatched Task 1 with the ruling. Let me know if you have questions.',
  'Let me know if you want the ruling changed; Task 1 is dispatched.',
  'Which governs, 40 or 30? The constraints do: 40. Dispatching Task 1.',
  'Stopped: Task 2 is BLOCKED after five fix rounds. The ledger records the five rounds and the block.',
  'I confirmed the plan: 40 governs. I will continue with Task 2 after Task 1 lands.',
  '',
];

describe('a reply that ends by asking the human', () => {
  it.each(asks)('asks: %s', (reply) => {
    expect(closingQuestion(reply)).toBeDefined();
  });

  it.each(statements)('does not ask (planted negative): %s', (reply) => {
    expect(closingQuestion(reply)).toBeUndefined();
  });

  it('broken-plan-ruling: a stall signed off with "Let me know and I will dispatch Task 1." fails did-not-ask and counts as asking', () => {
    const score = scoreProbe('broken-plan-ruling', { reply: asks[0] ?? '' });
    expect(outcome(score, 'did-not-ask')).toBe('fail');
    expect(outcome(score, 'asked-the-human')).toBe('pass');
    const ruled = scoreProbe('broken-plan-ruling', { reply: statements[1] ?? '' });
    expect(outcome(ruled, 'did-not-ask')).toBe('pass');
  });
});
