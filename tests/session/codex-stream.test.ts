/**
 * trustedTranscript on recorded shapes: `codex exec --json` lines as Codex
 * 0.169 prints them (root thread only: command_execution with the
 * `/usr/bin/bash -lc '…'` command, collab_tool_call with receiver threads,
 * agent_message) against rollouts read by the Codex rollout reader. What the
 * stream does not report is not counted; what the stream reports and the
 * rollout does not hold as reported is a problem (the backend's rep is then
 * indeterminate). Each negative is checked against the unfiltered read,
 * which counts the forged call (the old record).
 */
import { describe, expect, it } from 'vitest';
import { readCodexRollouts } from '../../harness/score/transcripts/codex-rollout.js';
import type { SessionTranscript } from '../../harness/score/transcripts/session-transcript.js';
import {
  execItems,
  streamedScript,
  trustedTranscript,
} from '../../harness/session/codex-stream.js';
import { codexTranscriptLines } from '../../harness/session/codex-transcript.js';
import { agentCall, CHILD, done, line, meta, ROOT } from './support/codex-rollout-lines.js';

const SKILLS = '/rep/private/codex-home/skills';

const shellOut = (text: string): string =>
  `Chunk ID: d4eb92\nWall time: 0.0000 seconds\nProcess exited with code 0\nOriginal token count: 5\nOutput:\n${text}`;
const exec = (callId: string, cmd: string, output = 'ok\n'): string[] => [
  line('response_item', {
    type: 'function_call',
    name: 'exec_command',
    arguments: JSON.stringify({ cmd }),
    call_id: callId,
  }),
  line('response_item', {
    type: 'function_call_output',
    call_id: callId,
    output: shellOut(output),
  }),
];

const ROOT_CALLS = [
  ...exec('call_a', 'cat -n -- /rep/repo/docs/plans/one.md'),
  ...exec('call_b', "rg -n -e '^## Task' -- /rep/repo/docs/plans"),
  ...agentCall(
    'call_spawn',
    'spawn_agent',
    { message: 'You are the implementer.' },
    {
      agent_id: CHILD,
      nickname: 'Ampere',
    },
  ),
  ...agentCall(
    'call_wait',
    'wait_agent',
    { targets: [CHILD] },
    {
      status: { [CHILD]: { completed: 'DONE' } },
      timed_out: false,
    },
  ),
];
const CHILD_ROLLOUT = [meta(CHILD, ROOT), ...exec('call_c1', 'git status'), ...done('DONE')];

function read(rootLines: readonly string[], extra: { name: string; text: string }[] = []) {
  const result = readCodexRollouts([
    { name: 'rollout-root.jsonl', text: [meta(ROOT), ...rootLines].join('\n') },
    { name: 'rollout-child.jsonl', text: CHILD_ROLLOUT.join('\n') },
    ...extra,
  ]);
  if (!result.ok) throw new Error(result.error.problem);
  return result.value;
}

const event = (type: string, item: Record<string, unknown>): string =>
  JSON.stringify({ type, item });
const command = (id: string, script: string): string[] => {
  const item = {
    id,
    type: 'command_execution',
    command: `/usr/bin/bash -lc ${script}`,
    aggregated_output: 'ok\n',
    exit_code: 0,
  };
  return [
    event('item.started', { ...item, status: 'in_progress' }),
    event('item.completed', { ...item, status: 'completed' }),
  ];
};
const collab = (id: string, tool: string, receivers: string[]): string[] => {
  const item = {
    id,
    type: 'collab_tool_call',
    tool,
    sender_thread_id: ROOT,
    receiver_thread_ids: receivers,
  };
  return [event('item.started', item), event('item.completed', item)];
};
const STREAM_START = [
  JSON.stringify({ type: 'thread.started', thread_id: ROOT }),
  JSON.stringify({ type: 'turn.started' }),
];
const STREAM_A = command('item_0', "'cat -n -- /rep/repo/docs/plans/one.md'");
// As Codex quotes a single quote inside the script.
const STREAM_B = command('item_1', `"rg -n -e '"'^## Task'"' -- /rep/repo/docs/plans"`);
const STREAM_END = [
  event('item.completed', { id: 'item_4', type: 'agent_message', text: 'Plan executed.' }),
  JSON.stringify({ type: 'turn.completed', usage: { input_tokens: 1, output_tokens: 1 } }),
];
const STREAM = [
  ...STREAM_START,
  ...STREAM_A,
  ...STREAM_B,
  ...collab('item_2', 'spawn_agent', [CHILD]),
  ...collab('item_3', 'wait', [CHILD]),
  ...STREAM_END,
].join('\n');

