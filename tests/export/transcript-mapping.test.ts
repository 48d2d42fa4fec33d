import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AtifTrajectory } from '../../harness/export/atif-document.js';
import { buildAtifTrajectory } from '../../harness/export/build-trajectory.js';
import { type LoadedResults, loadResults } from '../../harness/report/load-results.js';
import type { RepMeta } from '../../harness/results/rep-meta.js';
import { atifProblems, generateRun } from './support.js';

/**
 * How transcript lines map to ATIF steps, on transcripts written in the
 * Claude Agent SDK's message shapes (as both backends write them): split
 * turns, thinking, tool results, subagents, unknown types, tokens and cost.
 * The campaign record and rep come from a real offline run; only the
 * transcript, reply and (for pricing) meta.json are varied.
 */
let root = '';
let loaded: LoadedResults;

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'redgreen-export-mapping-'));
  await generateRun(path.join(root, 'run'), 'messages');
  const result = await loadResults(path.join(root, 'run'));
  if (!result.ok) throw new Error(result.error.problem);
  loaded = result.value;
}, 240_000);

afterAll(() => {
  if (root !== '') rmSync(root, { recursive: true, force: true });
});

const PROMPT = 'Continue executing the plan.';

interface Usage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens: number;
  cache_read_input_tokens: number;
}

function usage(input: number, output: number, cacheWrite = 0, cacheRead = 0): Usage {
  return {
    input_tokens: input,
    output_tokens: output,
    cache_creation_input_tokens: cacheWrite,
    cache_read_input_tokens: cacheRead,
  };
}

const line = (value: unknown): string => JSON.stringify(value);

const init = line({ type: 'system', subtype: 'init', session_id: 'sess-1', model: 'm', tools: [] });

function assistant(
  id: string | undefined,
  content: unknown[],
  options: {
    usage?: Usage;
    stop?: string | null;
    parent?: string;
    timestamp?: string;
    model?: string;
    error?: string;
  } = {},
): string {
  return line({
    type: 'assistant',
    message: {
      ...(id === undefined ? {} : { id }),
      type: 'message',
      role: 'assistant',
      model: options.model ?? 'claude-sonnet-5-5',
      content,
      stop_reason: options.stop ?? null,
      usage: options.usage ?? usage(100, 1),
    },
    parent_tool_use_id: options.parent ?? null,
    session_id: 'sess-1',
    ...(options.timestamp === undefined ? {} : { timestamp: options.timestamp }),
    ...(options.error === undefined ? {} : { error: options.error }),
  });
}

function toolResults(
  results: { id: string; content: string; isError?: boolean }[],
  parent?: string,
): string {
  return line({
    type: 'user',
    message: {
      role: 'user',
      content: results.map((result) => ({
        type: 'tool_result',
        tool_use_id: result.id,
        content: result.content,
        is_error: result.isError === true,
      })),
    },
    parent_tool_use_id: parent ?? null,
    session_id: 'sess-1',
  });
}

function finalResult(reply: string, total: Usage, subtype = 'success'): string {
  return line({
    type: 'result',
    subtype,
    is_error: subtype !== 'success',
    num_turns: 2,
    result: reply,
    usage: total,
    total_cost_usd: null,
    session_id: 'sess-1',
  });
}

const text = (value: string) => ({ type: 'text', text: value });
const thinking = (value: string) => ({ type: 'thinking', thinking: value, signature: 'sig' });
const toolUse = (id: string, name: string, input: unknown) => ({
  type: 'tool_use',
  id,
  name,
  input,
});

function build(
  transcriptLines: string[],
  reply: string,
  metaChanges: Partial<RepMeta> = {},
): AtifTrajectory {
  const rep = loaded.reps[0];
  if (rep === undefined) throw new Error('the run recorded no rep');
  const trajectory = buildAtifTrajectory({
    record: loaded.record,
    rep: { ...rep, meta: { ...rep.meta, ...metaChanges }, reply: `0\n${reply}` },
    override: undefined,
    prompt: PROMPT,
    transcript: `${transcriptLines.join('\n')}\n`,
  });
  expect(atifProblems(trajectory)).toEqual([]);
  return trajectory;
}

