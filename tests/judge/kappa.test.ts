import { describe, expect, it } from 'vitest';
import { summariseAgreement } from '../../harness/judge/agreement.js';
import { cohensKappa } from '../../harness/judge/kappa.js';

/**
 * Known vectors, worked by hand. Rows are the checks, columns the judge:
 * a = both pass, b = checks pass / judge fail, c = checks fail / judge pass,
 * d = both fail; n = a + b + c + d.
 *
 *   po = (a + d) / n,  pe = p1.·p.1 + p2.·p.2,  κ = (po − pe) / (1 − pe)
 *   SE² = [ Σi pii (1 − (pi. + p.i)(1 − κ))²
 *           + (1 − κ)² Σi≠j pij (p.i + pj.)²
 *           − (κ − pe (1 − κ))² ] / (n (1 − pe)²)        (Fleiss, Cohen & Everitt 1969)
 *   95% interval: κ ± 1.959964 SE, clipped to [−1, 1].
 *
 * 1. a=4 b=1 c=1 d=4 (n=10): po = .8; p1. = p.1 = .5; pe = .5; κ = .6.
 *    Σ pii(...)² = .4(1 − 1·.4)² + .4(1 − 1·.4)² = .4·.36·2 = .288
 *    (1−κ)² Σ pij(...)² = .16 · (.1·1² + .1·1²) = .032;  (κ − pe(1−κ))² = (.6 − .2)² = .16
 *    SE² = (.288 + .032 − .16) / (10 · .25) = .064;  SE = .252982
 *    interval = .6 ± .495836 = [.104164, 1.095836] → [.104164, 1].
 * 2. a=20 b=5 c=10 d=15 (n=50): po = .7; p1. = .5, p.1 = .6; pe = .5·.6 + .5·.4 = .5; κ = .4.
 *    .4(1 − 1.1·.6)² + .3(1 − .9·.6)² = .4·.1156 + .3·.2116 = .10972
 *    .36 · (.1·(.6 + .5)² + .2·(.4 + .5)²) = .36 · (.121 + .162) = .10188;  (.4 − .5·.6)² = .01
 *    SE² = (.10972 + .10188 − .01) / (50 · .25) = .016128;  SE = .126996
 *    interval = .4 ± .248907 = [.151093, .648907].
 * 3. a=0 b=3 c=2 d=0 (n=5), always disagreeing: po = 0; p1. = .6, p.1 = .4; pe = .48;
 *    κ = −.48/.52 = −.923077; SE = .324096 (same formula); interval [−1, −.287860] after clipping.
 * 4. a=3 b=0 c=0 d=2 (n=5), perfect: κ = 1, SE = 0, interval [1, 1].
 * 5. a=5: both say pass every time: pe = 1, κ undefined (null).
 * 6. a=0 b=0 c=1 d=4: the checks fail every rep, so po = pe = .8 and κ = 0 by construction.
 */
