/**
 * What a check's load-time validation may know beyond the report contract's
 * section kinds: the values each choice section declares, the plan each task
 * section reads and how many tasks it has, and the plans a dispatch check may
 * name. With these a check that could never pass (Task 9 of a five-task plan,
 * a choice value no section declares, a plan the scenario does not know) is
 * refused when the scenario loads rather than left undecided at every rep.
 */
import type { CompiledSection } from './compile-report.js';
import { samePlan } from './extractors/language/plan-names.js';
import { taskCountOf } from './extractors/plan-context.js';
import type { ScenarioShell } from './scenario-schema.js';
import type { KnownPlan, ValidationContext } from './verb.js';

/** The placeholder a plan param names the scenario's own plan by. */
const OWN_PLAN = /^\{\{\s*ownPlan\s*\}\}$/;

/** The plans of a scenario: its own plan first, then its catalogue's, each once. */
export function scenarioPlans(shell: ScenarioShell): KnownPlan[] {
  const paths = [
    ...(shell.plan === undefined ? [] : [shell.plan]),
    ...Object.keys(shell.plans),
  ].filter((plan, index, all) => all.findIndex((other) => samePlan(other, plan)) === index);
  return paths.map((path) => {
    const count = taskCountOf(shell.plans, path);
    return { path, taskCount: count === undefined || count === 0 ? undefined : count };
  });
}

/**
 * The known plan a plan param names: `{{ownPlan}}` is the scenario's plan, a
 * path is the catalogue's plan of that path; 'unknown' for a path the
 * scenario does not know; undefined when it names another placeholder
 * (known only per rep).
 */
export function knownPlanOf(
  plan: string,
  plans: readonly KnownPlan[],
): KnownPlan | 'unknown' | undefined {
  if (OWN_PLAN.test(plan.trim())) return plans[0] ?? 'unknown';
  if (plan.includes('{{')) return undefined;
  return plans.find((known) => samePlan(known.path, plan)) ?? 'unknown';
}

/** The validation context of a scenario whose sections have been compiled. */
export function validationContext(
  shell: ScenarioShell,
  sections: readonly CompiledSection[],
): Omit<ValidationContext, 'sections'> {
  const plans = scenarioPlans(shell);
  const choiceValues: Record<string, readonly string[]> = {};
  const sectionPlans: Record<string, KnownPlan> = {};
  for (const section of sections) {
    if (section.kind === 'choice') {
      const values = section.spec.values;
      if (typeof values === 'object' && values !== null)
        choiceValues[section.name] = Object.keys(values);
    }
    if (section.kind === 'task' || section.kind === 'tasks') {
      const plan = typeof section.spec.plan === 'string' ? section.spec.plan : '{{ownPlan}}';
      const known = knownPlanOf(plan, plans);
      if (known !== undefined && known !== 'unknown') sectionPlans[section.name] = known;
    }
  }
  return { choiceValues, sectionPlans, plans };
}
