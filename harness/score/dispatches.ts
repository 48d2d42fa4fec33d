/**
 * The controller's subagent dispatches, derived from its tool calls in
 * transcript order: every controller-seat call named `Agent` or `Task` is a
 * fresh dispatch, `SendMessage` a resume. A resume the tool refused (an
 * error result: no live agent by that id, a bad input) reached no subagent
 * and is no dispatch; the first-dispatch capture's own refusal is the one
 * error that still counts (it is how a probe records the decision). Each dispatch's plan task is read
 * (from its description, the scenario's rules for no-task dispatches, a file
 * of the plan it names by the scenario's patterns, then its prompt) for every
 * plan the scenario knows, so checks compare values and never read prose.
 */
import { type Dispatch, type Reading, seatOf } from './evidence.js';
import type { DispatchConventions } from './extractors/language/dispatch-conventions.js';
import { readDispatchTask } from './extractors/language/dispatch-task.js';
import { type PlanCatalogue, planEntryOf, planReadingContext } from './extractors/plan-context.js';
import { agentIdInResult, refusedResume, stringField, type ToolCall } from './tool-call.js';

const FRESH_TOOLS: readonly string[] = ['Agent', 'Task'];
const RESUME_TOOLS: readonly string[] = ['SendMessage'];

/**
 * The subagent a dispatch reaches: for a fresh one the agent id the
 * transcript records for it (a reader sets it), else the one its result
 * names; a resume's `to`.
 */
function agentIdOf(call: ToolCall, fresh: boolean): string | null {
  if (!fresh) return stringField(call.input, 'to') ?? null;
  return call.agentId ?? agentIdInResult(call.output);
}

function nullable(input: unknown, ...fields: string[]): string | null {
  for (const field of fields) {
    const value = stringField(input, field);
    if (value !== undefined) return value;
  }
  return null;
}

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
    conventions: dispatchConventions(catalogue, plan),
  }));
  const dispatches: Dispatch[] = [];
  for (const call of calls) {
    if (seatOf(call) !== 'controller') continue;
    const fresh = FRESH_TOOLS.includes(call.name);
    if (!fresh && !RESUME_TOOLS.includes(call.name)) continue;
    if (refusedResume(call)) continue;
    const description = nullable(call.input, 'description', 'summary');
    const prompt = nullable(call.input, 'prompt', 'message', 'content');
    const tasks: Record<string, Reading<number | 'none'>> = {};
    const subagentType = fresh ? nullable(call.input, 'subagent_type') : null;
    for (const { plan, context, conventions } of contexts) {
      const task = readDispatchTask(
        { description, prompt, subagentType },
        context.attribution,
        context.options,
        conventions,
      );
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
      subagentType,
      model: nullable(call.input, 'model'),
      description,
      prompt,
      agentId: agentIdOf(call, fresh),
      // Claude Code makes an agent addressable by its `name` while it runs.
      ...(fresh && stringField(call.input, 'name') !== undefined
        ? { agentName: stringField(call.input, 'name') ?? null }
        : {}),
      tasks,
    });
  }
  return dispatches;
}
