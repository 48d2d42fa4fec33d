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

/**
 * What the entries of the model axis are, in words: models; engines (one
 * model on several engines, each entry named by its engine); or models ×
 * engines (several of each, entries `<model>-on-<engine>`).
 */
export interface AxisNoun {
  /** The column header: `Model`, `Engine`, `Model × engine`. */
  readonly column: string;
  /** One entry in a sentence: `model`, `engine`, `model × engine`. */
  readonly one: string;
  /** Several: `models`, `engines`, `models × engines`. */
  readonly many: string;
  /** The section titles: `Models` and `Across models`, and so on. */
  readonly title: string;
}

export function axisNoun(model: {
  readonly models?:
    | readonly { readonly name: string; readonly engine?: string | undefined }[]
    | undefined;
}): AxisNoun {
  const entries = model.models ?? [];
  const onEngines = entries.length > 0 && entries.every((entry) => entry.engine !== undefined);
  if (onEngines && entries.every((entry) => entry.name === entry.engine)) {
    return { column: 'Engine', one: 'engine', many: 'engines', title: 'Engines' };
  }
  if (onEngines) {
    return {
      column: 'Model × engine',
      one: 'model × engine',
      many: 'models × engines',
      title: 'Models × engines',
    };
  }
  return { column: 'Model', one: 'model', many: 'models', title: 'Models' };
}

/** The engines of a campaign of several engines, in campaign order (none otherwise). */
export function axisEngines(model: Pick<ResultsModel, 'models'>): string[] {
  return [
    ...new Set(
      (model.models ?? [])
        .map((entry) => entry.engine)
        .filter((engine): engine is string => engine !== undefined),
    ),
  ];
}

/** The header's backend fact: `Backend` and the one, or `Engines` and each, with their versions. */
export function backendFact(model: Pick<ResultsModel, 'models' | 'backend' | 'engine'>): {
  readonly term: string;
  readonly text: string;
} {
  const engines = axisEngines(model);
  return engines.length > 1
    ? { term: 'Engines', text: `${engines.join(', ')} (${model.engine})` }
    : { term: 'Backend', text: `${model.backend} (${model.engine})` };
}

/** A table header with the Model (or Engine) column first, in a campaign of several models or engines. */
export function withModelHeader(
  model: Pick<ResultsModel, 'models'>,
  header: readonly string[],
): string[] {
  return model.models === undefined ? [...header] : [axisNoun(model).column, ...header];
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

const MODEL_COLUMNS = [
  'Model',
  'Requested',
  'Reported back',
  'Endpoint',
  'Reps',
  'PASS / FAIL / indeterminate',
  'Infrastructure failures',
] as const;

/** The Models table's columns, its first naming what the entries are. */
export function modelColumns(model: Pick<ResultsModel, 'models'>): string[] {
  const [, ...rest] = MODEL_COLUMNS;
  return [axisNoun(model).column, ...rest];
}

export function modelsTable(model: ResultsModel): string {
  return table(
    modelColumns(model),
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

const INTERACTION_COLUMNS = [
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

/** The interaction table's columns, the second naming what the entries are. */
export function interactionColumns(model: Pick<ResultsModel, 'models'>): string[] {
  const [scenario, , ...rest] = INTERACTION_COLUMNS;
  return [scenario, axisNoun(model).column, ...rest];
}

export function interactionTable(model: ResultsModel): string {
  return table(interactionColumns(model), (model.interaction ?? []).flatMap(interactionRows));
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
    `## ${axisNoun(model).title}`,
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
  const noun = axisNoun(model);
  return [
    `## Across ${noun.many}`,
    '',
    ...interactionSummaries(model),
    '',
    interactionTable(model),
    '',
    `Per ${noun.one}: one-sided Fisher exact tests on decided reps, Holm-adjusted across the scenario's ${noun.many}; "helps" or "hurts" when the adjusted p is below α = ${alpha}.`,
    '',
  ];
}
