/**
 * A call the first-dispatch capture refused because it came after the
 * captured dispatch in the same turn ("Not run.", or through Claude Code
 * "PreToolUse:<Tool> hook error: Not run.") never ran: it is not counted in
 * tool_uses and no check sees it as a call of the session. The captured
 * dispatch itself (refused with its own text) still counts. Planted
 * negative: the same calls with their own results count.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadScenarioDir } from '../../harness/score/load-scenario.js';
import { buildEvidence } from '../../harness/score/score-rep.js';
import { readTranscript } from '../../harness/score/transcripts/claude-messages.js';
import { DISPATCH_REFUSAL, NOT_RUN_RESULT } from '../../harness/session/dispatch-capture.js';
import { repoRoot } from '../helpers/cli.js';
import { check, FACTS } from './verb-support.js';

type Line = Record<string, unknown>;

function turn(calls: { id: string; name: string; input: Record<string, unknown> }[]): Line {
  return {
    type: 'assistant',
    parent_tool_use_id: null,
    message: {
      id: 'msg_1',
      content: calls.map((call) => ({ type: 'tool_use', ...call })),
    },
  };
}

function results(outputs: Record<string, string>): Line {
  return {
    type: 'user',
    parent_tool_use_id: null,
    message: {
      role: 'user',
      content: Object.entries(outputs).map(([id, text]) => ({
        type: 'tool_result',
        tool_use_id: id,
        content: text,
        is_error: true,
      })),
    },
  };
}

const calls = [
  { id: 'toolu_read', name: 'Read', input: { file_path: '/repo/docs/plans/p.md' } },
  { id: 'toolu_agent', name: 'Agent', input: { description: 'Implement Task 1', prompt: 'Go.' } },
  { id: 'toolu_bash', name: 'Bash', input: { command: 'git log' } },
  { id: 'toolu_second', name: 'Agent', input: { description: 'Implement Task 2', prompt: 'Go.' } },
];

function transcript(after: Record<string, string>): string {
  const lines: Line[] = [
    { type: 'system', subtype: 'init', model: 'claude-sonnet-5-5', tools: ['Read', 'Agent'] },
    turn(calls),
    results({ toolu_read: '# plan', toolu_agent: DISPATCH_REFUSAL, ...after }),
    { type: 'result', subtype: 'success', is_error: false, num_turns: 1, result: 'done' },
  ];
  return `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`;
}

const notRun = {
  toolu_bash: `PreToolUse:Bash hook error: ${NOT_RUN_RESULT}`,
  toolu_second: NOT_RUN_RESULT,
};
const ran = { toolu_bash: 'exit 1: not a git repository', toolu_second: 'subagent failed' };

describe('calls a capture refused as "Not run." are no calls of the session', () => {
  it('tool_uses counts the calls that ran and the captured dispatch', () => {
    const read = readTranscript(transcript(notRun));
    expect(read.toolCalls).toHaveLength(4);
    expect(read.counts.toolUses).toBe(2);
    expect(read.counts.subagentDispatches).toBe(1);
    const planted = readTranscript(transcript(ran));
    expect(planted.counts.toolUses).toBe(4);
    expect(planted.counts.subagentDispatches).toBe(2);
  });

  it('checks see only the calls that ran, and dispatches only those that ran or were captured', () => {
    const compiled = loadScenarioDir(path.join(repoRoot, 'scenarios', 's1-probe'));
    if (!compiled.ok) throw new Error(compiled.error.problem);
    const evidenceOf = (after: Record<string, string>) =>
      buildEvidence({
        scenario: compiled.value,
        facts: FACTS,
        inputs: { toolCalls: readTranscript(transcript(after)).toolCalls },
        runner: { kind: 'completed' },
      }).post;
    const bash = { verb: 'tool-called', tool: 'Bash', runs: 'git' };
    const anySecond = { verb: 'dispatch', select: { which: 'nth', n: 2 } };
    const refused = evidenceOf(notRun);
    expect(refused.transcript?.calls.map((call) => call.id)).toEqual(['toolu_read', 'toolu_agent']);
    expect(refused.transcript?.dispatches).toHaveLength(1);
    expect(check(bash, refused).outcome).toBe('fail');
    expect(check(anySecond, refused).outcome).toBe('fail');
    // Planted negative: the same calls with results of their own are the session's calls.
    const real = evidenceOf(ran);
    expect(real.transcript?.dispatches).toHaveLength(2);
    expect(check(bash, real).outcome).toBe('pass');
    expect(check(anySecond, real).outcome).toBe('pass');
  });
});
