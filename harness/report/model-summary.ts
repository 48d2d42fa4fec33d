import type { CampaignRecord } from '../campaign/campaign-record.js';
import type {
  CellSummary,
  Interaction,
  InteractionRow,
  ModelSummary,
  RepRow,
} from './results-schema.js';
import { holmAdjust } from './stats-holm.js';
import { belowThreshold, fisherExact } from './stats-rates.js';

/**
 * The model axis of the results: what each model of a campaign of several
 * models ran and how its reps came out (with the indeterminate reps its
 * infrastructure caused, so a failing endpoint is named, not hidden), and
 * the arm × model interaction: per scenario, does GREEN help on every
 * model? One-sided Fisher tests per model in both directions, Holm-adjusted
 * across the scenario's models, so "helps on model A" survives the number
 * of models looked at.
 */

/** Indeterminate stages that are the infrastructure's fault, not the session's (as --retry-indeterminate counts them). */
export const INFRASTRUCTURE_STAGES: ReadonlySet<string> = new Set([
  'api',
  'engine',
  'timeout',
  'harness',
]);

/** The significance level of the interaction's per-model effects. */
export const INTERACTION_ALPHA = 0.05;

export function isInfrastructureFailure(
  row: Pick<RepRow, 'verdict' | 'indeterminate_stage'>,
): boolean {
  return row.verdict === 'indeterminate' && INFRASTRUCTURE_STAGES.has(row.indeterminate_stage);
}

type RecordedModel = NonNullable<CampaignRecord['models']>[number];

function modelLabel(model: RecordedModel): string {
  return `${model.engine === undefined ? '' : `on the ${model.engine} engine: `}${entryLabel(model)}`;
}

function entryLabel(model: RecordedModel): string {
  if (model.scripted) {
    return `${model.id}${model.standsInFor === null ? '' : ` standing in for ${model.standsInFor}`} (a scripted policy on redgreen's local model server, not a model; token counts are estimates)`;
  }
  return `${model.id}${model.endpoint === null ? '' : ` on endpoint ${model.endpoint}`}${model.baseUrl === null ? '' : ` (${model.baseUrl})`}`;
}

/** Each model's summary, in campaign order (only the models this directory schedules reps for). */
export function modelSummaries(
  models: readonly RecordedModel[],
  names: readonly string[],
  rows: readonly RepRow[],
  scheduledPerModel: (name: string) => number,
): ModelSummary[] {
  return models
    .filter((model) => names.includes(model.name))
    .map((model) => {
      const mine = rows.filter((row) => row.model === model.name);
      const infrastructure: Record<string, number> = {};
      for (const row of mine.filter(isInfrastructureFailure)) {
        infrastructure[row.indeterminate_stage] =
          (infrastructure[row.indeterminate_stage] ?? 0) + 1;
      }
      return {
        name: model.name,
        requested: model.id,
        reported: [
          ...new Set(mine.map((row) => row.model_reported).filter((id) => id !== '')),
        ].sort(),
        scripted: model.scripted,
        standsInFor: model.standsInFor,
        endpoint: model.endpoint,
        ...(model.engine === undefined ? {} : { engine: model.engine }),
        label: modelLabel(model),
        planned: scheduledPerModel(model.name),
        recorded: mine.length,
        pass: mine.filter((row) => row.verdict === 'pass').length,
        fail: mine.filter((row) => row.verdict === 'fail').length,
        indeterminate: mine.filter((row) => row.verdict === 'indeterminate').length,
        infrastructure,
      };
    });
}

/** Indeterminate reps a model's infrastructure caused, as a phrase: `4 api`. */
export function infrastructurePhrase(counts: Readonly<Record<string, number>>): string {
  return Object.entries(counts)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([stage, count]) => `${count} ${stage}`)
    .join(', ');
}

function interactionRow(
  model: string,
  red: CellSummary | undefined,
  green: CellSummary | undefined,
): Omit<InteractionRow, 'holmGreenBetter' | 'holmRedBetter' | 'effect'> {
  const redCount = { pass: red?.pass ?? 0, decided: red?.decided ?? 0 };
  const greenCount = { pass: green?.pass ?? 0, decided: green?.decided ?? 0 };
  const decided = redCount.decided > 0 && greenCount.decided > 0;
  const undecidedCells = [red, green].filter(
    (cell): cell is CellSummary => cell !== undefined && cell.decided === 0,
  );
  const infrastructure = undecidedCells.reduce((sum, cell) => sum + (cell.infrastructure ?? 0), 0);
  const indeterminate = undecidedCells.reduce((sum, cell) => sum + cell.indeterminate, 0);
  return {
    model,
    red: redCount,
    green: greenCount,
    difference: decided
      ? greenCount.pass / greenCount.decided - redCount.pass / redCount.decided
      : null,
    pGreenBetter: decided
      ? fisherExact(
          { successes: greenCount.pass, trials: greenCount.decided },
          { successes: redCount.pass, trials: redCount.decided },
          'greater',
        )
      : null,
    pRedBetter: decided
      ? fisherExact(
          { successes: redCount.pass, trials: redCount.decided },
          { successes: greenCount.pass, trials: greenCount.decided },
          'greater',
        )
      : null,
    note: decided
      ? null
      : infrastructure > 0
        ? `no decided reps: ${infrastructure} of ${indeterminate} indeterminate rep(s) are infrastructure failures (API errors, engine, timeout), not the model's doing`
        : 'a cell has no decided reps',
  };
}

