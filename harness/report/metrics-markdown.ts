/**
 * results.md's "Cost by arm" section (and report.html's table of it): per
 * cell, each cost metric's median over the decided reps and its range, for
 * the metrics some rep recorded. Tokens the local model server estimated say
 * so once, under the table.
 */
import { isCoreMetric, type MetricName } from '../campaign/metric-gates-config.js';
import { packMetricOf } from '../score/pack-metric-registry.js';
import { markdownTable } from './markdown-table.js';
import { withModelCell, withModelHeader } from './model-tables.js';
import type { MetricSummary } from './rep-metrics.js';
import type { CellSummary, ResultsModel } from './results-schema.js';

/** A column of the cost table: a metric and its title. */
export interface CostColumn {
  readonly metric: string;
  readonly title: string;
}

/** The core metrics the table shows, in order, with their column titles; the pack metrics follow. */
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

function figure(value: number, metric: string): string {
  if (metric === 'cost-usd') return value.toFixed(4);
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

/**
 * A cell's metric as the table shows it: `median (min–max)`, then how many
 * decided reps it has no value on (`; 1 n/a`); `n/a` when it has a value on
 * none of them; `—` when no decided rep recorded it.
 */
export function metricCellText(summary: MetricSummary | undefined, metric: string): string {
  const notANumber = summary?.notANumber ?? 0;
  if (summary === undefined || summary.median === null) return notANumber > 0 ? 'n/a' : '—';
  const low = Math.min(...summary.values);
  const high = Math.max(...summary.values);
  const range = low === high ? '' : ` (${figure(low, metric)}–${figure(high, metric)})`;
  return `${figure(summary.median, metric)}${range}${notANumber > 0 ? `; ${notANumber} n/a` : ''}`;
}

/** A pack metric's column title: its name in words (`tool-calls-per-item` → `tool calls per item`). */
function packMetricTitle(metric: string): string {
  return metric.replaceAll('-', ' ');
}

/** The pack metrics some cell summarises, in the order the cells give them. */
function packMetricsOf(cells: readonly CellSummary[]): string[] {
  return [
    ...new Set(
      cells.flatMap((cell) =>
        Object.keys(cell.metrics ?? {}).filter((name) => !isCoreMetric(name)),
      ),
    ),
  ];
}

/** The columns some decided rep of some cell recorded (a pack metric's n/a counts: it was computed). */
export function shownCostColumns(cells: readonly CellSummary[]): readonly CostColumn[] {
  const recorded = (metric: string) =>
    cells.some((cell) => {
      const summary = cell.metrics?.[metric];
      return (summary?.values.length ?? 0) + (summary?.notANumber ?? 0) > 0;
    });
  return [
    ...COST_COLUMNS,
    ...packMetricsOf(cells).map((metric) => ({ metric, title: packMetricTitle(metric) })),
  ].filter(({ metric }) => recorded(metric));
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

/** A sentence on the pack metrics shown, from what their packs say of them. */
function packMetricsRule(cells: readonly CellSummary[]): string[] {
  const shown = shownCostColumns(cells).filter(({ metric }) => !isCoreMetric(metric));
  if (shown.length === 0) return [];
  const described = shown.map(({ metric }) => {
    const known = packMetricOf(metric);
    return known === undefined ? metric : `${metric}, in ${known.unit}: ${known.description}`;
  });
  return [
    `Pack metrics, computed when a rep is scored (${described.join('; ')}); n/a: the metric has no value on that rep, never 0, and is left out of the median.`,
  ];
}

/** What the figures are, in one paragraph under the table. */
export function costByArmRule(model: Pick<ResultsModel, 'reps' | 'cells'>): string {
  const estimated = model.reps.some((row) => row.tokens_estimated);
  return [
    'Median per decided rep, range in brackets; indeterminate reps are left out, as for tool_uses.',
    'Tokens and cost are what the engine reported (cost at the price table; — when unpriced); tool calls and dispatches are counted from the transcript; files and bytes written are what the session left added or changed in the fixture.',
    ...(estimated
      ? [
          'Token counts marked estimated come from the local model server (about four characters a token of what it was sent and what it answered).',
        ]
      : []),
    ...packMetricsRule(model.cells),
  ].join(' ');
}

/** The section's lines, empty when no rep was recorded. */
export function costByArmSection(model: ResultsModel): string[] {
  if (model.reps.length === 0) return [];
  const { header, rows } = costByArmTable(model);
  return ['## Cost by arm', '', markdownTable(header, rows), '', costByArmRule(model), ''];
}
