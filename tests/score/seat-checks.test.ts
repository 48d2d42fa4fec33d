/**
 * Seats in transcripts, read back and checked: readSessionTranscript reads
 * the seats a redgreen transcript records (validated: a malformed seat record
 * or one that disagrees with parent_tool_use_id is a malformed line) and
 * derives them for a Claude Code transcript; the transcript verbs' seat
 * selector picks one subagent by the dispatch that created it. Every seat
 * check has a planted negative (the same call made by another seat fails
 * it) and stays undecided without a transcript.
 */
import { describe, expect, it } from 'vitest';
import type { Dispatch, Evidence } from '../../harness/score/evidence.js';
import type { ToolCall } from '../../harness/score/tool-call.js';
import { readSessionTranscript } from '../../harness/score/transcripts/read-transcript.js';
import { check, refusal } from './verb-support.js';

function outcome(raw: Record<string, unknown>, evidence: Evidence): string {
  return check(raw, evidence).outcome;
}

function dispatch(
  index: number,
  callId: string,
  description: string,
  subagentType = 'general-purpose',
): Dispatch {
  return {
    index,
    callId,
    tool: 'Agent',
    kind: 'fresh',
    subagentType,
    model: null,
    description,
    prompt: description,
    readings: {},
  };
}

const calls: ToolCall[] = [
  {
    id: 'd1',
    name: 'Agent',
    input: { description: 'Implement Task 1', prompt: 'x' },
    parentToolUseId: null,
  },
  { id: 'i1', name: 'Bash', input: { command: 'git commit -m t1' }, parentToolUseId: 'd1' },
  {
    id: 'd2',
    name: 'Agent',
    input: { description: 'Review Task 1', prompt: 'y' },
    parentToolUseId: null,
  },
  { id: 'r1', name: 'Bash', input: { command: 'git diff HEAD~1..HEAD' }, parentToolUseId: 'd2' },
  { id: 'c1', name: 'Bash', input: { command: 'git log --oneline' }, parentToolUseId: null },
];
const evidence: Evidence = {
  transcript: {
    calls,
    dispatches: [
      dispatch(1, 'd1', 'Implement Task 1'),
      dispatch(2, 'd2', 'Review Task 1', 'code-reviewer'),
    ],
    model: null,
  },
};

const implementer = { description: '^Implement ' };
const reviewer = { description: '^Review ' };

describe('checks by seat', () => {
  it('tool-called by a subagent chosen by its dispatch; the other seat’s call fails it', () => {
    const commits = { verb: 'tool-called', tool: 'Bash', input: { command: '^git commit' } };
    expect(outcome({ ...commits, seat: implementer }, evidence)).toBe('pass');
    // Planted negatives: the implementer committed, not the reviewer, nor the controller.
    expect(outcome({ ...commits, seat: reviewer }, evidence)).toBe('fail');
    expect(outcome({ ...commits, seat: 'controller' }, evidence)).toBe('fail');
    expect(outcome({ ...commits, seat: 'subagent' }, evidence)).toBe('pass');
  });

  it('tool-not-called and tool-count by seat, with their planted negatives', () => {
    const diff = { tool: 'Bash', input: { command: '^git diff' } };
    expect(outcome({ verb: 'tool-not-called', ...diff, seat: implementer }, evidence)).toBe('pass');
    expect(outcome({ verb: 'tool-not-called', ...diff, seat: reviewer }, evidence)).toBe('fail');
    expect(
      outcome({ verb: 'tool-count', tool: 'Bash', seat: 'controller', min: 1, max: 1 }, evidence),
    ).toBe('pass');
    expect(outcome({ verb: 'tool-count', tool: 'Bash', seat: reviewer, min: 2 }, evidence)).toBe(
      'fail',
    );
    expect(
      outcome(
        { verb: 'tool-count', tool: 'Bash', seat: { subagentType: 'code-reviewer' }, min: 1 },
        evidence,
      ),
    ).toBe('pass');
    expect(
      outcome(
        { verb: 'tool-count', tool: 'Bash', seat: { subagentType: 'implementer' }, min: 1 },
        evidence,
      ),
    ).toBe('fail');
  });

  it('a call under a resume or an unknown dispatch belongs to no chosen seat', () => {
    const resumed: Evidence = {
      transcript: {
        calls: [{ id: 'x', name: 'Bash', input: { command: 'true' }, parentToolUseId: 's1' }],
        dispatches: [
          { ...dispatch(1, 's1', 'Implement Task 1'), tool: 'SendMessage', kind: 'resume' },
        ],
        model: null,
      },
    };
    expect(outcome({ verb: 'tool-called', seat: implementer }, resumed)).toBe('fail');
    expect(outcome({ verb: 'tool-called', seat: 'subagent' }, resumed)).toBe('pass');
  });

  it('a seat chosen by the tier its replies name; a seat on another tier, or naming no model, fails it', () => {
    const tiered: ToolCall[] = [
      calls[0] as ToolCall,
      { ...(calls[1] as ToolCall), model: 'claude-haiku-5-5' },
      calls[2] as ToolCall,
      { ...(calls[3] as ToolCall), model: 'scripted:full-controller@opus' },
      calls[4] as ToolCall,
    ];
    const onTiers: Evidence = {
      transcript: {
        ...(evidence.transcript as NonNullable<Evidence['transcript']>),
        calls: tiered,
      },
    };
    const commits = { verb: 'tool-called', tool: 'Bash', input: { command: '^git commit' } };
    expect(outcome({ ...commits, seat: { model: 'haiku' } }, onTiers)).toBe('pass');
    expect(
      outcome({ ...commits, seat: { description: '^Implement ', model: 'haiku' } }, onTiers),
    ).toBe('pass');
    // Planted negatives: the commit was made on haiku, not opus; the reviewer's diff on opus.
    expect(outcome({ ...commits, seat: { model: 'opus' } }, onTiers)).toBe('fail');
    expect(outcome({ verb: 'tool-called', tool: 'Bash', seat: { model: 'opus' } }, onTiers)).toBe(
      'pass',
    );
    expect(outcome({ verb: 'tool-called', tool: 'Bash', seat: { model: 'sonnet' } }, onTiers)).toBe(
      'fail',
    );
    // Calls whose replies name no model are on no tier.
    expect(outcome({ ...commits, seat: { model: 'haiku' } }, evidence)).toBe('fail');
  });

  it('stays undecided without a transcript, under not as well', () => {
    const bySeat = { verb: 'tool-called', tool: 'Bash', seat: implementer };
    expect(check(bySeat, {}).notAssessed).toBe(true);
    expect(check({ not: bySeat }, {}).outcome).toBe('undecided');
  });

  it('a seat selector that names nothing, or a pattern that does not compile, is refused at load', () => {
    expect(refusal({ verb: 'tool-called', seat: {} })).toMatch(
      /subagentType, description or model/,
    );
    expect(refusal({ verb: 'tool-called', seat: { model: 'gpt' } })).toBeDefined();
    expect(refusal({ verb: 'tool-called', seat: { description: '(' } })).toBeDefined();
    expect(refusal({ verb: 'tool-called', seat: { agent: 'x' } })).toBeDefined();
  });
});

