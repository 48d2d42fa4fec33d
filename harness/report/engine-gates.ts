import type { EnginesAgreeGate } from '../campaign/engine-gates-config.js';
import type { CellSummary, GateOutcome } from './results-schema.js';
import { adjustForMultiple } from './stats-multiple.js';
import { belowThreshold, fisherExact } from './stats-rates.js';

/**
 * `engines-agree`: the gate on the difference between engines. For each
 * model, scenario and arm it compares the pass rates on every two engines
 * (decided reps only) with a two-sided Fisher exact test, every pair of the
 * run one family (Holm by default: the k-th smallest p held to α/(m−k+1)).
 * It fails when a pair's gap is above `maxGapPts` and survives the
 * correction, naming the pair; it is undecided when a compared cell has no
 * decided reps, or when the reps are too few for even all against none to
 * get below the first threshold (it could never fail), or when the run has
 * fewer than two engines; else it holds.
 */

/** An entry of the run's model axis: its name, the engine it ran on (absent: no engine axis). */
export interface AxisEntry {
  readonly name: string;
  readonly engine?: string | undefined;
}

interface Pair {
  readonly model: string;
  readonly scenario: string;
  readonly arm: string;
  readonly first: { readonly engine: string; readonly cell: CellSummary | undefined };
  readonly second: { readonly engine: string; readonly cell: CellSummary | undefined };
}

interface TestedPair extends Pair {
  readonly gapPts: number;
  readonly p: number;
  /** The smallest p these reps allow: one engine passing every rep, the other none. */
  readonly floor: number;
}

/** The model an entry is of: '' for the one model of a campaign of several engines. */
function baseModel(entry: AxisEntry & { readonly engine: string }): string {
  if (entry.name === entry.engine) return '';
  const suffix = `-on-${entry.engine}`;
  return entry.name.endsWith(suffix) ? entry.name.slice(0, -suffix.length) : entry.name;
}

function fmtP(p: number): string {
  return p < 0.0001 ? 'p < 0.0001' : `p = ${p.toFixed(4)}`;
}

function rate(cell: CellSummary): string {
  return `${cell.pass}/${cell.decided}`;
}

function pairName(pair: Pair): string {
  return `${pair.model === '' ? '' : `${pair.model}: `}${pair.scenario.toUpperCase()} ${pair.arm.toUpperCase()}`;
}

function pairCounts(pair: TestedPair): string {
  const first = pair.first.cell;
  const second = pair.second.cell;
  return `${pair.first.engine} ${first === undefined ? '—' : rate(first)}, ${pair.second.engine} ${second === undefined ? '—' : rate(second)}`;
}

export function evaluateEnginesAgree(
  gate: EnginesAgreeGate,
  cells: readonly CellSummary[],
  entries: readonly AxisEntry[],
): Pick<GateOutcome, 'outcome' | 'figure'> {
  const onEngines = entries.filter(
    (entry): entry is AxisEntry & { engine: string } => entry.engine !== undefined,
  );
  const models = [...new Set(onEngines.map(baseModel))];
  const enginesOf = (model: string) => onEngines.filter((entry) => baseModel(entry) === model);
  if (models.every((model) => enginesOf(model).length < 2)) {
    return {
      outcome: 'undecided',
      figure: 'the run has fewer than two engines to compare',
    };
  }
  const scenarios = gate.scenarios ?? [...new Set(cells.map((cell) => cell.scenario))];
  const arms = gate.arms ?? [...new Set(cells.map((cell) => cell.arm))];
  const find = (entry: string, scenario: string, arm: string) =>
    cells.find((cell) => cell.model === entry && cell.scenario === scenario && cell.arm === arm);
  const pairs: Pair[] = models.flatMap((model) => {
    const mine = enginesOf(model);
    return scenarios.flatMap((scenario) =>
      arms.flatMap((arm) =>
        mine.flatMap((first, index) =>
          mine.slice(index + 1).map((second) => ({
            model,
            scenario,
            arm,
            first: { engine: first.engine, cell: find(first.name, scenario, arm) },
            second: { engine: second.engine, cell: find(second.name, scenario, arm) },
          })),
        ),
      ),
    );
  });
  const decided = (cell: CellSummary | undefined): cell is CellSummary =>
    cell !== undefined && cell.decided > 0;
  const tested: TestedPair[] = pairs.flatMap((pair) => {
    const first = pair.first.cell;
    const second = pair.second.cell;
    if (!decided(first) || !decided(second)) return [];
    const counts = (cell: CellSummary) => ({ successes: cell.pass, trials: cell.decided });
    return [
      {
        ...pair,
        gapPts: Math.abs(first.pass / first.decided - second.pass / second.decided) * 100,
        p: fisherExact(counts(first), counts(second), 'two-sided'),
        floor: fisherExact(
          { successes: first.decided, trials: first.decided },
          { successes: 0, trials: second.decided },
          'two-sided',
        ),
      },
    ];
  });
  const adjusted = adjustForMultiple(
    tested.map((pair) => pair.p),
    gate.alpha,
    gate.correction,
  );
  const family = `${tested.length} pair(s) of engines${gate.correction === 'holm' ? ', Holm-corrected' : ''}`;
  const disagreeing = tested.flatMap((pair, index) => {
    const adjustment = adjusted[index];
    return adjustment?.rejected === true && pair.gapPts > gate.maxGapPts
      ? [{ pair, threshold: adjustment.threshold }]
      : [];
  });
  if (disagreeing.length > 0) {
    return {
      outcome: 'fails',
      figure: `the engines disagree: ${disagreeing
        .map(
          ({ pair, threshold }) =>
            `${pairName(pair)} (${pairCounts(pair)}: ${Math.round(pair.gapPts)} pts apart; ${fmtP(pair.p)} below ${threshold.toPrecision(3)})`,
        )
        .join('; ')} (${family})`,
    };
  }
  const untested = pairs.filter((pair) => !decided(pair.first.cell) || !decided(pair.second.cell));
  if (untested.length > 0 || tested.length === 0) {
    return {
      outcome: 'undecided',
      figure:
        untested.length > 0
          ? `no decided reps on an engine for ${[...new Set(untested.map(pairName))].join(', ')}`
          : 'no scenario and arm to compare',
    };
  }
  const firstThreshold = gate.correction === 'holm' ? gate.alpha / tested.length : gate.alpha;
  if (tested.every((pair) => !belowThreshold(pair.floor, firstThreshold))) {
    return {
      outcome: 'undecided',
      figure: `too few decided reps to show a disagreement: the smallest p they allow is ${fmtP(Math.min(...tested.map((pair) => pair.floor)))}, and the first threshold is ${firstThreshold.toPrecision(3)} (${family}); run more reps`,
    };
  }
  const widest = [...tested].sort((a, b) => b.gapPts - a.gapPts || a.p - b.p)[0];
  return {
    outcome: 'holds',
    figure:
      widest === undefined || widest.gapPts === 0
        ? `${family}: the same pass rate on every engine`
        : `${family}, none disagrees; widest: ${pairName(widest)} (${pairCounts(widest)}: ${Math.round(widest.gapPts)} pts apart; ${fmtP(widest.p)}${widest.gapPts <= gate.maxGapPts ? `, within ${gate.maxGapPts} pts` : ''})`,
  };
}
