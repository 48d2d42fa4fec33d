/**
 * Every real transcript in ../shared/transcripts/ (sessions recorded by their
 * own tools and published by people outside this project; SOURCES.md says
 * where each comes from and what it holds, counted by hand) is read as the
 * format it is, with the counts SOURCES.md gives: tool calls of the
 * controller by tool, dispatches, a subagent's calls, the skills invoked,
 * the models, and whether the session is complete. One test per file; all
 * skipped, saying why, when ../shared is absent (a user's checkout).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { skillInvocations } from '../../../harness/score/skill-invocations.js';
import type { ToolCall } from '../../../harness/score/tool-call.js';
import type { SessionTranscript } from '../../../harness/score/transcripts/session-transcript.js';
import { readTranscriptInputs } from '../../../harness/score/transcripts/transcript-input.js';
import { summariseTranscript } from '../../../harness/score/transcripts/transcript-summary.js';
import { repoRoot } from '../../helpers/cli.js';

const shared = path.join(repoRoot, '..', 'shared', 'transcripts');
const present = existsSync(path.join(shared, 'SOURCES.md'));
if (!present)
  console.log(`skipping the real transcripts: ${shared} is not here (../shared is absent)`);

function byName(calls: readonly ToolCall[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const call of calls) counts[call.name] = (counts[call.name] ?? 0) + 1;
  return counts;
}

async function read(file: string): Promise<SessionTranscript> {
  const result = await readTranscriptInputs([path.join(shared, file)]);
  if (!result.ok) throw new Error(`${result.error.input}: ${result.error.problem}`);
  return result.value;
}

/** What SOURCES.md says of one file. */
interface Expected {
  readonly format: SessionTranscript['format'];
  readonly controller: Record<string, number>;
  readonly dispatches: number;
  /** The subagents' calls by tool; null when the file holds none. */
  readonly subagent?: Record<string, number>;
  readonly skills?: readonly string[];
  readonly models: readonly string[];
  readonly complete: boolean;
  readonly errored?: number;
}

const EXPECTED: Readonly<Record<string, Expected>> = {
  'ccs-superpowers-skills.jsonl': {
    format: 'claude-code-session',
    controller: { Bash: 13, TaskUpdate: 12, Read: 11, TaskCreate: 6, Skill: 4, Write: 3, Edit: 2 },
    dispatches: 0,
    skills: [
      'superpowers:brainstorming',
      'superpowers:writing-plans',
      'superpowers:executing-plans',
      'superpowers:finishing-a-development-branch',
    ],
    models: ['claude-sonnet-4-6'],
    complete: true,
  },
  'ccs-spotter-plan-with-task.jsonl': {
    format: 'claude-code-session',
    controller: {
      WebSearch: 5,
      Bash: 4,
      WebFetch: 1,
      Glob: 1,
      Read: 1,
      AskUserQuestion: 1,
      Task: 1,
      Write: 1,
      ExitPlanMode: 1,
    },
    dispatches: 1,
    subagent: { Read: 5, Bash: 4 },
    models: ['claude-opus-4-6', 'claude-haiku-4-5-20251001'],
    complete: true,
  },
  'ccs-spotter-subagent-file.jsonl': {
    format: 'claude-code-session',
    controller: {},
    dispatches: 0,
    subagent: { Read: 16, Glob: 10, Bash: 5, Grep: 2 },
    models: ['claude-sonnet-4-5-20250929'],
    complete: true,
  },
  'ccs-spotter-short.jsonl': {
    format: 'claude-code-session',
    controller: { Bash: 1, Glob: 1 },
    dispatches: 0,
    models: ['claude-opus-4-6'],
    complete: false,
    errored: 2,
  },
  'ccs-hello-no-tools.jsonl': {
    format: 'claude-code-session',
    controller: {},
    dispatches: 0,
    models: [],
    complete: false,
  },
  'sj-gleisner-edit-test.jsonl': {
    format: 'claude-code-stream-json',
    controller: { Write: 1, Read: 1, Bash: 1 },
    dispatches: 0,
    models: ['claude-opus-4-6'],
    complete: true,
    errored: 0,
  },
  'sj-gleisner-parallel-tools.jsonl': {
    format: 'claude-code-stream-json',
    controller: { Read: 1, Glob: 1 },
    dispatches: 0,
    models: ['claude-opus-4-6'],
    complete: true,
    errored: 0,
  },
  'sj-gleisner-multi-turn-with-errors.jsonl': {
    format: 'claude-code-stream-json',
    controller: { Read: 2 },
    dispatches: 0,
    models: ['claude-opus-4-6'],
    complete: true,
    errored: 2,
  },
  'sj-gleisner-context7.jsonl': {
    format: 'claude-code-stream-json',
    controller: {
      'mcp__plugin_context7_context7__resolve-library-id': 1,
      'mcp__plugin_context7_context7__query-docs': 1,
    },
    dispatches: 0,
    models: ['claude-opus-4-6'],
    complete: true,
    errored: 0,
  },
  'cursor-sj-parallel-shell.jsonl': {
    format: 'cursor-stream-json',
    // Cursor's shell calls, read as Bash.
    controller: { Bash: 2 },
    dispatches: 0,
    models: ['Auto'],
    complete: true,
  },
  'codex-rollout-sdd-seat.jsonl': {
    format: 'codex-rollout',
    // A spawned worker thread read alone: its one exec call is a subagent's.
    controller: {},
    dispatches: 0,
    subagent: { Bash: 1 },
    models: ['gpt-5.6-luna'],
    complete: false,
  },
  'codex-exec-tdd-slice.jsonl': {
    format: 'codex-rollout',
    // Two code-mode exec scripts, each running shell commands: Bash.
    controller: { Bash: 2 },
    dispatches: 0,
    models: ['gpt-5.6-sol'],
    complete: false,
  },
  'atif17-serf-react-todo.json': {
    format: 'atif-1.7',
    // use_skill read as Skill.
    controller: { task_list: 3, Skill: 1, list_dir: 1, communicate: 1 },
    dispatches: 0,
    skills: ['superpowers:brainstorming'],
    models: ['claude-sonnet-4-6'],
    complete: true,
  },
};

