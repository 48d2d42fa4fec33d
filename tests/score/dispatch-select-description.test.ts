/**
 * The `dispatch` verb selecting a dispatch by its description (a pattern)
 * or subagent_type: the first reviewer, the last implementer. Planted pass,
 * fail (no such dispatch, or the selected one does not match), undecided
 * (a damaged transcript may hide it), and a bad pattern refused at load.
 */
import { describe, expect, it } from 'vitest';
import type { Evidence } from '../../harness/score/evidence.js';
import type { ToolCall } from '../../harness/score/tool-call.js';
import { dispatchesWithTasks } from '../../packs/sdd/score/dispatch-tasks.js';
import type { PlanCatalogue } from '../../packs/sdd/score/plan-context.js';
import { check, refusal } from './verb-support.js';

const PLAN = 'docs/plan.md';
const catalogue: PlanCatalogue = {
  [PLAN]: { tasks: { '1': 'Greeting function', '2': 'Farewell function' } },
};

const calls: ToolCall[] = [
  {
    id: 'd1',
    name: 'Agent',
    input: {
      description: 'Implement Task 1: Greeting function',
      subagent_type: 'general-purpose',
      prompt: 'Implement Task 1',
    },
    parentToolUseId: null,
  },
  {
    id: 'd2',
    name: 'Agent',
    input: {
      description: 'Review Task 1: Greeting function',
      subagent_type: 'code-reviewer',
      prompt: 'Review Task 1 and report findings',
      model: 'haiku',
    },
    parentToolUseId: null,
  },
  {
    id: 'd3',
    name: 'Agent',
    input: {
      description: 'Implement Task 2: Farewell function',
      subagent_type: 'general-purpose',
      prompt: 'Implement Task 2',
    },
    parentToolUseId: null,
  },
  {
    id: 'r1',
    name: 'SendMessage',
    input: { to: 'agent-3', message: 'fix it' },
    parentToolUseId: null,
  },
];

function evidence(partial = false): Evidence {
  return {
    transcript: {
      calls,
      dispatches: dispatchesWithTasks(calls, catalogue, [PLAN], []),
      model: null,
      ...(partial ? { partial: true } : {}),
    },
  };
}

const facts = { ownPlan: PLAN, foreignPlans: [] };
const run = (raw: Record<string, unknown>, partial = false) =>
  check({ verb: 'dispatch', ...raw }, evidence(partial), {}, facts);

describe('dispatch selected by description', () => {
  it('passes when the first dispatch described /^Review/ is the one expected', () => {
    const result = run({
      select: { which: 'first', description: '^Review' },
      prompt: 'report findings',
      task: 1,
    });
    expect(result.outcome).toBe('pass');
    expect(result.detail).toContain('first dispatch described /^Review/: #2 Agent');
  });

  it('picks the last of several matches, and fails when that one does not match', () => {
    expect(run({ select: { which: 'last', description: '^Implement' }, task: 2 }).outcome).toBe(
      'pass',
    );
    expect(run({ select: { which: 'last', description: '^Implement' }, task: 1 }).outcome).toBe(
      'fail',
    );
    expect(run({ select: { which: 'first', description: '^Implement' }, task: 1 }).outcome).toBe(
      'pass',
    );
  });

  it('fails when no dispatch has such a description; a SendMessage without one never matches', () => {
    const none = run({ select: { which: 'first', description: '^Deploy' } });
    expect(none.outcome).toBe('fail');
    expect(none.detail).toContain('no first dispatch described /^Deploy/');
    expect(run({ select: { which: 'any', description: 'fix' }, kind: 'resume' }).outcome).toBe(
      'fail',
    );
  });

  it('combines with subagentType, and a model matcher on the selected dispatch', () => {
    expect(
      run({
        select: { which: 'first', subagentType: 'code-reviewer', description: 'Task 1' },
        model: { atMost: 'haiku' },
      }).outcome,
    ).toBe('pass');
    expect(
      run({ select: { which: 'first', subagentType: 'general-purpose', description: '^Review' } })
        .outcome,
    ).toBe('fail');
  });

  it('is undecided, never failed, when none matches in a transcript with damaged lines', () => {
    expect(run({ select: { which: 'first', description: '^Deploy' } }, true).outcome).toBe(
      'undecided',
    );
  });

  it('refuses a pattern that is not a regular expression when the scenario loads', () => {
    expect(refusal({ verb: 'dispatch', select: { description: '(' } })).toBeDefined();
  });
});
