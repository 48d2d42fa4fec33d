/**
 * The `max-disagreement-share` gate: the run fails closed when the checks and
 * the judge disagree, without a person having settled it, on more than the
 * given share of the reps both decided. Such a failure is an instrument
 * problem, not a skill regression, and `redgreen gate` says so
 * ("instrument disagreement").
 *
 * Undecided (exit 2) when there is nothing to decide on: no judged rep, a
 * judged cell with reps not yet judged, or no rep both sides decided.
 */
import type { GateConfig } from '../campaign/config-schema.js';
import { type AgreementSummary, poolAgreement } from './agreement.js';

export const INSTRUMENT_DISAGREEMENT = 'instrument disagreement';

type Gate = Extract<GateConfig, { kind: 'max-disagreement-share' }>;

interface GateCell {
  readonly scenario: string;
  readonly arm: string;
  readonly recorded: number;
  readonly agreement?: AgreementSummary | undefined;
}

export function disagreementGate(
  gate: Gate,
  cells: readonly GateCell[],
): { outcome: 'holds' | 'fails' | 'undecided'; figure: string } {
  const scoped = cells.filter(
    (cell) => gate.scenario === undefined || cell.scenario === gate.scenario,
  );
  const judged = scoped.filter((cell) => cell.agreement !== undefined);
  if (judged.length === 0) {
    return {
      outcome: 'undecided',
      figure: 'no rep has been judged: run `redgreen judge <dir>` (or `redgreen run --judge`)',
    };
  }
  const lacking = (gate.scenario === undefined ? judged : scoped).reduce(
    (sum, cell) => sum + cell.recorded - (cell.agreement?.judged ?? 0),
    0,
  );
  if (lacking > 0) {
    return {
      outcome: 'undecided',
      figure: `${lacking} recorded rep(s) not judged yet: run \`redgreen judge <dir>\``,
    };
  }
  const pooled = poolAgreement(judged.map((cell) => cell.agreement as AgreementSummary));
  if (pooled.compared === 0) {
    return {
      outcome: 'undecided',
      figure: `no rep was decided by both checks and judge (${pooled.judged} judged: ${pooled.judgeUnsure} unsure, ${pooled.checksUndecided} undecided by the checks)`,
    };
  }
  const share = pooled.unresolved / pooled.compared;
  const settled = pooled.adjudicated === 0 ? '' : `, ${pooled.adjudicated} more settled by hand`;
  return {
    outcome: share <= gate.share ? 'holds' : 'fails',
    figure: `${pooled.unresolved}/${pooled.compared} reps both decided disagree unresolved (${Math.round(share * 100)}%${settled}; at most ${Math.round(gate.share * 100)}% allowed)`,
  };
}
