import type { GateConfig } from '../campaign/config-schema.js';
import { disagreementGate, INSTRUMENT_DISAGREEMENT } from '../judge/disagreement-gate.js';
import { type AxisEntry, evaluateEnginesAgree } from './engine-gates.js';
import { describeGate } from './gate-description.js';
import { evaluateMetricCap, evaluateMetricRatio } from './metric-gates.js';
import type { CellSummary, GateOutcome, ResultsModel } from './results-schema.js';
import { fisherExact } from './stats.js';
import { adjustForMultiple } from './stats-multiple.js';
import { belowThreshold, starkestSplitP } from './stats-rates.js';
import { evaluateTriggerGate } from './trigger-rates.js';

function cell(
  cells: readonly CellSummary[],
  arm: string,
  scenario: string,
): CellSummary | undefined {
  return cells.find((candidate) => candidate.arm === arm && candidate.scenario === scenario);
}

function roleCell(
  cells: readonly CellSummary[],
  role: 'red' | 'green',
  scenario: string,
): CellSummary | undefined {
  return cells.find((candidate) => candidate.role === role && candidate.scenario === scenario);
}

function fmtP(p: number): string {
  return p < 0.0001 ? 'p < 0.0001' : `p = ${p.toFixed(4)}`;
}

/**
 * Evaluate one gate against the cell summaries. Undecided when there is
 * nothing to decide on. `entries` is the run's model axis (each entry's
 * engine), which `engines-agree` compares; without it there are no engines.
 */
export function evaluateGate(
  gate: GateConfig,
  cells: readonly CellSummary[],
  entries: readonly AxisEntry[] = [],
): GateOutcome {
  const base = { gate: describeGate(gate), kind: gate.kind };
  switch (gate.kind) {
    case 'min-pass-rate': {
      const target = cell(cells, gate.arm, gate.scenario);
      if (target === undefined || target.decided === 0) {
        return { ...base, outcome: 'undecided', figure: 'no decided reps in this cell' };
      }
      // "5/5" means five decided reps, all passing: 1/1 with four indeterminate, or a
      // --reps 1 run, cannot show it. A gate fails outright only when even the
      // decided reps it still lacks could not lift it to the required rate.
      const lacking = Math.max(0, gate.of - target.decided);
      const figure = `${target.pass}/${target.decided} decided reps passed (needs at least ${gate.passes} of ${gate.of} decided)`;
      if ((target.pass + lacking) * gate.of < gate.passes * (target.decided + lacking)) {
        return { ...base, outcome: 'fails', figure };
      }
      if (lacking > 0) {
        return {
          ...base,
          outcome: 'undecided',
          figure: `${figure}; ${lacking} more decided rep(s) needed (${target.indeterminate} indeterminate, ${target.planned} scheduled)`,
        };
      }
      if (target.pass * gate.of < gate.passes * target.decided)
        return { ...base, outcome: 'fails', figure };
      return { ...base, outcome: 'holds', figure };
    }
    case 'green-better':
    case 'no-regression': {
      const red = roleCell(cells, 'red', gate.scenario);
      const green = roleCell(cells, 'green', gate.scenario);
      if (red === undefined || green === undefined || red.decided === 0 || green.decided === 0) {
        return { ...base, outcome: 'undecided', figure: 'a cell has no decided reps' };
      }
      const counts = `RED ${red.pass}/${red.decided}, GREEN ${green.pass}/${green.decided}`;
      // The starkest difference these decided reps could show (one arm all pass, the
      // other none): when even it is not below α, the reps cannot decide the gate.
      const starkest =
        gate.kind === 'green-better'
          ? starkestSplitP(green.decided, red.decided)
          : starkestSplitP(red.decided, green.decided);
      if (!belowThreshold(starkest, gate.alpha)) {
        return {
          ...base,
          outcome: 'undecided',
          figure: `${counts}; too few decided reps: even ${gate.kind === 'green-better' ? 'GREEN all passing against RED none' : 'RED all passing against GREEN none'} gives ${fmtP(starkest)}, not below α = ${gate.alpha} (run more reps)`,
        };
      }
      if (gate.kind === 'green-better') {
        const p = fisherExact(
          { successes: green.pass, trials: green.decided },
          { successes: red.pass, trials: red.decided },
          'greater',
        );
        return {
          ...base,
          outcome: belowThreshold(p, gate.alpha) ? 'holds' : 'fails',
          figure: `${counts}; ${fmtP(p)}`,
        };
      }
      const p = fisherExact(
        { successes: red.pass, trials: red.decided },
        { successes: green.pass, trials: green.decided },
        'greater',
      );
      return {
        ...base,
        outcome: belowThreshold(p, gate.alpha) ? 'fails' : 'holds',
        figure: `${counts}; RED better than GREEN: ${fmtP(p)}`,
      };
    }
    case 'no-scenario-regresses':
      return noScenarioRegresses(gate, cells, base);
    case 'max-indeterminate-share': {
      const recorded = cells.reduce((sum, c) => sum + c.recorded, 0);
      const indeterminate = cells.reduce((sum, c) => sum + c.indeterminate, 0);
      if (recorded === 0) return { ...base, outcome: 'undecided', figure: 'no reps recorded' };
      const share = indeterminate / recorded;
      return {
        ...base,
        outcome: share <= gate.share ? 'holds' : 'undecided',
        figure: `${indeterminate}/${recorded} indeterminate (${Math.round(share * 100)}%)`,
      };
    }
    case 'max-disagreement-share':
      return { ...base, ...disagreementGate(gate, cells) };
    case 'trigger-recall-no-regression':
    case 'trigger-precision-no-regression':
      return evaluateTriggerGate(gate, cells, base);
    case 'metric-ratio':
      return { ...base, ...evaluateMetricRatio(gate, cells) };
    case 'metric-cap':
      return { ...base, ...evaluateMetricCap(gate, cells) };
    case 'engines-agree':
      return { ...base, ...evaluateEnginesAgree(gate, cells, entries) };
  }
}

