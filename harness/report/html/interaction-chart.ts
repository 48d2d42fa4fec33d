import type { TopLevelSpec } from 'vega-lite';
import type { ResultsModel } from '../results-schema.js';
import { scenarioLabel } from './cell-labels.js';
import { CHART_CONFIG, LEGEND_COLOURS, LEGEND_SYMBOLS } from './chart-theme.js';
import { percent } from './format.js';

/**
 * The arm × model interaction plot: one panel per scenario, RED and GREEN
 * on the x axis, each model's pass rate as a point per arm joined by a line
 * (a line that climbs: GREEN helps on that model; lines that cross or part:
 * the effect depends on the model). Each model has its own colour and
 * symbol, and each point its count; a model without decided reps in an arm
 * is named in a text mark instead of drawn.
 */
export function interactionChartSpec(model: ResultsModel): TopLevelSpec {
  const names = (model.models ?? []).map((entry) => entry.name);
  const values = (model.interaction ?? []).flatMap((interaction) =>
    interaction.rows.flatMap((row) =>
      (['red', 'green'] as const).map((role) => {
        const count = row[role];
        const rate = count.decided === 0 ? null : count.pass / count.decided;
        return {
          scenario: scenarioLabel(interaction.scenario),
          model: row.model,
          arm: role.toUpperCase(),
          passRate: rate,
          count:
            count.decided === 0
              ? `${row.model}: no decided reps`
              : `${count.pass}/${count.decided}`,
          summary: `${scenarioLabel(interaction.scenario)} ${role.toUpperCase()} on ${row.model}: ${
            rate === null
              ? 'no decided reps'
              : `${count.pass}/${count.decided} passed (${percent(rate)})`
          }; effect on this model: ${row.effect}`,
        };
      }),
    ),
  );
  const x = {
    field: 'arm',
    type: 'nominal' as const,
    sort: ['RED', 'GREEN'],
    title: null,
    axis: { labelAngle: 0 },
    scale: { padding: 0.5 },
  };
  const y = {
    field: 'passRate',
    type: 'quantitative' as const,
    scale: { domain: [0, 1] },
    axis: { format: '.0%', tickCount: 5 },
    title: 'pass rate (decided reps)',
  };
  const colour = {
    field: 'model',
    type: 'nominal' as const,
    title: 'model',
    scale: {
      domain: names,
      range: names.map((_, index) => LEGEND_COLOURS[index % LEGEND_COLOURS.length] ?? '#000000'),
    },
  };
  const shape = {
    field: 'model',
    type: 'nominal' as const,
    title: 'model',
    scale: {
      domain: names,
      range: names.map((_, index) => LEGEND_SYMBOLS[index % LEGEND_SYMBOLS.length] ?? 'circle'),
    },
  };
  const description = { field: 'summary', type: 'nominal' as const };
  return {
    description: 'Pass rate of RED and GREEN on each model, one line per model, per scenario',
    config: CHART_CONFIG,
    data: { values },
    facet: { column: { field: 'scenario', type: 'nominal' as const, title: null, sort: null } },
    spacing: 40,
    spec: {
      width: 220,
      height: 240,
      layer: [
        {
          transform: [{ filter: 'datum.passRate != null' }],
          mark: { type: 'line', strokeWidth: 2 },
          encoding: { x, y, color: colour, detail: { field: 'model', type: 'nominal' as const } },
        },
        {
          transform: [{ filter: 'datum.passRate != null' }],
          mark: { type: 'point', filled: true, size: 110, opacity: 1 },
          encoding: { x, y, color: colour, shape, description },
        },
        {
          transform: [{ filter: 'datum.passRate != null' }],
          mark: { type: 'text', align: 'left', dx: 10, dy: -8, fontSize: 11, color: '#222222' },
          encoding: { x, y, text: { field: 'count' }, description },
        },
        {
          transform: [{ filter: 'datum.passRate == null' }],
          mark: { type: 'text', fontSize: 11, color: '#8a1c00', baseline: 'top', y: 8 },
          encoding: { x, text: { field: 'count' }, description },
        },
      ],
    },
  };
}
