/**
 * The SDD pack's cost metric `dispatches-per-task`: the subagents the
 * controller started (fresh `Agent`/`Task` calls, Codex's spawns; resumes
 * with `SendMessage` are not new dispatches) over the distinct tasks of the
 * session's own plan those dispatches were read as being for
 * (dispatch-tasks.ts). Every fresh dispatch counts above the line, a final
 * review or a dispatch naming no task too; below it only tasks. A session
 * that dispatched for no task of its plan (none at all, or a scenario
 * without a plan) has no value: null, shown as n/a, never 0.
 */
import type { Evidence } from '../../../harness/score/evidence.js';
import type { PackMetric } from '../../../harness/score/pack-metric.js';
import type { Facts } from '../../../harness/score/placeholders.js';
import { tasksOf } from './dispatch-tasks.js';

/** Fresh dispatches ÷ distinct own-plan tasks dispatched for; null with no task, undefined without a transcript. */
export function dispatchesPerTask(evidence: Evidence, facts: Facts): number | null | undefined {
  const transcript = evidence.transcript;
  if (transcript === undefined) return undefined;
  const fresh = transcript.dispatches.filter((dispatch) => dispatch.kind === 'fresh');
  const plan = typeof facts.ownPlan === 'string' ? facts.ownPlan : undefined;
  if (plan === undefined) return null;
  const tasks = new Set<number>();
  for (const dispatch of fresh) {
    const reading = tasksOf(dispatch)[plan];
    if (reading?.ok === true && typeof reading.value === 'number') tasks.add(reading.value);
  }
  return tasks.size === 0 ? null : fresh.length / tasks.size;
}

export const dispatchesPerTaskMetric: PackMetric = {
  description:
    "fresh subagent dispatches over the distinct tasks of the session's own plan they were for (n/a with no task)",
  unit: 'dispatches per task',
  compute: dispatchesPerTask,
};
