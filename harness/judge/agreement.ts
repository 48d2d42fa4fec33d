/**
 * The judge against the checks, per rep and summed over reps.
 *
 * Per rep, both sides are reduced to one verdict on the same ground: the
 * checks' side is the strong Kleene conjunction of the checks the rubric
 * shadows (undecided when the runner or a pre-check left the rep
 * indeterminate, since those checks then tell nothing); the judge's side is
 * its verdict on the rep (an error is unsure). They are compared only when
 * both decided: agree or disagree; anything else is not compared.
 *
 * Summed over reps (a cell, a scenario, the run): the 2×2 table, percent
 * agreement and Cohen's kappa with its interval over the compared reps, how
 * many reps were judged, left unsure by the judge (and of those, how many
 * it answered pass or fail with a quote that was not found, and against the
 * checks), or undecided by the checks, and how many disagreements a person has settled (an override on a
 * disagreeing rep); the rest are unresolved, which the
 * `max-disagreement-share` gate counts.
 */
import { z } from 'zod';
import { allOf, type Outcome } from '../score/kleene.js';
import type { RepScore } from '../score/score-rep.js';
import { JUDGED_VERB } from '../score/verbs/judged.js';
import { judgeVerdictOf } from './answer.js';
import type { Judgement } from './judgement.js';
import { cohensKappa } from './kappa.js';

export type ChecksSide = Outcome;
export type JudgeSide = 'pass' | 'fail' | 'unsure' | 'error';
export type Agreement = 'agree' | 'disagree' | 'not-compared';

export interface RepComparison {
  readonly checks: ChecksSide;
  readonly judge: JudgeSide;
  /** What the judge answered before the quote rule (its verdict when every quote was found). */
  readonly answered?: JudgeSide | undefined;
  readonly agreement: Agreement;
}

/** The outcome of each shadowed check by id; a check the score lacks is undecided. */
export function shadowedOutcomes(
  score: Pick<RepScore, 'checks'>,
  ids: readonly string[],
): Record<string, Outcome> {
  const out: Record<string, Outcome> = {};
  for (const id of ids) {
    out[id] = score.checks.find((check) => check.id === id)?.outcome ?? 'undecided';
  }
  return out;
}

/** The checks' verdict on the shadowed items: undecided when the rep never reached its checks. */
export function checksSideOf(
  score: Pick<RepScore, 'checks' | 'runner' | 'pre'>,
  ids: readonly string[],
): ChecksSide {
  if (score.runner.kind === 'indeterminate') return 'undecided';
  if (score.pre.some((check) => check.outcome !== 'pass')) return 'undecided';
  return allOf(Object.values(shadowedOutcomes(score, ids)));
}

/**
 * The rubric items a comparison reads: those whose check is the checks' own
 * (a `judged` check is the judge's answer itself, so comparing it with the
 * judge would only count agreement with itself).
 */
export function comparedItems(
  score: Pick<RepScore, 'checks'>,
  ids: readonly string[],
): readonly string[] {
  return ids.filter((id) => score.checks.find((check) => check.id === id)?.verb !== JUDGED_VERB);
}

export function compareRep(
  score: Pick<RepScore, 'checks' | 'runner' | 'pre'>,
  judgement: Judgement,
): RepComparison {
  const ids = comparedItems(
    score,
    judgement.items.map((item) => item.id),
  );
  // With judged items left out the judge's side is its verdict on the others; with none left, on the whole rep.
  const compared =
    ids.length === 0 ? judgement.items : judgement.items.filter((item) => ids.includes(item.id));
  const checks = checksSideOf(score, ids);
  const judge: JudgeSide =
    judgement.status === 'error'
      ? 'error'
      : compared.length === judgement.items.length
        ? judgement.verdict
        : judgeVerdictOf(compared);
  const answered: JudgeSide =
    judgement.status === 'error'
      ? 'error'
      : judgeVerdictOf(compared.map((item) => ({ verdict: item.answered })));
  const decided =
    ids.length > 0 && checks !== 'undecided' && (judge === 'pass' || judge === 'fail');
  return {
    checks,
    judge,
    answered,
    agreement: !decided ? 'not-compared' : checks === judge ? 'agree' : 'disagree',
  };
}

const interval = z.object({ lower: z.number(), upper: z.number() }).strict();

