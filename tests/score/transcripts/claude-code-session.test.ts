/**
 * Claude Code's own session logs, read as what they are: a controller whose
 * Agent dispatch ran a subagent whose calls are in its own log
 * (`<session>/subagents/agent-<id>.jsonl`), given together, as a directory,
 * or found beside the session log; without that log the seat's calls are
 * unknown and a check about them is undecided, never a settled 0 (planted:
 * with the log given, the same checks decide). How a log ends (no result
 * line): complete when its last turn ends in text with no call pending.
 * The Skill tool's calls and the directory the engine loaded each skill from.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readSessionTranscript } from '../../../harness/score/transcripts/read-transcript.js';
import type { SessionTranscript } from '../../../harness/score/transcripts/session-transcript.js';
import { readTranscriptInputs } from '../../../harness/score/transcripts/transcript-input.js';
import { makeTempDir } from '../../helpers/temp-dir.js';
import { check } from '../verb-support.js';
import { evidenceOf, jsonl, logLines, SESSION, snapshotLine, writeLines } from './support.js';

const main = logLines();
const sub = logLines('a2898e3');

/** A controller that dispatches an Explore agent (its calls in its own log) and reports. */
const mainLog = [
  snapshotLine,
  main.prompt('Explore the transcript renderer.'),
  main.call('m1', 'toolu_read', 'Read', { file_path: '/home/user/project/mix.exs' }),
  main.result('toolu_read', 'defmodule Spotter.MixProject do'),
  main.call('m2', 'toolu_agent', 'Agent', {
    description: 'Explore transcript rendering',
    prompt: 'Very thorough exploration of the renderer.',
    subagent_type: 'Explore',
  }),
  main.result('toolu_agent', 'The report.\nagentId: a2898e3', {
    status: 'completed',
    agentId: 'a2898e3',
    agentType: 'Explore',
    totalToolUseCount: 2,
  }),
  main.text('m3', 'The renderer is duplicated in two LiveViews.'),
];

const subLog = [
  sub.prompt('Very thorough exploration of the renderer.'),
  sub.call('s1', 'toolu_s_glob', 'Glob', { pattern: 'lib/**/*_live.ex' }, 'claude-haiku-4-5'),
  sub.result('toolu_s_glob', 'lib/a_live.ex'),
  sub.call(
    's2',
    'toolu_s_bash',
    'Bash',
    { command: 'grep -n render lib/a_live.ex' },
    'claude-haiku-4-5',
  ),
  sub.result('toolu_s_bash', '12: render'),
  sub.text('s3', 'The report.', 'claude-haiku-4-5'),
];

function read(text: string): SessionTranscript {
  const result = readSessionTranscript(text, 'session.jsonl');
  if (!result.ok) throw new Error(result.error.problem);
  return result.value;
}

async function readPaths(paths: readonly string[]): Promise<SessionTranscript> {
  const result = await readTranscriptInputs(paths);
  if (!result.ok) throw new Error(`${result.error.input}: ${result.error.problem}`);
  return result.value;
}

const noSubagentBash = { verb: 'tool-not-called', tool: 'Bash', seat: 'subagent' };
const subagentCount = { verb: 'tool-count', seat: 'subagent', max: 5 };
const controllerRead = { verb: 'tool-not-called', tool: 'Read', seat: 'controller' };

