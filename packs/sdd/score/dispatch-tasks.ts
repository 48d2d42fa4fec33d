/**
 * The plan task each dispatch addresses, read for every plan the scenario
 * knows (from its description, the scenario's rules for no-task dispatches,
 * a file of the plan it names by the scenario's patterns, then its prompt),
 * and the `task` and `plan` fields this adds to the dispatch verb.
 */
import { z } from 'zod';
import type {
  DispatchInput,
  DispatchReader,
  DispatchReading,
} from '../../../harness/score/dispatch-reading.js';
import { dispatchesOf } from '../../../harness/score/dispatches.js';
import type { Dispatch, Reading } from '../../../harness/score/evidence.js';
import type { Facts } from '../../../harness/score/placeholders.js';
import type { ToolCall } from '../../../harness/score/tool-call.js';
import { catalogueOf, knownPlanOf, scenarioPlans } from './known-plans.js';
import type { DispatchConventions } from './language/dispatch-conventions.js';
import { readDispatchTask } from './language/dispatch-task.js';
import { type PlanCatalogue, planEntryOf, planReadingContext } from './plan-context.js';
import { describeTask, taskOrNone, taskRangeProblem } from './task-values.js';

/** A dispatch's task, by plan path. */
export type DispatchTasks = Readonly<Record<string, Reading<number | 'none'>>>;

/** The scenario's conventions for `plan`'s dispatches: its task files and its no-task rules. */
function dispatchConventions(catalogue: PlanCatalogue, plan: string): DispatchConventions {
  const entry = planEntryOf(catalogue, plan);
  const pattern = (source: string | undefined) =>
    source === undefined ? undefined : new RegExp(source, 'i');
  return {
    taskFiles: (entry?.taskFiles ?? []).map((source) => new RegExp(source)),
    noTask: (entry?.noTaskDispatches ?? []).map((rule) => ({
      subagentType: pattern(rule.subagentType),
      description: pattern(rule.description),
      prompt: pattern(rule.prompt),
    })),
  };
}

/** The reader of dispatch tasks for each of `plans`, with `otherPlans` set aside. */
export function dispatchTaskReader(
  catalogue: PlanCatalogue,
  plans: readonly string[],
  otherPlans: readonly string[],
): (dispatch: DispatchInput) => DispatchTasks {
  const contexts = plans.map((plan) => ({
    plan,
    context: planReadingContext(catalogue, plan, otherPlans),
    conventions: dispatchConventions(catalogue, plan),
  }));
  return (dispatch) => {
    const tasks: Record<string, Reading<number | 'none'>> = {};
    for (const { plan, context, conventions } of contexts) {
      const task = readDispatchTask(dispatch, context.attribution, context.options, conventions);
      tasks[plan] =
        task === undefined
          ? { ok: false, why: 'names no task of the plan' }
          : {
              ok: true,
              value: task,
              quote: (dispatch.description ?? dispatch.prompt ?? '').slice(0, 120),
            };
    }
    return tasks;
  };
}

function list(value: Facts[string] | undefined): readonly string[] {
  return value === undefined ? [] : typeof value === 'string' ? [value] : value;
}

/** The dispatches among `calls` with their tasks read (for callers outside a scored rep). */
export function dispatchesWithTasks(
  calls: readonly ToolCall[],
  catalogue: PlanCatalogue,
  plans: readonly string[],
  otherPlans: readonly string[],
): Dispatch[] {
  return dispatchesOf(calls, {
    sdd: dispatchTaskReader(catalogue, plans, otherPlans) as DispatchReader,
  });
}

/** A dispatch's tasks as this pack read them, by plan path (none when it was not read). */
export function tasksOf(dispatch: Pick<Dispatch, 'readings'>): DispatchTasks {
  return (dispatch.readings.sdd as DispatchTasks | undefined) ?? {};
}

const taskParams = {
  task: taskOrNone.optional(),
  /** The plan whose task `task` names. */
  plan: z.string().min(1).default('{{ownPlan}}'),
};

export const dispatchTaskReading: DispatchReading = {
  params: taskParams,
  reader: (scenario, facts) => {
    const catalogue = catalogueOf(scenario);
    const plans = [...new Set([...Object.keys(catalogue), ...list(facts.ownPlan)])];
    return dispatchTaskReader(catalogue, plans, list(facts.foreignPlans));
  },
  match: (params, reading) => {
    const task = params.task as number | 'none' | undefined;
    if (task === undefined) return undefined;
    const found = ((reading as DispatchTasks | undefined) ?? {})[params.plan as string];
    if (found === undefined || !found.ok) {
      return {
        outcome: 'undecided',
        said: `task not readable${found === undefined || found.ok ? '' : `: ${found.why}`}`,
      };
    }
    return { outcome: found.value === task ? 'pass' : 'fail', said: describeTask(found.value) };
  },
  validate: (params, context) => {
    if (context.scenario === undefined) return undefined;
    const plans = scenarioPlans(context.scenario);
    const planParam = params.plan as string;
    const plan = knownPlanOf(planParam, plans);
    if (plan === 'unknown') {
      return {
        field: 'plan',
        problem: `"${planParam}" is not a plan of this scenario, so no dispatch could be read as its task`,
        fix: `use {{ownPlan}} or one of ${plans.map((known) => known.path).join(', ')} (or add it to "plans")`,
      };
    }
    const task = params.task as number | 'none' | undefined;
    return task === undefined ? undefined : taskRangeProblem('task', [task], plan, true);
  },
};
