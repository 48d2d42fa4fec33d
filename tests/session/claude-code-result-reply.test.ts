import type { SDKResultMessage } from '@anthropic-ai/claude-agent-sdk';
import { describe, expect, it } from 'vitest';
import { replyAfterResult } from '../../harness/session/claude-code-result-reply.js';

// The two results of a recorded Claude Code session (fields the reply depends on, as recorded):
// the root thread's answer, then, once its two background reviewers finished, the engine's
// result for the task notification, which ran no turn of the root thread.
const answered = {
  type: 'result',
  subtype: 'success',
  is_error: false,
  num_turns: 6,
  stop_reason: 'end_turn',
  result: 'Added the line to README.md; both reviewers approved.',
  result_index: 0,
} as unknown as SDKResultMessage;
const afterBackgroundAgents = {
  type: 'result',
  subtype: 'success',
  is_error: false,
  num_turns: 0,
  stop_reason: null,
  result: '',
  result_index: 1,
  origin: { kind: 'task-notification', producer: 'session-task' },
} as unknown as SDKResultMessage;

describe('the final reply from the engine results', () => {
  it('is the root answer when a later result ran no turn', () => {
    const first = replyAfterResult(null, answered);
    expect(replyAfterResult(first, afterBackgroundAgents)).toBe(
      'Added the line to README.md; both reviewers approved.',
    );
  });

  it('is a later result when that one ran a turn of its own', () => {
    const anotherTurn = {
      ...afterBackgroundAgents,
      num_turns: 1,
      result: 'Both reviewers are done.',
    } as unknown as SDKResultMessage;
    expect(replyAfterResult(replyAfterResult(null, answered), anotherTurn)).toBe(
      'Both reviewers are done.',
    );
  });

  it('stays empty for a session whose only result says nothing', () => {
    expect(replyAfterResult(null, afterBackgroundAgents)).toBeNull();
  });
});
