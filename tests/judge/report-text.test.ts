/**
 * Judging in results.md: a judge's quote (the session's text) never reaches
 * the page as raw HTML, a perfect-agreement kappa says why its interval is a
 * point, and answers set unsure for a quote not found are shown apart.
 */
import { describe, expect, it } from 'vitest';
import { summariseAgreement } from '../../harness/judge/agreement.js';
import type { JudgeSection } from '../../harness/judge/report-model.js';
import {
  agreementCells,
  agreementNote,
  disagreementsMarkdown,
  kappaText,
} from '../../harness/report/judge-text.js';

type Side = 'pass' | 'fail';
const rep = (checks: Side, judge: Side | 'unsure', answered: Side | 'unsure' = judge) => ({
  comparison: {
    checks,
    judge,
    answered,
    agreement:
      judge === 'unsure'
        ? ('not-compared' as const)
        : checks === judge
          ? ('agree' as const)
          : ('disagree' as const),
  },
  overridden: false,
});

describe('judging in results.md', () => {
  it('escapes a quote that holds HTML', () => {
    const section: JudgeSection = {
      judgedReps: 1,
      models: ['m'],
      costUsd: null,
      rows: [],
      problems: [],
      disagreements: [
        {
          rep_id: 'green/s1-rep1',
          arm: 'green',
          scenario: 's1',
          checks_verdict: 'pass',
          judge_verdict: 'fail',
          verdict: 'pass',
          adjudicated: false,
          override_reason: '',
          items: [
            {
              id: 'first-dispatch',
              check_outcome: 'pass',
              check_detail: 'ok',
              judge_verdict: 'fail',
              answered: 'fail',
              quote: '<img src=x onerror=alert(1)> & more',
              quote_found: true,
              rationale: 'r',
            },
          ],
        },
      ],
    };
    const markdown = disagreementsMarkdown(section);
    expect(markdown).not.toContain('<img');
    expect(markdown).toContain('"&lt;img src=x onerror=alert(1)&gt; &amp; more"');
  });

  it('says a perfect-agreement interval is a point, not a certainty', () => {
    const perfect = summariseAgreement([rep('pass', 'pass'), rep('fail', 'fail')]);
    expect(kappaText(perfect)).toBe(
      '1.00 (no interval: perfect agreement over 2 rep(s) gives a standard error of 0)',
    );
  });

  it('shows answers set unsure for a quote not found, and how many went against the checks', () => {
    const summary = summariseAgreement([
      rep('pass', 'pass'),
      rep('fail', 'fail'),
      rep('pass', 'unsure', 'fail'),
      rep('fail', 'unsure', 'fail'),
      rep('pass', 'unsure'),
    ]);
    expect(summary).toMatchObject({
      judgeUnsure: 3,
      quoteNotFound: 2,
      quoteNotFoundAgainstChecks: 1,
    });
    expect(agreementCells(summary)[6]).toBe(
      '3 (2 answered pass/fail but quote not found, 1 of them against the checks)',
    );
    expect(agreementNote(summary)).toBe(
      'judge agrees 2/2, 1 answered against the checks but quote not found',
    );
    expect(agreementNote(summariseAgreement([]))).toBe('not judged yet');
  });
});
