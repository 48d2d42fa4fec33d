/**
 * checkedAgainstIssued on recorded shapes: a session's rollouts (root and one
 * spawned thread) read by the Codex rollout reader and kept to the --json
 * stream, then the spawned thread's calls checked against the model server's
 * record of what it issued on that thread. Each negative (a call appended to
 * the child rollout, an argument changed, an issued call missing, the record
 * unreadable) is checked against the stream-checked transcript alone, which
 * still holds the forged call as written.
 */
import { describe, expect, it } from 'vitest';
import type { IssuedCall } from '../../harness/model-server/responses/issued-calls.js';
import { readCodexRollouts } from '../../harness/score/transcripts/codex-rollout.js';
import type { SessionTranscript } from '../../harness/score/transcripts/session-transcript.js';
import {
  checkedAgainstIssued,
  type ServerRecord,
} from '../../harness/session/codex-issued-check.js';
import { execItems, trustedTranscript } from '../../harness/session/codex-stream.js';
import { agentCall, CHILD, done, line, meta, ROOT } from './support/codex-rollout-lines.js';

const exec = (callId: string, cmd: string): string[] => [
  line('response_item', {
    type: 'function_call',
    name: 'exec_command',
    arguments: JSON.stringify({ cmd }),
    call_id: callId,
  }),
  line('response_item', { type: 'function_call_output', call_id: callId, output: 'ok\n' }),
];

const ROOT_ROLLOUT = [
  meta(ROOT),
  ...agentCall(
    'call_spawn',
    'spawn_agent',
    { message: 'You are the implementer.' },
    { agent_id: CHILD, nickname: 'Ampere' },
  ),
  ...agentCall(
    'call_wait',
    'wait_agent',
    { targets: [CHILD] },
    { status: { [CHILD]: { completed: 'DONE' } }, timed_out: false },
  ),
  ...done('Plan executed.'),
];
const GENUINE_CHILD = [...exec('call_c1', 'git status'), ...exec('call_c2', 'npm test')];

const event = (type: string, item: Record<string, unknown>): string =>
  JSON.stringify({ type, item });
const collab = (id: string, tool: string): string[] => {
  const item = { id, type: 'collab_tool_call', tool, receiver_thread_ids: [CHILD] };
  return [event('item.started', item), event('item.completed', item)];
};
const STREAM = [
  JSON.stringify({ type: 'thread.started', thread_id: ROOT }),
  ...collab('item_0', 'spawn_agent'),
  ...collab('item_1', 'wait'),
  event('item.completed', { id: 'item_2', type: 'agent_message', text: 'Plan executed.' }),
].join('\n');

/** The transcript as the stream check alone leaves it (the check under test not applied). */
function streamChecked(childLines: readonly string[]): SessionTranscript {
  const read = readCodexRollouts([
    { name: 'rollout-root.jsonl', text: ROOT_ROLLOUT.join('\n') },
    {
      name: 'rollout-child.jsonl',
      text: [meta(CHILD, ROOT), ...childLines, ...done('DONE')].join('\n'),
    },
  ]);
  if (!read.ok) throw new Error(read.error.problem);
  const trusted = trustedTranscript(read.value, execItems(STREAM));
  expect(trusted.problems).toEqual([]);
  return trusted.transcript;
}

const issue = (callId: string, cmd: string): IssuedCall => ({
  call_id: callId,
  name: 'exec_command',
  arguments: JSON.stringify({ cmd }),
});
/** What the server issued: the root's spawn and wait, the child's two commands. */
const ISSUED: Extract<ServerRecord, { kind: 'record' }> = {
  kind: 'record',
  issued: {
    session: 'green/s1-rep1',
    threads: [
      {
        thread: ROOT,
        calls: [
          {
            call_id: 'call_spawn',
            name: 'spawn_agent',
            namespace: 'multi_agent_v1',
            arguments: JSON.stringify({ message: 'You are the implementer.' }),
          },
          {
            call_id: 'call_wait',
            name: 'wait_agent',
            namespace: 'multi_agent_v1',
            arguments: JSON.stringify({ targets: [CHILD] }),
          },
        ],
      },
      { thread: CHILD, calls: [issue('call_c1', 'git status'), issue('call_c2', 'npm test')] },
    ],
  },
};

const ids = (transcript: SessionTranscript): string[] =>
  transcript.toolCalls.map((call) => call.id);
