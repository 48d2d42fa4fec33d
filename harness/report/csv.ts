import { stringify } from 'csv-stringify/sync';
import { REP_COLUMNS, type ResultsModel } from './results-schema.js';

/**
 * `results.csv`: one row per rep, the columns of REP_COLUMNS in that order,
 * a header row, RFC 4180 quoting, empty cells for unknown values. Opens as-is
 * in pandas (`pd.read_csv`) and spreadsheets.
 */
export function resultsCsv(model: ResultsModel): string {
  return stringify(
    model.reps.map((row) => REP_COLUMNS.map((column) => row[column] ?? '')),
    {
      header: true,
      columns: [...REP_COLUMNS],
      cast: { boolean: (value) => (value ? 'true' : 'false') },
    },
  );
}