/**
 * "No scenario regresses": per scenario a one-sided Fisher test of RED better
 * than GREEN, corrected for the number of scenarios (Holm, by default). Fails
 * when a scenario's regression survives the correction; undecided when none
 * does but a scenario has no decided reps in an arm (a regression could hide
 * there); holds otherwise.
 */
function noScenarioRegresses(
  gate: Extract<GateConfig, { kind: 'no-scenario-regresses' }>,
  cells: readonly CellSummary[],
  base: Pick<GateOutcome, 'gate' | 'kind'>,
): GateOutcome {
  const scenarios = gate.scenarios ?? [...new Set(cells.map((c) => c.scenario))];
  const [judged] = judgeRegressionFamily(gate, [
    scenarios.map((scenario) => ({
      scenario,
      red: roleCell(cells, 'red', scenario),
      green: roleCell(cells, 'green', scenario),
    })),
  ]);
  if (judged === undefined) throw new Error('a family of one group judged none');
  return { ...base, ...judged };
}

/** One RED vs GREEN comparison of a regression family: a scenario (of one model). */
export interface RegressionComparison {
  readonly scenario: string;
  readonly red: CellSummary | undefined;
  readonly green: CellSummary | undefined;
}

interface RegressionTest {
  readonly scenario: string;
  readonly counts: string;
  readonly p: number;
  /** The smallest p these reps could give: RED passing every rep, GREEN none. */
  readonly floor: number;
  /** The level the family's correction holds it to, and whether it is rejected there. */
  readonly threshold: number;
  readonly rejected: boolean;
}

/**
 * `no-scenario-regresses` over groups of comparisons tested as one family:
 * one group (the campaign's scenarios), or one per model (each model's
 * scenarios), every comparison corrected against all the others (Holm's
 * k-th smallest p held to α/(m−k+1), m counting every test of every group).
 * Each group gets its own outcome and figure, as the one-group gate always
 * judged: fails when one of its regressions survives the family's
 * correction; undecided when one of its scenarios has no decided reps in an
 * arm, or when none of its tests could get below the family's first
 * threshold (it could never fail); holds otherwise.
 */
