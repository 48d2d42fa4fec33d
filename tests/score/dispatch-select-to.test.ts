/**
 * The `dispatch` verb's `select.to`: a resume (SendMessage) counts only when
 * it reaches the agent a chosen fresh dispatch created (the agent id its
 * result names), and a SendMessage the tool refused reaches no one and is no
 * resume at all. Planted pass, fails (a resume to another seat, a refused
 * resume to an unknown id, no resume), undecided (no transcript, a damaged
 * one), load-time refusals, and the detail naming the dispatch that passed.
 */
import { describe, expect, it } from 'vitest';
import type { Evidence } from '../../harness/score/evidence.js';
import type { ToolCall } from '../../harness/score/tool-call.js';
import { readSessionTranscript } from '../../harness/score/transcripts/read-transcript.js';
import { DISPATCH_REFUSAL } from '../../harness/session/dispatch-capture.js';
import { dispatchesWithTasks } from '../../packs/sdd/score/dispatch-tasks.js';
import type { PlanCatalogue } from '../../packs/sdd/score/plan-context.js';
import { check, refusal } from './verb-support.js';

const PLAN = 'docs/plan.md';
const catalogue: PlanCatalogue = {
  [PLAN]: { tasks: { '1': 'Greeting function', '2': 'Farewell function' } },
};

function agent(id: string, description: string, agentId: string): ToolCall {
  return {
    id,
    name: 'Agent',
    input: { description, subagent_type: 'general-purpose', prompt: description },
    output: `${description}: done.\nagentId: ${agentId}`,
    parentToolUseId: null,
  };
}

function send(id: string, to: string, output: string, isError = false): ToolCall {
  return {
    id,
    name: 'SendMessage',
    input: { to, summary: 'Fix Task 2 findings', message: 'Review findings for Task 2 to fix' },
    output,
    ...(isError ? { isError: true } : {}),
    parentToolUseId: null,
  };
}

const implementer = agent('d1', 'Implement Task 2: Farewell function', 'agent-1');
const reviewer = agent('d2', 'Review Task 2: Farewell function', 'agent-2');

