/**
 * A recorded session as a brain: it makes the recording's calls in the live
 * session's directories and ends with the recorded reply while every outcome
 * is the recorded one; the first outcome that is not (or a tool the session
 * lacks, or another prompt) ends it with `replay diverged at turn N: …`,
 * never a reply. Recordings come from the transcript readers, so every
 * format they read replays. Pure: the program is driven as the server does.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Brain, nextBrainTurn } from '../../harness/model-server/brain.js';
import type { BrainAnswer } from '../../harness/model-server/data-policy/brain-program.js';
import type { SessionView } from '../../harness/model-server/data-policy/session-view.js';
import type { BrainCall } from '../../harness/model-server/policies/program.js';
import { type Recording, recordingOf } from '../../harness/model-server/replay/recording.js';
import { comparable, replayProgram } from '../../harness/model-server/replay/replay-program.js';
import { readSessionTranscript } from '../../harness/score/transcripts/read-transcript.js';
import { jsonl, logLines, rollout } from '../score/transcripts/support.js';

const recorded: Recording = {
  source: 'transcript.jsonl',
  format: 'redgreen',
  cwd: '/tmp/run-A/rep-1/repo',
  prompt: 'Write the notes for /tmp/run-A/rep-1/repo.',
  calls: [
    {
      name: 'Read',
      input: { file_path: '/tmp/run-A/rep-1/skills/notes/SKILL.md' },
      output: '     1\t# Notes',
      isError: false,
    },
    {
      name: 'Bash',
      input: { command: 'node --test', description: 'Test' },
      output: '# pass 1\n# duration_ms 41.7\nok 1 - adds (1.25ms)',
      isError: false,
    },
  ],
  reply: 'Wrote /tmp/run-A/rep-1/repo/NOTES.md.',
  seats: 0,
};

const live: SessionView = {
  system: 'Working directory: /tmp/run-B/rep-1/repo',
  prompt: 'Write the notes for /tmp/run-B/rep-1/repo.',
  cwd: '/tmp/run-B/rep-1/repo',
  exchanges: [],
  userReplies: [],
};

function replay(
  recording: Recording,
  outcomes: readonly { text: string; isError?: boolean }[],
  options: { view?: SessionView; offered?: readonly string[] } = {},
): { calls: BrainCall[]; answer: BrainAnswer } {
  const program = replayProgram(
    recording,
    options.view ?? live,
    new Set(options.offered ?? ['Bash', 'Read']),
  );
  const calls: BrainCall[] = [];
  let next = program.next();
  while (!next.done) {
    const [call] = next.value;
    if (call !== undefined) calls.push(call);
    const outcome = outcomes[calls.length - 1] ?? { text: '' };
    next = program.next([{ text: outcome.text, isError: outcome.isError ?? false }]);
  }
  return { calls, answer: next.value };
}

describe('a replayed session', () => {
  it('makes the recorded calls in the live directories and ends with the recorded reply', () => {
    const played = replay(recorded, [
      { text: '     1\t# Notes' },
      // Timings differ from run to run; they are not what the recording saw.
      { text: '# pass 1\n# duration_ms 12.3\nok 1 - adds (0.9ms)' },
    ]);
    expect(played.calls).toEqual([
      { name: 'Read', input: { file_path: '/tmp/run-B/rep-1/skills/notes/SKILL.md' } },
      { name: 'Bash', input: { command: 'node --test', description: 'Test' } },
    ]);
    expect(played.answer).toEqual({ kind: 'reply', text: 'Wrote /tmp/run-B/rep-1/repo/NOTES.md.' });
  });

  it('diverges, naming the turn, at the first outcome the recording never saw', () => {
    const played = replay(recorded, [{ text: '     1\t# Notes' }, { text: '# fail 1' }]);
    expect(played.answer).toEqual({
      kind: 'failure',
      message:
        "replay diverged at turn 2: Bash node --test returned other output than the recording (line 1: recorded '# pass 1', now '# fail 1')",
    });
    expect(replay(recorded, [{ text: 'gone', isError: true }]).answer).toMatchObject({
      message: expect.stringMatching(
        /^replay diverged at turn 1: Read \/tmp\/run-A\/rep-1\/skills\/notes\/SKILL\.md returned other output than the recording \(an error now, a result then\)$/,
      ),
    });
  });

  it('diverges when the session does not offer a tool the recording used, or was asked something else', () => {
    expect(
      replay(recorded, [{ text: '     1\t# Notes' }], { offered: ['Read'] }).answer,
    ).toMatchObject({
      message: expect.stringMatching(
        /^replay diverged at turn 2: the recording calls Bash, which this session does not offer/,
      ),
    });
    expect(
      replay(recorded, [], { view: { ...live, prompt: 'Write the release notes.' } }).answer,
    ).toMatchObject({
      message: expect.stringMatching(
        /^replay diverged at turn 1: the session was asked something else/,
      ),
    });
  });

  it('reads the rep directory as the live one for a session that starts in a worktree of the fixture', () => {
    // The scaffold's prompt names the skill's copy ({{skillDir}}) under the rep directory, two
    // levels above a working directory in .worktrees/pad.
    const inWorktree: Recording = {
      ...recorded,
      cwd: '/tmp/run-M/rep-96e3/repo/.worktrees/pad',
      prompt: 'Use the skill at /tmp/run-M/rep-96e3/skills/tidy: read its SKILL.md first.',
      calls: [],
    };
    const view = (prompt: string): SessionView => ({
      ...live,
      cwd: '/tmp/run-4/rep-70a3/repo/.worktrees/pad',
      prompt,
    });
    expect(
      replay(inWorktree, [], {
        view: view('Use the skill at /tmp/run-4/rep-70a3/skills/tidy: read its SKILL.md first.'),
      }).answer,
    ).toMatchObject({ kind: 'reply' });
    // Planted: a prompt naming another skill was asked something else.
    expect(
      replay(inWorktree, [], {
        view: view('Use the skill at /tmp/run-4/rep-70a3/skills/other: read its SKILL.md first.'),
      }).answer,
    ).toMatchObject({
      message: expect.stringMatching(
        /^replay diverged at turn 1: the session was asked something else/,
      ),
    });
  });

  it('diverges when the session goes on past a recording that ends without a reply', () => {
    const { reply: _reply, ...unfinished } = recorded;
    expect(
      replay({ ...unfinished, reply: undefined }, [
        { text: '     1\t# Notes' },
        { text: '# pass 1\n# duration_ms 1\nok 1 - adds (1ms)' },
      ]).answer,
    ).toMatchObject({ message: expect.stringMatching(/^replay diverged at turn 3: /) });
  });

  it('compares outputs without reminders, trailing white space and timings', () => {
    expect(
      comparable('a  \n<system-reminder>x</system-reminder>b\n\nduration_ms: 3.5 (12ms)\n'),
    ).toBe('a\nb\n\nduration_ms: <ms> (<ms>)');
  });
});

describe('a replay brain', () => {
  it('answers a session it holds no recording of (a rep the results lack, a subagent) with a divergence, never a reply', () => {
    const brain: Brain = { kind: 'replay', name: 'replay', recordingFor: () => undefined };
    const turn = nextBrainTurn(brain, {
      sessionKey: 'red/s1-rep1',
      conversation: { system: 'Working directory: /repo', userMessages: [['Resume the plan.']] },
      history: { exchanges: [], assistantMessages: 0, userReplies: [] },
      offeredTools: new Set(['Bash']),
    });
    expect(turn).toEqual({
      ok: true,
      value: {
        kind: 'done',
        step: 0,
        value: {
          kind: 'failure',
          message:
            "replay diverged at turn 1: there is no recording of session red/s1-rep1 (the recorded run has none it could read, or it is a subagent's, which is not replayed)",
        },
      },
    });
  });
});

describe('recordings read from every transcript format the repository reads', () => {
  const shared = path.resolve(__dirname, '../../../shared/transcripts');
  it('takes the controller calls that ran, with their outputs, from Claude Code stream-json and redgreen transcript.jsonl', () => {
    const lines = [
      {
        type: 'system',
        subtype: 'init',
        cwd: '/r',
        tools: ['Bash'],
        model: 'm',
        engine: 'redgreen-messages (x)',
      },
      {
        type: 'assistant',
        message: {
          id: 'm1',
          content: [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'ls' } }],
        },
      },
      {
        type: 'user',
        message: { content: [{ type: 'tool_result', tool_use_id: 't1', content: 'README.md' }] },
      },
      { type: 'assistant', message: { id: 'm2', content: [{ type: 'text', text: 'Done.' }] } },
      { type: 'result', subtype: 'success', is_error: false, result: 'Done.' },
    ];
    for (const engine of ['redgreen-messages (x)', 'claude-code']) {
      const text = lines
        .map((line) => JSON.stringify(line.type === 'system' ? { ...line, engine } : line))
        .join('\n');
      const read = readSessionTranscript(text, 't.jsonl');
      if (!read.ok) throw new Error(read.error.problem);
      expect(recordingOf(read.value, 't.jsonl')).toMatchObject({
        cwd: '/r',
        calls: [{ name: 'Bash', input: { command: 'ls' }, output: 'README.md', isError: false }],
        reply: 'Done.',
      });
    }
  });

  it('takes them from a Claude Code session log and a Codex rollout, and replays the session log', () => {
    const log = logLines();
    const sessionLog = jsonl([
      log.prompt('Write the notes.'),
      log.call('m1', 'toolu_1', 'Bash', { command: 'git log --oneline' }),
      log.result('toolu_1', 'abc123 add export'),
      log.text('m2', 'Wrote the notes.'),
    ]);
    const read = readSessionTranscript(sessionLog, 'session.jsonl');
    if (!read.ok) throw new Error(read.error.problem);
    const fromLog = recordingOf(read.value, 'session.jsonl');
    expect(fromLog).toMatchObject({
      format: read.value.format,
      cwd: '/home/user/project',
      prompt: 'Write the notes.',
      calls: [
        { name: 'Bash', input: { command: 'git log --oneline' }, output: 'abc123 add export' },
      ],
      reply: 'Wrote the notes.',
    });
    const view = { ...live, prompt: 'Write the notes.', cwd: '/tmp/run-B/rep-1/repo' };
    expect(replay(fromLog, [{ text: 'abc123 add export' }], { view }).answer).toEqual({
      kind: 'reply',
      text: 'Wrote the notes.',
    });
    expect(replay(fromLog, [{ text: 'def456 other' }], { view }).answer).toMatchObject({
      message: expect.stringMatching(/^replay diverged at turn 1: Bash git log --oneline /),
    });

    // A Codex rollout's shell calls read as Bash; its outputs are Codex's own (replayed
    // where Codex answers them).
    const codex = jsonl([
      rollout('session_meta', {
        id: 'r1',
        session_id: 'r1',
        source: 'exec',
        cli_version: '0.169.0',
        cwd: '/repo',
      }),
      rollout('turn_context', { model: 'gpt-5.5' }),
      rollout('response_item', {
        type: 'message',
        role: 'user',
        content: [{ type: 'input_text', text: 'List it.' }],
      }),
      rollout('response_item', {
        type: 'function_call',
        call_id: 'c1',
        name: 'exec_command',
        arguments: JSON.stringify({ cmd: 'ls' }),
      }),
      rollout('response_item', {
        type: 'function_call_output',
        call_id: 'c1',
        output: 'Process exited with code 0\nOutput:\nREADME.md',
      }),
      rollout('response_item', {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'output_text', text: 'Listed.' }],
      }),
      rollout('event_msg', { type: 'task_complete', last_agent_message: 'Listed.' }),
    ]);
    const rolloutRead = readSessionTranscript(codex, 'rollout.jsonl');
    if (!rolloutRead.ok) throw new Error(rolloutRead.error.problem);
    expect(recordingOf(rolloutRead.value, 'rollout.jsonl')).toMatchObject({
      cwd: '/repo',
      calls: [{ name: 'Bash', input: { command: 'ls' }, isError: false }],
      reply: 'Listed.',
    });
  });

  it('reads real Claude Code stream-json sessions from the shared transcripts, when present', (context) => {
    const files = ['sj-gleisner-edit-test.jsonl', 'sj-gleisner-parallel-tools.jsonl'].map((name) =>
      path.join(shared, name),
    );
    if (!files.every((file) => existsSync(file))) {
      console.log('skipped: ../shared/transcripts is absent (a user checkout has none)');
      context.skip();
      return;
    }
    for (const file of files) {
      const read = readSessionTranscript(readFileSync(file, 'utf8'), file);
      if (!read.ok) throw new Error(read.error.problem);
      const recording = recordingOf(read.value, file);
      const controllerCalls = read.value.toolCalls.filter((call) => !call.parentToolUseId);
      expect(recording.calls.length).toBe(controllerCalls.length);
      expect(recording.calls.length).toBeGreaterThan(0);
      expect(recording.reply).toBe(read.value.reply);
    }
  });
});