export function judgeRegressionFamily(
  gate: Extract<GateConfig, { kind: 'no-scenario-regresses' }>,
  groups: readonly (readonly RegressionComparison[])[],
): Pick<GateOutcome, 'outcome' | 'figure'>[] {
  const decided = groups.map((group) =>
    group.flatMap(({ scenario, red, green }) =>
      red === undefined || green === undefined || red.decided === 0 || green.decided === 0
        ? []
        : [
            {
              scenario: scenario.toUpperCase(),
              counts: `RED ${red.pass}/${red.decided}, GREEN ${green.pass}/${green.decided}`,
              p: fisherExact(
                { successes: red.pass, trials: red.decided },
                { successes: green.pass, trials: green.decided },
                'greater',
              ),
              floor: starkestSplitP(red.decided, green.decided),
            },
          ],
    ),
  );
  const family = decided.flat();
  const adjusted = adjustForMultiple(
    family.map((test) => test.p),
    gate.alpha,
    gate.correction,
  );
  let next = 0;
  const tested: RegressionTest[][] = decided.map((group) =>
    group.map((test) => {
      const adjustment = adjusted[next];
      next += 1;
      return {
        ...test,
        threshold: adjustment?.threshold ?? gate.alpha,
        rejected: adjustment?.rejected === true,
      };
    }),
  );
  const firstThreshold = gate.correction === 'holm' ? gate.alpha / family.length : gate.alpha;
  const familySize =
    groups.length === 1 ? `${family.length} scenario(s)` : `${family.length} tests`;
  return groups.map((group, index) => {
    const mine = tested[index] ?? [];
    const undecided = group
      .filter(
        (comparison) => !mine.some((test) => test.scenario === comparison.scenario.toUpperCase()),
      )
      .map((comparison) => comparison.scenario.toUpperCase());
    const regressions = mine.filter((test) => test.rejected);
    if (regressions.length > 0) {
      return {
        outcome: 'fails',
        figure: `regresses: ${regressions.map((r) => `${r.scenario} (${r.counts}; ${fmtP(r.p)} below ${r.threshold.toPrecision(3)})`).join('; ')}`,
      };
    }
    if (undecided.length > 0 || mine.length === 0) {
      return {
        outcome: 'undecided',
        figure:
          undecided.length > 0
            ? `no decided reps in an arm of ${undecided.join(', ')}`
            : 'no scenario to compare',
      };
    }
    if (mine.every((test) => !belowThreshold(test.floor, firstThreshold))) {
      // Not even the starkest regression could pass the threshold: the gate cannot fail.
      return {
        outcome: 'undecided',
        figure: `too few decided reps to show a regression: the smallest p they allow is ${fmtP(Math.min(...mine.map((t) => t.floor)))}, and the first threshold is ${firstThreshold.toPrecision(3)} (${familySize}); run more reps`,
      };
    }
    const closest = [...mine].sort((a, b) => a.p - b.p)[0];
    return {
      outcome: 'holds',
      figure:
        closest === undefined || closest.p >= 1 - 1e-9
          ? `${mine.length} scenario(s), none regresses: RED is better than GREEN in none`
          : `${mine.length} scenario(s), none regresses; closest: ${closest.scenario} (${closest.counts}; RED better than GREEN: ${fmtP(closest.p)}, needs below ${closest.threshold.toPrecision(3)})`,
    };
  });
}

/** Why a complete run of a campaign without gates is undecided: nothing was checked. */
export const NO_GATES_WHY =
  'NO GATES: the campaign declares no gates, so nothing was checked; add gates to the campaign file, or accept that with `redgreen gate --allow-no-gates`';

/**
 * The overall gate decision and the exit code `redgreen gate` uses: 2 when
 * scheduled reps are missing; else 1 when any gate fails; else 2 when a gate
 * cannot be decided (too many indeterminates, too few decided reps) or the
 * campaign declares no gates at all; else 0.
 */
export function gateDecision(
  gates: readonly GateConfig[],
  cells: readonly CellSummary[],
  missing: readonly string[],
  /** How one gate is judged: on the cells as they are, or model by model (model-gates.ts). */
  evaluate: (gate: GateConfig, cells: readonly CellSummary[]) => GateOutcome = evaluateGate,
): ResultsModel['gates'] {
  const results = gates.map((gate) => evaluate(gate, cells));
  if (missing.length > 0) {
    return {
      outcome: 'undecided',
      exitCode: 2,
      why: `${missing.length} scheduled rep(s) not recorded (e.g. ${missing[0]}): finish the run with --resume, or merge the shards`,
      results,
    };
  }
  // A failed gate is decided even when another cannot be: the change does not pass.
  const failed = results.filter((result) => result.outcome === 'fails');
  if (failed.length > 0) {
    // An instrument that disagrees with itself is said first, apart from a skill regression.
    const instrument = failed.filter((r) => r.kind === 'max-disagreement-share');
    const skill = failed.filter((r) => r.kind !== 'max-disagreement-share');
    const why = [
      ...(instrument.length === 0
        ? []
        : [
            `${INSTRUMENT_DISAGREEMENT}: ${instrument.map((r) => r.figure).join('; ')}; settle the disagreements with \`redgreen adjudicate\` before trusting the verdicts`,
          ]),
      ...(skill.length === 0
        ? []
        : [`${skill.length} gate(s) failed: ${skill.map((r) => r.gate).join('; ')}`]),
    ].join('; ');
    return { outcome: 'fail', exitCode: 1, why, results };
  }
  const undecided = results.filter((result) => result.outcome === 'undecided');
  if (undecided.length > 0) {
    return {
      outcome: 'undecided',
      exitCode: 2,
      why: `cannot decide: ${undecided[0]?.gate}: ${undecided[0]?.figure}`,
      results,
    };
  }
  // No gates is not a pass: a vacuous "every gate holds" would let any change through.
  if (results.length === 0)
    return { outcome: 'undecided', exitCode: 2, why: NO_GATES_WHY, results };
  return { outcome: 'pass', exitCode: 0, why: 'every gate holds', results };
}