describe("Cohen's kappa against hand-computed vectors", () => {
  it('a symmetric table: κ .6, SE .252982, interval clipped at 1', () => {
    const k = cohensKappa({
      bothPass: 4,
      checksPassJudgeFail: 1,
      checksFailJudgePass: 1,
      bothFail: 4,
    });
    expect(k.n).toBe(10);
    expect(k.percentAgreement).toBeCloseTo(0.8, 10);
    expect(k.kappa).toBeCloseTo(0.6, 10);
    expect(k.standardError).toBeCloseTo(0.252982, 6);
    expect(k.interval95?.lower).toBeCloseTo(0.104164, 5);
    expect(k.interval95?.upper).toBe(1);
    expect(k.constantRater).toBeNull();
  });

  it('an asymmetric table: κ .4, SE .126996, interval .151093 to .648907', () => {
    const k = cohensKappa({
      bothPass: 20,
      checksPassJudgeFail: 5,
      checksFailJudgePass: 10,
      bothFail: 15,
    });
    expect(k.kappa).toBeCloseTo(0.4, 10);
    expect(k.standardError).toBeCloseTo(0.126996, 6);
    expect(k.interval95?.lower).toBeCloseTo(0.151093, 5);
    expect(k.interval95?.upper).toBeCloseTo(0.648907, 5);
  });

  it('raters that always disagree: κ −.923077, interval clipped at −1', () => {
    const k = cohensKappa({
      bothPass: 0,
      checksPassJudgeFail: 3,
      checksFailJudgePass: 2,
      bothFail: 0,
    });
    expect(k.percentAgreement).toBe(0);
    expect(k.kappa).toBeCloseTo(-0.923077, 6);
    expect(k.standardError).toBeCloseTo(0.324096, 6);
    expect(k.interval95?.lower).toBe(-1);
    expect(k.interval95?.upper).toBeCloseTo(-0.28786, 5);
  });

  it('perfect agreement with both verdicts: κ 1 and a point interval', () => {
    const k = cohensKappa({
      bothPass: 3,
      checksPassJudgeFail: 0,
      checksFailJudgePass: 0,
      bothFail: 2,
    });
    expect(k.kappa).toBe(1);
    expect(k.standardError).toBe(0);
    expect(k.interval95).toEqual({ lower: 1, upper: 1 });
  });

  it('one verdict from both: κ undefined; one verdict from one side: κ 0 by construction, no interval', () => {
    const both = cohensKappa({
      bothPass: 5,
      checksPassJudgeFail: 0,
      checksFailJudgePass: 0,
      bothFail: 0,
    });
    expect(both.kappa).toBeNull();
    expect(both.percentAgreement).toBe(1);
    expect(both.constantRater).toBe('both');
    const checks = cohensKappa({
      bothPass: 0,
      checksPassJudgeFail: 0,
      checksFailJudgePass: 1,
      bothFail: 4,
    });
    expect(checks.kappa).toBe(0);
    expect(checks.percentAgreement).toBeCloseTo(0.8, 10);
    expect(checks.interval95).toBeNull();
    expect(checks.constantRater).toBe('checks');
  });

  it('nothing compared: every figure null', () => {
    const k = cohensKappa({
      bothPass: 0,
      checksPassJudgeFail: 0,
      checksFailJudgePass: 0,
      bothFail: 0,
    });
    expect(k).toEqual({
      n: 0,
      percentAgreement: null,
      kappa: null,
      standardError: null,
      interval95: null,
      constantRater: null,
    });
  });
});

describe('summing comparisons', () => {
  const rep = (
    checks: 'pass' | 'fail' | 'undecided',
    judge: 'pass' | 'fail' | 'unsure' | 'error',
    overridden = false,
  ) => ({
    comparison: {
      checks,
      judge,
      agreement:
        checks === 'undecided' || judge === 'unsure' || judge === 'error'
          ? ('not-compared' as const)
          : checks === judge
            ? ('agree' as const)
            : ('disagree' as const),
    },
    overridden,
  });

  it('counts agreement over the reps both decided, and an adjudicated disagreement as settled', () => {
    const summary = summariseAgreement([
      ...Array.from({ length: 4 }, () => rep('pass', 'pass')),
      rep('pass', 'fail', true),
      rep('fail', 'pass'),
      ...Array.from({ length: 4 }, () => rep('fail', 'fail')),
      rep('fail', 'unsure'),
      rep('undecided', 'pass'),
      rep('pass', 'error'),
    ]);
    expect(summary).toMatchObject({
      judged: 13,
      compared: 10,
      agree: 8,
      disagree: 2,
      checksPassJudgeFail: 1,
      checksFailJudgePass: 1,
      judgeUnsure: 2,
      judgeErrors: 1,
      checksUndecided: 1,
      adjudicated: 1,
      unresolved: 1,
      percentAgreement: 0.8,
    });
    expect(summary.kappa).toBeCloseTo(0.6, 10);
  });
});