describe('a session log and its subagent’s own log', () => {
  it('alone, the seat is known and its calls are not: subagent checks are undecided, never 0', () => {
    const transcript = read(jsonl(mainLog));
    expect(transcript.format).toBe('claude-code-session');
    expect(transcript.seats).toEqual([
      expect.objectContaining({
        dispatch: 'toolu_agent',
        agentId: 'a2898e3',
        subagentType: 'Explore',
        toolCalls: null,
        unknownWhy: expect.stringContaining('subagents/agent-a2898e3.jsonl'),
      }),
    ]);
    const evidence = evidenceOf(transcript);
    expect(check(noSubagentBash, evidence).outcome).toBe('undecided');
    expect(check(subagentCount, evidence).outcome).toBe('undecided');
    expect(check({ ...noSubagentBash, seat: 'any' }, evidence).outcome).toBe('undecided');
    expect(
      check({ verb: 'skill-not-invoked', skill: 'tdd', form: 'any', seat: 'subagent' }, evidence)
        .outcome,
    ).toBe('undecided');
    // What the controller did is all in the log: its checks decide.
    expect(check(controllerRead, evidence).outcome).toBe('fail');
    expect(
      check({ verb: 'skill-not-invoked', skill: 'tdd', form: 'any', seat: 'controller' }, evidence)
        .outcome,
    ).toBe('pass');
    expect(transcript.cwd).toBe('/home/user/project');
    expect(
      check({ verb: 'dispatch', select: { which: 'first' }, kind: 'fresh' }, evidence).outcome,
    ).toBe('pass');
  });

  it('given together (either order), the subagent’s calls are its seat’s, after the dispatch, and the checks decide', async () => {
    const dir = makeTempDir();
    const mainFile = writeLines(dir, `${SESSION}.jsonl`, mainLog);
    const subFile = writeLines(dir, 'agent-a2898e3.jsonl', subLog);
    for (const order of [
      [mainFile, subFile],
      [subFile, mainFile],
    ]) {
      const transcript = await readPaths(order);
      expect(transcript.toolCalls.map((call) => [call.id, call.parentToolUseId])).toEqual([
        ['toolu_read', null],
        ['toolu_agent', null],
        ['toolu_s_glob', 'toolu_agent'],
        ['toolu_s_bash', 'toolu_agent'],
      ]);
      expect(transcript.seats).toEqual([
        expect.objectContaining({ toolCalls: 2, modelUsed: 'claude-haiku-4-5' }),
      ]);
      expect(transcript.models).toEqual(['claude-sonnet-4-6', 'claude-haiku-4-5']);
      expect(transcript.reply).toBe('The renderer is duplicated in two LiveViews.');
      const evidence = evidenceOf(transcript);
      expect(check(noSubagentBash, evidence).outcome).toBe('fail');
      expect(check(subagentCount, evidence).outcome).toBe('pass');
      expect(
        check({ ...noSubagentBash, seat: { subagentType: 'Explore' } }, evidence).outcome,
      ).toBe('fail');
    }
  });

  it('as Claude Code stores them: the session’s directory, or the log named alone, brings the subagents’ logs', async () => {
    const dir = makeTempDir();
    const mainFile = writeLines(dir, `${SESSION}.jsonl`, mainLog);
    mkdirSync(path.join(dir, SESSION, 'subagents'), { recursive: true });
    const subFile = writeLines(path.join(dir, SESSION, 'subagents'), 'agent-a2898e3.jsonl', subLog);
    for (const given of [[mainFile], [path.join(dir, SESSION)]]) {
      const transcript = await readPaths(given);
      expect(transcript.files).toEqual([mainFile, subFile]);
      expect(transcript.seats[0]?.toolCalls).toBe(2);
    }
  });

  it('inline agent_progress lines are the subagent’s calls, known when they number what the result counts', () => {
    const progress = (message: Record<string, unknown>) => ({
      ...main.prompt('x'),
      type: 'progress',
      message: undefined,
      parentToolUseID: 'toolu_agent',
      toolUseID: 'agent_msg_1',
      data: {
        type: 'agent_progress',
        agentId: 'a2898e3',
        prompt: 'p',
        message,
        normalizedMessages: [],
      },
    });
    const inline = subLog
      .slice(1, 5)
      .map((line) => progress({ type: line.type, message: line.message, uuid: line.uuid }));
    const transcript = read(jsonl([...mainLog.slice(0, 5), ...inline, ...mainLog.slice(5)]));
    expect(transcript.seats[0]?.toolCalls).toBe(2);
    expect(
      transcript.toolCalls.filter((call) => call.parentToolUseId === 'toolu_agent'),
    ).toHaveLength(2);
    // Fewer inline calls than the result counts: the rest are elsewhere, so the seat's calls are unknown.
    const short = read(jsonl([...mainLog.slice(0, 5), ...inline.slice(0, 2), ...mainLog.slice(5)]));
    expect(short.seats[0]?.toolCalls).toBeNull();
  });

  it('refuses a subagent log of another session, naming it', async () => {
    const dir = makeTempDir();
    const mainFile = writeLines(dir, 'main.jsonl', mainLog);
    const other = writeLines(
      dir,
      'agent-x.jsonl',
      subLog.map((line) => ({ ...line, sessionId: 'another-session' })),
    );
    const result = await readTranscriptInputs([mainFile, other]);
    expect(result.ok || result.error).toMatchObject({
      input: other,
      problem: expect.stringMatching(/^is from another session \(another-session\)/),
    });
  });
});

