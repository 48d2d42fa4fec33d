import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  readTranscript,
  readTranscriptFile,
} from '../../harness/score/transcripts/claude-messages.js';
import { makeTempDir } from '../helpers/temp-dir.js';

const session = 'a1b2c3d4-0000-4000-8000-000000000001';

function line(value: unknown): string {
  return JSON.stringify(value);
}

function assistant(messageId: string, content: unknown[], parent: string | null = null): string {
  return line({
    type: 'assistant',
    message: {
      id: messageId,
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-5-5',
      content,
      stop_reason: null,
      usage: { input_tokens: 1, output_tokens: 1 },
    },
    parent_tool_use_id: parent,
    uuid: `${messageId}-${content.length}`,
    session_id: session,
  });
}

function toolResult(
  toolUseId: string,
  content: unknown,
  isError = false,
  parent: string | null = null,
): string {
  return line({
    type: 'user',
    message: {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: toolUseId, content, is_error: isError }],
    },
    parent_tool_use_id: parent,
    uuid: `r-${toolUseId}`,
    session_id: session,
    tool_use_result: { stdout: 'structured output is ignored' },
  });
}

const REPLY =
  '1. LEDGERS CHECKED: none\n2. TASKS ALREADY COMPLETE: None\n3. FIRST DISPATCH: Task 1';

function realisticTranscript(): string {
  return [
    line({
      type: 'system',
      subtype: 'init',
      model: 'claude-sonnet-5-5',
      claude_code_version: '2.1.332',
      tools: ['Bash', 'Read'],
      cwd: '/tmp/fixture',
      session_id: session,
      uuid: 'i',
    }),
    // One API turn streamed as two assistant messages sharing message.id.
    assistant('msg_1', [{ type: 'text', text: 'Re-reading the skill.' }]),
    assistant('msg_1', [
      { type: 'tool_use', id: 'toolu_1', name: 'Read', input: { file_path: '/skill/SKILL.md' } },
    ]),
    toolResult('toolu_1', [{ type: 'text', text: '# SDD skill' }]),
    assistant('msg_2', [
      { type: 'tool_use', id: 'toolu_2', name: 'Bash', input: { command: 'git log --oneline' } },
    ]),
    // The same block printed again (a replayed message) must not count twice.
    assistant('msg_2', [
      { type: 'tool_use', id: 'toolu_2', name: 'Bash', input: { command: 'git log --oneline' } },
    ]),
    toolResult('toolu_2', 'a50306e docs: follow-up plan'),
    assistant('msg_3', [
      { type: 'tool_use', id: 'toolu_3', name: 'Bash', input: { command: 'cat missing' } },
    ]),
    toolResult('toolu_3', 'cat: missing: No such file or directory', true),
    line({ type: 'system', subtype: 'api_retry', attempt: 1, session_id: session, uuid: 'r1' }),
    line({ type: 'rate_limit_event', session_id: session, uuid: 'x' }),
    assistant('msg_4', [
      {
        type: 'tool_use',
        id: 'toolu_4',
        name: 'Task',
        input: { description: 'implement', prompt: 'go', subagent_type: 'general-purpose' },
      },
    ]),
    assistant(
      'msg_sub',
      [{ type: 'tool_use', id: 'toolu_sub_1', name: 'Bash', input: { command: 'ls' } }],
      'toolu_4',
    ),
    assistant('msg_sub', [{ type: 'text', text: 'subagent chatter is not the reply' }], 'toolu_4'),
    toolResult('toolu_sub_1', 'src', false, 'toolu_4'),
    toolResult('toolu_4', [{ type: 'text', text: 'done' }]),
    assistant('msg_5', [{ type: 'text', text: REPLY }]),
    line({
      type: 'result',
      subtype: 'success',
      is_error: false,
      num_turns: 6,
      result: REPLY,
      duration_ms: 900,
      duration_api_ms: 800,
      total_cost_usd: 0.01,
      usage: {},
      modelUsage: {},
      permission_denials: [],
      session_id: session,
      uuid: 'z',
      terminal_reason: 'completed',
    }),
  ].join('\n');
}

