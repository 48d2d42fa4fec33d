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

/**
 * The links between a trajectory and its subagents' trajectories (`subs`,
 * by trajectory_path as the links write it), checked across documents:
 * every `subagent_trajectory_ref` names a path that was written, with that
 * trajectory's session_id, from the result of a call (never a bare result);
 * every subagent trajectory is linked from some result; each subagent
 * trajectory holds by itself (atifInvariantProblems).
 */
export function subagentLinkProblems(
  main: AtifTrajectory,
  subs: ReadonlyMap<string, AtifTrajectory>,
): string[] {
  const problems: string[] = [];
  const linked = new Set<string>();
  for (const [index, step] of main.steps.entries()) {
    for (const [resultIndex, result] of (step.observation?.results ?? []).entries()) {
      for (const ref of result.subagent_trajectory_ref ?? []) {
        const where = `steps[${index}].observation.results[${resultIndex}]`;
        if (result.source_call_id === undefined || result.source_call_id === null) {
          problems.push(`${where} links subagent ${ref.session_id} but answers no tool call`);
        }
        const path = ref.trajectory_path ?? undefined;
        const sub = path === undefined ? undefined : subs.get(path);
        if (sub === undefined) {
          problems.push(`${where} links ${path ?? '(no trajectory_path)'}, which is not written`);
          continue;
        }
        if (sub.session_id !== ref.session_id) {
          problems.push(
            `${where} links ${path} as session ${ref.session_id}, but its session_id is ${sub.session_id}`,
          );
        }
        linked.add(path as string);
      }
    }
  }
  for (const [path, sub] of subs) {
    if (!linked.has(path)) problems.push(`subagent trajectory ${path} is linked from no result`);
    problems.push(...atifInvariantProblems(sub).map((problem) => `${path}: ${problem}`));
  }
  return problems;
}
