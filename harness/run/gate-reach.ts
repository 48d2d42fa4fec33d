/**
 * Gates a run's schedule cannot meet: a `min-pass-rate` gate of "P of N" needs N
 * decided reps in its cell, so with fewer reps per cell scheduled (the
 * campaign's `reps`, or `--reps`) it can fail or stay undecided but never
 * hold. Said before the run and in the dry run, so nobody learns it after
 * paying for the reps. Likewise a `green-better` or `no-regression` gate
 * whose reps per arm cannot reach α even at the starkest split (all against
 * none): it stays undecided; and a `metric-ratio` gate needing more decided
 * reps per arm than are scheduled, and an `engines-agree` gate whose reps
 * cannot get below α even for one pair of engines at all against none. A note, not a refusal: short runs (`--reps 1`) are
 * how a campaign is smoke-tested.
 */

import type { GateConfig } from '../campaign/config-schema.js';
import { describeGate } from '../campaign/only.js';
import { belowThreshold, fisherExact, starkestSplitP } from '../report/stats-rates.js';

/** One note per gate the scheduled reps per cell can never meet. */
export function gatesOutOfReach(campaign: {
  readonly gates: readonly GateConfig[];
  readonly reps: number;
  /** The scenarios the campaign runs: a no-scenario-regresses gate over all of them tests each. */
  readonly scenarios?: readonly { readonly id: string }[];
}): string[] {
  const reps = campaign.reps;
  return campaign.gates.flatMap((gate) => {
    if (gate.kind === 'min-pass-rate' && gate.of > reps) {
      return [
        `gate ${describeGate(gate)} needs ${gate.of} decided reps in its cell, but the run schedules ${reps} per cell: it can never hold, at best it stays undecided (run with --reps ${gate.of} or more)`,
      ];
    }
    if (
      (gate.kind === 'green-better' || gate.kind === 'no-regression') &&
      !starkSplitDecides(reps, gate.alpha)
    ) {
      let needed = reps + 1;
      while (needed < 1000 && !starkSplitDecides(needed, gate.alpha)) needed += 1;
      return [
        `gate ${describeGate(gate)} cannot be decided with ${reps} rep(s) per cell: even all against none is not below α = ${gate.alpha}, so it stays undecided (run with --reps ${needed} or more)`,
      ];
    }
    if (gate.kind === 'metric-ratio' && gate.minReps > reps) {
      return [
        `gate ${describeGate(gate)} needs ${gate.minReps} decided reps with ${gate.metric} recorded in each arm, but the run schedules ${reps} per cell: it stays undecided (run with --reps ${gate.minReps} or more)`,
      ];
    }
    if (gate.kind === 'engines-agree') {
      // Its smallest family is one pair at α: when even that cannot decide, no run of these reps can.
      const decides = (n: number) =>
        belowThreshold(
          fisherExact({ successes: n, trials: n }, { successes: 0, trials: n }, 'two-sided'),
          gate.alpha,
        );
      if (decides(reps)) return [];
      let needed = reps + 1;
      while (needed < 1000 && !decides(needed)) needed += 1;
      return [
        `gate ${describeGate(gate)} cannot be decided with ${reps} rep(s) per cell: even one engine ${reps}/${reps} against another 0/${reps} is not below α = ${gate.alpha} (two-sided), so it stays undecided (run with --reps ${needed} or more; more with several pairs of engines, Holm-corrected)`,
      ];
    }
    if (gate.kind === 'no-scenario-regresses') {
      // Holm holds the smallest of m p-values to α/m: a regression must get below that first.
      const tests = gate.scenarios?.length ?? campaign.scenarios?.length ?? 1;
      const first = gate.correction === 'holm' ? gate.alpha / tests : gate.alpha;
      if (starkSplitDecides(reps, first)) return [];
      let needed = reps + 1;
      while (needed < 1000 && !starkSplitDecides(needed, first)) needed += 1;
      return [
        `gate ${describeGate(gate)} cannot be decided with ${reps} rep(s) per cell: even RED ${reps}/${reps} against GREEN 0/${reps} is not below ${gate.correction === 'holm' ? `α/${tests} = ${Number(first.toPrecision(3))} (Holm over ${tests} scenarios)` : `α = ${gate.alpha}`}, so it stays undecided (run with --reps ${needed} or more)`,
      ];
    }
    return [];
  });
}

/** Whether n reps a side, all passing against none, give a one-sided Fisher p below α. */
function starkSplitDecides(n: number, alpha: number): boolean {
  return belowThreshold(starkestSplitP(n, n), alpha);
}