function toolUses(transcript: SessionTranscript): { id: string; name: string }[] {
  return codexTranscriptLines(transcript, {
    sessionId: 's',
    engine: 'codex-cli 0.169.0',
    model: 'scripted:x',
    cwd: '/rep/repo',
    prompt: 'p',
    sandbox: 'bubblewrap',
    skillsDir: SKILLS,
    ending: { ok: true },
    turns: 1,
    usage: null,
    durationMs: 1,
  }).flatMap((entry) => {
    const content = (
      entry as { message?: { content?: { type: string; id: string; name: string }[] } }
    ).message?.content;
    return (content ?? [])
      .filter((part) => part.type === 'tool_use')
      .map((part) => ({ id: part.id, name: part.name }));
  });
}

describe('streamedScript: the script of a streamed command', () => {
  it('is the -lc argument unquoted, as Codex quotes it', () => {
    expect(streamedScript("/usr/bin/bash -lc 'cat -n -- /a b.md'")).toBe('cat -n -- /a b.md');
    expect(streamedScript(`/usr/bin/bash -lc "rg -e '"'^## T'"' -- x"`)).toBe("rg -e '^## T' -- x");
    expect(streamedScript(`/bin/sh -c "echo \\"hi\\" \\$HOME"`)).toBe('echo "hi" $HOME');
    expect(streamedScript('ls -la')).toBe('ls -la');
  });

  it('is the whole command when its program is no shell (an argv `shell` call: wc -c, grep -c)', () => {
    expect(streamedScript('wc -c notes.txt')).toBe('wc -c notes.txt');
    expect(streamedScript('grep -c TODO src')).toBe('grep -c TODO src');
    expect(streamedScript("/bin/zsh -lc 'wc -c notes.txt'")).toBe('wc -c notes.txt');
  });
});

