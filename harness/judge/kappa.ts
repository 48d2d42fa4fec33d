/**
 * Agreement between two raters who each say pass or fail about the same reps
 * (here: the checks and the judge): percent agreement and Cohen's kappa with
 * an asymptotic 95% interval.
 *
 * The interval uses the large-sample standard error of Fleiss, Cohen and
 * Everitt (1969), the one that does not assume kappa is zero; it is the
 * delta-method variance of kappa under multinomial sampling, clipped to
 * [-1, 1]. At the handful of reps a cell holds it is rough, and at perfect
 * agreement it collapses to a point: the tables say so.
 *
 * When one rater gave every rep the same verdict, kappa is 0 by
 * construction (observed agreement equals chance agreement) whatever the
 * other did, and its standard error is 0: it measures nothing, so the
 * interval is left out and `constantRater` says which one. When both gave
 * every rep one same verdict, kappa is undefined (null): nothing to
 * disagree about.
 */
import { Z_95 } from '../lib/normal-quantile.js';

/** A 2×2 table: the checks' verdict (rows) against the judge's (columns). */
export interface AgreementCounts {
  readonly bothPass: number;
  /** The checks passed the rep, the judge failed it. */
  readonly checksPassJudgeFail: number;
  /** The checks failed the rep, the judge passed it. */
  readonly checksFailJudgePass: number;
  readonly bothFail: number;
}

export interface KappaFigure {
  /** Reps both raters decided. */
  readonly n: number;
  /** Share of those on which they agree; null without reps. */
  readonly percentAgreement: number | null;
  /** Cohen's kappa; null without reps or when chance agreement is 1. */
  readonly kappa: number | null;
  /** Its asymptotic standard error (Fleiss, Cohen & Everitt 1969); null when kappa is. */
  readonly standardError: number | null;
  /** kappa ± 1.96 SE, clipped to [-1, 1]; null when kappa is, or when a rater gave one verdict only. */
  readonly interval95: { readonly lower: number; readonly upper: number } | null;
  /** Which rater gave every rep one same verdict (kappa is then 0, or null for both); null otherwise. */
  readonly constantRater: 'checks' | 'judge' | 'both' | null;
}

/** Cohen's kappa of a 2×2 agreement table, with its asymptotic 95% interval. */
export function cohensKappa(counts: AgreementCounts): KappaFigure {
  const { bothPass, checksPassJudgeFail, checksFailJudgePass, bothFail } = counts;
  const n = bothPass + checksPassJudgeFail + checksFailJudgePass + bothFail;
  if (n === 0) {
    return {
      n,
      percentAgreement: null,
      kappa: null,
      standardError: null,
      interval95: null,
      constantRater: null,
    };
  }
  const p = [
    [bothPass / n, checksPassJudgeFail / n],
    [checksFailJudgePass / n, bothFail / n],
  ] as const;
  const row = [p[0][0] + p[0][1], p[1][0] + p[1][1]] as const;
  const col = [p[0][0] + p[1][0], p[0][1] + p[1][1]] as const;
  const observed = p[0][0] + p[1][1];
  const chance = row[0] * col[0] + row[1] * col[1];
  const checksConstant = row[0] === 0 || row[1] === 0;
  const judgeConstant = col[0] === 0 || col[1] === 0;
  if (checksConstant || judgeConstant) {
    const both = checksConstant && judgeConstant;
    return {
      n,
      percentAgreement: observed,
      // Both constant and different (all pass vs all fail): observed 0, chance 0, kappa 0.
      kappa: both && 1 - chance < 1e-12 ? null : 0,
      standardError: null,
      interval95: null,
      constantRater: both ? 'both' : checksConstant ? 'checks' : 'judge',
    };
  }
  const kappa = (observed - chance) / (1 - chance);
  const rest = 1 - kappa;
  let diagonal = 0;
  let offDiagonal = 0;
  for (const i of [0, 1] as const) {
    diagonal += p[i][i] * (1 - (row[i] + col[i]) * rest) ** 2;
    const j = i === 0 ? 1 : 0;
    offDiagonal += p[i][j] * (col[i] + row[j]) ** 2;
  }
  const variance =
    (diagonal + rest ** 2 * offDiagonal - (kappa - chance * rest) ** 2) / (n * (1 - chance) ** 2);
  const standardError = Math.sqrt(Math.max(0, variance));
  const clip = (value: number): number => Math.min(1, Math.max(-1, value));
  return {
    n,
    percentAgreement: observed,
    kappa,
    standardError,
    interval95: {
      lower: clip(kappa - Z_95 * standardError),
      upper: clip(kappa + Z_95 * standardError),
    },
    constantRater: null,
  };
}