export const agreementSchema = z
  .object({
    /** Reps with a judgement (errors included). */
    judged: z.number().int(),
    /** Reps both sides decided. */
    compared: z.number().int(),
    agree: z.number().int(),
    disagree: z.number().int(),
    bothPass: z.number().int(),
    checksPassJudgeFail: z.number().int(),
    checksFailJudgePass: z.number().int(),
    bothFail: z.number().int(),
    /** Judged reps the judge left unsure (or could not judge: errors). */
    judgeUnsure: z.number().int(),
    judgeErrors: z.number().int(),
    /** Judged reps whose shadowed checks could not decide. */
    checksUndecided: z.number().int(),
    /** Judged reps the judge answered pass or fail but left unsure, a quote not being found. */
    quoteNotFound: z.number().int().default(0),
    /** Of those, the reps whose answer was against the checks' verdict. */
    quoteNotFoundAgainstChecks: z.number().int().default(0),
    /** Disagreements a person settled with an override (adjudicated). */
    adjudicated: z.number().int(),
    /** Disagreements no one has settled yet. */
    unresolved: z.number().int(),
    percentAgreement: z.number().nullable(),
    kappa: z.number().nullable(),
    kappaStandardError: z.number().nullable(),
    kappa95: interval.nullable(),
    /** Which side gave every compared rep one same verdict (kappa is then 0 by construction, or n/a for both). */
    constantRater: z.enum(['checks', 'judge', 'both']).nullable(),
  })
  .strict();
export type AgreementSummary = z.infer<typeof agreementSchema>;

/** One rep as the sums see it. */
export interface ComparedRep {
  readonly comparison: RepComparison;
  /** Whether the rep's verdict was settled by a person (overrides.json). */
  readonly overridden: boolean;
}

/** A rep the judge answered pass or fail, left unsure because a quote was not found. */
function unquoted({ comparison }: ComparedRep): boolean {
  return (
    comparison.judge === 'unsure' &&
    (comparison.answered === 'pass' || comparison.answered === 'fail')
  );
}

/** Sum the comparisons of a set of judged reps. */
export function summariseAgreement(reps: readonly ComparedRep[]): AgreementSummary {
  const count = (test: (rep: ComparedRep) => boolean): number => reps.filter(test).length;
  const pair = (checks: ChecksSide, judge: JudgeSide) =>
    count(
      ({ comparison }) =>
        comparison.agreement !== 'not-compared' &&
        comparison.checks === checks &&
        comparison.judge === judge,
    );
  const table = {
    bothPass: pair('pass', 'pass'),
    checksPassJudgeFail: pair('pass', 'fail'),
    checksFailJudgePass: pair('fail', 'pass'),
    bothFail: pair('fail', 'fail'),
  };
  const disagree = table.checksPassJudgeFail + table.checksFailJudgePass;
  const adjudicated = count((rep) => rep.comparison.agreement === 'disagree' && rep.overridden);
  const kappa = cohensKappa(table);
  return {
    judged: reps.length,
    compared: kappa.n,
    agree: table.bothPass + table.bothFail,
    disagree,
    ...table,
    judgeUnsure: count(
      ({ comparison }) => comparison.judge === 'unsure' || comparison.judge === 'error',
    ),
    judgeErrors: count(({ comparison }) => comparison.judge === 'error'),
    checksUndecided: count(({ comparison }) => comparison.checks === 'undecided'),
    quoteNotFound: count(unquoted),
    quoteNotFoundAgainstChecks: count(
      (rep) =>
        unquoted(rep) &&
        rep.comparison.checks !== 'undecided' &&
        rep.comparison.answered !== rep.comparison.checks,
    ),
    adjudicated,
    unresolved: disagree - adjudicated,
    percentAgreement: kappa.percentAgreement,
    kappa: kappa.kappa,
    kappaStandardError: kappa.standardError,
    kappa95: kappa.interval95,
    constantRater: kappa.constantRater,
  };
}

/** Add up several summaries' counts and recompute the figures (kappa is not additive). */
export function poolAgreement(parts: readonly AgreementSummary[]): AgreementSummary {
  const sum = (field: keyof AgreementSummary): number =>
    parts.reduce((total, part) => total + (part[field] as number), 0);
  const table = {
    bothPass: sum('bothPass'),
    checksPassJudgeFail: sum('checksPassJudgeFail'),
    checksFailJudgePass: sum('checksFailJudgePass'),
    bothFail: sum('bothFail'),
  };
  const kappa = cohensKappa(table);
  return {
    judged: sum('judged'),
    compared: kappa.n,
    agree: sum('agree'),
    disagree: sum('disagree'),
    ...table,
    judgeUnsure: sum('judgeUnsure'),
    judgeErrors: sum('judgeErrors'),
    checksUndecided: sum('checksUndecided'),
    quoteNotFound: sum('quoteNotFound'),
    quoteNotFoundAgainstChecks: sum('quoteNotFoundAgainstChecks'),
    adjudicated: sum('adjudicated'),
    unresolved: sum('unresolved'),
    percentAgreement: kappa.percentAgreement,
    kappa: kappa.kappa,
    kappaStandardError: kappa.standardError,
    kappa95: kappa.interval95,
    constantRater: kappa.constantRater,
  };
}
