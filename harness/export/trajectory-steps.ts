/**
 * ATIF steps of one conversation (the controller's or a subagent seat's): an
 * agent step per model turn with its text, reasoning, tool calls and the
 * results that answer them (linked to the subagent trajectory a dispatch or
 * resume started, when there is one), and a user step per user message.
 */
import type { ToolCall } from '../score/tool-call.js';
import type {
  AtifObservationResult,
  AtifStep,
  AtifSubagentRef,
  AtifToolCall,
} from './atif-document.js';
import { turnMetrics } from './step-metrics.js';
import type { MappingGaps } from './trajectory-notes.js';
import type { AgentTurn, UserTurn } from './transcript-sequence.js';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function agentStep(
  turn: AgentTurn,
  stepId: number,
  calls: ReadonlyMap<string, ToolCall>,
  pricedModel: string | undefined,
  gaps: MappingGaps,
  /** Links to subagent trajectories, by the id of the call that started or resumed each. */
  refs: ReadonlyMap<string, AtifSubagentRef[]> = new Map(),
): AtifStep {
  const toolCalls: AtifToolCall[] = [];
  const results: AtifObservationResult[] = [];
  const toolErrors: string[] = [];
  for (const id of turn.toolUseIds) {
    const call = calls.get(id);
    if (call === undefined) {
      gaps.callsNotRead++;
      continue;
    }
    if (!isPlainObject(call.input)) gaps.argumentsWrapped++;
    toolCalls.push({
      tool_call_id: call.id,
      function_name: call.name,
      arguments: isPlainObject(call.input) ? call.input : { input: call.input },
    });
    const linked = refs.get(call.id);
    const link = linked === undefined ? {} : { subagent_trajectory_ref: linked };
    if (call.output === undefined) {
      gaps.callsWithoutResult++;
      if (linked !== undefined) results.push({ source_call_id: call.id, ...link });
      continue;
    }
    results.push({ source_call_id: call.id, content: call.output, ...link });
    if (call.isError === true) toolErrors.push(call.id);
  }
  const metrics = turnMetrics(turn, pricedModel);
  const extra: Record<string, unknown> = {};
  if (turn.messageId !== undefined) extra.message_id = turn.messageId;
  if (turn.error !== undefined) extra.engine_error = turn.error;
  if (toolErrors.length > 0) extra.tool_errors = toolErrors;
  if (turn.redactedThinking > 0) extra.redacted_thinking_blocks = turn.redactedThinking;
  if (Object.keys(turn.otherBlocks).length > 0) extra.unmapped_blocks = turn.otherBlocks;
  return {
    step_id: stepId,
    ...(turn.timestamp === undefined ? {} : { timestamp: turn.timestamp }),
    source: 'agent',
    ...(turn.model === undefined || turn.model === '' ? {} : { model_name: turn.model }),
    message: turn.texts.join(''),
    ...(turn.thinking.length === 0 ? {} : { reasoning_content: turn.thinking.join('\n\n') }),
    ...(toolCalls.length === 0 ? {} : { tool_calls: toolCalls }),
    ...(results.length === 0 ? {} : { observation: { results } }),
    ...(metrics === undefined ? {} : { metrics }),
    ...(Object.keys(extra).length === 0 ? {} : { extra }),
  };
}

export function userStep(turn: UserTurn, stepId: number): AtifStep {
  return {
    step_id: stepId,
    ...(turn.timestamp === undefined ? {} : { timestamp: turn.timestamp }),
    source: 'user',
    message: turn.text,
    ...(turn.synthetic ? { extra: { synthetic: true } } : {}),
  };
}
