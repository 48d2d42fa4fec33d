/**
 * Transcripts crafted to be misread, each of which must be refused or
 * flagged, never read as a settled answer: a session log cut inside a reply
 * that stopped for a tool call, a Codex item of a type the reader does not
 * know, a line or block of another shape holding a call (another tool's
 * events mixed in past the lines detection samples, a server tool's block),
 * and ATIF links that are circular, nested, mislabelled, colliding in their
 * call ids, or one file named many ways. Each flagged case leaves a check
 * that asserts an absence undecided; each has its planted twin that decides.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSessionTranscript } from '../../../harness/score/transcripts/read-transcript.js';
import type { SessionTranscript } from '../../../harness/score/transcripts/session-transcript.js';
import { readTranscriptInputs } from '../../../harness/score/transcripts/transcript-input.js';
import { makeTempDir } from '../../helpers/temp-dir.js';
import { check } from '../verb-support.js';
import { evidenceOf, jsonl, type Line, logLines, rollout } from './support.js';

function read(text: string, name = 'transcript'): SessionTranscript {
  const result = readSessionTranscript(text, name);
  if (!result.ok) throw new Error(result.error.problem);
  return result.value;
}

const noBash = (transcript: SessionTranscript, seat = 'any') =>
  check({ verb: 'tool-not-called', tool: 'Bash', seat }, evidenceOf(transcript)).outcome;

describe('a Claude Code session log cut inside a reply', () => {
  const log = logLines();
  /** A reply's text line, recording the reply's stop_reason as newer engines do. */
  const text = (stopReason: string | null): Line => {
    const line = log.text('m2', 'Now running the tests.');
    return { ...line, message: { ...(line.message as Line), stop_reason: stopReason } };
  };
  const start = [log.prompt('Fix the bug.'), log.call('m1', 't1', 'Read', { file_path: 'a.js' })];
  const answered = [...start, log.result('t1', 'const a = 1;')];

  it('ends on the text of a reply that stopped for a tool call: cut short, not complete', () => {
    const cut = read(jsonl([...answered, text('tool_use')]));
    expect(cut.ending).toMatchObject({
      kind: 'indeterminate',
      reason: expect.stringContaining('stopped for a tool call the log does not hold'),
    });
    // Planted: the same reply ending its turn is a finished session, and so is a log that
    // does not record stop_reason (older engines), as before.
    expect(read(jsonl([...answered, text('end_turn')])).ending).toEqual({ kind: 'completed' });
    expect(read(jsonl([...answered, text(null)])).ending).toEqual({ kind: 'completed' });
  });
});

describe('a Codex rollout with an item of a type the reader does not read', () => {
  const meta = rollout('session_meta', { id: 'thread-1', session_id: 'thread-1', cwd: '/w' });
  const done = rollout('event_msg', { type: 'task_complete', last_agent_message: 'Done.' });
  const shell = (type: string) =>
    rollout('response_item', {
      type,
      call_id: 'c1',
      name: 'container.exec',
      arguments: '{"command":["bash","-lc","rm -rf build"]}',
    });

  it('is listed as unreadable, so "no Bash" is undecided rather than passing', () => {
    const transcript = read(jsonl([meta, shell('mcp_tool_call'), done]));
    expect(transcript.toolCalls).toEqual([]);
    expect(transcript.malformed).toEqual([
      {
        line: 2,
        problem:
          'a response item of type "mcp_tool_call", which this reader does not read (a call in it is not counted)',
      },
    ]);
    expect(noBash(transcript)).toBe('undecided');
    // Planted: as a function_call it is read, and the check fails.
    expect(noBash(read(jsonl([meta, shell('function_call'), done])))).toBe('fail');
  });

  it('an unknown rollout line type is listed too; reasoning and compaction are passed over', () => {
    const transcript = read(
      jsonl([
        meta,
        rollout('response_item', { type: 'reasoning', summary: [] }),
        rollout('compacted', { message: 'summary' }),
        rollout('thread_event', { what: 'new' }),
        done,
      ]),
    );
    expect(transcript.malformed.map((line) => line.line)).toEqual([4]);
    expect(noBash(transcript)).toBe('undecided');
  });

  it('reads web_search_call as WebSearch', () => {
    const transcript = read(
      jsonl([
        meta,
        rollout('response_item', {
          type: 'web_search_call',
          status: 'completed',
          action: { type: 'search', query: 'vitest timers' },
        }),
        done,
      ]),
    );
    expect(transcript.malformed).toEqual([]);
    expect(transcript.toolCalls).toMatchObject([
      { name: 'WebSearch', input: { query: 'vitest timers' }, recordedAs: 'web_search_call' },
    ]);
  });
});

