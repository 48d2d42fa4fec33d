/**
 * ATIF input with subagents: the trajectories a controller's dispatch and
 * resume results link to (`subagent_trajectory_ref`) read back as seats,
 * their calls marked with the dispatch that started the seat and placed
 * after the call that started or resumed each stretch; a seat whose link
 * cannot be followed has unknown calls, with the reason (so absences in it
 * stay undecided); and the export's
 * cross-document link rules, each with a planted break. Hand-written
 * documents, apart from the exporter.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AtifTrajectory } from '../../harness/export/atif-document.js';
import { subagentLinkProblems } from '../../harness/export/atif-invariants.js';
import {
  linkedTrajectoryPaths,
  readLinkedTrajectories,
} from '../../harness/score/transcripts/atif-links.js';
import { readSessionTranscript } from '../../harness/score/transcripts/read-transcript.js';

const ref = (event: string) => ({
  session_id: 'main/agent-1',
  trajectory_path: 'rep/agent-1.json',
  extra: { event, agent_id: 'agent-1' },
});

const main: AtifTrajectory = {
  schema_version: 'ATIF-v1.4',
  session_id: 'main',
  agent: { name: 'redgreen/messages', version: '0.1.0' },
  steps: [
    { step_id: 1, source: 'user', message: 'Execute the plan.' },
    {
      step_id: 2,
      source: 'agent',
      message: '',
      tool_calls: [
        {
          tool_call_id: 'd1',
          function_name: 'Agent',
          arguments: {
            description: 'Implement Task 1: Greeting function',
            subagent_type: 'general-purpose',
            prompt: 'Implement Task 1',
          },
        },
      ],
      observation: {
        results: [
          { source_call_id: 'd1', content: 'done', subagent_trajectory_ref: [ref('dispatch')] },
        ],
      },
    },
    {
      step_id: 3,
      source: 'agent',
      message: '',
      tool_calls: [
        {
          tool_call_id: 'r1',
          function_name: 'SendMessage',
          arguments: { to: 'agent-1', message: 'fix' },
        },
      ],
      observation: {
        results: [
          { source_call_id: 'r1', content: 'fixed', subagent_trajectory_ref: [ref('resume')] },
        ],
      },
    },
    { step_id: 4, source: 'agent', message: 'All done.' },
  ],
};

const sub: AtifTrajectory = {
  schema_version: 'ATIF-v1.4',
  session_id: 'main/agent-1',
  agent: { name: 'redgreen/messages/subagent', version: '0.1.0' },
  steps: [
    { step_id: 1, source: 'user', message: 'Implement Task 1' },
    {
      step_id: 2,
      source: 'agent',
      message: '',
      tool_calls: [
        {
          tool_call_id: 'b1',
          function_name: 'Bash',
          arguments: { command: 'git commit -m task1' },
        },
      ],
      observation: { results: [{ source_call_id: 'b1', content: 'ok' }] },
    },
    { step_id: 3, source: 'agent', message: 'Implemented.' },
    {
      step_id: 4,
      source: 'user',
      message: 'fix',
      extra: { resume: { via: 'r1', agent_id: 'agent-1' } },
    },
    {
      step_id: 5,
      source: 'agent',
      message: '',
      tool_calls: [
        { tool_call_id: 'b2', function_name: 'Bash', arguments: { command: 'git commit -m fix' } },
      ],
      observation: { results: [{ source_call_id: 'b2', content: 'ok' }] },
    },
    { step_id: 6, source: 'agent', message: 'Fixed.' },
  ],
  extra: { seat: { agent_id: 'agent-1' } },
};

function read(document: unknown, subs: Record<string, string>) {
  const result = readSessionTranscript(JSON.stringify(document), 'main.json', {
    linked: new Map(Object.entries(subs).map(([file, text]) => [file, { text }])),
  });
  if (!result.ok) throw new Error(result.error.problem);
  return result.value;
}

describe('ATIF subagent trajectories read back as seats', () => {
  it('makes a seat of each linked trajectory, its calls placed after the call that started each stretch', () => {
    const read_ = read(main, { 'rep/agent-1.json': JSON.stringify(sub) });
    expect(read_.malformed).toEqual([]);
    expect(read_.seats).toEqual([
      {
        dispatch: 'd1',
        agentId: 'agent-1',
        tool: 'Agent',
        subagentType: 'general-purpose',
        model: null,
        modelUsed: null,
        description: 'Implement Task 1: Greeting function',
        resumes: ['r1'],
        toolCalls: 2,
        source: 'recorded',
      },
    ]);
    expect(read_.toolCalls.map((call) => [call.id, call.parentToolUseId])).toEqual([
      ['d1', null],
      ['b1', 'd1'],
      ['r1', null],
      ['b2', 'd1'],
    ]);
    expect(read_.reply).toBe('All done.');
  });

  it('reads back the model a seat ran on from extra.seat.model_used', () => {
    const withModel = {
      ...sub,
      extra: { seat: { agent_id: 'agent-1', model_used: 'claude-haiku-5-5' } },
    };
    const read_ = read(main, { 'rep/agent-1.json': JSON.stringify(withModel) });
    expect(read_.seats.map((seat) => seat.modelUsed)).toEqual(['claude-haiku-5-5']);
  });

  it('a linked trajectory not given: the seat is known, its calls are not (null, with the file named)', () => {
    const read_ = read(main, {});
    expect(read_.seats.map((seat) => [seat.dispatch, seat.toolCalls, seat.unknownWhy])).toEqual([
      ['d1', null, 'linked trajectory rep/agent-1.json was not given'],
    ]);
    expect(read_.toolCalls.map((call) => call.id)).toEqual(['d1', 'r1']);
    expect(read_.malformed).toEqual([]);
  });

  it('a linked trajectory that is not JSON, or in an ATIF version not read, leaves the seat’s calls unknown too', () => {
    const unknownWhy = (text: string) =>
      read(main, { 'rep/agent-1.json': text }).seats[0]?.unknownWhy;
    expect(unknownWhy('{')).toMatch(/^linked trajectory rep\/agent-1\.json is not JSON/);
    expect(unknownWhy(JSON.stringify({ ...sub, schema_version: 'ATIF-v1.2' }))).toBe(
      'linked trajectory rep/agent-1.json is ATIF ATIF-v1.2, which redgreen does not read',
    );
  });

  it('a link from a call of another name makes that call the seat’s start (other producers name their dispatch tools)', () => {
    const other = structuredClone(main);
    const step = other.steps[1];
    if (step?.tool_calls?.[0] === undefined) throw new Error('fixture');
    step.tool_calls[0].function_name = 'spawn_subagent';
    const read_ = read(other, { 'rep/agent-1.json': JSON.stringify(sub) });
    expect(read_.seats.map((seat) => [seat.dispatch, seat.tool, seat.toolCalls])).toEqual([
      ['d1', 'spawn_subagent', 2],
    ]);
  });

  it('a link on a result that answers no call of the document is malformed, and makes no seat', () => {
    const bad = structuredClone(main);
    const result = bad.steps[1]?.observation?.results[0];
    if (result === undefined) throw new Error('fixture');
    result.source_call_id = 'nowhere';
    const read_ = read(
      { ...bad, steps: [bad.steps[0], bad.steps[1], bad.steps[3]] },
      { 'rep/agent-1.json': JSON.stringify(sub) },
    );
    expect(read_.seats).toEqual([]);
    expect(read_.malformed[0]?.problem).toBe('subagent main/agent-1 is linked from no tool call');
  });

  it('without links an ATIF trajectory reads as before: no seats, nothing malformed', () => {
    const plain = { ...main, steps: [main.steps[0], main.steps[3]] };
    const read_ = read(plain, {});
    expect(read_.seats).toEqual([]);
    expect(read_.malformed).toEqual([]);
  });

  it('finds the linked paths and reads them from beside the file, saying why one was not read', async () => {
    expect(linkedTrajectoryPaths(main)).toEqual(['rep/agent-1.json']);
    expect(linkedTrajectoryPaths({ type: 'system' })).toEqual([]);
    const dir = mkdtempSync(path.join(os.tmpdir(), 'redgreen-atif-seats-'));
    writeFileSync(path.join(dir, 'main.json'), JSON.stringify(main));
    expect([...(await readLinkedTrajectories(main, path.join(dir, 'main.json')))]).toEqual([
      ['rep/agent-1.json', { problem: 'does not exist' }],
    ]);
    mkdirSync(path.join(dir, 'rep'));
    writeFileSync(path.join(dir, 'rep', 'agent-1.json'), JSON.stringify(sub));
    const found = await readLinkedTrajectories(main, path.join(dir, 'main.json'));
    expect([...found]).toEqual([['rep/agent-1.json', { text: JSON.stringify(sub) }]]);
  });
});

describe('the export’s subagent link rules (planted breaks)', () => {
  const subs = new Map([['rep/agent-1.json', sub]]);

  it('hold for a trajectory and the subagent it links', () => {
    expect(subagentLinkProblems(main, subs)).toEqual([]);
  });

  it('a link to a file not written, or under another session id', () => {
    expect(subagentLinkProblems(main, new Map())).toEqual([
      'steps[1].observation.results[0] links rep/agent-1.json, which is not written',
      'steps[2].observation.results[0] links rep/agent-1.json, which is not written',
    ]);
    expect(
      subagentLinkProblems(main, new Map([['rep/agent-1.json', { ...sub, session_id: 'other' }]])),
    ).toContain(
      'steps[1].observation.results[0] links rep/agent-1.json as session main/agent-1, but its session_id is other',
    );
  });

  it('a subagent trajectory nothing links, a link on a result of no call, and a broken subagent', () => {
    const extra = new Map([...subs, ['rep/agent-2.json', { ...sub, session_id: 'main/agent-2' }]]);
    expect(subagentLinkProblems(main, extra)).toEqual([
      'subagent trajectory rep/agent-2.json is linked from no result',
    ]);
    const bare = structuredClone(main);
    const result = bare.steps[1]?.observation?.results[0];
    if (result === undefined) throw new Error('fixture');
    delete result.source_call_id;
    expect(subagentLinkProblems(bare, subs)[0]).toBe(
      'steps[1].observation.results[0] links subagent main/agent-1 but answers no tool call',
    );
    const renumbered = {
      ...sub,
      steps: sub.steps.map((step) => ({ ...step, step_id: step.step_id + 1 })),
    };
    expect(subagentLinkProblems(main, new Map([['rep/agent-1.json', renumbered]]))[0]).toBe(
      'rep/agent-1.json: steps[0].step_id is 2, expected 1',
    );
  });
});