function evidenceOf(calls: ToolCall[], partial = false): Evidence {
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
const resumeOfImplementer = {
  verb: 'dispatch',
  select: { which: 'any', to: { description: '^Implement Task 2' } },
  kind: 'resume',
};
const outcomeOf = (calls: ToolCall[], raw = resumeOfImplementer, partial = false) =>
  check(raw, evidenceOf(calls, partial), {}, facts);

describe('dispatch select.to: the resume must reach the chosen agent', () => {
  it('passes for a resume sent to the implementer’s agent, and the detail names that resume', () => {
    const result = outcomeOf([implementer, reviewer, send('s1', 'agent-1', 'Fixed 1 finding')]);
    expect(result.outcome).toBe('pass');
    expect(result.detail).toMatch(/: dispatch sent to the agent of a dispatch described/);
    expect(result.detail).toMatch(/: #3 SendMessage/);
  });

  it('fails for a resume sent to another seat (the reviewer), though it is a resume', () => {
    const calls = [implementer, reviewer, send('s1', 'agent-2', 'Looked again')];
    expect(outcomeOf(calls).outcome).toBe('fail');
    // Without select.to the same transcript passes: the planted negative is select.to's doing.
    expect(
      outcomeOf(calls, { verb: 'dispatch', select: { which: 'any' }, kind: 'resume' } as never)
        .outcome,
    ).toBe('pass');
  });

  it('a SendMessage the tool refused is no resume: to an unknown agent, or even to the right id', () => {
    const unknown = send('s1', 'agent-99', 'No agent named agent-99 is running.', true);
    expect(outcomeOf([implementer, reviewer, unknown]).outcome).toBe('fail');
    const refused = send('s1', 'agent-1', 'InputValidationError: SendMessage message', true);
    expect(outcomeOf([implementer, reviewer, refused]).outcome).toBe('fail');
    expect(
      dispatchesWithTasks([implementer, unknown], catalogue, [PLAN], []).map((one) => one.tool),
    ).toEqual(['Agent']);
  });

  it('Claude Code’s undelivered message (an ordinary result saying success: false) is no resume', () => {
    const undelivered = send(
      's1',
      'agent-1',
      JSON.stringify({
        success: false,
        message: "No agent named 'agent-1' is currently addressable.",
      }),
    );
    expect(outcomeOf([implementer, reviewer, undelivered]).outcome).toBe('fail');
    const delivered = send(
      's1',
      'agent-1',
      JSON.stringify({ success: true, resumedAgentId: 'agent-1' }),
    );
    expect(outcomeOf([implementer, reviewer, delivered]).outcome).toBe('pass');
  });

  it('a resume by the name the dispatch gave its agent reaches it; an id quoted in a report is not the agent’s', () => {
    const named: ToolCall = {
      ...implementer,
      input: { ...(implementer.input as object), name: 'task2-impl' },
    };
    expect(outcomeOf([named, reviewer, send('s1', 'task2-impl', 'Fixed 1 finding')]).outcome).toBe(
      'pass',
    );
    // The report quotes another agent's id above the real one (Claude Code indents the report).
    const quoting: ToolCall = {
      ...implementer,
      output: '  I checked agentId: agent-2 as asked.\n  agentId: agent-2\nagentId: agent-1',
    };
    expect(outcomeOf([quoting, reviewer, send('s1', 'agent-1', 'Fixed')]).outcome).toBe('pass');
    expect(outcomeOf([quoting, reviewer, send('s1', 'agent-2', 'Fixed')]).outcome).toBe('fail');
  });

  it('the first-dispatch capture’s refusal still records the resume as the decision', () => {
    const captured = send('s1', 'agent-1', DISPATCH_REFUSAL, true);
    expect(dispatchesWithTasks([captured], catalogue, [PLAN], []).map((one) => one.kind)).toEqual([
      'resume',
    ]);
  });

  it('fails with no resume; undecided on a damaged transcript or without one', () => {
    expect(outcomeOf([implementer, reviewer]).outcome).toBe('fail');
    expect(outcomeOf([implementer, reviewer], resumeOfImplementer, true).outcome).toBe('undecided');
    expect(check(resumeOfImplementer, {}, {}, facts).outcome).toBe('undecided');
  });

  it('refuses a select.to that names nothing or goes with fresh dispatches', () => {
    expect(refusal({ verb: 'dispatch', select: { which: 'any', to: {} } })).toMatch(
      /description or subagentType/,
    );
    expect(
      refusal({
        verb: 'dispatch',
        select: { which: 'any', to: { description: '^I' } },
        kind: 'fresh',
      }),
    ).toMatch(/select\.to/);
    expect(refusal({ verb: 'dispatch', select: { to: { description: '(' } } })).toBeDefined();
  });

  it('a Claude Code transcript’s derived seats count only the resumes that reached the agent', () => {
    const line = (value: unknown) => JSON.stringify(value);
    const toolUse = (call: ToolCall) => ({
      type: 'assistant',
      parent_tool_use_id: null,
      message: {
        id: `m-${call.id}`,
        content: [{ type: 'tool_use', id: call.id, name: call.name, input: call.input }],
      },
    });
    const result = (call: ToolCall) => ({
      type: 'user',
      parent_tool_use_id: null,
      message: {
        content: [
          {
            type: 'tool_result',
            tool_use_id: call.id,
            content: call.output,
            ...(call.isError ? { is_error: true } : {}),
          },
        ],
      },
    });
    const inside = {
      type: 'assistant',
      parent_tool_use_id: 'd1',
      message: {
        id: 'm-i1',
        content: [{ type: 'tool_use', id: 'i1', name: 'Bash', input: { command: 'ls' } }],
      },
    };
    const ok = send('s1', 'agent-1', 'Fixed 1 finding');
    const refused = send('s2', 'agent-1', 'No agent named agent-1 is running.', true);
    const text = [implementer, ok, refused]
      .flatMap((call) => [line(toolUse(call)), line(result(call))])
      .concat(line(inside))
      .join('\n');
    const read = readSessionTranscript(text);
    if (!read.ok) throw new Error(read.error.problem);
    expect(read.value.seats.map((seat) => [seat.agentId, seat.resumes])).toEqual([
      ['agent-1', ['s1']],
    ]);
  });
});