describe('readTranscript', () => {
  it('collects tool calls once each, with outputs, errors and subagent parents', () => {
    const read = readTranscript(realisticTranscript());
    expect(read.toolCalls).toEqual([
      {
        id: 'toolu_1',
        name: 'Read',
        input: { file_path: '/skill/SKILL.md' },
        parentToolUseId: null,
        model: 'claude-sonnet-5-5',
        output: '# SDD skill',
        isError: false,
      },
      {
        id: 'toolu_2',
        name: 'Bash',
        input: { command: 'git log --oneline' },
        parentToolUseId: null,
        model: 'claude-sonnet-5-5',
        output: 'a50306e docs: follow-up plan',
        isError: false,
      },
      {
        id: 'toolu_3',
        name: 'Bash',
        input: { command: 'cat missing' },
        parentToolUseId: null,
        model: 'claude-sonnet-5-5',
        output: 'cat: missing: No such file or directory',
        isError: true,
      },
      {
        id: 'toolu_4',
        name: 'Task',
        input: { description: 'implement', prompt: 'go', subagent_type: 'general-purpose' },
        parentToolUseId: null,
        model: 'claude-sonnet-5-5',
        output: 'done',
        isError: false,
      },
      {
        id: 'toolu_sub_1',
        name: 'Bash',
        input: { command: 'ls' },
        parentToolUseId: 'toolu_4',
        model: 'claude-sonnet-5-5',
        output: 'src',
        isError: false,
      },
    ]);
    expect(read.counts).toEqual({
      toolUses: 4,
      subagentToolUses: 1,
      subagentDispatches: 1,
      ignoredLines: 1,
    });
    expect(read.malformed).toEqual([]);
  });

  it('takes the reply from the result message, and reports the session facts', () => {
    const read = readTranscript(realisticTranscript());
    expect(read.reply).toBe(REPLY);
    expect(read.result).toEqual({
      subtype: 'success',
      isError: false,
      numTurns: 6,
      terminalReason: 'completed',
    });
    expect(read.model).toBe('claude-sonnet-5-5');
    expect(read.claudeCodeVersion).toBe('2.1.332');
  });

  it('falls back to the last main-session assistant text when there is no result', () => {
    const text = realisticTranscript().split('\n').slice(0, -1).join('\n');
    expect(readTranscript(text).reply).toBe(REPLY);
  });

  it('does not take an error result’s text as the reply', () => {
    const lines = realisticTranscript().split('\n').slice(0, -2);
    lines.push(
      assistant('msg_6', [
        { type: 'text', text: 'partial' },
        { type: 'text', text: 'thoughts' },
      ]),
    );
    lines.push(
      line({
        type: 'result',
        subtype: 'error_max_turns',
        is_error: true,
        num_turns: 40,
        session_id: session,
        uuid: 'z',
      }),
    );
    const read = readTranscript(lines.join('\n'));
    expect(read.reply).toBe('partial\n\nthoughts');
    expect(read.result?.subtype).toBe('error_max_turns');
  });

  it('never takes the text a Skill call loaded (the engine’s isSynthetic message) for the prompt or the reply', () => {
    const skillText =
      'Base directory for this skill: /p/skills/tdd\n\nWrite the failing test first.';
    const lines = [
      line({ type: 'system', subtype: 'init', model: 'm', cwd: '/repo', session_id: session }),
      assistant('m1', [{ type: 'tool_use', id: 's1', name: 'Skill', input: { skill: 'lib:tdd' } }]),
      toolResult('s1', 'Launching skill: lib:tdd'),
      line({
        type: 'user',
        message: { role: 'user', content: [{ type: 'text', text: skillText }] },
        parent_tool_use_id: null,
        isSynthetic: true,
        session_id: session,
      }),
    ];
    // The engine's stream has no prompt line: the loaded text is the first user text it holds.
    const read = readTranscript(lines.join('\n'));
    expect(read.prompt).toBeUndefined();
    expect(read.reply).toBeUndefined();
    expect(read.cwd).toBe('/repo');
    const replied = readTranscript(
      [...lines, assistant('m2', [{ type: 'text', text: 'Done.' }])].join('\n'),
    );
    expect(replied.reply).toBe('Done.');
    // Planted: the same message without the mark is (wrongly, for a loaded skill) the prompt.
    const unmarked = readTranscript(lines.join('\n').replace('"isSynthetic":true,', ''));
    expect(unmarked.prompt).toContain('Write the failing test first');
  });

  it('has no reply when the session said nothing', () => {
    expect(readTranscript(line({ type: 'system', subtype: 'init' })).reply).toBeUndefined();
  });

  it('reports malformed lines with their numbers and keeps reading', () => {
    const text = [
      'not json at all',
      line({ kind: 'no type here' }),
      line({ type: 'assistant', parent_tool_use_id: null }),
      assistant('msg_1', [{ type: 'tool_use', name: 'Bash', input: {} }]),
      toolResult('toolu_9', 'fine'),
      assistant('msg_2', [
        { type: 'tool_use', id: 'toolu_9', name: 'Bash', input: { command: 'pwd' } },
      ]),
      '{"type":"result","subtype":"succ', // a trailing partial line from a crash
    ].join('\n');
    const read = readTranscript(text);
    expect(read.malformed.map((entry) => entry.line)).toEqual([1, 2, 3, 4, 7]);
    expect(read.malformed[2]?.problem).toMatch(/^assistant message: message/);
    expect(read.malformed[3]?.problem).toMatch(/^assistant tool_use block 0: id/);
    expect(read.toolCalls).toEqual([
      {
        id: 'toolu_9',
        name: 'Bash',
        input: { command: 'pwd' },
        parentToolUseId: null,
        model: 'claude-sonnet-5-5',
        output: 'fine',
        isError: false,
      },
    ]);
  });

  it('accepts string and empty user content and blank lines', () => {
    const text = [
      '',
      line({
        type: 'user',
        message: { role: 'user', content: 'the prompt' },
        parent_tool_use_id: null,
      }),
      '   ',
    ].join('\n');
    const read = readTranscript(text);
    expect(read.malformed).toEqual([]);
    expect(read.toolCalls).toEqual([]);
  });
});

describe('readTranscriptFile', () => {
  it('reads a transcript.jsonl from disk', async () => {
    const dir = makeTempDir();
    const file = path.join(dir, 'transcript.jsonl');
    writeFileSync(file, `${realisticTranscript()}\n`);
    const read = await readTranscriptFile(file);
    expect(read.ok && read.value.counts.toolUses).toBe(4);
  });

  it('returns an input error for a missing file', async () => {
    const read = await readTranscriptFile(path.join(makeTempDir(), 'nope.jsonl'));
    expect(read.ok).toBe(false);
    if (!read.ok) expect(read.error.problem).toBe('no such transcript');
  });
});
