import { stringify } from 'csv-stringify/sync';
import { REP_COLUMNS, type ResultsModel } from './results-schema.js';

/**
 * `results.csv`: one row per rep, the columns of REP_COLUMNS in that order,
 * then one `obs_<id>` column per observation (what it saw; empty for reps of
 * a scenario without it), a header row, RFC 4180 quoting, empty cells for
 * unknown values. Opens as-is in pandas (`pd.read_csv`) and spreadsheets.
 */
export function resultsCsv(model: ResultsModel): string {
  const observationColumns = model.observationColumns.map((id) => `obs_${id}`);
  return stringify(
    model.reps.map((row) => [
      ...REP_COLUMNS.map((column) => row[column] ?? ''),
      ...model.observationColumns.map((id) => row.observations[id] ?? ''),
    ]),
    {
      header: true,
      columns: [...REP_COLUMNS, ...observationColumns],
      cast: { boolean: (value) => (value ? 'true' : 'false') },
    },
  );
}
