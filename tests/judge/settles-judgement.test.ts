/**
 * An override settles a disagreement only when a person gave a pass or a
 * fail after the rep was judged: an override to indeterminate, or one made
 * before the judgement (it never saw the judge's opinion), leaves the
 * disagreement unresolved for the tables and the gate.
 */
import { describe, expect, it } from 'vitest';
import { settlesJudgement } from '../../harness/judge/report-model.js';

const judgement = { judgedAt: '2026-11-30T10:00:00.000Z' };

describe('an override on a judged rep', () => {
  it('settles it with a pass or fail given at or after the judgement', () => {
    expect(settlesJudgement({ verdict: 'pass', at: '2026-11-30T10:00:00.000Z' }, judgement)).toBe(
      true,
    );
    expect(settlesJudgement({ verdict: 'fail', at: '2026-11-30T11:00:00Z' }, judgement)).toBe(true);
  });

  it('does not settle it when indeterminate, made before the judgement, without a time, or absent', () => {
    expect(
      settlesJudgement({ verdict: 'indeterminate', at: '2026-11-30T11:00:00Z' }, judgement),
    ).toBe(false);
    expect(settlesJudgement({ verdict: 'pass', at: '2026-11-30T09:59:59Z' }, judgement)).toBe(
      false,
    );
    expect(settlesJudgement({ verdict: 'pass' }, judgement)).toBe(false);
    expect(settlesJudgement(undefined, judgement)).toBe(false);
  });
});