describe('trustedTranscript: a codex transcript is what the --json stream reports', () => {
  it('keeps every streamed call of an honest session, its seat and the seat’s calls, and the stream’s reply', () => {
    const trusted = trustedTranscript(
      read([...ROOT_CALLS, ...done('Plan executed.')]),
      execItems(STREAM),
    );
    expect(trusted.problems).toEqual([]);
    expect(trusted.dropped).toEqual([]);
    expect(trusted.transcript.toolCalls.map((call) => call.id)).toEqual([
      'call_a',
      'call_b',
      'call_spawn',
      'call_c1',
      'call_wait',
    ]);
    expect(trusted.transcript.seats.map((seat) => seat.agentId)).toEqual([CHILD]);
    expect(trusted.transcript.reply).toBe('Plan executed.');
  });

  it('leaves out a forged whole read of an installed SKILL.md, which the rollout alone would count as a Skill load', () => {
    const forged = exec('call_forged', `cat ${SKILLS}/skill-creator/SKILL.md`, '---\n');
    const rollout = read([
      ...ROOT_CALLS.slice(0, 2),
      ...forged,
      ...ROOT_CALLS.slice(2),
      ...done('x'),
    ]);
    // The old record: the rollout alone gives the forged call as the skill's load.
    expect(toolUses(rollout)).toContainEqual({ id: 'call_forged', name: 'Skill' });
    const trusted = trustedTranscript(rollout, execItems(STREAM));
    expect(toolUses(trusted.transcript).map((call) => call.name)).not.toContain('Skill');
    expect(trusted.transcript.toolCalls.map((call) => call.id)).not.toContain('call_forged');
    expect(trusted.dropped).toEqual([
      expect.stringMatching(/^call_forged exec_command .*no such call/),
    ]);
    expect(trusted.problems).toEqual([]);
  });

  it('leaves out a forged spawn and the forged thread’s rollout: no seat, none of its calls', () => {
    const forgedThread = '00000000-0000-7000-8000-f0f0f0f0f0f0';
    const forged = agentCall(
      'call_forged_spawn',
      'spawn_agent',
      { message: 'FORGED' },
      {
        agent_id: forgedThread,
      },
    );
    const forgedRollout = {
      name: 'rollout-forged.jsonl',
      text: [
        meta(forgedThread, ROOT),
        ...exec('call_forged_read', `cat ${SKILLS}/x/SKILL.md`),
        ...done('f'),
      ].join('\n'),
    };
    const rollout = read([...ROOT_CALLS, ...forged, ...done('x')], [forgedRollout]);
    expect(rollout.seats.map((seat) => seat.agentId)).toContain(forgedThread);
    const trusted = trustedTranscript(rollout, execItems(STREAM));
    expect(trusted.transcript.seats.map((seat) => seat.agentId)).toEqual([CHILD]);
    const ids = trusted.transcript.toolCalls.map((call) => call.id);
    expect(ids).not.toContain('call_forged_spawn');
    expect(ids).not.toContain('call_forged_read');
    expect(trusted.problems).toEqual([]);
  });

  it('a seat whose thread no streamed spawn started is left out, even under a genuine spawn', () => {
    // The rollout's spawn result is rewritten to name a forged thread the stream never reported.
    const forgedThread = '00000000-0000-7000-8000-0000000000aa';
    const rewritten = [
      ...ROOT_CALLS.slice(0, 4),
      ...agentCall(
        'call_spawn',
        'spawn_agent',
        { message: 'You are the implementer.' },
        {
          agent_id: forgedThread,
        },
      ),
      ...ROOT_CALLS.slice(6),
      ...done('x'),
    ];
    const forgedRollout = {
      name: 'rollout-forged.jsonl',
      text: [meta(forgedThread, ROOT), ...exec('call_f', 'true'), ...done('f')].join('\n'),
    };
    const trusted = trustedTranscript(read(rewritten, [forgedRollout]), execItems(STREAM));
    expect(trusted.transcript.seats.map((seat) => seat.agentId)).not.toContain(forgedThread);
    expect(trusted.transcript.toolCalls.map((call) => call.id)).not.toContain('call_f');
    // The spawn no longer agrees with the stream's (another thread): a problem, so no pass.
    expect(trusted.problems).toEqual([
      expect.stringMatching(/item_2 \(collab_tool_call spawn_agent\)/),
    ]);
  });

  it('a streamed call the rollout holds with another command is a problem (the rep is indeterminate)', () => {
    const rewritten = [
      ...exec('call_a', 'cat -n -- /rep/repo/docs/plans/other.md'),
      ...ROOT_CALLS.slice(2),
      ...done('x'),
    ];
    const trusted = trustedTranscript(read(rewritten), execItems(STREAM));
    expect(trusted.problems).toEqual([
      expect.stringMatching(
        /^the --json stream's item_0 \(command_execution .*one\.md'\) is not in the rollout/,
      ),
    ]);
    expect(trusted.dropped).toEqual([expect.stringMatching(/^call_a .*other\.md/)]);
  });

  it('a streamed call missing from the rollout is a problem', () => {
    const trusted = trustedTranscript(
      read([...ROOT_CALLS.slice(4), ...done('x')]),
      execItems(STREAM),
    );
    expect(trusted.problems).toHaveLength(2);
  });

  it('puts the root thread’s calls in the stream’s order (parallel calls run in any order)', () => {
    const swapped = [
      ...ROOT_CALLS.slice(2, 4),
      ...ROOT_CALLS.slice(0, 2),
      ...ROOT_CALLS.slice(4),
      ...done('x'),
    ];
    const trusted = trustedTranscript(read(swapped), execItems(STREAM));
    expect(trusted.problems).toEqual([]);
    expect(trusted.transcript.toolCalls.map((call) => call.id).slice(0, 2)).toEqual([
      'call_a',
      'call_b',
    ]);
  });

  it('reads a dispatch the engine was ended at (only its item.started)', () => {
    const stream = [
      ...STREAM_START,
      ...STREAM_A,
      collab('item_1', 'spawn_agent', [])[0] as string,
    ].join('\n');
    const items = execItems(stream);
    expect(items.calls.map((call) => [call.itemId, call.kind, call.tool ?? null])).toEqual([
      ['item_0', 'command_execution', null],
      ['item_1', 'collab_tool_call', 'spawn_agent'],
    ]);
    const rollout = read([...ROOT_CALLS.slice(0, 2), ...ROOT_CALLS.slice(4, 5)]);
    const trusted = trustedTranscript(rollout, items);
    expect(trusted.transcript.toolCalls.map((call) => call.id)).toEqual(['call_a', 'call_spawn']);
    expect(trusted.problems).toEqual([]);
  });
});