function effectOf(
  holmGreenBetter: number | null,
  holmRedBetter: number | null,
  alpha: number,
): InteractionRow['effect'] {
  if (holmGreenBetter === null || holmRedBetter === null) return 'undecided';
  if (belowThreshold(holmGreenBetter, alpha)) return 'helps';
  if (belowThreshold(holmRedBetter, alpha)) return 'hurts';
  return 'no clear effect';
}

function summaryOf(rows: readonly InteractionRow[], noun: string): string {
  const names = (effect: InteractionRow['effect']): string[] =>
    rows.filter((row) => row.effect === effect).map((row) => row.model);
  const helps = names('helps');
  const hurts = names('hurts');
  const unclear = names('no clear effect');
  const undecided = names('undecided');
  const parts: string[] = [];
  if (helps.length === rows.length) parts.push(`GREEN helps on every ${noun} (${rows.length})`);
  else if (helps.length > 0)
    parts.push(`GREEN helps on ${helps.length} of ${rows.length} ${noun}s (${helps.join(', ')})`);
  else parts.push(`GREEN helps on none of the ${rows.length} ${noun}s`);
  if (hurts.length > 0) parts.push(`hurts on ${hurts.join(', ')}`);
  if (unclear.length > 0 && helps.length > 0)
    parts.push(`no clear effect on ${unclear.join(', ')}`);
  if (undecided.length > 0) parts.push(`undecided on ${undecided.join(', ')}`);
  const differs = new Set(
    rows.filter((row) => row.effect !== 'undecided').map((row) => row.effect),
  );
  if (differs.size > 1) parts.push(`the effect depends on the ${noun}`);
  const gap = differenceGap(rows);
  if (gap !== null) parts.push(gap);
  return parts.join('; ');
}

/** Percentage points, signed: `+100 pts`, `-20 pts`, `0 pts`. */
function points(fraction: number): string {
  const value = Math.round(fraction * 100);
  return `${value > 0 ? '+' : ''}${value} pts`;
}

/**
 * The difference between the entries' effects: GREEN−RED on the entry it is
 * largest on and on the one it is smallest on, and how far apart they are;
 * null when fewer than two entries have decided reps or the effects are equal.
 */
function differenceGap(rows: readonly InteractionRow[]): string | null {
  const decided = rows.filter(
    (row): row is InteractionRow & { difference: number } => row.difference !== null,
  );
  if (decided.length < 2) return null;
  const sorted = [...decided].sort((a, b) => b.difference - a.difference);
  const high = sorted[0];
  const low = sorted[sorted.length - 1];
  if (high === undefined || low === undefined || high.difference === low.difference) return null;
  return `GREEN−RED is ${points(high.difference)} on ${high.model} and ${points(low.difference)} on ${low.model}, ${Math.round((high.difference - low.difference) * 100)} pts apart`;
}

/**
 * The arm × model interaction per scenario: each model's RED and GREEN
 * counts, the difference, one-sided Fisher p both ways, Holm-adjusted across
 * the models with decided reps, and the effect at α. A model whose cells
 * have no decided reps is undecided, with why (its infrastructure, if so).
 */
export function interactionSummary(
  scenarios: readonly string[],
  models: readonly string[],
  cells: readonly CellSummary[],
  alpha: number = INTERACTION_ALPHA,
  /** What an entry is in words: `model`, or `engine` when the entries are one model's engines. */
  noun = 'model',
): Interaction[] {
  return scenarios.flatMap((scenario) => {
    const rows = models.map((model) => {
      const cellOf = (role: 'red' | 'green'): CellSummary | undefined =>
        cells.find(
          (cell) => cell.scenario === scenario && cell.model === model && cell.role === role,
        );
      return interactionRow(model, cellOf('red'), cellOf('green'));
    });
    const roles = new Set(cells.filter((cell) => cell.scenario === scenario).map((c) => c.role));
    if (!roles.has('red') || !roles.has('green')) return [];
    const holmGreen = holmAdjust(rows.map((row) => row.pGreenBetter));
    const holmRed = holmAdjust(rows.map((row) => row.pRedBetter));
    const complete: InteractionRow[] = rows.map((row, index) => {
      const holmGreenBetter = holmGreen[index] ?? null;
      const holmRedBetter = holmRed[index] ?? null;
      return {
        ...row,
        holmGreenBetter,
        holmRedBetter,
        effect: effectOf(holmGreenBetter, holmRedBetter, alpha),
      };
    });
    return [{ scenario, alpha, rows: complete, summary: summaryOf(complete, noun) }];
  });
}
