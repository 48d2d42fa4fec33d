/**
 * The SDD pack's part of `redgreen check`: the controller's own plan. It is
 * the recipe's plan, or the one `--plan` names (which must be one of the
 * fixture's plans); a scenario without a plan has none. The report says it
 * (`ownPlan`, and `(own plan …)` after the scenario's id), the facts take it,
 * and a session whose prompt names none of the scenario's plans gets a hint.
 */
import path from 'node:path';
import type { CheckExtension } from '../../../harness/check/check-extensions.js';
import { inputError } from '../../../harness/lib/input-error.js';
import { err, ok } from '../../../harness/lib/result.js';
import { scenarioPlanOf } from '../scenario/index.js';

/**
 * A hint when the session's prompt names none of the scenario's plans (by
 * path, file name or alias): the transcript is likely of another scenario,
 * whose checks would then be the wrong ones. Undefined when it names one.
 */
export function promptHint(
  scenarioId: string,
  prompt: string,
  plans: readonly string[],
  aliases: readonly string[],
): string | undefined {
  const names = [...plans, ...plans.map((plan) => path.basename(plan)), ...aliases];
  const lower = prompt.toLowerCase();
  if (names.some((name) => name !== '' && lower.includes(name.toLowerCase()))) return undefined;
  return `the transcript's prompt names none of ${scenarioId}'s plans (${plans.join(', ')}): was the session run on this scenario's fixture? A transcript of another scenario is scored with the wrong checks; pass that scenario's id`;
}

/**
 * The plans a scenario's fixture holds: the controller's own, each ledger's,
 * and those the scenario's catalogue names; a `--plan` must be one of them.
 */
function fixturePlans(
  ownPlan: string | undefined,
  ledgerPlans: readonly string[],
  catalogue: readonly string[],
): string[] {
  return [...new Set([...(ownPlan === undefined ? [] : [ownPlan]), ...ledgerPlans, ...catalogue])];
}

/** The plan and the ledgers' plans this pack's fingerprint fields record (plain data). */
function fingerprintPlans(fields: Readonly<Record<string, unknown>>): {
  plan: string | undefined;
  ledgers: { plan: string }[];
} {
  const ledgers = Array.isArray(fields.ledgers) ? (fields.ledgers as unknown[]) : [];
  return {
    plan: typeof fields.plan === 'string' ? fields.plan : undefined,
    ledgers: ledgers.flatMap((ledger) => {
      const plan = (ledger as { plan?: unknown } | null)?.plan;
      return typeof plan === 'string' ? [{ plan }] : [];
    }),
  };
}

export const ownPlanCheck: CheckExtension = {
  prepare: ({ scenarioId, scenario, fixture, request }) => {
    const recipe = fingerprintPlans(fixture);
    const catalogue = (scenario.plans ?? {}) as Record<string, { aliases?: string[] }>;
    const plans = fixturePlans(
      recipe.plan,
      recipe.ledgers.map((ledger) => ledger.plan),
      Object.keys(catalogue),
    );
    const asked = typeof request.plan === 'string' ? request.plan : undefined;
    if (asked !== undefined && !plans.includes(asked)) {
      return err(
        inputError(
          `--plan ${asked}`,
          asked.trim() === '' ? 'is empty' : `is not a plan of the ${scenarioId} fixture`,
          `use one of ${plans.join(', ')}, or leave --plan off for ${recipe.plan}`,
        ),
      );
    }
    // A scenario without a plan has none, whatever its recipe's.
    const ownPlan = scenarioPlanOf(scenario) === undefined ? undefined : (asked ?? recipe.plan);
    const aliases = Object.values(catalogue).flatMap((plan) => plan.aliases ?? []);
    return ok({
      overrides: ownPlan === undefined ? {} : { plan: ownPlan },
      reportFields: { ownPlan: ownPlan ?? null },
      promptHint: (prompt) => promptHint(scenarioId, prompt, plans, aliases),
    });
  },
  // Absent: the scenario does not name the pack, which took no part.
  scenarioNote: (report) =>
    !('ownPlan' in report)
      ? undefined
      : typeof report.ownPlan === 'string'
        ? `own plan ${report.ownPlan}`
        : 'no plan',
};
