import type { AtifTrajectory } from './atif-document.js';

/** Step fields the ATIF spec allows only on agent steps. */
const AGENT_ONLY_FIELDS = ['model_name', 'reasoning_content', 'tool_calls', 'metrics'] as const;

/**
 * The rules of ATIF v1.4 that a JSON Schema cannot state, checked on a
 * document: step ids run 1, 2, 3…; agent-only fields appear only on agent
 * steps; tool call ids are unique; every observation result that names a
 * call names one made in the same step; `final_metrics.total_steps` counts
 * the steps. Returns one line per broken rule (empty when the document holds).
 */
export function atifInvariantProblems(trajectory: AtifTrajectory): string[] {
  const problems: string[] = [];
  const seenCalls = new Set<string>();
  for (const [index, step] of trajectory.steps.entries()) {
    const where = `steps[${index}]`;
    if (step.step_id !== index + 1) {
      problems.push(`${where}.step_id is ${step.step_id}, expected ${index + 1}`);
    }
    if (step.source !== 'agent') {
      for (const field of AGENT_ONLY_FIELDS) {
        if (step[field] !== undefined) {
          problems.push(`${where}.${field} is set on a ${step.source} step (agent steps only)`);
        }
      }
    }
    const ownCalls = new Set<string>();
    for (const call of step.tool_calls ?? []) {
      if (seenCalls.has(call.tool_call_id)) {
        problems.push(`${where}: tool_call_id ${call.tool_call_id} appears more than once`);
      }
      seenCalls.add(call.tool_call_id);
      ownCalls.add(call.tool_call_id);
    }
    for (const [resultIndex, result] of (step.observation?.results ?? []).entries()) {
      const source = result.source_call_id;
      if (source !== undefined && source !== null && !ownCalls.has(source)) {
        problems.push(
          `${where}.observation.results[${resultIndex}].source_call_id ${source} names no tool call of this step`,
        );
      }
    }
  }
  const total = trajectory.final_metrics?.total_steps;
  if (total !== undefined && total !== trajectory.steps.length) {
    problems.push(
      `final_metrics.total_steps is ${total}, but there are ${trajectory.steps.length} steps`,
    );
  }
  return problems;
}
