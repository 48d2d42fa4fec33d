/**
 * The controller's subagent dispatches, derived from its tool calls in
 * transcript order: every controller-seat call named `Agent` or `Task` is a
 * fresh dispatch, `SendMessage` a resume. Each dispatch's plan task is read
 * (from its description, a brief file it names, then its prompt) for every
 * plan the scenario knows, so checks compare values and never read prose.
 */
import { type Dispatch, type Reading, seatOf } from './evidence.js';
import { readDispatchTask } from './extractors/language/dispatch-task.js';
import { type PlanCatalogue, planReadingContext } from './extractors/plan-context.js';
import { stringField, type ToolCall } from './tool-call.js';

const FRESH_TOOLS: readonly string[] = ['Agent', 'Task'];
const RESUME_TOOLS: readonly string[] = ['SendMessage'];

function nullable(input: unknown, ...fields: string[]): string | null {
  for (const field of fields) {
    const value = stringField(input, field);
    if (value !== undefined) return value;
  }
  return null;
}

/** The dispatches among `calls`; tasks are read for each of `plans`, with `otherPlans` set aside. */
export function dispatchesOf(
  calls: readonly ToolCall[],
  catalogue: PlanCatalogue,
  plans: readonly string[],
  otherPlans: readonly string[],
): Dispatch[] {
  const contexts = plans.map((plan) => ({
    plan,
    context: planReadingContext(catalogue, plan, otherPlans),
  }));
  const dispatches: Dispatch[] = [];
  for (const call of calls) {
    if (seatOf(call) !== 'controller') continue;
    const fresh = FRESH_TOOLS.includes(call.name);
    if (!fresh && !RESUME_TOOLS.includes(call.name)) continue;
    const description = nullable(call.input, 'description', 'summary');
    const prompt = nullable(call.input, 'prompt', 'message', 'content');
    const tasks: Record<string, Reading<number | 'none'>> = {};
    for (const { plan, context } of contexts) {
      const task = readDispatchTask({ description, prompt }, context.attribution, context.options);
      tasks[plan] =
        task === undefined
          ? { ok: false, why: 'names no task of the plan' }
          : { ok: true, value: task, quote: (description ?? prompt ?? '').slice(0, 120) };
    }
    dispatches.push({
      index: dispatches.length + 1,
      callId: call.id,
      tool: call.name,
      kind: fresh ? 'fresh' : 'resume',
      subagentType: fresh ? nullable(call.input, 'subagent_type') : null,
      model: nullable(call.input, 'model'),
      description,
      prompt,
      tasks,
    });
  }
  return dispatches;
}
