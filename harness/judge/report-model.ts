/**
 * What the reports carry about judging: the judge columns of each rep row,
 * the agreement summary of each cell (computed from those columns, so any
 * set of rows can be summarised), and the run's judge section: agreement per
 * cell, per scenario and overall, every disagreement with the failing checks
 * and the judge's items and quotes side by side, and how many reps were
 * adjudicated. Pure; the results loader hands in the judgements it read.
 */
import { z } from 'zod';
import type { RepScore } from '../score/score-rep.js';
import {
  type AgreementSummary,
  agreementSchema,
  compareRep,
  poolAgreement,
  shadowedOutcomes,
  summariseAgreement,
} from './agreement.js';
import type { Judgement } from './judgement.js';

/** The judge columns a rep row may carry (absent for a rep no judge has seen). */
export const judgeRowShape = {
  /** The judge's verdict on the rep: pass, fail, unsure, or error (no judgement could be had). */
  judge_verdict: z.enum(['pass', 'fail', 'unsure', 'error']).optional(),
  /** What the judge answered before the quote rule: differs from judge_verdict when a quote was not found. */
  judge_answered: z.enum(['pass', 'fail', 'unsure', 'error']).optional(),
  /** The checks' verdict on the items the rubric shadows. */
  judge_checks_verdict: z.enum(['pass', 'fail', 'undecided']).optional(),
  judge_agreement: z.enum(['agree', 'disagree', 'not-compared']).optional(),
  /** Each rubric item's verdict, `id=verdict; …` (a quote not found in the material is marked). */
  judge_items: z.string().optional(),
  judge_model: z.string().optional(),
  judge_cost_usd: z.number().nullable().optional(),
  /** Whether a person settled the rep after it was judged (see settlesJudgement). */
  judge_adjudicated: z.boolean().optional(),
};

type JudgeRowFields = {
  -readonly [K in keyof typeof judgeRowShape]?: z.infer<(typeof judgeRowShape)[K]>;
};

/**
 * Whether an override settles a judged rep: a pass or fail (an override to
 * indeterminate settles nothing) given at or after the judgement it answers
 * (one given before the rep was judged, or without a time, did not see the
 * judge's opinion).
 */
export function settlesJudgement(
  override: { readonly verdict: string; readonly at?: string | undefined } | undefined,
  judgement: Pick<Judgement, 'judgedAt'>,
): boolean {
  return (
    override !== undefined &&
    override.verdict !== 'indeterminate' &&
    override.at !== undefined &&
    Date.parse(override.at) >= Date.parse(judgement.judgedAt)
  );
}

/** The judge columns of one rep; empty when it has no judgement. */
export function judgeRowFields(
  score: RepScore,
  judgement: Judgement | undefined,
  override?: { readonly verdict: string; readonly at?: string | undefined },
): JudgeRowFields {
  if (judgement === undefined) return {};
  const comparison = compareRep(score, judgement);
  return {
    judge_verdict: comparison.judge,
    judge_answered: comparison.answered ?? comparison.judge,
    judge_checks_verdict: comparison.checks,
    judge_agreement: comparison.agreement,
    judge_items: judgement.items
      .map(
        (item) =>
          `${item.id}=${item.verdict}${item.answered !== item.verdict ? ` (answered ${item.answered}; quote not in the material)` : ''}`,
      )
      .join('; '),
    judge_model: judgement.model.requested,
    judge_cost_usd: judgement.costUsd,
    judge_adjudicated: settlesJudgement(override, judgement),
  };
}

/** The rows' fields agreement is summed from. */
type AgreementRow = JudgeRowFields;

/**
 * The agreement of a cell's rows; undefined when none of them was judged,
 * unless the scenario is judged (`expected`): then an empty summary, so the
 * tables and the gate see a judged scenario's cell nobody judged yet.
 */
export function rowsAgreement(
  rows: readonly AgreementRow[],
  expected = false,
): AgreementSummary | undefined {
  const judged = rows.filter(
    (row) =>
      row.judge_verdict !== undefined &&
      row.judge_checks_verdict !== undefined &&
      row.judge_agreement !== undefined,
  );
  if (judged.length === 0 && !expected) return undefined;
  return summariseAgreement(
    judged.map((row) => ({
      comparison: {
        judge: row.judge_verdict ?? 'unsure',
        answered: row.judge_answered ?? row.judge_verdict ?? 'unsure',
        checks: row.judge_checks_verdict ?? 'undecided',
        agreement: row.judge_agreement ?? 'not-compared',
      },
      overridden: row.judge_adjudicated === true,
    })),
  );
}

export const agreementRowSchema = z
  .object({
    scope: z.enum(['cell', 'scenario', 'all']),
    scenario: z.string().nullable(),
    arm: z.string().nullable(),
    agreement: agreementSchema,
  })
  .strict();

export const disagreementItemSchema = z
  .object({
    id: z.string(),
    check_outcome: z.enum(['pass', 'fail', 'undecided']),
    check_detail: z.string(),
    judge_verdict: z.enum(['pass', 'fail', 'unsure']),
    answered: z.enum(['pass', 'fail', 'unsure']),
    quote: z.string(),
    quote_found: z.boolean(),
    rationale: z.string(),
  })
  .strict();

