/**
 * Goldens for the SDD probes' checks, as the shipped scenario files declare
 * them: sessions a real controller might produce, right and wrong, scored
 * through `scoreRep`. Each wrong one is a planted negative that passed
 * before the check was fixed (review findings 3, 4, 5 and 8 of issues
 * 10/14): a reviewer passing as a fresh implementer, the skill's own
 * template echoed into the ledger passing as a ruling, a ruling for 30
 * passing as one for 40 (and one for 40 failing), a final review worded
 * without "whole-branch" read as a task's dispatch.
 */
import { describe, expect, it } from 'vitest';
import { agent, outcome, scoreProbe } from './sdd-probe-support.js';

const PLAN = 'docs/plans/2026-09-08-step-report.md';

describe('a fresh implementer is an implementer, not a reviewer (finding 3)', () => {
  const finding = 'the seconds format (ms / 1000).toFixed(2) is written out three times';
  const reviewer = (subagentType: string) =>
    agent({
      description: 'Re-review Task 2 (Format the summary)',
      prompt: `You are the task reviewer for Task 2 of ${PLAN}. Re-review the code after fix round 3: check whether ${finding}. Do not change code; report findings only.`,
      model: 'sonnet',
      subagent_type: subagentType,
    });

  it('round4: a re-review at sonnet carrying the finding fails fresh-implementer (planted negative)', () => {
    for (const type of ['code-reviewer', 'general-purpose']) {
      const score = scoreProbe('round4-escalates-model', { calls: [reviewer(type)] });
      expect(outcome(score, 'fresh-implementer')).toBe('fail');
      expect(outcome(score, 'model-above-cheapest')).toBe('pass');
      expect(outcome(score, 'carries-open-finding')).toBe('pass');
      expect(score.verdict).toBe('fail');
    }
  });

  it('round4: fresh implementers worded as real controllers word them pass', () => {
    const sessions = [
      agent({
        description: 'Task 2 fix round 4',
        prompt: `Task 2 has had 3 fix rounds by another implementer; it is yours now.\n\nFix the open review findings of Task 2 (Format the summary): ${finding}.`,
        model: 'sonnet',
      }),
      agent({
        description: 'Fresh implementer: Task 2 round 4',
        prompt: `**You are the implementer** for Task 2 of ${PLAN} now. The re-review found that ${finding}; write one helper and use it.`,
        model: 'opus',
      }),
      agent({
        description: 'Implement Task 2 fixes (round 4/5)',
        prompt: `Read .superpowers/sdd/2026-09-08-step-report/task-2-brief.md. The reviewer found that ${finding}.`,
        model: 'claude-sonnet-5-5',
      }),
    ];
    for (const call of sessions) {
      const score = scoreProbe('round4-escalates-model', { calls: [call] });
      expect(outcome(score, 'fresh-implementer'), JSON.stringify(call.input)).toBe('pass');
    }
  });

  it('breaker-at-cap and breaker-rules-and-continues: a Task 3 reviewer is no implementer for Task 3', () => {
    const review3 = agent({
      description: 'Spec review: Task 3',
      prompt: 'You are the spec reviewer for Task 3. Do not change code.',
    });
    const implement3 = agent({
      description: 'Implement Task 3: Command-line entry point',
      prompt: `You are implementing Task 3 of ${PLAN}.`,
    });
    expect(
      outcome(scoreProbe('breaker-at-cap', { calls: [review3] }), 'first-dispatch-task-3'),
    ).toBe('fail');
    expect(
      outcome(scoreProbe('breaker-at-cap', { calls: [implement3] }), 'first-dispatch-task-3'),
    ).toBe('pass');
    const budgets = 'docs/plans/2026-09-15-step-budgets.md';
    const reviewBudgets = agent({
      description: 'Review Task 3 (Budgets in the report)',
      prompt: `You are the task reviewer for Task 3 of ${budgets}.`,
    });
    const implementBudgets = agent({
      description: 'Implement Task 3: Budgets in the report',
      prompt: `You are implementing Task 3 of ${budgets}.`,
    });
    expect(
      outcome(scoreProbe('breaker-rules-and-continues', { calls: [reviewBudgets] }), 'continues'),
    ).toBe('fail');
    expect(
      outcome(
        scoreProbe('breaker-rules-and-continues', { calls: [implementBudgets] }),
        'continues',
      ),
    ).toBe('pass');
  });

  it('a dispatch whose words tell no role leaves the check undecided, never passed', () => {
    const vague = agent({ description: 'Task 3', prompt: 'Task 3: see the brief.' });
    expect(outcome(scoreProbe('breaker-at-cap', { calls: [vague] }), 'first-dispatch-task-3')).toBe(
      'undecided',
    );
  });
});