describe('a call in a line or block of a shape the reader does not read', () => {
  const init = {
    type: 'system',
    subtype: 'init',
    claude_code_version: '2.1.42',
    model: 'claude-opus-4-6',
    tools: ['Bash'],
  };
  const reply = {
    type: 'assistant',
    parent_tool_use_id: null,
    message: { id: 'm1', model: 'claude-opus-4-6', content: [{ type: 'text', text: 'Done.' }] },
  };
  const result = {
    type: 'result',
    subtype: 'success',
    is_error: false,
    num_turns: 1,
    result: 'Done.',
  };
  const padding = Array.from({ length: 450 }, (_, n) => ({ type: 'rate_limit_event', n }));
  const cursorShell = {
    type: 'tool_call',
    subtype: 'started',
    call_id: 'c1',
    tool_call: { shellToolCall: { args: { command: 'rm -rf build' } } },
  };

  it('stream-json with another tool’s tool_call events past the sampled lines: listed, undecided', () => {
    const mixed = read(jsonl([init, ...padding, reply, cursorShell, result]));
    expect(mixed.format).toBe('claude-code-stream-json');
    expect(mixed.malformed).toEqual([
      {
        line: 453,
        problem: expect.stringContaining('a line of type "tool_call" holding a tool call'),
      },
    ]);
    expect(noBash(mixed)).toBe('undecided');
    // Planted: without the foreign event the same session passes.
    expect(noBash(read(jsonl([init, ...padding, reply, result])))).toBe('pass');
  });

  it('a line of an unknown type carrying tool_use blocks, and a server_tool_use block, are listed', () => {
    const unknown = {
      type: 'frobnicate',
      message: { content: [{ type: 'tool_use', id: 'x', name: 'Bash', input: { command: 'ls' } }] },
    };
    const server = {
      ...reply,
      message: {
        ...reply.message,
        content: [
          { type: 'server_tool_use', id: 's1', name: 'web_search', input: { query: 'x' } },
          { type: 'text', text: 'Done.' },
        ],
      },
    };
    for (const lines of [
      [init, unknown, reply, result],
      [init, server, result],
    ]) {
      const transcript = read(jsonl(lines));
      expect(transcript.malformed).toHaveLength(1);
      expect(noBash(transcript)).toBe('undecided');
    }
  });

  it('a Cursor file with Claude tool_use lines in it: listed, undecided', () => {
    const cursorInit = { type: 'system', subtype: 'init', model: 'Auto', cwd: '/w' };
    const claudeCall = {
      type: 'assistant',
      message: {
        role: 'assistant',
        content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'ls' } }],
      },
      session_id: 's',
    };
    const cursorResult = { type: 'result', subtype: 'success', is_error: false, result: 'done' };
    const transcript = read(
      jsonl([
        cursorInit,
        { ...cursorShell, tool_call: { readToolCall: { args: { path: 'a' } } } },
        claudeCall,
        cursorResult,
      ]),
    );
    expect(transcript.format).toBe('cursor-stream-json');
    expect(transcript.malformed).toEqual([
      { line: 3, problem: expect.stringContaining('holding tool_use blocks') },
    ]);
    expect(noBash(transcript)).toBe('undecided');
  });

  it('a session log’s line of an unknown type carrying tool_use blocks is listed', () => {
    const log = logLines();
    const stray = {
      type: 'agent-message',
      sessionId: 'x',
      message: { content: [{ type: 'tool_use', id: 'z', name: 'Bash', input: {} }] },
    };
    const transcript = read(jsonl([log.prompt('Go.'), stray, log.text('m1', 'Done.')]));
    expect(transcript.format).toBe('claude-code-session');
    expect(transcript.malformed).toHaveLength(1);
    expect(noBash(transcript)).toBe('undecided');
    expect(noBash(read(jsonl([log.prompt('Go.'), log.text('m1', 'Done.')])))).toBe('pass');
  });
});

