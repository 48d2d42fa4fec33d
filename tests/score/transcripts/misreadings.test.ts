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