const seat1 = {
  kind: 'subagent',
  agentId: 'agent-1',
  dispatch: 'd1',
  tool: 'Agent',
  subagentType: 'general-purpose',
  model: null,
  description: 'Implement Task 1',
};

function redgreenTranscript(extra: readonly object[] = []): string {
  const controller = { kind: 'controller' };
  const lines: object[] = [
    { type: 'system', subtype: 'init', engine: 'redgreen-messages (test)', model: 'm' },
    {
      type: 'assistant',
      message: {
        id: 'm1',
        content: [{ type: 'tool_use', id: 'd1', name: 'Agent', input: seat1 }],
      },
      parent_tool_use_id: null,
      seat: controller,
    },
    { type: 'system', subtype: 'subagent_start', seat: seat1 },
    {
      type: 'assistant',
      message: {
        id: 'm2',
        content: [{ type: 'tool_use', id: 'i1', name: 'Bash', input: { command: 'ls' } }],
      },
      parent_tool_use_id: 'd1',
      seat: seat1,
    },
    {
      type: 'system',
      subtype: 'subagent_end',
      seat: seat1,
      via: 'd1',
      turns: 2,
      outcome: 'replied',
    },
    {
      type: 'assistant',
      message: {
        id: 'm3',
        content: [
          {
            type: 'tool_use',
            id: 's1',
            name: 'SendMessage',
            input: { to: 'agent-1', message: 'm' },
          },
        ],
      },
      parent_tool_use_id: null,
      seat: controller,
    },
    { type: 'system', subtype: 'subagent_resume', seat: seat1, via: 's1' },
    ...extra,
  ];
  return `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`;
}

