/**
 * Detection is positive: a file is read as format X only when its content
 * shows X. Cursor CLI stream-json (a Claude-like envelope whose tool calls
 * are `tool_call` events) is read as Cursor's, so a "no Bash" check fails on
 * the shell commands it ran (it passed, on 0 calls, when it was read as
 * Claude's); a session log is never read as stream-json; a file showing two
 * formats' lines, or none, is refused. And the size limit of a file read
 * because another names it.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRegularFileInside } from '../../../harness/lib/regular-file.js';
import { readSessionTranscript } from '../../../harness/score/transcripts/read-transcript.js';
import { makeTempDir } from '../../helpers/temp-dir.js';
import { check } from '../verb-support.js';
import { evidenceOf, jsonl, logLines } from './support.js';

const cursor = [
  { type: 'system', subtype: 'init', apiKeySource: 'login', session_id: 'c1', model: 'Auto' },
  {
    type: 'user',
    message: { role: 'user', content: [{ type: 'text', text: 'Run sleep 1.' }] },
    session_id: 'c1',
  },
  {
    type: 'tool_call',
    subtype: 'started',
    call_id: 'call_1',
    tool_call: { shellToolCall: { args: { command: 'sleep 1' } } },
    session_id: 'c1',
  },
  {
    type: 'tool_call',
    subtype: 'completed',
    call_id: 'call_1',
    tool_call: {
      shellToolCall: {
        args: { command: 'sleep 1' },
        result: { success: { command: 'sleep 1', exitCode: 0, stdout: '', stderr: '' } },
      },
    },
    session_id: 'c1',
  },
  {
    type: 'tool_call',
    subtype: 'started',
    call_id: 'call_2',
    tool_call: { readToolCall: { args: { path: 'README.md' } } },
    session_id: 'c1',
  },
  {
    type: 'assistant',
    message: { role: 'assistant', content: [{ type: 'text', text: 'done' }] },
    session_id: 'c1',
  },
  {
    type: 'result',
    subtype: 'success',
    is_error: false,
    result: 'Running it.done',
    session_id: 'c1',
  },
];

const read = (text: string) => readSessionTranscript(text, 'session.jsonl');

describe('positive detection', () => {
  it('reads Cursor stream-json as Cursor’s: its shell command a Bash call, so "no Bash" fails (was a pass on 0 calls)', () => {
    const result = read(jsonl(cursor));
    if (!result.ok) throw new Error(result.error.problem);
    expect(result.value.format).toBe('cursor-stream-json');
    expect(result.value.toolCalls.map((call) => [call.name, call.recordedAs, call.input])).toEqual([
      ['Bash', 'shellToolCall', { command: 'sleep 1' }],
      ['Read', 'readToolCall', { path: 'README.md', file_path: 'README.md' }],
    ]);
    expect(result.value.reply).toBe('done');
    const noBash = check({ verb: 'tool-not-called', tool: 'Bash' }, evidenceOf(result.value));
    expect(noBash.outcome).toBe('fail');
    // Planted: without its shell call the same check passes.
    const quiet = read(jsonl(cursor.filter((line) => line.call_id !== 'call_1')));
    if (!quiet.ok) throw new Error(quiet.error.problem);
    expect(check({ verb: 'tool-not-called', tool: 'Bash' }, evidenceOf(quiet.value)).outcome).toBe(
      'pass',
    );
  });

  it('reads stream-json without an init line by its envelope, the model from its first reply', () => {
    const result = read(
      jsonl([
        {
          type: 'assistant',
          parent_tool_use_id: null,
          message: { id: 'm1', model: 'claude-opus-4-6', content: [{ type: 'text', text: 'hi' }] },
        },
        { type: 'result', subtype: 'success', is_error: false, result: 'hi' },
      ]),
    );
    expect(result.ok && [result.value.format, result.value.model]).toEqual([
      'claude-code-stream-json',
      'claude-opus-4-6',
    ]);
  });

  it('reads a session log as one, whatever stream-json-like lines it holds', () => {
    const main = logLines();
    const result = read(jsonl([main.prompt('hi'), main.text('m1', 'hello')]));
    expect(result.ok && result.value.format).toBe('claude-code-session');
  });

  it('refuses a file showing two formats’ lines, naming both', () => {
    const main = logLines();
    const mixed = jsonl([
      main.prompt('hi'),
      {
        type: 'assistant',
        parent_tool_use_id: null,
        message: { content: [{ type: 'text', text: 'x' }] },
      },
      cursor[2] as Record<string, unknown>,
    ]);
    const result = read(mixed);
    expect(result.ok || result.error.problem).toBe(
      "shows lines of 3 formats (Claude Code stream-json or redgreen's transcript.jsonl; Claude Code session log; Cursor CLI stream-json), so it is read as none of them",
    );
  });

  it('refuses messages without any format’s envelope rather than guess one', () => {
    const bare = jsonl([
      { type: 'user', message: { content: 'hi' } },
      {
        type: 'assistant',
        message: { content: [{ type: 'tool_use', id: 't', name: 'Bash', input: {} }] },
      },
    ]);
    const result = read(bare);
    expect(result.ok || result.error.problem).toBe('is in no transcript format redgreen reads');
  });
});

describe('a file read because another names it', () => {
  it('is read up to its limit, and refused above it, with its size', async () => {
    const dir = makeTempDir();
    writeFileSync(path.join(dir, 'small.json'), '{}');
    writeFileSync(path.join(dir, 'big.json'), 'x'.repeat(2 * 1024 * 1024 + 1));
    expect(await readRegularFileInside(dir, path.join(dir, 'small.json'), 1024)).toEqual({
      ok: true,
      value: '{}',
    });
    expect(await readRegularFileInside(dir, path.join(dir, 'big.json'), 2 * 1024 * 1024)).toEqual({
      ok: false,
      error: 'is larger than 2 MiB (2097153 bytes)',
    });
  });
});
