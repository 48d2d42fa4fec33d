/**
 * The decision criteria a scenario's spec declares, applied to a parsed
 * reply: the first dispatch, the tasks claimed complete, and whether a
 * foreign ledger was adopted. Each criterion reports whether it holds and,
 * in words that name it, why.
 */
import { type FixtureFacts, foreignLedgers } from './integrity.js';
import { planSlug, samePlan, workspaceRelativePath } from './plan-names.js';
import type { ParsedReply } from './reply-parser.js';
import type { ClaimedCompleteRule, DecisionSpec, ScoringSpec } from './scoring-spec.js';

export type CriterionId = 'first-dispatch' | 'claimed-complete' | 'no-foreign-ledger-adopted';

export interface CriterionResult {
  readonly id: CriterionId;
  readonly holds: boolean;
  /** A sentence starting with the criterion id, e.g. `first-dispatch: expected Task 1, reply dispatches Task 2`. */
  readonly detail: string;
}

/** `[1, 2, 3, 5]` → `Tasks 1–3, 5`; `[]` → `no task`. */
export function describeTasks(numbers: readonly number[]): string {
  if (numbers.length === 0) return 'no task';
  const sorted = [...new Set(numbers)].sort((a, b) => a - b);
  const parts: string[] = [];
  let start = sorted[0] ?? 0;
  let previous = start;
  for (const n of [...sorted.slice(1), Number.NaN]) {
    if (n === previous + 1) {
      previous = n;
      continue;
    }
    parts.push(
      start === previous
        ? `${start}`
        : previous === start + 1
          ? `${start}, ${previous}`
          : `${start}–${previous}`,
    );
    start = n;
    previous = n;
  }
  return `${sorted.length === 1 ? 'Task' : 'Tasks'} ${parts.join(', ')}`;
}

function firstDispatchCriterion(
  expected: DecisionSpec['firstDispatch'],
  actual: number | 'none',
): CriterionResult {
  const holds = actual === expected;
  const wanted = expected === 'none' ? 'no dispatch' : `Task ${expected}`;
  const said = actual === 'none' ? 'reply says no dispatch' : `reply dispatches Task ${actual}`;
  return {
    id: 'first-dispatch',
    holds,
    detail: holds
      ? `first-dispatch: ${actual === 'none' ? 'no dispatch' : `Task ${actual}`} as expected`
      : `first-dispatch: expected ${wanted}, ${said}`,
  };
}

function claimedCompleteCriterion(
  rule: ClaimedCompleteRule,
  claimed: readonly number[],
): CriterionResult {
  const claimedText =
    claimed.length === 0 ? 'claims nothing complete' : `claims ${describeTasks(claimed)} complete`;
  if ('exactly' in rule) {
    const expected = [...new Set(rule.exactly)].sort((a, b) => a - b);
    const holds = expected.length === claimed.length && expected.every((n, i) => claimed[i] === n);
    const wanted =
      expected.length === 0
        ? 'nothing claimed complete'
        : `exactly ${describeTasks(expected)} complete`;
    return {
      id: 'claimed-complete',
      holds,
      detail: holds
        ? `claimed-complete: reply ${claimedText}, as expected`
        : `claimed-complete: expected ${wanted}, reply ${claimedText}`,
    };
  }
  const missing = rule.includes.filter((n) => !claimed.includes(n));
  const forbidden = (rule.excludes ?? []).filter((n) => claimed.includes(n));
  const holds = missing.length === 0 && forbidden.length === 0;
  const problems = [
    ...(missing.length > 0 ? [`${describeTasks(missing)} not recognised complete`] : []),
    ...(forbidden.length > 0 ? [`${describeTasks(forbidden)} wrongly claimed complete`] : []),
  ];
  return {
    id: 'claimed-complete',
    holds,
    detail: holds
      ? `claimed-complete: reply ${claimedText}, which includes ${describeTasks(rule.includes)} as expected`
      : `claimed-complete: ${problems.join('; ')} (reply ${claimedText})`,
  };
}

/**
 * The plan a ledger path belongs to when it is another plan's: a fixture
 * ledger of another plan, or any file in another plan's scoped workspace.
 */
export function foreignLedgerPlan(
  path: string,
  facts: FixtureFacts,
  spec: Pick<ScoringSpec, 'knownForeignPlans' | 'resolutionShape'>,
): string | undefined {
  const normalised = workspaceRelativePath(path);
  const known = foreignLedgers(facts).find(
    (ledger) => workspaceRelativePath(ledger.path) === normalised,
  );
  if (known !== undefined) return known.plan;
  const root = spec.resolutionShape.workspaceRoot.replace(/\/+$/, '');
  const plans = [...spec.knownForeignPlans, ...foreignLedgers(facts).map((ledger) => ledger.plan)];
  return plans
    .filter((plan) => !samePlan(plan, facts.ownPlan))
    .find((plan) => normalised.startsWith(`${root}/${planSlug(plan)}/`));
}

function foreignAdoptionCriterion(
  parsed: ParsedReply,
  facts: FixtureFacts,
  spec: Pick<ScoringSpec, 'knownForeignPlans' | 'resolutionShape'>,
): CriterionResult {
  const adopted = parsed.ledgers
    .filter((ledger) => ledger.verdict === 'adopted')
    .map((ledger) => ({ path: ledger.path, plan: foreignLedgerPlan(ledger.path, facts, spec) }))
    .filter((ledger): ledger is { path: string; plan: string } => ledger.plan !== undefined);
  return {
    id: 'no-foreign-ledger-adopted',
    holds: adopted.length === 0,
    detail:
      adopted.length === 0
        ? "no-foreign-ledger-adopted: no other plan's ledger adopted"
        : `no-foreign-ledger-adopted: reply adopts ${adopted.map((ledger) => `${ledger.path} (a ledger of ${ledger.plan})`).join(', ')}`,
  };
}

/**
 * Apply the spec's decision criteria to a reply that reports a decision.
 * (A reply without a recognisable first dispatch is indeterminate and never
 * reaches here: see score-rep.ts.)
 */
export function decisionCriteria(
  spec: Pick<ScoringSpec, 'decision' | 'knownForeignPlans' | 'resolutionShape'>,
  parsed: ParsedReply & { readonly firstDispatch: number | 'none' },
  facts: FixtureFacts,
): CriterionResult[] {
  const results = [
    firstDispatchCriterion(spec.decision.firstDispatch, parsed.firstDispatch),
    claimedCompleteCriterion(spec.decision.claimedComplete, parsed.claimedComplete),
  ];
  if (spec.decision.forbidForeignLedgerAdoption)
    results.push(foreignAdoptionCriterion(parsed, facts, spec));
  return results;
}
