/**
 * results.md's "Tool calls by seat" section: per full-session scenario, one
 * row per seat group and cell (arm, and model in a campaign of several):
 * the group's tool calls per decided rep, their mean, median and range, and
 * how many seats of the group those reps started. Empty when no scenario ran
 * full sessions.
 */
import { markdownTable } from './markdown-table.js';
import { axisNoun } from './model-tables.js';
import type { ResultsModel } from './results-schema.js';
import type { SeatToolCell, SeatTools } from './seat-tools.js';

function num(value: number | null): string {
  return value === null ? 'n/a' : value.toFixed(1);
}

function range(cell: SeatToolCell): string {
  return cell.min === null || cell.max === null ? 'n/a' : `${cell.min}–${cell.max}`;
}

/** The columns of a scenario's seat table (results.md and report.html alike). */
export function seatToolsColumns(
  withModel: boolean,
  /** What the model column is called: `Model`, `Engine` (model-tables.ts's axisNoun). */
  modelColumn = 'Model',
): string[] {
  return [
    'Seat group',
    ...(withModel ? [modelColumn] : []),
    'Arm',
    'Decided reps',
    'Seats',
    'Resumes',
    'Tool calls per decided rep',
    'mean',
    'median',
    'range',
  ];
}

/** The columns that hold a number (report.html aligns them). */
export const SEAT_TOOLS_NUMERIC_COLUMNS: ReadonlySet<string> = new Set([
  'Decided reps',
  'Seats',
  'Resumes',
  'mean',
  'median',
  'range',
]);

/** One cell's row, as text, in seatToolsColumns' order. */
export function seatToolsRow(cell: SeatToolCell, withModel: boolean): string[] {
  return [
    cell.group,
    ...(withModel ? [cell.model ?? ''] : []),
    cell.arm.toUpperCase(),
    String(cell.values.length),
    String(cell.seats),
    String(cell.resumes),
    cell.values.join(' / ') || '—',
    num(cell.mean),
    num(cell.median),
    range(cell),
  ];
}

/** The table of one scenario's seat groups. */
export function seatToolsTable(
  seatTools: SeatTools,
  scenario: string,
  modelColumn = 'Model',
): string {
  const cells = seatTools.cells.filter((cell) => cell.scenario === scenario);
  const withModel = cells.some((cell) => cell.model !== undefined);
  return markdownTable(
    seatToolsColumns(withModel, modelColumn),
    cells.map((cell) => seatToolsRow(cell, withModel)),
  );
}

/** The section's lines (empty when the results hold no full-session scenario). */
export function seatToolsSection(model: ResultsModel): string[] {
  const seatTools = model.seatTools;
  if (seatTools === undefined) return [];
  const scenarios = [...new Set(seatTools.cells.map((cell) => cell.scenario))];
  const lines = ['## Tool calls by seat', ''];
  for (const scenario of scenarios) {
    lines.push(
      `### ${scenario}`,
      '',
      seatToolsTable(seatTools, scenario, axisNoun(model).column),
      '',
    );
  }
  lines.push(seatTools.rule, '');
  if (seatTools.unrecorded.length > 0) {
    lines.push(
      `${seatTools.unrecorded.length} full-session rep(s) were recorded before per-seat counts and are not in these figures (${seatTools.unrecorded.slice(0, 5).join(', ')}${seatTools.unrecorded.length > 5 ? ', …' : ''}): \`redgreen score <dir>\` adds them from the kept transcripts.`,
      '',
    );
  }
  return lines;
}
