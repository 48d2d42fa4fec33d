import type { TopLevelSpec } from 'vega-lite';
import type { MetricName } from '../../campaign/metric-gates-config.js';
import { type MetricRow, metricReading, packMetricNamesOf } from '../rep-metrics.js';
import type { ResultsModel } from '../results-schema.js';
import { armAxis, armLabel, cellKey, scenarioLabel } from './cell-labels.js';
import { ARM_STEP, CHART_CONFIG } from './chart-theme.js';

/** The metrics the cost chart draws (each with its own scale), when some decided rep recorded it. */
const CHARTED: readonly { readonly metric: MetricName; readonly title: string }[] = [
  { metric: 'input-tokens', title: 'input tokens' },
  { metric: 'output-tokens', title: 'output tokens' },
  { metric: 'cost-usd', title: 'cost USD' },
  { metric: 'bytes-written', title: 'bytes written' },
];

/** A metric's value on a row when it has one (not unrecorded, not n/a). */
function chartedValue(row: MetricRow, metric: string): number | null {
  const reading = metricReading(row, metric);
  return typeof reading === 'number' ? reading : null;
}

/**
 * Cost per rep, drawn like tool_uses (the core's four metrics above, then
 * every pack metric the reps recorded; a rep where it is n/a has no dot): one row of panels per metric (its own
 * scale; `model · metric` in a campaign of several models), one panel per
 * scenario, one strip per arm, one dot per decided rep and a tick at the
 * cell's median. Null when no decided rep recorded any of the metrics.
 */
export function costChartSpec(model: ResultsModel): TopLevelSpec | null {
  const decided = model.reps.filter((row) => row.verdict !== 'indeterminate');
  const candidates: readonly { readonly metric: string; readonly title: string }[] = [
    ...CHARTED,
    ...packMetricNamesOf(decided).map((metric) => ({ metric, title: metric.replaceAll('-', ' ') })),
  ];
  const charted = candidates.filter(({ metric }) =>
    decided.some((row) => chartedValue(row, metric) !== null),
  );
  if (charted.length === 0) return null;
  const values = charted.flatMap(({ metric, title }) => {
    const cellSizes = new Map<string, number>();
    const known = decided.filter((row) => chartedValue(row, metric) !== null);
    for (const row of known) cellSizes.set(cellKey(row), (cellSizes.get(cellKey(row)) ?? 0) + 1);
    const seen = new Map<string, number>();
    return known.map((row) => {
      const key = cellKey(row);
      const index = seen.get(key) ?? 0;
      seen.set(key, index + 1);
      const size = cellSizes.get(key) ?? 1;
      const value = chartedValue(row, metric) ?? 0;
      return {
        metric: row.model === undefined ? title : `${row.model} · ${title}`,
        scenario: scenarioLabel(row.scenario),
        arm: armLabel({ name: row.arm, role: row.role }),
        value,
        summary: `${row.rep_id}: ${value} ${title}${row.tokens_estimated && metric.endsWith('tokens') ? ' (estimated)' : ''}`,
        offset: size === 1 ? 0 : ((index + 0.5) / size - 0.5) * 0.6,
      };
    });
  });
  const rows = [...new Set(values.map((value) => value.metric))];
  const x = armAxis(model);
  const y = { field: 'value', type: 'quantitative' as const, title: null, scale: { zero: true } };
  return {
    description: `${charted.map((entry) => entry.title).join(', ')} per decided rep per cell, with the cell median`,
    config: CHART_CONFIG,
    data: { values },
    facet: {
      column: { field: 'scenario', type: 'nominal' as const, title: null, sort: null },
      row: { field: 'metric', type: 'nominal' as const, title: null, sort: rows },
    },
    resolve: { scale: { y: 'independent' } },
    spacing: 30,
    spec: {
      width: { step: ARM_STEP },
      height: 140,
      layer: [
        {
          mark: { type: 'tick', color: '#222222', thickness: 2, size: 70 },
          encoding: { x, y: { ...y, aggregate: 'median' as const } },
        },
        {
          mark: { type: 'point', filled: true, size: 70, opacity: 0.85, color: '#3b6ea8' },
          encoding: {
            x,
            xOffset: { field: 'offset', type: 'quantitative', scale: { domain: [-0.5, 0.5] } },
            y,
            description: { field: 'summary', type: 'nominal' as const },
          },
        },
      ],
    },
  };
}
