/**
 * The capture rule both backends share, and the PreToolUse hook the
 * claude-code backend gives the engine, called the way the engine calls it:
 * the controller's first Agent/Task/SendMessage call, or its first question
 * (AskUserQuestion), is captured and refused with `continue: false`; a call inside a subagent (the hook input carries an
 * `agent_id`) is never the controller's; every call after a capture is denied
 * as not run; anything else passes untouched.
 */
import type { HookInput } from '@anthropic-ai/claude-agent-sdk';
import { describe, expect, it } from 'vitest';
import { firstDispatchHook } from '../../harness/session/claude-code-capture.js';
import {
  DISPATCH_REFUSAL,
  DispatchCapture,
  NOT_RUN_RESULT,
  QUESTION_REFUSAL,
} from '../../harness/session/dispatch-capture.js';

const agentInput = {
  description: 'Implement Task 1',
  prompt: 'Implement Task 1 (Export data model).',
  subagent_type: 'general-purpose',
};

function preToolUse(
  toolUseId: string,
  toolName: string,
  toolInput: unknown,
  agentId?: string,
): HookInput {
  return {
    hook_event_name: 'PreToolUse',
    session_id: 's',
    transcript_path: '',
    cwd: '/repo',
    tool_name: toolName,
    tool_input: toolInput,
    tool_use_id: toolUseId,
    ...(agentId === undefined ? {} : { agent_id: agentId, agent_type: 'general-purpose' }),
  };
}

const options = { signal: new AbortController().signal };

describe('DispatchCapture', () => {
  it('captures the first controller dispatch of any of the three tools, or a question, and skips everything after', () => {
    for (const tool of ['Agent', 'Task', 'SendMessage', 'AskUserQuestion']) {
      const capture = new DispatchCapture();
      expect(
        capture.decide({ toolUseId: 'a', tool: 'Read', input: {}, insideSubagent: false }),
      ).toBe('run');
      expect(capture.decide({ toolUseId: 'b', tool, input: { x: 1 }, insideSubagent: false })).toBe(
        'capture',
      );
      expect(capture.captured).toEqual({ toolUseId: 'b', tool, input: { x: 1 } });
      expect(
        capture.decide({ toolUseId: 'c', tool: 'Bash', input: {}, insideSubagent: false }),
      ).toBe('skip');
      expect(capture.decide({ toolUseId: 'd', tool, input: {}, insideSubagent: false })).toBe(
        'skip',
      );
      expect(capture.captured?.toolUseId).toBe('b');
    }
  });

  it('never captures a dispatch made inside a subagent', () => {
    const capture = new DispatchCapture();
    expect(capture.decide({ toolUseId: 's', tool: 'Agent', input: {}, insideSubagent: true })).toBe(
      'run',
    );
    expect(capture.captured).toBeNull();
  });
});

describe('the first-dispatch PreToolUse hook', () => {
  it('lets ordinary calls and subagent dispatches through, then captures the controller’s dispatch', async () => {
    const capture = new DispatchCapture();
    const hook = firstDispatchHook(capture);
    expect(await hook(preToolUse('t1', 'Read', { file_path: '/repo/a' }), 't1', options)).toEqual(
      {},
    );
    expect(await hook(preToolUse('t2', 'Agent', agentInput, 'a1b2c3'), 't2', options)).toEqual({});
    expect(capture.captured).toBeNull();

    expect(await hook(preToolUse('t3', 'Agent', agentInput), 't3', options)).toEqual({
      continue: false,
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: DISPATCH_REFUSAL,
      },
    });
    expect(capture.captured).toEqual({ toolUseId: 't3', tool: 'Agent', input: agentInput });

    expect(await hook(preToolUse('t4', 'Bash', { command: 'true' }), 't4', options)).toMatchObject({
      continue: false,
      hookSpecificOutput: { permissionDecision: 'deny', permissionDecisionReason: NOT_RUN_RESULT },
    });
    expect(capture.captured?.toolUseId).toBe('t3');
  });

  it('refuses a captured question with the question refusal', async () => {
    const capture = new DispatchCapture();
    const question = { questions: [{ question: 'Which governs?' }] };
    expect(
      await firstDispatchHook(capture)(
        preToolUse('q1', 'AskUserQuestion', question),
        'q1',
        options,
      ),
    ).toMatchObject({
      continue: false,
      hookSpecificOutput: {
        permissionDecision: 'deny',
        permissionDecisionReason: QUESTION_REFUSAL,
      },
    });
    expect(capture.captured).toEqual({ toolUseId: 'q1', tool: 'AskUserQuestion', input: question });
  });

  it('ignores other hook events', async () => {
    const capture = new DispatchCapture();
    const stop: HookInput = {
      hook_event_name: 'Stop',
      session_id: 's',
      transcript_path: '',
      cwd: '/repo',
      stop_hook_active: false,
    } as HookInput;
    expect(await firstDispatchHook(capture)(stop, undefined, options)).toEqual({});
    expect(capture.captured).toBeNull();
  });
});

describe('the refusal', () => {
  it('is one fixed sentence that says nothing of evaluation, tests or capture', () => {
    expect(DISPATCH_REFUSAL).toBe('Subagent dispatch is not available in this session.');
    expect(QUESTION_REFUSAL).toBe('Asking the user is not available in this session.');
    for (const text of [DISPATCH_REFUSAL, QUESTION_REFUSAL, NOT_RUN_RESULT]) {
      expect(text).not.toMatch(/eval|test|captur|record|score|redgreen|experiment|probe/i);
    }
  });
});
