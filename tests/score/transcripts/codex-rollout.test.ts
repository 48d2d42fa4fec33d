/**
 * Codex CLI rollouts, in the shapes a headless `codex exec` writes (measured
 * offline, ../shared/CODEX-OFFLINE.md): a root thread that runs shell
 * commands, spawns a worker thread (multi_agent_v1.spawn_agent), waits, and
 * sends it a second round (send_input: a resume); the worker's own rollout.
 * Read together they are one session with one seat; the root alone leaves
 * the seat's calls unknown (checks on them undecided; planted: decided with
 * the worker's rollout); the worker alone is a seat with no controller.
 * And the shell commands a code-mode `exec` script runs.
 */
import { describe, expect, it } from 'vitest';
import { skillInvocations } from '../../../harness/score/skill-invocations.js';
import { codeModeCommands } from '../../../harness/score/transcripts/codex-code-mode.js';
import { readCodexRollouts } from '../../../harness/score/transcripts/codex-rollout.js';
import { readSessionTranscript } from '../../../harness/score/transcripts/read-transcript.js';
import type { SessionTranscript } from '../../../harness/score/transcripts/session-transcript.js';
import { check } from '../verb-support.js';
import { evidenceOf, jsonl, rollout } from './support.js';

const ROOT = '019f713c-728b-7d72-8314-813e96450f52';
const CHILD = '019f713d-a26a-7520-87c7-bd499a71f76f';

const shellOutput = (code: number, output: string) =>
  `Chunk ID: d4eb92\nWall time: 0.0000 seconds\nProcess exited with code ${code}\nOriginal token count: 7\nOutput:\n${output}`;

const call = (callId: string, name: string, args: Record<string, unknown>, namespace?: string) =>
  rollout('response_item', {
    type: 'function_call',
    call_id: callId,
    name,
    arguments: JSON.stringify(args),
    ...(namespace === undefined ? {} : { namespace }),
  });
const output = (callId: string, text: string) =>
  rollout('response_item', { type: 'function_call_output', call_id: callId, output: text });
const message = (role: string, text: string) =>
  rollout('response_item', {
    type: 'message',
    role,
    content: [{ type: role === 'assistant' ? 'output_text' : 'input_text', text }],
  });

const rootRollout = [
  rollout('session_meta', {
    id: ROOT,
    session_id: ROOT,
    source: 'exec',
    cli_version: '0.169.0',
    cwd: '/repo',
  }),
  rollout('turn_context', { model: 'gpt-5.5' }),
  message('user', '<environment_context>\n  <cwd>/repo</cwd>\n</environment_context>'),
  message('user', 'Execute the plan in docs/plans/p.md.'),
  call('call_ls', 'exec_command', { cmd: 'ls -la' }),
  output('call_ls', shellOutput(0, 'README.md')),
  call(
    'call_spawn',
    'spawn_agent',
    { message: 'CHILD TASK: You are implementing Task 1. Read .superpowers/sdd/task-1-brief.md.' },
    'multi_agent_v1',
  ),
  output('call_spawn', JSON.stringify({ agent_id: CHILD, nickname: 'Ampere' })),
  call('call_wait', 'wait_agent', { targets: [CHILD] }, 'multi_agent_v1'),
  output('call_wait', JSON.stringify({ status: { [CHILD]: { completed: 'CHILD REPORT' } } })),
  call(
    'call_send',
    'send_input',
    { target: CHILD, message: 'CHILD TASK round 2: fix it.' },
    'multi_agent_v1',
  ),
  output('call_send', JSON.stringify({ submission_id: 's1' })),
  rollout('response_item', {
    type: 'custom_tool_call',
    call_id: 'call_patch',
    name: 'apply_patch',
    input: '*** Begin Patch\n*** Add File: ledger.md\n+Task 1: complete\n*** End Patch\n',
  }),
  rollout('response_item', {
    type: 'custom_tool_call_output',
    call_id: 'call_patch',
    output: 'Exit code: 0',
  }),
  message('assistant', 'All done.'),
  rollout('event_msg', { type: 'task_complete', last_agent_message: 'All done.' }),
];

