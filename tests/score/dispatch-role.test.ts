/**
 * The `dispatch` verb's `role` matcher: a role read with the patterns the
 * check declares over subagent_type, description and prompt, in that order,
 * the first field that says one thing deciding. Planted pass, fail (a
 * reviewer where an implementer is expected) and undecided (no field says),
 * and the load-time refusal of a role no dispatch could have.
 */
import { describe, expect, it } from 'vitest';
import { dispatchesOf } from '../../harness/score/dispatches.js';
import type { Evidence } from '../../harness/score/evidence.js';
import type { ToolCall } from '../../harness/score/tool-call.js';
import { check, refusal } from './verb-support.js';

const PLAN = 'docs/plans/p.md';

function evidenceOf(input: Record<string, unknown>, name = 'Agent'): Evidence {
  const calls: ToolCall[] = [{ id: 'toolu_1', name, input, parentToolUseId: null }];
  return { transcript: { calls, dispatches: dispatchesOf(calls), model: null } };
}

const implementer = {
  name: 'implementer',
  is: { description: '\\bimplement|\\bfix\\b', prompt: '\\byou are implementing' },
  isNot: { subagentType: 'review', description: 'review', prompt: '\\breviewer\\b' },
};

const run = (input: Record<string, unknown>, name = 'Agent') =>
  check({ verb: 'dispatch', role: implementer }, evidenceOf(input, name), {}, { ownPlan: PLAN });

describe('the dispatch verb’s role matcher', () => {
  it('passes a dispatch whose first telling field says the role', () => {
    expect(
      run({ description: 'Implement Task 3', prompt: 'x', subagent_type: 'general-purpose' }),
    ).toMatchObject({ outcome: 'pass', observed: 'implementer (by its description)' });
    expect(
      run({ description: 'Task 3', prompt: 'You are **implementing** Task 3.' }),
    ).toMatchObject({ outcome: 'pass', observed: 'implementer (by its prompt)' });
  });

  it('fails a reviewer where an implementer is expected (planted negative)', () => {
    expect(
      run({
        description: 'Implement-check Task 2',
        prompt: 'You are implementing nothing.',
        subagent_type: 'code-reviewer',
      }),
    ).toMatchObject({ outcome: 'fail', observed: 'not implementer (by its subagent_type)' });
    expect(
      run({ description: 'Re-review Task 2', prompt: 'You are the task reviewer for Task 2.' }),
    ).toMatchObject({ outcome: 'fail', observed: 'not implementer (by its description)' });
  });

  it('goes on to the next field when one matches both sides or neither', () => {
    // "Fix review finding" says both; the prompt decides.
    expect(
      run({ description: 'Fix review finding', prompt: 'You are the reviewer of Task 2.' }),
    ).toMatchObject({ outcome: 'fail', observed: 'not implementer (by its prompt)' });
    expect(
      run({ description: 'Fix review finding', prompt: 'You are implementing the fix.' }).outcome,
    ).toBe('pass');
  });

  it('is undecided when no field says anything, never passes', () => {
    expect(run({ description: 'Task 3', prompt: 'Go.' })).toMatchObject({
      outcome: 'undecided',
      observed: 'role not readable as implementer or not',
    });
    expect(run({ to: 'agent-1', message: 'Carry on.' }, 'SendMessage').outcome).toBe('undecided');
  });

  it('refuses at load a role no dispatch could have, and a bad pattern', () => {
    expect(refusal({ verb: 'dispatch', role: { name: 'implementer', is: {} } })).toMatch(
      /give subagentType, description or prompt/,
    );
    expect(refusal({ verb: 'dispatch', role: { name: 'x', is: { prompt: '(' } } })).toBeDefined();
    expect(
      refusal({ verb: 'dispatch', role: { name: 'x', is: { prompt: 'a' }, also: 1 } }),
    ).toMatch(/unknown field/);
  });
});