describe('reading seats back', () => {
  it('a redgreen transcript’s recorded seats, with the resume as its own event', () => {
    const read = readSessionTranscript(redgreenTranscript());
    if (!read.ok) throw new Error(read.error.problem);
    expect(read.value.malformed).toEqual([]);
    expect(read.value.seats).toEqual([
      {
        dispatch: 'd1',
        agentId: 'agent-1',
        tool: 'Agent',
        subagentType: 'general-purpose',
        model: null,
        modelUsed: null,
        description: 'Implement Task 1',
        resumes: ['s1'],
        toolCalls: 1,
        source: 'recorded',
      },
    ]);
  });

  it('a malformed seat record, or a seat that disagrees with parent_tool_use_id, is a malformed line', () => {
    const read = readSessionTranscript(
      redgreenTranscript([
        { type: 'system', subtype: 'subagent_resume', seat: { ...seat1, agentId: '' }, via: 'x' },
        {
          type: 'assistant',
          message: { id: 'm9', content: [] },
          parent_tool_use_id: null,
          seat: seat1,
        },
        {
          type: 'system',
          subtype: 'subagent_end',
          seat: { ...seat1, dispatch: 'd7' },
          via: 'd7',
          turns: 1,
          outcome: 'replied',
        },
      ]),
    );
    if (!read.ok) throw new Error(read.error.problem);
    expect(read.value.malformed.map((line) => [line.line, line.problem])).toEqual([
      [8, expect.stringMatching(/^subagent_resume event: seat\.agentId/)],
      [9, 'assistant seat agent-1 disagrees with parent_tool_use_id null'],
      [10, 'subagent_end event for agent-1, which no subagent_start began'],
    ]);
    expect(read.value.seats).toHaveLength(1);
  });

  it('each call carries the model its reply names, on both transcript formats', () => {
    const line = (model: string | undefined, parent: string | null, id: string) =>
      JSON.stringify({
        type: 'assistant',
        parent_tool_use_id: parent,
        message: {
          id: `m-${id}`,
          ...(model === undefined ? {} : { model }),
          content: [{ type: 'tool_use', id, name: 'Bash', input: { command: 'ls' } }],
        },
      });
    const read = readSessionTranscript(
      [
        line('claude-sonnet-5-5', null, 'a'),
        line('claude-haiku-5-5', 'a', 'b'),
        line(undefined, null, 'c'),
      ].join('\n'),
    );
    if (!read.ok) throw new Error(read.error.problem);
    expect(read.value.toolCalls.map((call) => [call.id, call.model])).toEqual([
      ['a', 'claude-sonnet-5-5'],
      ['b', 'claude-haiku-5-5'],
      ['c', undefined],
    ]);
  });

  it('a Claude Code transcript’s seats are derived from its dispatches and parent_tool_use_id', () => {
    const lines = [
      { type: 'system', subtype: 'init', model: 'm', claude_code_version: '2.1.332' },
      {
        type: 'assistant',
        message: {
          id: 'm1',
          content: [
            {
              type: 'tool_use',
              id: 'd1',
              name: 'Agent',
              input: {
                description: 'Review Task 2',
                prompt: 'p',
                subagent_type: 'code-reviewer',
                model: 'opus',
              },
            },
          ],
        },
        parent_tool_use_id: null,
      },
      {
        type: 'assistant',
        message: { id: 'm2', content: [{ type: 'tool_use', id: 'r1', name: 'Read', input: {} }] },
        parent_tool_use_id: 'd1',
      },
      {
        type: 'user',
        message: {
          content: [
            { type: 'tool_result', tool_use_id: 'd1', content: 'Approved.\nagentId: a1b2 (…)' },
          ],
        },
        parent_tool_use_id: null,
      },
    ];
    const read = readSessionTranscript(lines.map((line) => JSON.stringify(line)).join('\n'));
    if (!read.ok) throw new Error(read.error.problem);
    expect(read.value.format).toBe('claude-code-stream-json');
    expect(read.value.seats).toEqual([
      {
        dispatch: 'd1',
        agentId: 'a1b2',
        tool: 'Agent',
        subagentType: 'code-reviewer',
        model: 'opus',
        modelUsed: null,
        description: 'Review Task 2',
        resumes: [],
        toolCalls: 1,
        source: 'derived',
      },
    ]);
  });
});

describe('a seat or dispatch chosen by description when the engine records none (Codex’s spawn_agent)', () => {
  const undescribed: Evidence = {
    transcript: {
      calls: calls.map((call) =>
        call.name === 'Agent' ? { ...call, input: { prompt: 'x' } } : call,
      ),
      dispatches: [
        { ...dispatch(1, 'd1', ''), description: null },
        { ...dispatch(2, 'd2', ''), description: null },
      ],
      model: null,
    },
  };
  const reviewerCommits = {
    verb: 'tool-not-called',
    tool: 'Bash',
    input: { command: '^git commit' },
    seat: reviewer,
  };
  const implementerCommits = { ...reviewerCommits, verb: 'tool-called', seat: implementer };

  it('is undecided, never a vacuous pass (planted: the same checks decide with descriptions)', () => {
    expect(check(reviewerCommits, undescribed)).toMatchObject({
      outcome: 'undecided',
      detail: expect.stringMatching(/records none/),
    });
    expect(outcome(implementerCommits, undescribed)).toBe('undecided');
    expect(outcome(reviewerCommits, evidence)).toBe('pass');
    expect(outcome(implementerCommits, evidence)).toBe('pass');
  });

  it('an order over a dispatch event by description is undecided when none is described', () => {
    const order = {
      verb: 'order',
      first: { event: 'dispatch', description: '^Review ' },
      then: { event: 'tool', tool: 'Bash', input: { command: '^git log' } },
      ifThenAbsent: 'fail',
    };
    expect(outcome(order, undescribed)).toBe('undecided');
    expect(outcome(order, evidence)).toBe('pass');
  });
});