/** A turn streamed as one SDK message per block (as Claude Code does), results interleaved. */
const streamedSession = [
  init,
  assistant('msg_A', [thinking('Read the skill first.')], {
    timestamp: '2026-11-30T10:00:01.000Z',
  }),
  assistant('msg_A', [text('Let me look.')], { timestamp: '2026-11-30T10:00:02.000Z' }),
  assistant('msg_A', [toolUse('t1', 'Read', { file_path: '/repo/SKILL.md' })]),
  toolResults([{ id: 't1', content: 'skill text' }]),
  assistant('msg_A', [toolUse('t2', 'Bash', { command: 'git log' })]),
  toolResults([{ id: 't2', content: 'fatal: bad object', isError: true }]),
  assistant('msg_B', [text('Done.')], { usage: usage(300, 1) }),
  finalResult('Done.', usage(400, 40)),
];

describe('transcript to ATIF steps', () => {
  it('makes one agent step of the messages of one turn, with its reasoning, calls and results', () => {
    const trajectory = build(streamedSession, 'Done.');
    expect(trajectory.steps.map((step) => step.source)).toEqual(['user', 'agent', 'agent']);
    const [prompt, turn, reply] = trajectory.steps;
    expect(prompt?.message).toBe(PROMPT);
    expect(turn?.timestamp).toBe('2026-11-30T10:00:01.000Z');
    expect(turn?.model_name).toBe('claude-sonnet-5-5');
    expect(turn?.message).toBe('Let me look.');
    expect(turn?.reasoning_content).toBe('Read the skill first.');
    expect(turn?.tool_calls).toEqual([
      { tool_call_id: 't1', function_name: 'Read', arguments: { file_path: '/repo/SKILL.md' } },
      { tool_call_id: 't2', function_name: 'Bash', arguments: { command: 'git log' } },
    ]);
    expect(turn?.observation?.results).toEqual([
      { source_call_id: 't1', content: 'skill text' },
      { source_call_id: 't2', content: 'fatal: bad object' },
    ]);
    expect(turn?.extra?.tool_errors).toEqual(['t2']);
    expect(reply?.message).toBe('Done.');
    expect(reply?.tool_calls).toBeUndefined();
  });

  it('leaves streamed output counts unknown (null), never 0, and keeps the session totals', () => {
    const trajectory = build(streamedSession, 'Done.', {
      tokens: { input: 400, output: 40, cacheWrite: 0, cacheRead: 0 },
    });
    const turn = trajectory.steps[1];
    expect(turn?.metrics?.prompt_tokens).toBe(100);
    expect(turn?.metrics?.completion_tokens).toBeNull();
    expect(trajectory.final_metrics?.total_completion_tokens).toBe(40);
    expect(trajectory.notes).toContain('completion_tokens');
  });

  it('skips unknown message types and counts them in notes, without changing the steps', () => {
    const plain = build(streamedSession, 'Done.');
    const withNoise = build(
      [
        ...streamedSession.slice(0, 3),
        line({ type: 'stream_event', event: { type: 'ping' } }),
        line({ type: 'system', subtype: 'api_retry', attempt: 1, error_status: 529 }),
        line({ type: 'system', subtype: 'api_retry', attempt: 2, error_status: 529 }),
        line({ type: 'tool_progress', tool_use_id: 't1' }),
        ...streamedSession.slice(3),
      ],
      'Done.',
    );
    expect(withNoise.steps).toEqual(plain.steps);
    expect(withNoise.notes).toContain('Skipped 4 transcript lines');
    expect(withNoise.notes).toContain('system/api_retry x2');
    expect(withNoise.notes).toContain('stream_event x1');
    expect(withNoise.extra?.transcript_lines_skipped).toEqual({
      stream_event: 1,
      'system/api_retry': 2,
      tool_progress: 1,
    });
    expect(plain.notes).not.toContain('Skipped');
  });

  it('keeps subagent turns and unreadable lines out of the steps, and says so', () => {
    const trajectory = build(
      [
        init,
        assistant('msg_A', [toolUse('tTask', 'Task', { prompt: 'implement task 1' })]),
        assistant('msg_S', [toolUse('tSub', 'Bash', { command: 'ls' })], { parent: 'tTask' }),
        toolResults([{ id: 'tSub', content: 'src' }], 'tTask'),
        '{"type": "assistant", "message": ',
        toolResults([{ id: 'tTask', content: 'implemented' }]),
        assistant('msg_B', [text('Reported.')], { stop: 'end_turn' }),
        finalResult('Reported.', usage(200, 2)),
      ],
      'Reported.',
    );
    const calls = trajectory.steps.flatMap((step) => step.tool_calls ?? []);
    expect(calls.map((call) => call.tool_call_id)).toEqual(['tTask']);
    expect(trajectory.steps).toHaveLength(3);
    expect(trajectory.notes).toContain('2 transcript lines made inside subagents');
    expect(trajectory.notes).toContain('1 transcript line could not be read');
  });

  it("marks a turn the engine made up for a failed API call with the engine's error", () => {
    const trajectory = build(
      [
        init,
        assistant('msg_E', [text('API Error: 529 overloaded')], {
          model: '<synthetic>',
          error: 'server_error',
          stop: 'stop_sequence',
        }),
      ],
      '',
    );
    expect(trajectory.steps[1]).toMatchObject({
      source: 'agent',
      model_name: '<synthetic>',
      message: 'API Error: 529 overloaded',
      extra: { engine_error: 'server_error' },
    });
  });

  it('counts a tool_use block repeated across messages once', () => {
    const trajectory = build(
      [
        init,
        assistant('msg_A', [toolUse('t1', 'Read', { file_path: '/a' })]),
        assistant('msg_A', [toolUse('t1', 'Read', { file_path: '/a' })]),
        toolResults([{ id: 't1', content: 'a' }]),
        assistant('msg_B', [text('ok')], { stop: 'end_turn' }),
      ],
      'ok',
    );
    expect(trajectory.steps.flatMap((step) => step.tool_calls ?? [])).toHaveLength(1);
  });

  it('makes user text messages user steps, and does not repeat an echo of the prompt', () => {
    const userText = (value: string, synthetic: boolean) =>
      line({
        type: 'user',
        message: { role: 'user', content: [text(value)] },
        parent_tool_use_id: null,
        isSynthetic: synthetic,
      });
    const trajectory = build(
      [
        init,
        userText(PROMPT, false),
        assistant('msg_A', [toolUse('t1', 'Skill', { skill: 'sdd' })]),
        toolResults([{ id: 't1', content: 'Launching skill' }]),
        userText('Base directory for this skill: /skills/sdd', true),
        assistant('msg_B', [text('ok')], { stop: 'end_turn' }),
      ],
      'ok',
    );
    expect(trajectory.steps.map((step) => step.source)).toEqual(['user', 'agent', 'user', 'agent']);
    expect(trajectory.steps[2]?.message).toBe('Base directory for this skill: /skills/sdd');
    expect(trajectory.steps[2]?.extra).toEqual({ synthetic: true });
    expect(trajectory.notes).toContain('echo of the prompt');
  });
});

