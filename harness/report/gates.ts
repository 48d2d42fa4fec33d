import type { GateConfig } from '../campaign/config-schema.js';
import { disagreementGate, INSTRUMENT_DISAGREEMENT } from '../judge/disagreement-gate.js';
import type { CellSummary, GateOutcome, ResultsModel } from './results-schema.js';
import { fisherExact } from './stats.js';

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

export function describeGate(gate: GateConfig): string {
  switch (gate.kind) {
    case 'min-pass-rate':
      return `${gate.scenario.toUpperCase()} ${gate.arm.toUpperCase()} passes at least ${gate.passes}/${gate.of}`;
    case 'green-better':
      return `${gate.scenario.toUpperCase()}: GREEN passes more often than RED (one-sided Fisher, α = ${gate.alpha})`;
    case 'no-regression':
      return `${gate.scenario.toUpperCase()}: no GREEN regression against RED (one-sided Fisher, α = ${gate.alpha})`;
    case 'max-indeterminate-share':
      return `indeterminate reps at most ${Math.round(gate.share * 100)}% of those recorded`;
    case 'max-disagreement-share':
      return `${gate.scenario === undefined ? '' : `${gate.scenario.toUpperCase()}: `}checks and judge disagree on at most ${Math.round(gate.share * 100)}% of the reps both decided`;
  }
}

/** Evaluate one gate against the cell summaries. Undecided when there is nothing to decide on. */
export function evaluateGate(gate: GateConfig, cells: readonly CellSummary[]): GateOutcome {
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
          figure: `${figure}; ${lacking} more decided rep(s) needed (${target.indeterminate} indeterminate, ${target.planned} planned)`,
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
      if (gate.kind === 'green-better') {
        const p = fisherExact(
          { successes: green.pass, trials: green.decided },
          { successes: red.pass, trials: red.decided },
          'greater',
        );
        return {
          ...base,
          outcome: p < gate.alpha ? 'holds' : 'fails',
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
        outcome: p < gate.alpha ? 'fails' : 'holds',
        figure: `${counts}; RED better than GREEN: ${fmtP(p)}`,
      };
    }
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
  }
}

/** Why a complete run of a campaign without gates is undecided: nothing was checked. */
export const NO_GATES_WHY =
  'NO GATES: the campaign declares no gates, so nothing was checked; add gates to the campaign file, or accept that with `redgreen gate --allow-no-gates`';

/**
 * The overall gate decision and the exit code `redgreen gate` uses: 2 when
 * planned reps are missing; else 1 when any gate fails; else 2 when a gate
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
      why: `${missing.length} planned rep(s) not recorded (e.g. ${missing[0]}): finish the run with --resume, or merge the shards`,
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