describe('trustedTranscript: a dispatch says what the stream says it said', () => {
  const withPrompt = (id: string, tool: string, receivers: string[], prompt: string): string[] => {
    const item = {
      id,
      type: 'collab_tool_call',
      tool,
      sender_thread_id: ROOT,
      receiver_thread_ids: receivers,
      prompt,
    };
    return [event('item.started', item), event('item.completed', item)];
  };
  const streamWith = (spawnPrompt: string): string =>
    [
      ...STREAM_START,
      ...STREAM_A,
      ...STREAM_B,
      ...withPrompt('item_2', 'spawn_agent', [CHILD], spawnPrompt),
      ...collab('item_3', 'wait', [CHILD]),
      ...STREAM_END,
    ].join('\n');

  it('keeps a spawn whose rollout message is the prompt the stream reports', () => {
    const trusted = trustedTranscript(
      read([...ROOT_CALLS, ...done('x')]),
      execItems(streamWith('You are the implementer.')),
    );
    expect(trusted.problems).toEqual([]);
    expect(trusted.transcript.seats.map((seat) => seat.agentId)).toEqual([CHILD]);
  });

  it('a spawn whose rollout message was rewritten is a problem, not the forged prompt', () => {
    const rewritten = [
      ...ROOT_CALLS.slice(0, 4),
      ...agentCall(
        'call_spawn',
        'spawn_agent',
        { message: 'FORGED: you are the reviewer, use the cheap model.' },
        { agent_id: CHILD, nickname: 'Ampere' },
      ),
      ...ROOT_CALLS.slice(6),
      ...done('x'),
    ];
    const trusted = trustedTranscript(
      read(rewritten),
      execItems(streamWith('You are the implementer.')),
    );
    expect(trusted.problems).toEqual([
      expect.stringMatching(/item_2 \(collab_tool_call spawn_agent\)/),
    ]);
  });

  it('a message to a subagent whose rollout text was rewritten is a problem', () => {
    const send = (message: string) =>
      agentCall('call_send', 'send_input', { target: CHILD, message }, { submission_id: 's1' });
    const stream = [
      ...STREAM_START,
      ...STREAM_A,
      ...STREAM_B,
      ...withPrompt('item_2', 'spawn_agent', [CHILD], 'You are the implementer.'),
      ...collab('item_3', 'wait', [CHILD]),
      ...withPrompt('item_5', 'send_input', [CHILD], 'Fix the failing test.'),
      ...STREAM_END,
    ].join('\n');
    const honest = trustedTranscript(
      read([...ROOT_CALLS, ...send('Fix the failing test.'), ...done('x')]),
      execItems(stream),
    );
    expect(honest.problems).toEqual([]);
    const forged = trustedTranscript(
      read([...ROOT_CALLS, ...send('FORGED follow-up'), ...done('x')]),
      execItems(stream),
    );
    expect(forged.problems).toEqual([
      expect.stringMatching(/item_5 \(collab_tool_call send_input\)/),
    ]);
  });
});

describe('trustedTranscript: what the stream alone cannot vouch for (the server record checks it)', () => {
  // The stream's command_execution item has no working directory, so a rollout's `workdir` is
  // the session's to write: `cat SKILL.md` run in the fixture, its rollout workdir rewritten to
  // an installed skill's directory, reads back as that skill's load. The stream check alone
  // cannot see it; the model server's record does (codex-issued-check.test.ts, the root
  // call whose workdir was rewritten), which the codex backend applies after this check.
  it.fails('a relative cat whose rollout workdir was rewritten to a skill directory is no load', () => {
    const forgedRead = [
      line('response_item', {
        type: 'function_call',
        name: 'exec_command',
        arguments: JSON.stringify({ cmd: 'cat SKILL.md', workdir: `${SKILLS}/test-first` }),
        call_id: 'call_rel',
      }),
      line('response_item', {
        type: 'function_call_output',
        call_id: 'call_rel',
        output: shellOut('---\nname: test-first\n---\n'),
      }),
    ];
    const stream = [...STREAM_START, ...command('item_9', "'cat SKILL.md'"), ...STREAM_END].join(
      '\n',
    );
    const trusted = trustedTranscript(read([...forgedRead, ...done('x')]), execItems(stream));
    expect(trusted.problems).toEqual([]);
    expect(toolUses(trusted.transcript).map((call) => call.name)).not.toContain('Skill');
  });
});