describe('the final reply is the last agent step', () => {
  it("carries reply.md's text when the engine's last turn said it differently", () => {
    const trajectory = build(
      [
        init,
        assistant('msg_A', [text('Done')], { stop: 'end_turn' }),
        finalResult('Done', usage(100, 1)),
      ],
      'Done: all tasks checked.',
    );
    const last = trajectory.steps.at(-1);
    expect(last?.message).toBe('Done: all tasks checked.');
    expect(last?.extra?.turn_text).toBe('Done');
    expect(trajectory.steps).toHaveLength(2);
  });

  it('gets a step of its own when the session ended on a turn with tool calls', () => {
    const trajectory = build(
      [
        init,
        assistant('msg_A', [text('Checking the ledger.')], { stop: null }),
        assistant('msg_A', [toolUse('t1', 'Read', { file_path: '/ledger.md' })]),
      ],
      'Checking the ledger.',
    );
    expect(trajectory.steps.map((step) => step.source)).toEqual(['user', 'agent', 'agent']);
    expect(trajectory.steps[2]).toMatchObject({
      message: 'Checking the ledger.',
      extra: { origin: 'reply.md' },
    });
    expect(trajectory.steps[1]?.observation).toBeUndefined();
    expect(trajectory.notes).toContain('1 tool call has no result');
  });

  it('adds no step when there is no reply (an indeterminate rep), and says why', () => {
    const trajectory = build(
      [init, assistant('msg_A', [toolUse('t1', 'Read', { file_path: '/x' })])],
      '',
      { status: { kind: 'indeterminate', stage: 'timeout', reason: 'no result within 600 s' } },
    );
    expect(trajectory.steps.map((step) => step.source)).toEqual(['user', 'agent']);
    expect(trajectory.notes).toContain('indeterminate (timeout: no result within 600 s)');
    expect(trajectory.extra?.status).toEqual({
      kind: 'indeterminate',
      stage: 'timeout',
      reason: 'no result within 600 s',
    });
  });
});