const childRollout = [
  rollout('session_meta', {
    id: CHILD,
    session_id: ROOT,
    parent_thread_id: ROOT,
    source: {
      subagent: {
        thread_spawn: {
          parent_thread_id: ROOT,
          depth: 1,
          agent_nickname: 'Ampere',
          agent_role: 'worker',
        },
      },
    },
    thread_source: 'subagent',
  }),
  rollout('turn_context', { model: 'gpt-5.5-mini' }),
  message('user', 'CHILD TASK: You are implementing Task 1.'),
  call('c_skill', 'exec_command', {
    cmd: "sed -n '1,200p' .agents/skills/test-driven-development/SKILL.md",
  }),
  output('c_skill', shellOutput(0, '# TDD')),
  call('c_fail', 'exec_command', { cmd: 'npm test' }),
  output('c_fail', shellOutput(3, 'not ok 1')),
  message('assistant', 'CHILD REPORT'),
  rollout('event_msg', { type: 'task_complete', last_agent_message: 'CHILD REPORT' }),
];

function read(...files: (readonly Record<string, unknown>[])[]): SessionTranscript {
  const result = readCodexRollouts(
    files.map((lines, index) => ({ name: `rollout-${index}.jsonl`, text: jsonl(lines) })),
  );
  if (!result.ok) throw new Error(result.error.problem);
  return result.value;
}

const noSubagentShell = { verb: 'tool-not-called', tool: 'Bash', seat: 'subagent', runs: 'npm' };

describe('a Codex root thread and the thread it spawned', () => {
  it('read together: Claude Code names, the spawn a dispatch, send_input a resume, the worker’s calls its seat’s', () => {
    const transcript = read(rootRollout, childRollout);
    expect(transcript.format).toBe('codex-rollout');
    expect(
      transcript.toolCalls.map((one) => [one.name, one.recordedAs, one.parentToolUseId]),
    ).toEqual([
      ['Bash', 'exec_command', null],
      ['Agent', 'multi_agent_v1.spawn_agent', null],
      ['Bash', 'exec_command', 'call_spawn'],
      ['Bash', 'exec_command', 'call_spawn'],
      ['wait_agent', undefined, null],
      ['SendMessage', 'multi_agent_v1.send_input', null],
      ['apply_patch', undefined, null],
    ]);
    expect(transcript.toolCalls[0]?.input).toMatchObject({ command: 'ls -la' });
    expect(transcript.toolCalls.find((one) => one.id === 'c_fail')?.isError).toBe(true);
    expect(transcript.toolCalls.find((one) => one.id === 'c_skill')?.isError).toBeUndefined();
    expect(transcript.seats).toEqual([
      expect.objectContaining({
        dispatch: 'call_spawn',
        agentId: CHILD,
        subagentType: 'worker',
        modelUsed: 'gpt-5.5-mini',
        resumes: ['call_send'],
        toolCalls: 2,
      }),
    ]);
    expect(transcript).toMatchObject({
      model: 'gpt-5.5',
      models: ['gpt-5.5', 'gpt-5.5-mini'],
      prompt: 'Execute the plan in docs/plans/p.md.',
      cwd: '/repo',
      reply: 'All done.',
      ending: { kind: 'completed' },
      controllerRecorded: true,
    });
    const evidence = evidenceOf(transcript);
    expect(check(noSubagentShell, evidence).outcome).toBe('fail');
    expect(
      check({ verb: 'dispatch', select: { which: 'last' }, kind: 'resume' }, evidence).outcome,
    ).toBe('pass');
    expect(evidence.transcript?.dispatches.map((one) => [one.kind, one.agentId])).toEqual([
      ['fresh', CHILD],
      ['resume', CHILD],
    ]);
    expect(
      skillInvocations(transcript.toolCalls).map((one) => [one.name, one.form, one.seat]),
    ).toEqual([['test-driven-development', 'shell', 'subagent']]);
  });

  it('the root alone: the seat is there, its calls are not, so a check about them is undecided', () => {
    const transcript = read(rootRollout);
    expect(transcript.seats).toEqual([
      expect.objectContaining({
        dispatch: 'call_spawn',
        toolCalls: null,
        unknownWhy: `its thread's rollout (${CHILD}) was not given`,
      }),
    ]);
    expect(check(noSubagentShell, evidenceOf(transcript)).outcome).toBe('undecided');
    expect(
      check(
        { verb: 'tool-not-called', tool: 'Bash', seat: 'controller', runs: 'npm' },
        evidenceOf(transcript),
      ).outcome,
    ).toBe('pass');
  });

  it('the worker alone: a seat of its own, and the controller’s calls unknown', () => {
    const transcript = read(childRollout);
    expect(transcript.controllerRecorded).toBe(false);
    expect(transcript.model).toBeUndefined();
    expect(transcript.seats.map((seat) => [seat.dispatch, seat.toolCalls])).toEqual([
      [`thread:${CHILD}`, 2],
    ]);
    expect(
      check({ verb: 'tool-not-called', tool: 'Bash', seat: 'controller' }, evidenceOf(transcript))
        .outcome,
    ).toBe('undecided');
  });

  it('refuses two root threads, and a thread of another session, naming the file', () => {
    const other = rootRollout.map((line) =>
      line.type === 'session_meta'
        ? rollout('session_meta', { id: 'other', session_id: 'other', source: 'exec' })
        : line,
    );
    const two = readCodexRollouts([
      { name: 'a.jsonl', text: jsonl(rootRollout) },
      { name: 'b.jsonl', text: jsonl(other) },
    ]);
    expect(two.ok || two.error).toMatchObject({
      input: 'b.jsonl',
      problem: expect.stringMatching(/another Codex session/),
    });
  });

  it('ends complete with task_complete; an aborted turn, or a rollout cut before it, did not finish', () => {
    expect(read(rootRollout).ending.kind).toBe('completed');
    expect(read(rootRollout.slice(0, -1)).ending).toMatchObject({
      kind: 'indeterminate',
      reason: expect.stringMatching(/ends before task_complete/),
    });
    expect(
      read([
        ...rootRollout.slice(0, -1),
        rollout('event_msg', { type: 'turn_aborted', reason: 'interrupted' }),
      ]).ending,
    ).toMatchObject({ reason: 'the rollout records the turn as aborted' });
  });

  it('passes over the context and usage lines Codex 0.169 writes; a line type it does not know is still listed', () => {
    const withContext = [
      ...rootRollout.slice(0, 2),
      rollout('world_state', { full: true, state: { agents_md: {} } }),
      rollout('token_usage_record', { thread_id: ROOT, session_id: ROOT }),
      ...rootRollout.slice(2),
    ];
    expect(read(withContext).malformed).toEqual(read(rootRollout).malformed);
    expect(
      read([...rootRollout, rollout('thread_digest', { thread_id: ROOT })]).malformed,
    ).toContainEqual(expect.objectContaining({ problem: expect.stringMatching(/thread_digest/) }));
  });

  it('is recognised from its envelope, and never read as another format', () => {
    const read_ = readSessionTranscript(jsonl(rootRollout), 'rollout.jsonl');
    expect(read_.ok && read_.value.format).toBe('codex-rollout');
  });
});

