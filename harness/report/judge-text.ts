/**
 * Judging in results.md and on the terminal: the agreement table (per cell,
 * per scenario, overall: judged, compared, agree, disagree, unsure,
 * undecided, percent agreement, Cohen's kappa with its interval), the
 * disagreements with the checks and the judge's items and quotes side by
 * side, and a short note per cell for the Results table.
 */

import type { AgreementSummary } from '../judge/agreement.js';
import type { Disagreement, JudgeSection } from '../judge/report-model.js';
import { markdownTable } from './markdown-table.js';

/** A table cell: pipes escaped, lines joined, and no raw HTML (a quote is the session's text). */
function cellText(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\|/g, '\\|')
    .replace(/\r?\n/g, ' ');
}

function pct(value: number | null): string {
  return value === null ? 'n/a' : `${Math.round(value * 100)}%`;
}

/** Kappa and its interval as a table shows it. */
export function kappaText(agreement: AgreementSummary): string {
  if (agreement.compared === 0) return 'n/a (nothing compared)';
  if (agreement.kappa === null || agreement.constantRater === 'both') {
    return agreement.kappa === null ? 'n/a (one verdict from both)' : '0 (one verdict each)';
  }
  if (agreement.constantRater !== null) {
    return `0 by construction (the ${agreement.constantRater === 'checks' ? 'checks' : 'judge'} gave one verdict only)`;
  }
  const interval = agreement.kappa95;
  if (interval !== null && interval.lower === interval.upper) {
    // Perfect agreement has a standard error of 0: the interval is a point, not a certainty.
    return `${fixed(agreement.kappa)} (no interval: perfect agreement over ${agreement.compared} rep(s) gives a standard error of 0)`;
  }
  return `${fixed(agreement.kappa)}${interval === null ? '' : ` (${fixed(interval.lower)} to ${fixed(interval.upper)})`}`;
}

/** Two decimals, never "-0.00". */
function fixed(value: number): string {
  const text = value.toFixed(2);
  return text === '-0.00' ? '0.00' : text;
}

export const AGREEMENT_COLUMNS = [
  'Scope',
  'Judged',
  'Both decided',
  'Agree',
  'Disagree (unresolved)',
  'Checks pass / judge fail',
  'Checks fail / judge pass',
  'Judge unsure',
  'Checks undecided',
  '% agreement',
  "Cohen's κ (95% CI)",
] as const;

export function scopeLabel(row: JudgeSection['rows'][number]): string {
  if (row.scope === 'all') return 'ALL';
  if (row.scope === 'scenario') return `${(row.scenario ?? '').toUpperCase()} (all arms)`;
  return `${(row.scenario ?? '').toUpperCase()} ${(row.arm ?? '').toUpperCase()}`;
}

export function agreementCells(agreement: AgreementSummary): string[] {
  return [
    String(agreement.judged),
    String(agreement.compared),
    String(agreement.agree),
    `${agreement.disagree} (${agreement.unresolved})`,
    String(agreement.checksPassJudgeFail),
    String(agreement.checksFailJudgePass),
    judgeUnsureText(agreement),
    String(agreement.checksUndecided),
    pct(agreement.percentAgreement),
    kappaText(agreement),
  ];
}

/** Judge unsure, with the errors and the answers set unsure for a quote not found. */
function judgeUnsureText(agreement: AgreementSummary): string {
  const notes = [
    ...(agreement.judgeErrors === 0 ? [] : [`${agreement.judgeErrors} error`]),
    ...(agreement.quoteNotFound === 0
      ? []
      : [
          `${agreement.quoteNotFound} answered pass/fail but quote not found, ${agreement.quoteNotFoundAgainstChecks} of them against the checks`,
        ]),
  ];
  return `${agreement.judgeUnsure}${notes.length === 0 ? '' : ` (${notes.join('; ')})`}`;
}

/** The agreement table, one row per cell, per scenario and for the run. */
export function agreementTable(judge: JudgeSection): string {
  return markdownTable(
    AGREEMENT_COLUMNS,
    judge.rows.map((row) => [scopeLabel(row), ...agreementCells(row.agreement)]),
    cellText,
  );
}

export const AGREEMENT_RULE =
  "Both decided: reps that both the checks (the ones the rubric shadows) and the judge decided; unresolved disagreements are those no one has adjudicated. κ is Cohen's kappa over those reps with an asymptotic 95% interval (Fleiss, Cohen & Everitt 1969): rough at this many reps and a point at perfect agreement; when one side gave every rep one same verdict, κ is 0 by construction and measures nothing, and when both did it is n/a.";

/** One line on how the judging went, for the top of the section. */
export function judgeSummaryLine(judge: JudgeSection): string {
  const cost = judge.costUsd === null ? 'cost n/a' : `cost $${judge.costUsd.toFixed(4)}`;
  const problems =
    judge.problems.length === 0
      ? ''
      : `; ${judge.problems.length} judge.json unreadable (${judge.problems.map((p) => p.rep_id).join(', ')}): rejudge with \`redgreen judge <dir> --refresh\``;
  return `${judge.judgedReps} rep(s) judged by ${judge.models.join(', ') || 'no model'} (${cost})${problems}.`;
}

function disagreementHeading(row: Disagreement): string {
  const state = row.adjudicated
    ? `adjudicated: ${row.verdict} (${row.override_reason})`
    : 'unresolved';
  return `**${row.rep_id}**: checks ${row.checks_verdict}, judge ${row.judge_verdict} — ${state}`;
}

/**
 * What to say when nothing disagrees: that the judge agreed wherever both
 * decided, or, when no rep was decided by both, that nothing was compared.
 */
export function noDisagreementText(judge: JudgeSection): string {
  const overall = judge.rows.find((row) => row.scope === 'all')?.agreement;
  return overall !== undefined && overall.compared === 0
    ? 'None compared: no rep was decided by both the checks and the judge.'
    : 'None: wherever both decided, the judge agreed with the checks.';
}

/** Every disagreement: the checks and the judge's items side by side. */
export function disagreementsMarkdown(judge: JudgeSection): string {
  if (judge.disagreements.length === 0) return noDisagreementText(judge);
  return judge.disagreements
    .map((row) =>
      [
        disagreementHeading(row),
        '',
        markdownTable(
          ['Item', 'Checks', 'Judge', "Judge's quote", "Judge's rationale"],
          row.items.map((item) => [
            item.id,
            `${item.check_outcome}: ${item.check_detail}`,
            item.judge_verdict === item.answered
              ? item.judge_verdict
              : `${item.judge_verdict} (answered ${item.answered})`,
            item.quote === ''
              ? '—'
              : `"${item.quote}"${item.quote_found ? '' : ' (not found in the material)'}`,
            item.rationale,
          ]),
          cellText,
        ),
      ].join('\n'),
    )
    .join('\n\n');
}

/** A cell's agreement in a few words, for the Results table's notes. */
export function agreementNote(agreement: AgreementSummary): string {
  if (agreement.judged === 0) return 'not judged yet';
  const unresolved = agreement.unresolved === 0 ? '' : `, ${agreement.unresolved} unresolved`;
  const unquoted =
    agreement.quoteNotFoundAgainstChecks === 0
      ? ''
      : `, ${agreement.quoteNotFoundAgainstChecks} answered against the checks but quote not found`;
  return `judge agrees ${agreement.agree}/${agreement.compared}${unresolved}${unquoted}`;
}
