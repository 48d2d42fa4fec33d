import type { TopLevelSpec } from 'vega-lite';
import type { ResultsModel } from '../results-schema.js';
import { armAxis, armLabel, cellKey, modelFacetRow, scenarioLabel } from './cell-labels.js';
import {
  ARM_STEP,
  CHART_CONFIG,
  LEGEND_COLOURS,
  LEGEND_SYMBOLS,
  legendIndex,
} from './chart-theme.js';

/**
 * tool_uses of every rep as a strip plot: one panel per scenario (a row of
 * panels per model in a campaign of several models), one strip
 * per arm, one symbol per rep coloured (and shaped) by the legend
 * observation (the first tally a scenario declares, e.g. resolution shape),
 * with a tick at the cell's median. Reps are spread across the strip by
 * their position in the cell, so the plot is the same on every build.
 * Only decided reps are drawn: an indeterminate rep was cut short, so its
 * count is no measurement (the tables leave it out too).
 */
export function toolUsesChartSpec(model: ResultsModel): TopLevelSpec {
  const decided = model.reps.filter((row) => row.verdict !== 'indeterminate');
  const cellSizes = new Map<string, number>();
  for (const row of decided) {
    const key = cellKey(row);
    cellSizes.set(key, (cellSizes.get(key) ?? 0) + 1);
  }
  const seen = new Map<string, number>();
  const legend = model.legend;
  const legendValue = (row: (typeof model.reps)[number]): string =>
    legend === null ? 'n/a' : (row.observations[legend.id] ?? 'n/a');
  const domain = legend === null ? ['n/a'] : [...legend.values, 'n/a'];
  const values = decided.map((row) => {
    const key = cellKey(row);
    const index = seen.get(key) ?? 0;
    seen.set(key, index + 1);
    const size = cellSizes.get(key) ?? 1;
    return {
      ...(row.model === undefined ? {} : { model: row.model }),
      scenario: scenarioLabel(row.scenario),
      arm: armLabel({ name: row.arm, role: row.role }),
      rep: row.rep_id,
      toolUses: row.tool_uses,
      observed: legendValue(row),
      verdict: row.verdict,
      // Even spread across the middle 60% of the band: -0.3 … +0.3.
      summary: `${row.rep_id}: ${row.tool_uses} tool_uses, ${legend?.title ?? 'observed'} ${legendValue(row)}, verdict ${row.verdict}`,
      offset: size === 1 ? 0 : ((index + 0.5) / size - 0.5) * 0.6,
    };
  });
  const x = armAxis(model);
  const y = {
    field: 'toolUses',
    type: 'quantitative' as const,
    title: 'tool_uses per rep',
    scale: { zero: true },
    axis: { tickMinStep: 1, format: 'd' },
  };
  return {
    description: `tool_uses per rep per cell, coloured by ${legend?.title ?? 'nothing observed'}, with the cell median`,
    config: CHART_CONFIG,
    data: { values },
    facet: {
      column: { field: 'scenario', type: 'nominal' as const, title: null, sort: null },
      ...modelFacetRow(model),
    },
    spacing: 40,
    spec: {
      width: { step: ARM_STEP },
      height: 240,
      layer: [
        {
          mark: { type: 'tick', color: '#222222', thickness: 2, size: 70 },
          encoding: {
            x,
            y: { ...y, aggregate: 'median' as const },
            description: { value: 'median tool_uses of this cell' },
          },
        },
        {
          mark: {
            type: 'point',
            filled: true,
            size: 90,
            opacity: 0.9,
            stroke: '#ffffff',
            strokeWidth: 0.8,
          },
          encoding: {
            x,
            xOffset: { field: 'offset', type: 'quantitative', scale: { domain: [-0.5, 0.5] } },
            y,
            description: { field: 'summary', type: 'nominal' as const },
            color: {
              field: 'observed',
              type: 'nominal' as const,
              title: legend?.title ?? 'observed',
              scale: {
                domain,
                range: domain.map(
                  (value) => LEGEND_COLOURS[legendIndex(model, value)] ?? '#000000',
                ),
              },
            },
            shape: {
              field: 'observed',
              type: 'nominal' as const,
              scale: {
                domain,
                range: domain.map((value) => LEGEND_SYMBOLS[legendIndex(model, value)] ?? 'circle'),
              },
            },
          },
        },
      ],
    },
  };
}