describe('how a session log ends', () => {
  const ending = (lines: readonly Record<string, unknown>[]) => read(jsonl(lines)).ending;

  it('complete when the last turn ends in text with no call pending', () => {
    expect(ending(mainLog)).toEqual({ kind: 'completed' });
  });

  it('not complete on a pending call, a tool result, a user message, an interruption, or no reply at all', () => {
    expect(ending(mainLog.slice(0, 3))).toMatchObject({
      kind: 'indeterminate',
      reason: expect.stringMatching(/ends on a Read call with no result/),
    });
    expect(ending(mainLog.slice(0, 4))).toMatchObject({
      reason: expect.stringMatching(/ends on a tool result with no reply/),
    });
    expect(ending([...mainLog, main.prompt('and now?')])).toMatchObject({
      reason: expect.stringMatching(/ends on a user message/),
    });
    expect(
      ending([...mainLog.slice(0, 4), main.prompt('[Request interrupted by user for tool use]')]),
    ).toMatchObject({ reason: 'the user interrupted the session' });
    expect(ending(mainLog.slice(0, 2))).toMatchObject({
      reason: expect.stringMatching(/holds no reply of the controller/),
    });
  });

  it('a decided failure fails: a complete log is not indeterminate for want of a result line', () => {
    const transcript = read(jsonl(mainLog));
    expect(transcript.ending.kind).toBe('completed');
    expect(check(controllerRead, evidenceOf(transcript)).outcome).toBe('fail');
  });
});

describe('the Skill tool in a session log', () => {
  const skillLog = (isError: boolean) => [
    main.prompt('Build it.'),
    main.call('m1', 'toolu_skill', 'Skill', { skill: 'superpowers:brainstorming' }),
    main.result(
      'toolu_skill',
      'Launching skill: superpowers:brainstorming',
      { success: !isError },
      isError,
    ),
    main.skillLoaded('toolu_skill', '/home/user/.claude/plugins/superpowers/skills/brainstorming'),
    main.text('m2', 'Using brainstorming.'),
  ];

  it('skill-read counts a Skill call that loaded the skill under test, from the directory the engine names', () => {
    const transcript = read(jsonl(skillLog(false)));
    expect(transcript.toolCalls[0]?.loadedFrom).toBe(
      '/home/user/.claude/plugins/superpowers/skills/brainstorming',
    );
    const skillRead = (dir: string) =>
      check({ verb: 'skill-read' }, evidenceOf(transcript, dir)).outcome;
    expect(skillRead('/home/user/.claude/plugins/superpowers/skills/brainstorming')).toBe('pass');
    expect(skillRead('plugins/superpowers/skills/brainstorming')).toBe('pass');
    // Planted negatives: another copy of a skill of that name, another skill, a failed call.
    expect(skillRead('/work/branch-arm/skills/brainstorming')).toBe('fail');
    expect(skillRead('/home/user/.claude/plugins/superpowers/skills/writing-plans')).toBe('fail');
    expect(
      check({ verb: 'skill-read' }, evidenceOf(read(jsonl(skillLog(true))), 'skills/brainstorming'))
        .outcome,
    ).toBe('fail');
    // The Skill tool loads SKILL.md only: another file of the skill was not read by it.
    expect(
      check(
        { verb: 'skill-read', file: 'visual-companion.md' },
        evidenceOf(transcript, 'skills/brainstorming'),
      ).outcome,
    ).toBe('fail');
  });
});