describe.skipIf(!present)('the real transcripts, with the counts SOURCES.md gives', () => {
  it('covers every file beside SOURCES.md', async () => {
    const { readdirSync } = await import('node:fs');
    const files = readdirSync(shared).filter((file) => file !== 'SOURCES.md');
    expect(files.sort()).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(Object.entries(EXPECTED))('%s', async (file, expected) => {
    const transcript = await read(file);
    const summary = summariseTranscript(transcript);
    const controller = transcript.toolCalls.filter((call) => call.parentToolUseId === null);
    const subagent = transcript.toolCalls.filter((call) => call.parentToolUseId !== null);
    expect(transcript.format).toBe(expected.format);
    expect(byName(controller)).toEqual(expected.controller);
    expect(summary.toolCalls).toEqual({
      // A subagent's log read alone holds none of the controller's calls: unknown, not 0.
      controller: transcript.controllerRecorded ? controller.length : null,
      subagent: Object.values(expected.subagent ?? {}).reduce((sum, n) => sum + n, 0),
    });
    expect(byName(subagent)).toEqual(expected.subagent ?? {});
    expect(summary.dispatches).toHaveLength(expected.dispatches);
    expect(
      skillInvocations(transcript.toolCalls)
        .filter((one) => one.form === 'tool')
        .map((one) => one.name),
    ).toEqual(expected.skills ?? []);
    expect(transcript.models).toEqual(expected.models);
    expect(summary.complete).toBe(expected.complete);
    if (expected.errored !== undefined) {
      expect(controller.filter((call) => call.isError === true)).toHaveLength(expected.errored);
    }
    expect(transcript.malformed).toEqual([]);
    expect(readFileSync(path.join(shared, 'SOURCES.md'), 'utf8')).toContain(`\`${file}\``);
  });

  it('the Task dispatch’s seat: its agent, type, model and nine inline calls, none unknown', async () => {
    const transcript = await read('ccs-spotter-plan-with-task.jsonl');
    const task = transcript.toolCalls.find((call) => call.name === 'Task');
    expect(transcript.seats).toEqual([
      expect.objectContaining({
        dispatch: task?.id,
        agentId: 'afb92ff',
        subagentType: 'Plan',
        modelUsed: 'claude-haiku-4-5-20251001',
        toolCalls: 9,
      }),
    ]);
    expect(task?.agentId).toBe('afb92ff');
    expect(transcript.controllerRecorded).toBe(true);
  });

  it('a subagent’s own log read alone: its calls are a seat’s, the controller’s are unknown', async () => {
    const transcript = await read('ccs-spotter-subagent-file.jsonl');
    expect(transcript.controllerRecorded).toBe(false);
    expect(transcript.seats.map((seat) => [seat.dispatch, seat.agentId, seat.toolCalls])).toEqual([
      ['agent:a2898e3', 'a2898e3', 33],
    ]);
    expect(transcript.reply).toMatch(/comprehensive report/);
  });

  it('the Codex worker thread read alone: a seat of its own, with its role and model', async () => {
    const transcript = await read('codex-rollout-sdd-seat.jsonl');
    expect(transcript.controllerRecorded).toBe(false);
    expect(transcript.seats).toEqual([
      expect.objectContaining({
        dispatch: 'thread:019f713d-a26a-7520-87c7-bd499a71f76f',
        subagentType: 'worker',
        description: 'Ampere',
        modelUsed: 'gpt-5.6-luna',
        toolCalls: 1,
      }),
    ]);
    expect(
      skillInvocations(transcript.toolCalls).map((one) => [one.name, one.form, one.seat]),
    ).toEqual([
      ['using-superpowers', 'shell', 'subagent'],
      ['brainstorming', 'shell', 'subagent'],
      ['test-driven-development', 'shell', 'subagent'],
      ['verification-before-completion', 'shell', 'subagent'],
    ]);
  });

  it('Claude Code’s Skill calls record where the engine loaded each skill from', async () => {
    const transcript = await read('ccs-superpowers-skills.jsonl');
    expect(
      transcript.toolCalls.filter((call) => call.name === 'Skill').map((call) => call.loadedFrom),
    ).toEqual([
      '/Users/drewritter/prime-rad/superpowers/skills/brainstorming',
      '/Users/drewritter/prime-rad/superpowers/skills/writing-plans',
      '/Users/drewritter/prime-rad/superpowers/skills/executing-plans',
      '/Users/drewritter/prime-rad/superpowers/skills/finishing-a-development-branch',
    ]);
  });
});
