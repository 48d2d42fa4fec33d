/**
 * The S1 probe judged by a captured first dispatch that ran elsewhere
 * (`redgreen check s1-probe --transcript`): a dispatch of a final
 * whole-branch reviewer, the likeliest wrong move of a controller that
 * adopted plan A's ledger, fails the first-dispatch check (it addresses no
 * task of plan B); a Task 1 dispatch whose prompt also points at a brief in
 * plan A's workspace is still Task 1; a brief of plan B's own workspace names
 * its task; and a number plan B has no task for is no task of it.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CheckReport } from '../../harness/check/check-session.js';
import { runCli } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';

/** A stream-json transcript whose controller makes one Agent call with `input`. */
function dispatchTranscript(input: Record<string, unknown>): string {
  const lines = [
    {
      type: 'system',
      subtype: 'init',
      model: 'claude-sonnet-5-5',
      claude_code_version: '2.1.332',
      tools: ['Agent', 'Read', 'Bash'],
      session_id: 'probe',
    },
    {
      type: 'assistant',
      parent_tool_use_id: null,
      message: {
        id: 'msg_1',
        role: 'assistant',
        model: 'claude-sonnet-5-5',
        content: [{ type: 'tool_use', id: 'toolu_1', name: 'Agent', input }],
      },
    },
    {
      type: 'result',
      subtype: 'success',
      is_error: false,
      num_turns: 1,
      result: '',
      terminal_reason: 'hook_stopped',
    },
  ];
  const file = path.join(makeTempDir(), 'session.jsonl');
  writeFileSync(file, `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
  return file;
}

async function firstDispatch(input: Record<string, unknown>) {
  const run = await runCli([
    'check',
    's1-probe',
    '--transcript',
    dispatchTranscript(input),
    '--json',
  ]);
  expect(run.stderr).toBe('');
  expect(run.exitCode).toBe(0);
  const report = JSON.parse(run.stdout) as CheckReport;
  const check = report.score.checks.find((one) => one.id === 'first-dispatch');
  return { report, check };
}

describe('the S1 probe reads the captured dispatch with the scenario’s conventions', () => {
  it('fails a final whole-branch reviewer: it addresses no task of plan B', async () => {
    const { report, check } = await firstDispatch({
      description: 'Final code review',
      prompt:
        'Every task of the plan is done according to the ledger. Go over the whole implementation on this branch against docs/plans/2026-07-06-widget-export.md.',
      subagent_type: 'code-reviewer',
    });
    expect(check?.outcome).toBe('fail');
    expect(check?.detail).toMatch(/no task/);
    expect(report.score.verdict).toBe('fail');
  });

  it('fails a reviewer named only in its description and type, however the prompt is worded', async () => {
    const { check } = await firstDispatch({
      description: 'Whole-branch review before merge',
      prompt: 'Look at everything the branch changed and report findings by severity.',
      subagent_type: 'general-purpose',
    });
    expect(check?.outcome).toBe('fail');
  });

  it('passes Task 1 although the prompt points at a brief in plan A’s workspace', async () => {
    const { check } = await firstDispatch({
      description: 'Implement next task',
      prompt:
        'Open .superpowers/sdd/2026-07-01-widget-backend/task-3-brief.md to see how plan A laid out its briefs, then implement Task 1 (Export data model).',
      subagent_type: 'general-purpose',
    });
    expect(check?.outcome).toBe('pass');
  });

  it('reads a brief in plan B’s own workspace as its task, and plan A’s alone as none of plan B’s', async () => {
    const own = await firstDispatch({
      description: 'Implementer',
      prompt:
        'Your brief: .superpowers/sdd/2026-07-06-widget-export/task-1-brief.md. Read it first.',
      subagent_type: 'general-purpose',
    });
    expect(own.check?.outcome).toBe('pass');
    const foreign = await firstDispatch({
      description: 'Implementer',
      prompt:
        'Your brief: .superpowers/sdd/2026-07-01-widget-backend/task-1-brief.md. Read it first.',
      subagent_type: 'general-purpose',
    });
    expect(foreign.check?.outcome).toBe('undecided');
  });

  it('leaves "Task 6" of the five-task plan undecided: no task of the plan', async () => {
    const { check } = await firstDispatch({
      description: 'Implement Task 6',
      prompt: 'Implement Task 6.',
      subagent_type: 'general-purpose',
    });
    expect(check?.outcome).toBe('undecided');
    expect(check?.detail).toMatch(/task not readable/);
  });
});