describe('ATIF links that cannot be followed as they claim', () => {
  const agent = { name: 'h', model_name: 'claude-sonnet-4-6' };
  const bashStep = (id: string) => ({
    step_id: 2,
    source: 'agent',
    tool_calls: [{ tool_call_id: id, function_name: 'Bash', arguments: { command: 'rm -rf x' } }],
    observation: { results: [{ source_call_id: id, content: 'ok' }] },
  });
  const trajectory = (id: string, steps: unknown[], extra: Record<string, unknown> = {}) => ({
    schema_version: 'ATIF-v1.7',
    trajectory_id: id,
    agent,
    steps: [{ step_id: 1, source: 'user', message: 'Go.' }, ...steps],
    ...extra,
  });
  const dispatching = (id: string, refs: Record<string, unknown>[], extra = {}) =>
    trajectory(
      id,
      [
        ...refs.map((ref, n) => ({
          step_id: n + 2,
          source: 'agent',
          tool_calls: [
            { tool_call_id: `call_${n}`, function_name: 'Agent', arguments: { prompt: 'Do it.' } },
          ],
          observation: {
            results: [
              { source_call_id: `call_${n}`, content: 'done', subagent_trajectory_ref: [ref] },
            ],
          },
        })),
        { step_id: refs.length + 2, source: 'agent', message: 'Done.' },
      ],
      extra,
    );
  const subagentNoBash = (transcript: SessionTranscript) => noBash(transcript, 'subagent');

  it('a subagent whose call ids repeat the controller’s keeps its calls', () => {
    // Both trajectories number their calls call_0, call_1, …: ids are unique within one only.
    const sub = trajectory('sub', [bashStep('call_0')]);
    const transcript = read(
      JSON.stringify(
        dispatching('main', [{ trajectory_id: 'sub' }], { subagent_trajectories: [sub] }),
      ),
    );
    expect(transcript.toolCalls.map((call) => [call.id, call.name, call.parentToolUseId])).toEqual([
      ['call_0', 'Agent', null],
      ['call_0/call_0', 'Bash', 'call_0'],
    ]);
    expect(transcript.seats[0]?.toolCalls).toBe(1);
    expect(subagentNoBash(transcript)).toBe('fail');
  });

  it('a circular link, a subagent with subagents of its own, a mislabelled file: unknown, undecided', async () => {
    const dir = makeTempDir();
    const write = (name: string, value: unknown) =>
      writeFileSync(path.join(dir, name), JSON.stringify(value));
    write(
      'self.json',
      dispatching('self', [{ trajectory_id: 'self', trajectory_path: 'self.json' }]),
    );
    write('a.json', dispatching('a', [{ trajectory_id: 'b', trajectory_path: 'b.json' }]));
    write('b.json', dispatching('b', [{ trajectory_id: 'c', trajectory_path: 'c.json' }]));
    write('c.json', trajectory('c', [bashStep('w1')]));
    write('wrong.json', dispatching('w', [{ trajectory_id: 'x', trajectory_path: 'c.json' }]));
    const readFile = async (name: string) => {
      const result = await readTranscriptInputs([path.join(dir, name)]);
      if (!result.ok) throw new Error(result.error.problem);
      return result.value;
    };
    const self = await readFile('self.json');
    expect(self.seats[0]?.unknownWhy).toBe(
      'subagent trajectory self is the trajectory that links it, a circular link',
    );
    expect(self.toolCalls).toHaveLength(1);
    const nested = await readFile('a.json');
    expect(nested.seats[0]).toMatchObject({
      toolCalls: null,
      unknownWhy: 'subagent trajectory b starts subagents of its own, whose calls are not followed',
    });
    const wrong = await readFile('wrong.json');
    expect(wrong.seats[0]?.unknownWhy).toBe('linked trajectory c.json is trajectory c, not x');
    for (const transcript of [self, nested, wrong]) {
      expect(subagentNoBash(transcript)).toBe('undecided');
    }
    // Planted: linked directly, c's Bash is read and the check fails.
    write('direct.json', dispatching('d', [{ trajectory_id: 'c', trajectory_path: 'c.json' }]));
    expect(subagentNoBash(await readFile('direct.json'))).toBe('fail');
  });

  it('one file linked under several spellings is read once, as one subagent', async () => {
    const dir = makeTempDir();
    mkdirSync(path.join(dir, 'subs'));
    writeFileSync(
      path.join(dir, 'subs', 'c.json'),
      JSON.stringify(trajectory('c', [bashStep('w1')])),
    );
    const links = ['subs/c.json', './subs/c.json', 'subs/../subs/c.json'];
    writeFileSync(
      path.join(dir, 'main.json'),
      JSON.stringify(
        dispatching(
          'm',
          links.map((link) => ({ trajectory_path: link })),
        ),
      ),
    );
    const result = await readTranscriptInputs([path.join(dir, 'main.json')]);
    if (!result.ok) throw new Error(result.error.problem);
    expect(result.value.seats.map((seat) => seat.toolCalls)).toEqual([1, null, null]);
    expect(result.value.seats[1]?.unknownWhy).toBe(
      'linked trajectory ./subs/c.json is the file linked trajectory subs/c.json names; one trajectory is not two subagents',
    );
  });
});

