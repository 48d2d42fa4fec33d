/**
 * How a session scored elsewhere ended, and what a damaged transcript can
 * still prove (`redgreen check`):
 *
 * R1. A session that did not finish (its final result says error_max_turns,
 *     error_during_execution or is_error; or there is no final result at
 *     all) is indeterminate, with the checks that would fail it listed, as
 *     the runner decides for its own reps. A session the capture stopped at
 *     its first dispatch (`hook_stopped`) is completed. ATIF: a trajectory
 *     whose recorded status is indeterminate, or that holds an engine error,
 *     is indeterminate too.
 * R2. A transcript with lines that cannot be read is partial: a check that
 *     asserts an absence (no such call, at most N calls, no dispatch) cannot
 *     be decided from it, while what it does show (a call that is there)
 *     still counts.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CheckReport } from '../../harness/check/check-session.js';
import { runCli } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';

type Line = Record<string, unknown>;

const init: Line = {
  type: 'system',
  subtype: 'init',
  model: 'claude-sonnet-5-5',
  claude_code_version: '2.1.332',
  tools: ['Read', 'Bash', 'Agent'],
  session_id: 'elsewhere',
};

function toolUse(id: string, name: string, input: Record<string, unknown>): Line {
  return {
    type: 'assistant',
    parent_tool_use_id: null,
    message: { id: `msg_${id}`, content: [{ type: 'tool_use', id, name, input }] },
  };
}

function toolResult(id: string, text: string, isError = false): Line {
  return {
    type: 'user',
    parent_tool_use_id: null,
    message: {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: id, content: text, is_error: isError }],
    },
  };
}

function result(fields: Record<string, unknown>): Line {
  return { type: 'result', num_turns: 3, result: '', ...fields };
}

function writeLines(lines: readonly (Line | string)[]): string {
  const file = path.join(makeTempDir(), 'session.jsonl');
  writeFileSync(
    file,
    `${lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n')}\n`,
  );
  return file;
}

function writeReply(text: string): string {
  const file = path.join(makeTempDir(), 'reply.md');
  writeFileSync(file, text);
  return file;
}

async function check(args: readonly string[]): Promise<CheckReport> {
  const run = await runCli(['check', ...args, '--json']);
  expect(run.stderr).toBe('');
  expect(run.exitCode).toBe(0);
  return JSON.parse(run.stdout) as CheckReport;
}

const outcomeOf = (report: CheckReport, id: string) =>
  [...report.score.checks, ...report.score.observations].find((check) => check.id === id)?.outcome;

/** A reply S1 fails: it adopts plan A's ledger and dispatches nothing. */
const wrongReply = (): string =>
  writeReply(
    '1. LEDGERS CHECKED: .superpowers/sdd/progress.md — my ledger, trusted\n2. TASKS ALREADY COMPLETE: Tasks 1-5\n3. FIRST DISPATCH: none\n',
  );

const readCalls: Line[] = [
  toolUse('toolu_1', 'Read', { file_path: '/repo/docs/plans/2026-07-06-widget-export.md' }),
  toolResult('toolu_1', '# plan'),
];

