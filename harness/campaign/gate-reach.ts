/**
 * Gates a run's plan cannot meet: a `min-pass-rate` gate of "P of N" needs N
 * decided reps in its cell, so with fewer reps per cell planned (the
 * campaign's `reps`, or `--reps`) it can fail or stay undecided but never
 * hold. Said before the run and in the dry run, so nobody learns it after
 * paying for the reps. A note, not a refusal: short runs (`--reps 1`) are
 * how a campaign is smoke-tested.
 */
import type { GateConfig } from './config-schema.js';
import { describeGate } from './only.js';

/** One note per gate the planned reps per cell can never meet. */
export function gatesOutOfReach(campaign: {
  readonly gates: readonly GateConfig[];
  readonly reps: number;
}): string[] {
  return campaign.gates.flatMap((gate) =>
    gate.kind === 'min-pass-rate' && gate.of > campaign.reps
      ? [
          `gate ${describeGate(gate)} needs ${gate.of} decided reps in its cell, but the run plans ${campaign.reps} per cell: it can never hold, at best it stays undecided (run with --reps ${gate.of} or more)`,
        ]
      : [],
  );
}
