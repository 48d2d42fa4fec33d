/**
 * A subset run (`run --only`): which cells it ran and which of the campaign
 * file's gates it therefore never evaluated. Every report that gives a gate
 * outcome says so (the gate line, `gate --json`, results.md, report.html,
 * `list`), so a PASS on two cells never reads as a PASS on the campaign;
 * `gate --require-all-gates` refuses it outright.
 */
import { z } from 'zod';
import type { CampaignRecord } from '../campaign/campaign-record.js';
import { gateSchema } from '../campaign/config-schema.js';
import { type OnlySelection, onlySelectionSchema } from '../campaign/only.js';
import { plural } from '../lib/plural.js';
import { describeGate } from './gate-description.js';

export const subsetSchema = z
  .object({
    /** The selection as `--only` flags name it: `--only scenario=s1,arm=green`. */
    only: z.string(),
    /** The arms, scenarios (and models) it named: none of a kind means all of it. */
    selection: onlySelectionSchema,
    /** The gates it left out (they need cells it does not run), or null when the directory did not record them. */
    droppedGates: z.array(z.object({ gate: z.string(), kind: z.string() }).strict()).nullable(),
  })
  .strict();
export type Subset = z.infer<typeof subsetSchema>;

/** A selection as the flags that make it: `--only scenario=s1,arm=green`. */
export function onlyFlags(only: OnlySelection): string {
  const parts = [
    ...only.scenarios.map((id) => `scenario=${id}`),
    ...only.arms.map((name) => `arm=${name}`),
    ...(only.models ?? []).map((name) => `model=${name}`),
  ];
  return `--only ${parts.join(',')}`;
}

/** The subset a results directory is, or null for a whole campaign. */
export function subsetOf(
  record: Pick<CampaignRecord, 'invocation' | 'droppedGates'>,
): Subset | null {
  const only = record.invocation.only;
  if (only === null) return null;
  return {
    only: onlyFlags(only),
    selection: only,
    droppedGates:
      record.droppedGates === undefined
        ? null
        : gateSchema
            .array()
            .parse(record.droppedGates)
            .map((gate) => ({ gate: describeGate(gate), kind: gate.kind })),
  };
}

/** `on a subset (--only scenario=s1): 5 gates not evaluated`, for the gate line and the tables. */
export function subsetPhrase(subset: Subset): string {
  const dropped =
    subset.droppedGates === null
      ? 'the gates about cells it leaves out not evaluated'
      : `${plural(subset.droppedGates.length, 'gate')} not evaluated`;
  return `on a subset (${subset.only}): ${dropped}`;
}

/**
 * `gate --require-all-gates`: a subset run cannot pass, since the gates it
 * left out were never evaluated (exit 2, as for a shard); a whole campaign
 * is gated as it is.
 */
export function requiringAllGates<
  Model extends { readonly subset?: Subset | undefined; readonly gates: GateDecision },
>(model: Model): Model {
  if (model.subset === undefined || model.gates.outcome === 'fail') return model;
  return {
    ...model,
    gates: {
      ...model.gates,
      outcome: 'undecided',
      exitCode: 2,
      why: `--require-all-gates: this run is a subset of the campaign (${model.subset.only}) and ${
        model.subset.droppedGates === null
          ? 'the gates about the cells it leaves out'
          : plural(model.subset.droppedGates.length, 'gate')
      } of the campaign file were not evaluated; run the whole campaign, without --only, to gate it (merge refuses directories of different subsets)`,
    },
  };
}

interface GateDecision {
  readonly outcome: 'pass' | 'fail' | 'undecided';
  readonly exitCode: 0 | 1 | 2;
  readonly why: string;
}

/** The gates a subset did not evaluate, listed for results.md and the gate output. */
export function droppedGatesText(subset: Subset): string {
  if (subset.droppedGates === null) {
    return 'this directory does not record which gates the subset left out (a run from before they were recorded)';
  }
  if (subset.droppedGates.length === 0) return 'it left out no gate of the campaign file';
  return `not evaluated: ${subset.droppedGates.map((gate) => gate.gate).join('; ')}`;
}
