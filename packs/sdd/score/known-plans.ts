/**
 * The plans a scenario knows, for load-time validation and reading: its own
 * plan (`plan`, also `{{ownPlan}}`) and its catalogue's (`plans`, a field
 * this pack adds to scenario.json), each with its task count when the
 * catalogue says. With these a check that names Task 9 of a five-task plan,
 * or a plan the scenario does not know, is refused when the scenario loads.
 */
import type { ValidationContext } from '../../../harness/score/validation.js';
import { samePlan } from './language/plan-names.js';
import { type PlanCatalogue, taskCountOf } from './plan-context.js';

/** A plan a check may name, and how many tasks it has (undefined when the scenario does not say). */
export interface KnownPlan {
  readonly path: string;
  readonly taskCount: number | undefined;
}

const NO_PLANS: PlanCatalogue = {};

/** The scenario's plan catalogue (its `plans` field, validated with the scenario). */
export function catalogueOf(scenario: Readonly<Record<string, unknown>>): PlanCatalogue {
  return (scenario.plans as PlanCatalogue | undefined) ?? NO_PLANS;
}

/** The placeholder a plan param names the scenario's own plan by. */
const OWN_PLAN = /^\{\{\s*ownPlan\s*\}\}$/;

/** The plans of a scenario: its own plan first, then its catalogue's, each once. */
export function scenarioPlans(scenario: Readonly<Record<string, unknown>>): KnownPlan[] {
  const catalogue = catalogueOf(scenario);
  const own = typeof scenario.plan === 'string' ? [scenario.plan] : [];
  const paths = [...own, ...Object.keys(catalogue)].filter(
    (plan, index, all) => all.findIndex((other) => samePlan(other, plan)) === index,
  );
  return paths.map((path) => {
    const count = taskCountOf(catalogue, path);
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

/** The known plan a task or tasks section reads, when it is known at load. */
export function sectionPlanOf(context: ValidationContext, section: string): KnownPlan | undefined {
  if (context.scenario === undefined) return undefined;
  const kind = context.sections[section];
  if (kind !== 'task' && kind !== 'tasks') return undefined;
  const spec = context.sectionSpecs?.[section]?.plan;
  const known = knownPlanOf(
    typeof spec === 'string' ? spec : '{{ownPlan}}',
    scenarioPlans(context.scenario),
  );
  return known === 'unknown' ? undefined : known;
}
