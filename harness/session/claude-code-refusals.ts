/**
 * Calls of offered tools that a session never runs, refused on the Claude
 * Code engine by a PreToolUse hook (before any permission rule), with the
 * same neutral results the messages backend gives: a web tool a scenario
 * added (sessions have no network), and a question to the human outside a
 * full session (nobody answers it; a first-dispatch or event stop captures
 * it before this hook sees it).
 */
import type { HookCallback, Options } from '@anthropic-ai/claude-agent-sdk';
import type { StopMode } from '../score/stop-mode.js';
import { isQuestionTool, QUESTION_REFUSAL } from './dispatch-capture.js';
import { REFUSED_TOOLS, toolRefusal } from './session-tool-table.js';

function refusalHook(stop: StopMode): HookCallback {
  return async (input) => {
    if (input.hook_event_name !== 'PreToolUse') return {};
    const reason = REFUSED_TOOLS.includes(input.tool_name)
      ? toolRefusal(input.tool_name)
      : isQuestionTool(input.tool_name) && stop === 'report'
        ? QUESTION_REFUSAL
        : undefined;
    if (reason === undefined) return {};
    return {
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: reason,
      },
    };
  };
}

/** What to add to `query()`'s options. */
export function claudeCodeRefusalHook(stop: StopMode): Pick<Options, 'hooks'> {
  return { hooks: { PreToolUse: [{ hooks: [refusalHook(stop)] }] } };
}