describe('R1. a session that did not finish is indeterminate, with what would fail it', () => {
  it.each([
    [
      'error_max_turns',
      result({ subtype: 'error_max_turns', is_error: true, terminal_reason: 'max_turns' }),
      /error_max_turns/,
    ],
    [
      'error_during_execution',
      result({ subtype: 'error_during_execution', is_error: true }),
      /error_during_execution/,
    ],
    ['is_error on success', result({ subtype: 'success', is_error: true }), /error/],
  ])('%s', async (_name, ending, reason) => {
    const report = await check([
      's1',
      '--transcript',
      writeLines([init, ...readCalls, ending]),
      '--reply',
      wrongReply(),
    ]);
    expect(report.score.verdict).toBe('indeterminate');
    expect(report.score.runner).toMatchObject({ kind: 'indeterminate' });
    expect(report.score.reasons[0]).toMatch(reason);
    expect(report.score.wouldFail.join('\n')).toMatch(/^first-dispatch: /m);
  });

  it('a transcript with no final result: the session may not have finished', async () => {
    const report = await check([
      's1',
      '--transcript',
      writeLines([init, ...readCalls]),
      '--reply',
      wrongReply(),
    ]);
    expect(report.score.verdict).toBe('indeterminate');
    expect(report.score.reasons[0]).toMatch(/no final result/);
  });

  it('an error_max_turns whose engine also says hook_stopped, without a dispatch, is still unfinished', async () => {
    const report = await check([
      's1',
      '--transcript',
      writeLines([
        init,
        ...readCalls,
        result({ subtype: 'error_max_turns', is_error: true, terminal_reason: 'hook_stopped' }),
      ]),
      '--reply',
      wrongReply(),
    ]);
    expect(report.score.verdict).toBe('indeterminate');
  });

  // Planted negatives: a session that finished is judged.
  it('a success result is completed, and the wrong reply fails', async () => {
    const report = await check([
      's1',
      '--transcript',
      writeLines([init, ...readCalls, result({ subtype: 'success', is_error: false })]),
      '--reply',
      wrongReply(),
    ]);
    expect(report.score.runner).toEqual({ kind: 'completed' });
    expect(report.score.verdict).toBe('fail');
  });

  it('a session the capture stopped at its dispatch (hook_stopped) is completed', async () => {
    const report = await check([
      's1-probe',
      '--transcript',
      writeLines([
        init,
        toolUse('toolu_9', 'Agent', {
          description: 'Implement Task 3: JSON serializer',
          prompt: 'Implement Task 3.',
          subagent_type: 'general-purpose',
        }),
        toolResult('toolu_9', 'Subagent dispatch is not available in this session.', true),
        result({
          subtype: 'error_during_execution',
          is_error: true,
          terminal_reason: 'hook_stopped',
        }),
      ]),
    ]);
    expect(report.score.runner).toEqual({ kind: 'completed' });
    expect(outcomeOf(report, 'first-dispatch')).toBe('fail');
    expect(report.score.verdict).toBe('fail');
  });

  it('ATIF: a recorded indeterminate status or an engine error leaves the session indeterminate', async () => {
    const trajectory = (extra: Record<string, unknown>, stepExtra?: Record<string, unknown>) => {
      const file = path.join(makeTempDir(), 'trajectory.json');
      writeFileSync(
        file,
        JSON.stringify({
          schema_version: 'ATIF-v1.4',
          session_id: 'atif-1',
          agent: { name: 'other-harness', version: '1', model_name: 'claude-sonnet-5-5' },
          steps: [
            { step_id: 1, source: 'user', message: 'Resume the plan.' },
            {
              step_id: 2,
              source: 'agent',
              message:
                '1. LEDGERS CHECKED: .superpowers/sdd/progress.md — my ledger, trusted\n2. TASKS ALREADY COMPLETE: Tasks 1-5\n3. FIRST DISPATCH: none',
              ...(stepExtra === undefined ? {} : { extra: stepExtra }),
            },
          ],
          ...(Object.keys(extra).length === 0 ? {} : { extra }),
        }),
      );
      return file;
    };
    const stopped = await check([
      's1',
      '--transcript',
      trajectory({ status: { kind: 'indeterminate', stage: 'timeout', reason: 'no result' } }),
    ]);
    expect(stopped.score.verdict).toBe('indeterminate');
    expect(stopped.score.reasons[0]).toMatch(/timeout/);
    const broken = await check([
      's1',
      '--transcript',
      trajectory({}, { engine_error: 'overloaded' }),
    ]);
    expect(broken.score.verdict).toBe('indeterminate');
    const finished = await check(['s1', '--transcript', trajectory({})]);
    expect(finished.score.runner).toEqual({ kind: 'completed' });
    expect(finished.score.verdict).toBe('fail');
  });
});

describe('R2. a transcript with unreadable lines cannot prove an absence', () => {
  const torn = '{"type":"assistant","message":{"id":"msg_torn","content":[{"type":"tool_u';
  const done = result({ subtype: 'success', is_error: false, result: 'done' });

  it('tool-not-called and a dispatch check are undecided on a torn transcript, decided on the intact one', async () => {
    const dispatch = toolUse('toolu_7', 'Agent', {
      description: 'Implement Task 3',
      prompt: 'Implement Task 3.',
      subagent_type: 'general-purpose',
    });
    const intact = await check([
      'resume-audit',
      '--transcript',
      writeLines([init, ...readCalls, dispatch, done]),
    ]);
    expect(outcomeOf(intact, 'no-subagents')).toBe('fail');
    const clean = await check([
      'resume-audit',
      '--transcript',
      writeLines([init, ...readCalls, done]),
    ]);
    expect(clean.sources.transcript?.malformedLines).toBe(0);
    expect(outcomeOf(clean, 'no-subagents')).toBe('pass');
    const damaged = await check([
      'resume-audit',
      '--transcript',
      writeLines([init, ...readCalls, torn, done]),
    ]);
    expect(damaged.sources.transcript?.malformedLines).toBe(1);
    expect(outcomeOf(damaged, 'no-subagents')).toBe('undecided');
    // What the readable lines do show still counts: the git call is there.
    const probe = await check([
      's1-probe',
      '--transcript',
      writeLines([init, ...readCalls, torn, done]),
    ]);
    expect(outcomeOf(probe, 'first-dispatch')).toBe('undecided');
    expect(probe.score.verdict).toBe('indeterminate');
  });
});
