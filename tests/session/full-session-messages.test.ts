/**
 * `stop: complete` on the `messages` backend: the controller's Agent calls run
 * as nested sessions (their own tool loop, the same sandbox and work tree,
 * the same endpoint), SendMessage resumes one, and the seat and turn limits
 * end a session as an explained indeterminate, never a crash. The brain is a
 * script per conversation (chosen by the x-redgreen-session header each seat
 * sends); the SDK, the backend, the sandbox and git are real.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AssistantBlock } from '../../harness/model-server/assistant-message.js';
import { seatEventSchema, seatRecordSchema } from '../../harness/score/seat-record.js';
import { greetingsFixture } from './support/greetings-fixture.js';
import { runBackendSession, toolResults } from './support/run-session.js';
import { type Script, startScriptBrain } from './support/script-brain.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

const REP = 'test/full';

function toolUse(id: string, name: string, input: Record<string, unknown>): AssistantBlock {
  return { type: 'tool_use', id, name, input };
}

function text(value: string): AssistantBlock {
  return { type: 'text', text: value };
}

async function brain(controller: Script, seats: Readonly<Record<string, Script>>) {
  const bySession: Record<string, Script> = {};
  for (const [agent, script] of Object.entries(seats)) bySession[`${REP}/${agent}`] = script;
  const started = await startScriptBrain(controller, bySession);
  closers.push(() => started.close());
  return started;
}

const agentCall = (id: string, description: string, prompt: string) =>
  toolUse(id, 'Agent', { description, prompt, subagent_type: 'general-purpose' });

describe('stop: complete on the messages backend', () => {
  it('runs a dispatch as a nested session in the same work tree, and a SendMessage resumes it', async () => {
    const repo = greetingsFixture();
    const served = await brain(
      [
        [agentCall('toolu_c1', 'Write a note', 'Write note.txt.')],
        [toolUse('toolu_c2', 'SendMessage', { to: 'agent-1', message: 'Append a second line.' })],
        [toolUse('toolu_c3', 'Bash', { command: 'cat note.txt' })],
        [text('All done.')],
      ],
      {
        'agent-1': [
          [toolUse('toolu_s1', 'Bash', { command: 'echo first > note.txt' })],
          [text('Wrote note.txt.')],
          [toolUse('toolu_s2', 'Bash', { command: 'echo second >> note.txt' })],
          [text('Appended.')],
        ],
      },
    );
    const run = await runBackendSession({
      backend: 'messages',
      stop: 'complete',
      baseUrl: served.baseUrl,
      model: 'scripted:script',
      prompt: 'Work with a subagent.',
      fixtureRepo: repo,
      repId: REP,
    });

    expect(run.outcome.status).toEqual({ kind: 'completed' });
    expect(run.outcome.finalReply).toBe('All done.');
    expect(readFileSync(path.join(repo, 'note.txt'), 'utf8')).toBe('first\nsecond\n');
    // The controller turns only; every seat's usage counts.
    expect(run.outcome.turns).toBe(4);
    expect(served.requests.filter((r) => r.session === `${REP}/agent-1`)).toHaveLength(4);

    const results = toolResults(run.transcript);
    expect(results.get('toolu_c1')?.text).toMatch(/^Wrote note\.txt\.\n\nagentId: agent-1 /);
    expect(results.get('toolu_c2')?.text).toMatch(/^Appended\.\n\nagentId: agent-1 /);
    expect(results.get('toolu_c3')?.text).toContain('first\nsecond');
    // The resumed conversation carries the first run and the message.
    const resumed = served.requests.filter((r) => r.session === `${REP}/agent-1`).at(2);
    expect(JSON.stringify(resumed?.messages)).toContain('Append a second line.');
    expect(resumed?.tools).toEqual(['Bash', 'Read', 'Glob', 'Grep']);
    expect(served.requests[0]?.tools).toEqual([
      'Bash',
      'Read',
      'Glob',
      'Grep',
      'Agent',
      'SendMessage',
      // The scripted user answers it (scripted-user-session.ts).
      'AskUserQuestion',
    ]);

    // Every message names its seat; the subagent's are marked with the dispatch that created it.
    const messages = run.transcript.filter((m) => m.type === 'assistant' || m.type === 'user');
    for (const message of messages) {
      const seat = seatRecordSchema.parse(message.seat);
      expect(message.parent_tool_use_id ?? null).toBe(
        seat.kind === 'subagent' ? seat.dispatch : null,
      );
    }
    const subagentSeat = {
      kind: 'subagent',
      agentId: 'agent-1',
      dispatch: 'toolu_c1',
      tool: 'Agent',
      subagentType: 'general-purpose',
      model: null,
      description: 'Write a note',
    };
    const events = run.transcript
      .filter(
        (m) =>
          m.type === 'system' && m.subtype !== 'init' && !String(m.subtype).startsWith('user_'),
      )
      .map((m) => seatEventSchema.parse(m));
    expect(events.map((e) => [e.subtype, 'via' in e ? e.via : undefined])).toEqual([
      ['subagent_start', undefined],
      ['subagent_end', 'toolu_c1'],
      ['subagent_resume', 'toolu_c2'],
      ['subagent_end', 'toolu_c2'],
    ]);
    for (const event of events) expect(event.seat).toEqual(subagentSeat);
    expect(events.at(-1)).toMatchObject({ turns: 4, outcome: 'replied' });
  });

  it('a SendMessage to an unknown agent is an error result, and the session goes on', async () => {
    const repo = greetingsFixture();
    const served = await brain(
      [
        [toolUse('toolu_c1', 'SendMessage', { to: 'agent-9', message: 'hello?' })],
        [text('No such agent; done.')],
      ],
      {},
    );
    const run = await runBackendSession({
      backend: 'messages',
      stop: 'complete',
      baseUrl: served.baseUrl,
      model: 'scripted:script',
      prompt: 'Try.',
      fixtureRepo: repo,
      repId: REP,
    });
    expect(run.outcome.status).toEqual({ kind: 'completed' });
    expect(toolResults(run.transcript).get('toolu_c1')).toEqual({
      text: 'No agent "agent-9" in this session (no agent has been started).',
      isError: true,
    });
  });

  it('a subagent past its per-seat turn limit ends the session as indeterminate, saying so', async () => {
    const repo = greetingsFixture();
    const busy = Array.from({ length: 5 }, (_, i) => [
      toolUse(`toolu_s${i}`, 'Bash', { command: `echo ${i} >> busy.txt` }),
    ]);
    const served = await brain(
      [
        [
          agentCall('toolu_c1', 'Keep busy', 'Loop.'),
          toolUse('toolu_c2', 'Bash', { command: 'touch after.txt' }),
        ],
        [text('never asked')],
      ],
      { 'agent-1': busy },
    );
    const run = await runBackendSession({
      backend: 'messages',
      stop: 'complete',
      baseUrl: served.baseUrl,
      model: 'scripted:script',
      prompt: 'Go.',
      fixtureRepo: repo,
      repId: REP,
      limits: { seatMaxTurns: 3 },
    });
    const reason =
      'subagent agent-1 (Keep busy) reached the per-seat turn limit (3) without a final reply';
    expect(run.outcome.status).toEqual({ kind: 'indeterminate', stage: 'limit', reason });
    expect(run.outcome.stopReason).toBe('seat-limit');
    expect(served.requests.filter((r) => r.session === `${REP}/agent-1`)).toHaveLength(3);
    // No controller request after the limit; the call after it in that turn did not run.
    expect(served.requests.filter((r) => r.session === REP)).toHaveLength(1);
    expect(existsSync(path.join(repo, 'after.txt'))).toBe(false);
    expect(toolResults(run.transcript).get('toolu_c1')).toEqual({
      text: `Subagent stopped: ${reason}.`,
      isError: true,
    });
    const result = run.transcript.find((m) => m.type === 'result');
    expect(result).toMatchObject({ subtype: 'error_max_turns', is_error: true, errors: [reason] });
    const end = run.transcript.find((m) => m.subtype === 'subagent_end');
    expect(end).toMatchObject({ outcome: 'turn-limit', turns: 3 });
  });

  it('a dispatch past the per-rep seat limit starts no subagent and ends the session as indeterminate', async () => {
    const repo = greetingsFixture();
    const served = await brain(
      [
        [agentCall('toolu_c1', 'One', 'First.')],
        [agentCall('toolu_c2', 'Two', 'Second.')],
        [text('never asked')],
      ],
      { 'agent-1': [[text('one done')]], 'agent-2': [[text('two done')]] },
    );
    const run = await runBackendSession({
      backend: 'messages',
      stop: 'complete',
      baseUrl: served.baseUrl,
      model: 'scripted:script',
      prompt: 'Go.',
      fixtureRepo: repo,
      repId: REP,
      limits: { maxSeats: 1 },
    });
    const reason = 'the controller started more subagents than the per-rep seat limit allows (1)';
    expect(run.outcome.status).toEqual({ kind: 'indeterminate', stage: 'limit', reason });
    expect(served.requests.map((r) => r.session)).toEqual([REP, `${REP}/agent-1`, REP]);
    expect(toolResults(run.transcript).get('toolu_c2')?.text).toBe(
      `Subagent not started: ${reason}.`,
    );
  });

  it('under stop: report the same dispatch is refused and no subagent runs', async () => {
    const repo = greetingsFixture();
    const served = await brain([[agentCall('toolu_c1', 'One', 'First.')], [text('Reported.')]], {
      'agent-1': [[text('should never run')]],
    });
    const run = await runBackendSession({
      backend: 'messages',
      stop: 'report',
      baseUrl: served.baseUrl,
      model: 'scripted:script',
      prompt: 'Go.',
      fixtureRepo: repo,
      repId: REP,
    });
    expect(run.outcome.status).toEqual({ kind: 'completed' });
    expect(served.requests.every((r) => r.session === REP)).toBe(true);
    expect(toolResults(run.transcript).get('toolu_c1')?.isError).toBe(true);
  });
});
