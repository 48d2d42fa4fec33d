/**
 * ATIF v1.5 to v1.7 as other harnesses write them (the real v1.7 file is in
 * ../shared/transcripts/): messages as content parts, agent steps without a
 * message, no session_id, a subagent trajectory embedded in the document
 * and linked by trajectory_id, and `use_skill` as a Skill call. And the
 * linked files of an ATIF document, which are untrusted: only relative
 * paths inside the transcript's directory, regular files (a FIFO would hang
 * the read), at most the size limit; each refusal leaves that seat's calls
 * unknown and names the file, never hangs, never reads elsewhere.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSessionTranscript } from '../../../harness/score/transcripts/read-transcript.js';
import type { SessionTranscript } from '../../../harness/score/transcripts/session-transcript.js';
import { readTranscriptInputs } from '../../../harness/score/transcripts/transcript-input.js';
import { makeTempDir } from '../../helpers/temp-dir.js';
import { check } from '../verb-support.js';
import { evidenceOf } from './support.js';

const subagent = {
  schema_version: 'ATIF-v1.7',
  trajectory_id: 'sub-1',
  agent: { name: 'harness/worker', model_name: 'claude-haiku-4-5' },
  steps: [
    { step_id: 1, source: 'user', message: [{ type: 'text', text: 'Implement Task 1.' }] },
    {
      step_id: 2,
      source: 'agent',
      tool_calls: [
        { tool_call_id: 'w1', function_name: 'Bash', arguments: { command: 'npm test' } },
      ],
      observation: { results: [{ source_call_id: 'w1', content: [{ type: 'text', text: 'ok' }] }] },
    },
    { step_id: 3, source: 'agent', message: 'Implemented.' },
  ],
};

function controller(ref: Record<string, unknown>, version = 'ATIF-v1.7') {
  return {
    schema_version: version,
    agent: { name: 'harness', model_name: 'claude-sonnet-4-6' },
    steps: [
      { step_id: 1, source: 'user', message: [{ type: 'text', text: 'Build the widget.' }] },
      {
        step_id: 2,
        source: 'agent',
        tool_calls: [
          {
            tool_call_id: 's1',
            function_name: 'use_skill',
            arguments: { skill_name: 'superpowers:brainstorming', purpose: 'design first' },
          },
        ],
        observation: {
          results: [{ source_call_id: 's1', content: 'Skill: superpowers:brainstorming' }],
        },
      },
      {
        step_id: 3,
        source: 'agent',
        message: null,
        tool_calls: [
          {
            tool_call_id: 'd1',
            function_name: 'Agent',
            arguments: { description: 'Implement Task 1', prompt: 'Implement Task 1.' },
          },
        ],
        observation: {
          results: [{ source_call_id: 'd1', content: 'done', subagent_trajectory_ref: [ref] }],
        },
      },
      { step_id: 4, source: 'agent', message: [{ type: 'text', text: 'Built.' }] },
    ],
  };
}

function read(document: unknown, linked: Record<string, string> = {}): SessionTranscript {
  const result = readSessionTranscript(JSON.stringify(document), 'trajectory.json', {
    linked: new Map(Object.entries(linked).map(([file, text]) => [file, { text }])),
  });
  if (!result.ok) throw new Error(result.error.problem);
  return result.value;
}

describe('ATIF v1.5 to v1.7', () => {
  it('reads content-part messages, agent steps without one, an embedded subagent by trajectory_id, use_skill as Skill', () => {
    const transcript = read({
      ...controller({ trajectory_id: 'sub-1' }),
      subagent_trajectories: [subagent],
    });
    expect(transcript.format).toBe('atif-1.7');
    expect(transcript.toolCalls.map((call) => [call.id, call.name, call.parentToolUseId])).toEqual([
      ['s1', 'Skill', null],
      ['d1', 'Agent', null],
      ['w1', 'Bash', 'd1'],
    ]);
    expect(transcript.toolCalls[0]).toMatchObject({
      input: { skill: 'superpowers:brainstorming' },
      recordedAs: 'use_skill',
    });
    expect(transcript.toolCalls[2]?.output).toBe('ok');
    expect(transcript).toMatchObject({
      prompt: 'Build the widget.',
      reply: 'Built.',
      model: 'claude-sonnet-4-6',
      models: ['claude-sonnet-4-6', 'claude-haiku-4-5'],
      ending: { kind: 'completed' },
    });
    expect(transcript.seats).toEqual([
      expect.objectContaining({ dispatch: 'd1', toolCalls: 1, modelUsed: 'claude-haiku-4-5' }),
    ]);
  });

  it.each(['ATIF-v1.5', 'ATIF-v1.6'])(
    'reads %s, and names the version in its format',
    (version) => {
      const transcript = read({
        ...controller({ trajectory_id: 'none' }, version),
        session_id: 's',
      });
      expect(transcript.format).toBe(`atif-1.${version.slice(-1)}`);
      expect(transcript.toolCalls).toHaveLength(2);
    },
  );

  it('a subagent neither embedded nor linked to a file: its calls are unknown, its checks undecided', () => {
    const transcript = read(controller({ trajectory_id: 'sub-9' }));
    expect(transcript.seats[0]).toMatchObject({
      toolCalls: null,
      unknownWhy: 'subagent trajectory sub-9 is neither embedded nor linked to a file',
    });
    const evidence = evidenceOf(transcript);
    expect(
      check({ verb: 'tool-not-called', tool: 'Bash', seat: 'subagent' }, evidence).outcome,
    ).toBe('undecided');
    // Planted: with it embedded, the same check decides.
    const whole = evidenceOf(
      read({ ...controller({ trajectory_id: 'sub-1' }), subagent_trajectories: [subagent] }),
    );
    expect(check({ verb: 'tool-not-called', tool: 'Bash', seat: 'subagent' }, whole).outcome).toBe(
      'fail',
    );
  });
});

describe('an ATIF document’s linked files', () => {
  async function readFile(dir: string, link: string): Promise<SessionTranscript> {
    const file = path.join(dir, 'trajectory.json');
    writeFileSync(file, JSON.stringify(controller({ trajectory_path: link })));
    const result = await readTranscriptInputs([file]);
    if (!result.ok) throw new Error(result.error.problem);
    return result.value;
  }
  const why = async (dir: string, link: string) => (await readFile(dir, link)).seats[0]?.unknownWhy;

  it('reads a linked trajectory inside the transcript’s directory', async () => {
    const dir = makeTempDir();
    mkdirSync(path.join(dir, 'subs'));
    writeFileSync(path.join(dir, 'subs', 'sub-1.json'), JSON.stringify(subagent));
    const transcript = await readFile(dir, 'subs/sub-1.json');
    expect(transcript.seats[0]?.toolCalls).toBe(1);
    expect(transcript.toolCalls.map((call) => call.id)).toEqual(['s1', 'd1', 'w1']);
  });

  it('refuses an absolute path, a path out of the directory and a symlink out of it, naming the link', async () => {
    const dir = makeTempDir();
    const outside = makeTempDir();
    writeFileSync(path.join(outside, 'sub.json'), JSON.stringify(subagent));
    symlinkSync(path.join(outside, 'sub.json'), path.join(dir, 'escape.json'));
    expect(await why(dir, '/etc/hostname')).toBe(
      "linked trajectory /etc/hostname is an absolute path; a link is read only relative to the transcript's directory",
    );
    expect(await why(dir, `../${path.basename(outside)}/sub.json`)).toBe(
      `linked trajectory ../${path.basename(outside)}/sub.json resolves outside the directory of the file that names it`,
    );
    expect(await why(dir, 'escape.json')).toBe(
      'linked trajectory escape.json resolves outside the directory of the file that names it',
    );
  });

  it('refuses a FIFO without hanging, a directory, and a file that is not there', async () => {
    const dir = makeTempDir();
    execFileSync('mkfifo', [path.join(dir, 'pipe.json')]);
    mkdirSync(path.join(dir, 'sub.json'));
    expect(await why(dir, 'pipe.json')).toBe(
      'linked trajectory pipe.json is a FIFO, not a regular file',
    );
    expect(await why(dir, 'sub.json')).toBe(
      'linked trajectory sub.json is a directory, not a regular file',
    );
    expect(await why(dir, 'gone.json')).toBe('linked trajectory gone.json does not exist');
  });

  it('a linked file that is not ATIF names itself and what is wrong', async () => {
    const dir = makeTempDir();
    writeFileSync(path.join(dir, 'bad.json'), '{"schema_version": "ATIF-v1.7", "steps": []}');
    expect(await why(dir, 'bad.json')).toMatch(
      /^linked trajectory bad\.json is not a readable ATIF-v1\.7 trajectory \(agent: /,
    );
  });
});
