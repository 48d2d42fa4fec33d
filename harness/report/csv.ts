import { stringify } from 'csv-stringify/sync';
import { packMetricNamesOf } from './rep-metrics.js';
import { REP_COLUMNS, type RepRow, type ResultsModel } from './results-schema.js';

/**
 * `results.csv`: one row per rep, the columns of REP_COLUMNS in that order,
 * then one `obs_<id>` column per observation (what it saw; empty for reps of
 * a scenario without it), then one `metric_<name>` column per pack metric
 * some rep recorded (its value; `n/a` where it has none; empty where not
 * recorded), a header row, RFC 4180 quoting, empty cells for
 * unknown values; in a campaign of several engines an `engine` column last.
 * Opens as-is in pandas (`pd.read_csv`) and spreadsheets.
 */
export function resultsCsv(model: ResultsModel): string {
  const observationColumns = model.observationColumns.map((id) => `obs_${id}`);
  // A campaign of several models names each rep's model in its own column, before model_requested.
  const columns: (keyof RepRow)[] =
    model.models === undefined
      ? [...REP_COLUMNS]
      : REP_COLUMNS.flatMap((column) =>
          column === 'model_requested' ? ['model' as const, column] : [column],
        );
  // A campaign of several engines names each rep's engine last, so no earlier column moves.
  const engineColumn = model.models?.some((entry) => entry.engine !== undefined) === true;
  const packMetrics = packMetricNamesOf(model.reps);
  const packMetricText = (row: RepRow, name: string): string | number => {
    const value = row.pack_metrics?.[name];
    return value === undefined ? '' : value === null ? 'n/a' : value;
  };
  return stringify(
    model.reps.map((row) => [
      ...columns.map((column) => row[column] ?? ''),
      ...model.observationColumns.map((id) => row.observations[id] ?? ''),
      ...packMetrics.map((name) => packMetricText(row, name)),
      ...(engineColumn ? [row.engine ?? ''] : []),
    ]),
    {
      header: true,
      columns: [
        ...columns,
        ...observationColumns,
        ...packMetrics.map((name) => `metric_${name}`),
        ...(engineColumn ? ['engine'] : []),
      ],
      cast: { boolean: (value) => (value ? 'true' : 'false') },
    },
  );
}

/** The columns of `seats.csv`, in order. */
export const SEAT_COLUMNS = [
  'rep_id',
  'arm',
  'scenario',
  'model',
  'verdict',
  'group',
  'seats',
  'resumes',
  'tool_calls',
] as const;

/**
 * `seats.csv`: one row per full-session rep and seat group (the controller,
 * then each group of subagent seats; see seat-tools.ts), with the group's
 * seats, resumes and tool calls, every rep of any verdict (filter on
 * `verdict` for the decided ones); undefined when no scenario ran full
 * sessions. `model` is empty in a campaign of one model.
 */
export function seatToolsCsv(model: ResultsModel): string | undefined {
  if (model.seatTools === undefined) return undefined;
  return stringify(
    model.seatTools.reps.map((row) => SEAT_COLUMNS.map((column) => row[column] ?? '')),
    { header: true, columns: [...SEAT_COLUMNS] },
  );
}