const commands = (transcript: SessionTranscript): unknown[] =>
  transcript.toolCalls.map((call) => (call.input as { command?: unknown }).command);

describe('checkedAgainstIssued', () => {
  it('keeps a spawned thread whose calls are the ones the server issued on it', () => {
    const checked = checkedAgainstIssued(streamChecked(GENUINE_CHILD), ISSUED, {
      endedByRedgreen: false,
    });
    expect(ids(checked.transcript)).toEqual(['call_spawn', 'call_c1', 'call_c2', 'call_wait']);
    expect(checked.dropped).toEqual([]);
    expect(checked.problems).toEqual([]);
    expect(checked.transcript.seats.map((seat) => [seat.agentId, seat.toolCalls])).toEqual([
      [CHILD, 2],
    ]);
  });

  it('drops a call appended to the child rollout that the server never issued (planted negative)', () => {
    const forged = [...GENUINE_CHILD, ...exec('call_forged', 'cat /skills/x/SKILL.md')];
    const unchecked = streamChecked(forged);
    // Without the check, the forged call is in the transcript, under the child's seat.
    expect(ids(unchecked)).toContain('call_forged');
    const checked = checkedAgainstIssued(unchecked, ISSUED, { endedByRedgreen: false });
    expect(ids(checked.transcript)).not.toContain('call_forged');
    expect(checked.dropped).toEqual([
      `call_forged exec_command (cat /skills/x/SKILL.md): the model server issued no such call on thread ${CHILD}`,
    ]);
    expect(checked.problems).toEqual([]);
    expect(checked.transcript.seats[0]?.toolCalls).toBe(2);
  });

  it('drops a call whose argument was changed, and the rep is indeterminate (planted negative)', () => {
    const changed = [
      ...exec('call_c1', 'git status'),
      ...exec('call_c2', 'npm test -- --passWithNoTests'),
    ];
    const unchecked = streamChecked(changed);
    expect(commands(unchecked)).toContain('npm test -- --passWithNoTests');
    const checked = checkedAgainstIssued(unchecked, ISSUED, { endedByRedgreen: false });
    expect(commands(checked.transcript)).not.toContain('npm test -- --passWithNoTests');
    expect(ids(checked.transcript)).toEqual(['call_spawn', 'call_c1', 'call_wait']);
    expect(checked.dropped).toEqual([
      'call_c2 exec_command (npm test -- --passWithNoTests): not the call the model server issued under that id',
    ]);
    expect(checked.problems).toHaveLength(1);
    expect(checked.problems[0]).toMatch(
      /rollout call call_c2 .* is not what the model server issued/,
    );
  });

  it('names a call the server issued on the thread that its rollout does not hold', () => {
    const removed = exec('call_c1', 'git status');
    const checked = checkedAgainstIssued(streamChecked(removed), ISSUED, {
      endedByRedgreen: false,
    });
    expect(checked.problems).toEqual([
      `the model server issued call_c2 (exec_command {"cmd":"npm test"}) on thread ${CHILD}, which its rollout does not hold`,
    ]);
    // Cut off by redgreen (a capture): not a disagreement.
    expect(
      checkedAgainstIssued(streamChecked(removed), ISSUED, { endedByRedgreen: true }).problems,
    ).toEqual([]);
  });

  it('a call issued on another thread does not vouch for the child (planted negative)', () => {
    const moved: ServerRecord = {
      kind: 'record',
      issued: {
        session: 'green/s1-rep1',
        threads: [
          { thread: ROOT, calls: [issue('call_c1', 'git status'), issue('call_c2', 'npm test')] },
        ],
      },
    };
    const checked = checkedAgainstIssued(streamChecked(GENUINE_CHILD), moved, {
      endedByRedgreen: false,
    });
    expect(ids(checked.transcript)).toEqual(['call_spawn', 'call_wait']);
    expect(checked.dropped).toHaveLength(2);
  });

  it('without a record, no spawned thread call is read as written: each dropped, the rep indeterminate', () => {
    const checked = checkedAgainstIssued(
      streamChecked(GENUINE_CHILD),
      { kind: 'unavailable', why: 'connection refused' },
      { endedByRedgreen: false },
    );
    expect(ids(checked.transcript)).toEqual(['call_spawn', 'call_wait']);
    expect(checked.dropped[0]).toMatch(
      /call_c1 exec_command \(git status\): unverified \(connection refused\)/,
    );
    expect(checked.problems).toEqual([
      "the model server's record of the spawned threads could not be read (connection refused), so their 2 calls are unverified",
    ]);
  });

  it('checks the root thread too when the stream names it: a streamed call the server never issued there is a problem (planted negative)', () => {
    const transcript = streamChecked(GENUINE_CHILD);
    const genuine = checkedAgainstIssued(transcript, ISSUED, {
      endedByRedgreen: false,
      rootThread: ROOT,
    });
    expect(genuine.problems).toEqual([]);
    expect(ids(genuine.transcript)).toEqual(['call_spawn', 'call_c1', 'call_c2', 'call_wait']);
    // The wait the stream and the rollout both hold, but the server never issued on the root thread.
    const withoutWait: ServerRecord = {
      kind: 'record',
      issued: {
        ...ISSUED.issued,
        threads: ISSUED.issued.threads.map((thread) =>
          thread.thread === ROOT
            ? { ...thread, calls: thread.calls.filter((call) => call.call_id !== 'call_wait') }
            : thread,
        ),
      },
    };
    const forged = checkedAgainstIssued(transcript, withoutWait, {
      endedByRedgreen: false,
      rootThread: ROOT,
    });
    expect(ids(forged.transcript)).not.toContain('call_wait');
    expect(forged.problems).toEqual([
      `the root thread's call call_wait wait_agent, which the --json stream reports: the model server issued no such call on the root thread ${ROOT}`,
    ]);
    // Without the root thread's id the root calls are the stream check's alone.
    expect(
      checkedAgainstIssued(transcript, withoutWait, { endedByRedgreen: false }).problems,
    ).toEqual([]);
  });
  it("catches a root call whose rollout workdir was rewritten to a skill's directory, which the stream alone cannot (review finding)", () => {
    // The --json stream's command item has no working directory, so `cat SKILL.md` run in the
    // fixture, its rollout workdir rewritten to an installed skill's, reads back as that skill's
    // load with the stream check alone. The server issued the call without that workdir.
    const rootLines = [
      meta(ROOT),
      line('response_item', {
        type: 'function_call',
        name: 'exec_command',
        arguments: JSON.stringify({
          cmd: 'cat SKILL.md',
          workdir: '/codex-home/skills/test-first',
        }),
        call_id: 'call_rel',
      }),
      line('response_item', { type: 'function_call_output', call_id: 'call_rel', output: 'x\n' }),
      ...done('Done.'),
    ];
    const read = readCodexRollouts([{ name: 'rollout-root.jsonl', text: rootLines.join('\n') }]);
    if (!read.ok) throw new Error(read.error.problem);
    const commandItem = {
      id: 'item_0',
      type: 'command_execution',
      command: "/usr/bin/bash -lc 'cat SKILL.md'",
      aggregated_output: 'x\n',
      exit_code: 0,
    };
    const stream = [
      JSON.stringify({ type: 'thread.started', thread_id: ROOT }),
      event('item.started', { ...commandItem, status: 'in_progress' }),
      event('item.completed', { ...commandItem, status: 'completed' }),
      event('item.completed', { id: 'item_1', type: 'agent_message', text: 'Done.' }),
    ].join('\n');
    const trusted = trustedTranscript(read.value, execItems(stream));
    // The stream check alone keeps the call, rewritten workdir and all.
    expect(trusted.problems).toEqual([]);
    expect(trusted.transcript.toolCalls.map((call) => call.input)).toEqual([
      { cmd: 'cat SKILL.md', workdir: '/codex-home/skills/test-first', command: 'cat SKILL.md' },
    ]);
    const issued: ServerRecord = {
      kind: 'record',
      issued: {
        session: 'green/t-rep1',
        threads: [{ thread: ROOT, calls: [issue('call_rel', 'cat SKILL.md')] }],
      },
    };
    const checked = checkedAgainstIssued(trusted.transcript, issued, {
      endedByRedgreen: false,
      rootThread: ROOT,
    });
    expect(ids(checked.transcript)).toEqual([]);
    expect(checked.problems).toEqual([
      `the root thread's call call_rel exec_command (cat SKILL.md), which the --json stream reports: not the call the model server issued under that id`,
    ]);
  });
});