export const disagreementSchema = z
  .object({
    rep_id: z.string(),
    arm: z.string(),
    scenario: z.string(),
    checks_verdict: z.enum(['pass', 'fail']),
    judge_verdict: z.enum(['pass', 'fail']),
    /** The rep's verdict in the tables (an adjudicated one when overridden). */
    verdict: z.enum(['pass', 'fail', 'indeterminate']),
    adjudicated: z.boolean(),
    override_reason: z.string(),
    items: z.array(disagreementItemSchema),
  })
  .strict();
export type Disagreement = z.infer<typeof disagreementSchema>;

export const judgeSectionSchema = z
  .object({
    judgedReps: z.number().int(),
    models: z.array(z.string()),
    /** Priced cost of every stored judgement; null when none is priced. */
    costUsd: z.number().nullable(),
    rows: z.array(agreementRowSchema),
    /** Unresolved disagreements first, then the adjudicated ones. */
    disagreements: z.array(disagreementSchema),
    /** Reps whose judge.json could not be read (counted as not judged). */
    problems: z.array(z.object({ rep_id: z.string(), problem: z.string() }).strict()),
  })
  .strict();
export type JudgeSection = z.infer<typeof judgeSectionSchema>;

interface SectionRep {
  readonly id: string;
  readonly arm: string;
  readonly scenario: string;
  readonly score: RepScore;
  readonly verdict: 'pass' | 'fail' | 'indeterminate';
  readonly override:
    | { readonly reason: string; readonly verdict: string; readonly at?: string | undefined }
    | undefined;
}

interface SectionCell {
  readonly arm: string;
  readonly scenario: string;
  readonly agreement?: AgreementSummary | undefined;
}

/** The run's judge section; undefined when nothing was judged and no judge.json was unreadable. */
export function judgeSection(
  reps: readonly SectionRep[],
  judgements: ReadonlyMap<string, Judgement>,
  cells: readonly SectionCell[],
  problems: readonly { readonly id: string; readonly problem: string }[],
): JudgeSection | undefined {
  const judged = reps.filter((rep) => judgements.has(rep.id));
  if (judged.length === 0 && problems.length === 0) return undefined;
  const rows: z.infer<typeof agreementRowSchema>[] = [];
  const scenarios = [...new Set(cells.map((cell) => cell.scenario))];
  for (const scenario of scenarios) {
    const mine = cells.filter((cell) => cell.scenario === scenario && cell.agreement !== undefined);
    for (const cell of mine) {
      rows.push({
        scope: 'cell',
        scenario,
        arm: cell.arm,
        agreement: cell.agreement as AgreementSummary,
      });
    }
    if (mine.length > 1) {
      rows.push({
        scope: 'scenario',
        scenario,
        arm: null,
        agreement: poolAgreement(mine.map((cell) => cell.agreement as AgreementSummary)),
      });
    }
  }
  const all = cells.filter((cell) => cell.agreement !== undefined);
  if (new Set(all.map((cell) => cell.scenario)).size > 1) {
    rows.push({
      scope: 'all',
      scenario: null,
      arm: null,
      agreement: poolAgreement(all.map((cell) => cell.agreement as AgreementSummary)),
    });
  }
  const disagreements: Disagreement[] = [];
  for (const rep of judged) {
    const judgement = judgements.get(rep.id) as Judgement;
    const comparison = compareRep(rep.score, judgement);
    if (comparison.agreement !== 'disagree') continue;
    const outcomes = shadowedOutcomes(
      rep.score,
      judgement.items.map((item) => item.id),
    );
    disagreements.push({
      rep_id: rep.id,
      arm: rep.arm,
      scenario: rep.scenario,
      checks_verdict: comparison.checks as 'pass' | 'fail',
      judge_verdict: comparison.judge as 'pass' | 'fail',
      verdict: rep.verdict,
      adjudicated: settlesJudgement(rep.override, judgement),
      override_reason: rep.override?.reason ?? '',
      items: judgement.items.map((item) => ({
        id: item.id,
        check_outcome: outcomes[item.id] ?? 'undecided',
        check_detail:
          rep.score.checks.find((check) => check.id === item.id)?.detail ??
          `${item.id}: not in score.json`,
        judge_verdict: item.verdict,
        answered: item.answered,
        quote: item.quote,
        quote_found: item.quoteFound,
        rationale: item.rationale,
      })),
    });
  }
  disagreements.sort((a, b) => Number(a.adjudicated) - Number(b.adjudicated));
  const costs = judged
    .map((rep) => judgements.get(rep.id)?.costUsd ?? null)
    .filter((cost): cost is number => cost !== null);
  return {
    judgedReps: judged.length,
    models: [...new Set(judged.map((rep) => judgements.get(rep.id)?.model.requested ?? ''))].filter(
      (model) => model !== '',
    ),
    costUsd: costs.length === 0 ? null : costs.reduce((sum, cost) => sum + cost, 0),
    rows,
    disagreements,
    problems: problems.map((problem) => ({ rep_id: problem.id, problem: problem.problem })),
  };
}
