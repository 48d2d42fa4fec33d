/**
 * The `max-disagreement-share` gate: the run fails closed when the checks and
 * the judge disagree, without a person having settled it, on more than the
 * given share of the reps both decided. Such a failure is an instrument
 * problem, not a skill regression, and `redgreen gate` says so
 * ("instrument disagreement").
 *
 * It looks at every cell of a judged scenario (one with a judge block; its
 * cells carry an agreement summary even when nobody judged them), so a cell
 * left unjudged cannot hide. Undecided (exit 2) when there is nothing, or
 * too little, to decide on: no judged rep, recorded reps of a judged
 * scenario not judged yet (or judged by another judge, or against an old
 * rubric), no rep both sides decided, or fewer reps both decided than
 * `minBothDecided` (default half) of the recorded reps: a judge whose
 * answers mostly turn unsure (a quote not found) must not let a few decided
 * reps speak for all. The judge answers set unsure for a quote not found are
 * counted in the figure, and how many of them went against the checks.
 */
import type { GateConfig } from '../campaign/config-schema.js';
import { type AgreementSummary, poolAgreement } from './agreement.js';

export const INSTRUMENT_DISAGREEMENT = 'instrument disagreement';

/** The share of recorded reps both sides must decide, when the gate does not say. */
export const DEFAULT_MIN_BOTH_DECIDED = 0.5;

type Gate = Extract<GateConfig, { kind: 'max-disagreement-share' }>;

interface GateCell {
  readonly scenario: string;
  readonly arm: string;
  readonly recorded: number;
  readonly agreement?: AgreementSummary | undefined;
}

const percent = (share: number): string => `${Math.round(share * 100)}%`;

/** "; 6 answered pass or fail with a quote not found (4 against the checks)", or nothing. */
function unquotedNote(pooled: AgreementSummary): string {
  if (pooled.quoteNotFound === 0) return '';
  return `; ${pooled.quoteNotFound} judge answer(s) set unsure for a quote not found (${pooled.quoteNotFoundAgainstChecks} against the checks)`;
}

export function disagreementGate(
  gate: Gate,
  cells: readonly GateCell[],
): { outcome: 'holds' | 'fails' | 'undecided'; figure: string } {
  const judged = cells.filter(
    (cell) =>
      (gate.scenario === undefined || cell.scenario === gate.scenario) &&
      cell.agreement !== undefined,
  );
  const pooled = poolAgreement(judged.map((cell) => cell.agreement as AgreementSummary));
  if (judged.length === 0 || pooled.judged === 0) {
    return {
      outcome: 'undecided',
      figure: 'no rep has been judged: run `redgreen judge <dir>` (or `redgreen run --judge`)',
    };
  }
  const recorded = judged.reduce((sum, cell) => sum + cell.recorded, 0);
  const lacking = recorded - pooled.judged;
  if (lacking > 0) {
    return {
      outcome: 'undecided',
      figure: `${lacking} recorded rep(s) not judged yet (or judged by another judge, or against an old rubric): run \`redgreen judge <dir>\``,
    };
  }
  if (pooled.compared === 0) {
    return {
      outcome: 'undecided',
      figure: `no rep was decided by both checks and judge (${pooled.judged} judged: ${pooled.judgeUnsure} unsure, ${pooled.checksUndecided} undecided by the checks)${unquotedNote(pooled)}`,
    };
  }
  const minimum = gate.minBothDecided ?? DEFAULT_MIN_BOTH_DECIDED;
  const coverage = pooled.compared / recorded;
  if (coverage < minimum) {
    return {
      outcome: 'undecided',
      figure: `only ${pooled.compared}/${recorded} recorded reps decided by both checks and judge (${percent(coverage)}; at least ${percent(minimum)} needed): ${pooled.judgeUnsure} judge unsure, ${pooled.checksUndecided} undecided by the checks${unquotedNote(pooled)}`,
    };
  }
  const share = pooled.unresolved / pooled.compared;
  const settled = pooled.adjudicated === 0 ? '' : `, ${pooled.adjudicated} more settled by hand`;
  return {
    outcome: share <= gate.share ? 'holds' : 'fails',
    figure: `${pooled.unresolved}/${pooled.compared} reps both decided disagree unresolved (${percent(share)}${settled}; at most ${percent(gate.share)} allowed)${unquotedNote(pooled)}`,
  };
}