describe('the shell commands of a code-mode exec script', () => {
  it('reads string literals, template literals over constants, and constants by name', () => {
    expect(
      codeModeCommands(
        [
          'const r = await tools.exec_command({cmd:"sed -n \'1,240p\' a.md && printf \'\\\\n--- x ---\\\\n\'", workdir:"/w"});',
          "const p = '/skills/tdd/SKILL.md';",
          // biome-ignore lint/suspicious/noTemplateCurlyInString: a script's template literal, as data
          "const q = await tools.exec_command({ cmd: `sed -n '1,320p' '${p}'`, yield_time_ms: 10000 });",
          'const c = "git status";',
          '// tools.exec_command({cmd: "not run"})',
          'await tools.exec_command({cmd: c});',
          'text(r.output);',
        ].join('\n'),
      ),
    ).toEqual({
      commands: [
        "sed -n '1,240p' a.md && printf '\\n--- x ---\\n'",
        "sed -n '1,320p' '/skills/tdd/SKILL.md'",
        'git status',
      ],
      unread: 0,
    });
  });

  it('counts a command the script computes as unread, never guessed', () => {
    expect(codeModeCommands('await tools.exec_command({cmd: parts.join(" ")});')).toEqual({
      commands: [],
      unread: 1,
    });
    expect(codeModeCommands('await tools.exec_command({cmd: "ls " + dir});')).toEqual({
      commands: [],
      unread: 1,
    });
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a script's template literal, as data
    expect(codeModeCommands('await tools.exec_command({cmd: `ls ${dir}`});')).toEqual({
      commands: [],
      unread: 1,
    });
  });

  it('an exec script that runs shell commands is a Bash call with them; one that runs none keeps its name', () => {
    const script = (input: string) =>
      read([
        rollout('session_meta', { id: ROOT, source: 'exec' }),
        rollout('response_item', { type: 'custom_tool_call', call_id: 'x', name: 'exec', input }),
      ]).toolCalls[0];
    expect(script('await tools.exec_command({cmd: "cat SKILL.md"});')).toMatchObject({
      name: 'Bash',
      recordedAs: 'exec',
      input: { command: 'cat SKILL.md' },
    });
    expect(script('await tools.update_plan({plan: []});')).toMatchObject({ name: 'exec' });
  });
});