describe('tokens and cost', () => {
  const pricedSession = [
    init,
    assistant('msg_A', [toolUse('t1', 'Read', { file_path: '/a' })], {
      usage: usage(1000, 50, 2000, 0),
      stop: 'tool_use',
    }),
    toolResults([{ id: 't1', content: 'a' }]),
    assistant('msg_B', [text('ok')], { usage: usage(80, 20, 0, 2000), stop: 'end_turn' }),
    finalResult('ok', usage(1080, 70, 2000, 2000)),
  ];
  const pricedMeta = (costUsd: number | null, pricingAsOf = '2026-11'): Partial<RepMeta> => ({
    model: { requested: 'claude-sonnet-5-5', reported: 'claude-sonnet-5-5', scripted: false },
    tokens: { input: 1080, output: 70, cacheWrite: 2000, cacheRead: 2000 },
    tokensEstimated: false,
    costUsd,
    pricingAsOf,
  });
  // Sonnet 5.5 at $2 in / $10 out per million; cache writes 1.25x input, reads 0.1x.
  const stepA = (1000 * 2 + 2000 * 2 * 1.25 + 50 * 10) / 1e6;
  const stepB = (80 * 2 + 2000 * 2 * 0.1 + 20 * 10) / 1e6;

  it('counts cached and cache-written input in prompt_tokens and prices each step', () => {
    const trajectory = build(pricedSession, 'ok', pricedMeta(stepA + stepB));
    const [, first, second] = trajectory.steps;
    expect(first?.metrics).toMatchObject({
      prompt_tokens: 3000,
      completion_tokens: 50,
      cached_tokens: 0,
      extra: { cache_creation_input_tokens: 2000 },
    });
    expect(second?.metrics).toMatchObject({
      prompt_tokens: 2080,
      completion_tokens: 20,
      cached_tokens: 2000,
    });
    expect(first?.metrics?.cost_usd).toBeCloseTo(stepA, 12);
    expect(second?.metrics?.cost_usd).toBeCloseTo(stepB, 12);
    expect(trajectory.final_metrics).toMatchObject({
      total_prompt_tokens: 5080,
      total_completion_tokens: 70,
      total_cached_tokens: 2000,
      total_steps: 3,
    });
    expect(trajectory.final_metrics?.total_cost_usd).toBeCloseTo(stepA + stepB, 12);
    expect(trajectory.extra?.scripted_model).toBe(false);
    expect(trajectory.notes).not.toContain('scripted policy');
  });

  it('leaves per-step cost null when the price table changed since the run', () => {
    const trajectory = build(pricedSession, 'ok', pricedMeta(0.0123, '2025-01'));
    for (const step of trajectory.steps) {
      if (step.metrics !== undefined) expect(step.metrics.cost_usd).toBeNull();
    }
    expect(trajectory.final_metrics?.total_cost_usd).toBe(0.0123);
    expect(trajectory.notes).toContain('price table changed');
  });

  it('reports an unpriced model as null cost, not 0', () => {
    const trajectory = build(pricedSession, 'ok', {
      ...pricedMeta(null),
      model: { requested: 'claude-haiku-4-5', reported: 'claude-haiku-4-5', scripted: false },
    });
    expect(trajectory.final_metrics?.total_cost_usd).toBeNull();
    for (const step of trajectory.steps) {
      if (step.metrics !== undefined) expect(step.metrics.cost_usd).toBeNull();
    }
    expect(trajectory.notes).toContain('claude-haiku-4-5 has no price');
  });

  it('notes per-step sums that disagree with the recorded session totals', () => {
    const trajectory = build(pricedSession, 'ok', {
      ...pricedMeta(stepA + stepB),
      tokens: { input: 1080, output: 99, cacheWrite: 2000, cacheRead: 2000 },
    });
    expect(trajectory.notes).toContain('completion_tokens sum to 70');
    expect(trajectory.final_metrics?.total_completion_tokens).toBe(99);
  });
});
