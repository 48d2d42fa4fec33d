import { pValue as pText } from './html/format.js';
import { markdownTable as table } from './markdown-table.js';
import { infrastructurePhrase } from './model-summary.js';
import type { CellSummary, Interaction, ResultsModel } from './results-schema.js';

/**
 * The markdown of the model axis: a `Model` column in front of every
 * per-cell table of a campaign of several models (a one-model campaign's
 * tables are as they always were), the Models table (what each model ran,
 * what the API reported back, its endpoint, its reps and the indeterminate
 * ones its infrastructure caused), and "Across models": per scenario,
 * RED vs GREEN on each model with Holm-adjusted p-values and whether the
 * change helps on every model.
 */

/** A table header with the Model column first, in a campaign of several models. */
export function withModelHeader(
  model: Pick<ResultsModel, 'models'>,
  header: readonly string[],
): string[] {
  return model.models === undefined ? [...header] : ['Model', ...header];
}

/** A table row with its cell's model first, in a campaign of several models. */
export function withModelCell(
  model: Pick<ResultsModel, 'models'>,
  cell: { readonly model?: string | undefined },
  row: readonly string[],
): string[] {
  return model.models === undefined ? [...row] : [cell.model ?? '', ...row];
}

/** The cell of `cells` with this arm, scenario and model. */
export function findCell(
  cells: readonly CellSummary[],
  arm: string,
  scenario: string,
  model: string | undefined,
): CellSummary | undefined {
  return cells.find(
    (cell) => cell.arm === arm && cell.scenario === scenario && cell.model === model,
  );
}

export const MODEL_COLUMNS = [
  'Model',
  'Requested',
  'Reported back',
  'Endpoint',
  'Reps',
  'PASS / FAIL / indeterminate',
  'Infrastructure failures',
] as const;

export function modelsTable(model: ResultsModel): string {
  return table(
    MODEL_COLUMNS,
    (model.models ?? []).map((entry) => [
      entry.name,
      `${entry.requested}${entry.scripted ? ` (scripted${entry.standsInFor === null ? '' : `, standing in for ${entry.standsInFor}`})` : ''}`,
      entry.reported.join(', ') || '—',
      entry.endpoint ?? 'default',
      `${entry.recorded}/${entry.planned}`,
      `${entry.pass} / ${entry.fail} / ${entry.indeterminate}`,
      infrastructurePhrase(entry.infrastructure) || 'none',
    ]),
  );
}

export const INTERACTION_COLUMNS = [
  'Scenario',
  'Model',
  'RED pass',
  'GREEN pass',
  'GREEN−RED',
  'p (GREEN better)',
  'Holm',
  'p (RED better)',
  'Holm',
  'Effect',
] as const;

function interactionRows(interaction: Interaction): string[][] {
  return interaction.rows.map((row) => [
    interaction.scenario.toUpperCase(),
    row.model,
    `${row.red.pass}/${row.red.decided}`,
    `${row.green.pass}/${row.green.decided}`,
    row.difference === null
      ? 'n/a'
      : `${row.difference >= 0 ? '+' : ''}${Math.round(row.difference * 100)} pts`,
    pText(row.pGreenBetter),
    pText(row.holmGreenBetter),
    pText(row.pRedBetter),
    pText(row.holmRedBetter),
    row.note === null ? row.effect : `${row.effect}: ${row.note}`,
  ]);
}

export function interactionTable(model: ResultsModel): string {
  return table(INTERACTION_COLUMNS, (model.interaction ?? []).flatMap(interactionRows));
}

/** One line per scenario: does the change help on every model? */
export function interactionSummaries(model: ResultsModel): string[] {
  return (model.interaction ?? []).map(
    (interaction) => `- **${interaction.scenario.toUpperCase()}**: ${interaction.summary}.`,
  );
}

/** The Models section of results.md (nothing for a one-model campaign). */
export function modelsSection(model: ResultsModel): string[] {
  if (model.models === undefined) return [];
  const failing = model.models.filter((entry) => Object.keys(entry.infrastructure).length > 0);
  return [
    '## Models',
    '',
    modelsTable(model),
    '',
    ...(failing.length === 0
      ? []
      : [
          `Indeterminate because of the infrastructure (API errors after retries, engine, timeout), not the model: ${failing
            .map((entry) => `${entry.name} ${infrastructurePhrase(entry.infrastructure)}`)
            .join(
              '; ',
            )}. They are excluded from every rate; \`redgreen run --resume <dir> --retry-indeterminate 1\` runs them again.`,
          '',
        ]),
  ];
}

/** The "Across models" section of results.md (nothing for a one-model campaign). */
export function acrossModelsSection(model: ResultsModel): string[] {
  if (model.models === undefined || model.interaction === undefined) return [];
  const alpha = model.interaction[0]?.alpha ?? 0.05;
  return [
    '## Across models',
    '',
    ...interactionSummaries(model),
    '',
    interactionTable(model),
    '',
    `Per model: one-sided Fisher exact tests on decided reps, Holm-adjusted across the scenario's models; "helps" or "hurts" when the adjusted p is below α = ${alpha}.`,
    '',
  ];
}