describe('a subagent’s log read alone holds neither the controller’s question nor its reply', () => {
  const sub = logLines('a1');
  const subLog = read(jsonl([sub.prompt('Explore.'), sub.text('m1', 'Report: all done.')]));
  const asked = (raw: Record<string, unknown>, transcript: SessionTranscript) =>
    check({ verb: 'question-asked', ...raw }, evidenceOf(transcript)).outcome;

  it('question-asked, and "did not stop to ask", are undecided (they failed and passed)', () => {
    expect(subLog.controllerRecorded).toBe(false);
    expect(asked({}, subLog)).toBe('undecided');
    expect(asked({ via: ['tool'] }, subLog)).toBe('undecided');
    expect(asked({ via: ['reply'] }, subLog)).toBe('undecided');
    expect(check({ not: { verb: 'question-asked' } }, evidenceOf(subLog)).outcome).toBe(
      'undecided',
    );
    // Planted: the controller's own log, asking nothing, fails.
    const log = logLines();
    const controller = read(jsonl([log.prompt('Go.'), log.text('m1', 'Done.')]));
    expect(asked({}, controller)).toBe('fail');
    // A line that could not be read may have been the question-tool call.
    const damaged = read(
      jsonl([log.prompt('Go.'), '{"type":"assistant",', log.text('m2', 'Done.')]),
    );
    expect(asked({ via: ['tool'] }, damaged)).toBe('undecided');
  });

  it('check does not take the subagent’s last reply as the session’s final reply', async () => {
    const dir = makeTempDir();
    const file = path.join(dir, 'agent-a1.jsonl');
    writeFileSync(file, jsonl([sub.prompt('Explore.'), sub.text('m1', 'The licence is MIT.')]));
    const { checkSession } = await import('../../../harness/check/check-session.js');
    const report = await checkSession({
      scenario: 'skill-triggering-unrelated',
      transcript: [file],
    });
    if (!report.ok) throw new Error(report.error.problem);
    expect(report.value.sources.reply).toBeNull();
    const answer = report.value.score.checks.find((one) => one.id === 'answers-mit');
    expect(answer).toMatchObject({ notAssessed: true, missingEvidence: ['reply'] });
  });
});
