/**
 * The SDD pack's part of resolving a scenario: `{{planPath}}`, the session's
 * own plan (the scenario's `plan`, relative to the fixture repository), and
 * the check that the scenario names the plan its recipe's controller
 * executes.
 */
import type { ScenarioExtension } from '../../../harness/scenario/scenario-extensions.js';
import type { ScenarioShell } from '../../../harness/score/scenario-schema.js';

/** The scenario's own plan, if it names one. */
export function scenarioPlanOf(scenario: Readonly<Record<string, unknown>>): string | undefined {
  return typeof scenario.plan === 'string' ? scenario.plan : undefined;
}

export const sddScenario: ScenarioExtension = {
  promptVariables: [
    {
      name: 'planPath',
      valueOf: (scenario: ScenarioShell) => scenarioPlanOf(scenario),
      absentProblem: 'the scenario has no plan',
      absentFix: 'give the scenario a "plan"',
      unmentionedProblem: 'sessions would not know their plan',
    },
  ],
  recipeProblem: (scenario, fixtureScenario) => {
    const plan = scenarioPlanOf(scenario);
    const recipePlan = scenarioPlanOf(fixtureScenario);
    if (plan === undefined || recipePlan === plan) return undefined;
    return {
      field: 'plan',
      problem:
        recipePlan === undefined
          ? `"${plan}" names a plan, and the fixture's scenario has none`
          : `"${plan}" is not the plan the fixture's controller executes ("${recipePlan}")`,
      fix: 'name the same plan as the recipe, or the prompt and the scoring would disagree',
    };
  },
};
