/**
 * results.md's "Cost by arm" section (and report.html's table of it): per
 * cell, each cost metric's median over the decided reps and its range, for
 * the metrics some rep recorded. Tokens the local model server estimated say
 * so once, under the table.
 */
import type { MetricName } from '../campaign/metric-gates-config.js';
import { markdownTable } from './markdown-table.js';
import { withModelCell, withModelHeader } from './model-tables.js';
import type { MetricSummary } from './rep-metrics.js';
import type { CellSummary, ResultsModel } from './results-schema.js';

/** The metrics the table shows, in order, with their column titles. */
export const COST_COLUMNS: readonly { readonly metric: MetricName; readonly title: string }[] = [
  { metric: 'input-tokens', title: 'input tokens' },
  { metric: 'output-tokens', title: 'output tokens' },
  { metric: 'cache-write-tokens', title: 'cache write' },
  { metric: 'cache-read-tokens', title: 'cache read' },
  { metric: 'cost-usd', title: 'cost USD' },
  { metric: 'controller-tool-calls', title: 'controller tool calls' },
  { metric: 'subagent-tool-calls', title: 'subagent tool calls' },
  { metric: 'dispatches', title: 'dispatches' },
  { metric: 'tool-calls-per-seat', title: 'tool calls per seat' },
  { metric: 'files-written', title: 'files written' },
  { metric: 'bytes-written', title: 'bytes written' },
];

function figure(value: number, metric: MetricName): string {
  if (metric === 'cost-usd') return value.toFixed(4);
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

/** A cell's metric as the table shows it: `median (min–max)`, or `—` when no decided rep recorded it. */
export function metricCellText(summary: MetricSummary | undefined, metric: MetricName): string {
  if (summary === undefined || summary.median === null) return '—';
  const low = Math.min(...summary.values);
  const high = Math.max(...summary.values);
  const range = low === high ? '' : ` (${figure(low, metric)}–${figure(high, metric)})`;
  return `${figure(summary.median, metric)}${range}`;
}

/** The columns some decided rep of some cell recorded. */
export function shownCostColumns(cells: readonly CellSummary[]): typeof COST_COLUMNS {
  return COST_COLUMNS.filter(({ metric }) =>
    cells.some((cell) => (cell.metrics?.[metric]?.values.length ?? 0) > 0),
  );
}

/** The header and rows of the cost table (markdown and HTML alike). */
export function costByArmTable(model: ResultsModel): {
  header: string[];
  rows: string[][];
} {
  const columns = shownCostColumns(model.cells);
  return {
    header: withModelHeader(model, [
      'Cell',
      'Decided reps',
      ...columns.map((column) => column.title),
    ]),
    rows: model.cells.map((cell) =>
      withModelCell(model, cell, [
        `${cell.scenario.toUpperCase()} ${cell.arm.toUpperCase()}`,
        String(cell.decided),
        ...columns.map(({ metric }) => metricCellText(cell.metrics?.[metric], metric)),
      ]),
    ),
  };
}

/** What the figures are, in one paragraph under the table. */
export function costByArmRule(model: Pick<ResultsModel, 'reps'>): string {
  const estimated = model.reps.some((row) => row.tokens_estimated);
  return [
    'Median per decided rep, range in brackets; indeterminate reps are left out, as for tool_uses.',
    'Tokens and cost are what the engine reported (cost at the price table; — when unpriced); tool calls and dispatches are counted from the transcript; files and bytes written are what the session left added or changed in the fixture.',
    ...(estimated
      ? [
          'Token counts marked estimated come from the local model server (about four characters a token of what it was sent and what it answered).',
        ]
      : []),
  ].join(' ');
}

/** The section's lines, empty when no rep was recorded. */
export function costByArmSection(model: ResultsModel): string[] {
  if (model.reps.length === 0) return [];
  const { header, rows } = costByArmTable(model);
  return ['## Cost by arm', '', markdownTable(header, rows), '', costByArmRule(model), ''];
}
