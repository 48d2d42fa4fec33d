import type { TopLevelSpec } from 'vega-lite';
import type { ResultsModel } from '../results-schema.js';
import { armAxis, armLabel, cellLabel, modelFacetRow, scenarioLabel } from './cell-labels.js';
import { ARM_STEP, CHART_CONFIG, ROLE_COLOURS } from './chart-theme.js';
import { percent } from './format.js';

/**
 * Pass rate per cell with its Wilson 95% interval, drawn as a dot and a
 * whisker; one panel per scenario with RED and GREEN side by side (and one
 * row of panels per model in a campaign of several models). A cell
 * with no decided reps gets a text mark instead of a dot, so it is visible
 * rather than silently missing.
 *
 * Labels never run into each other: each arm gets `ARM_STEP` px, more than
 * a count label right of a dot plus half a "no decided reps" label (two
 * short lines) centred on its neighbour.
 */

export function passRateChartSpec(model: ResultsModel): TopLevelSpec {
  const values = model.cells.map((cell) => ({
    ...(cell.model === undefined ? {} : { model: cell.model }),
    scenario: scenarioLabel(cell.scenario),
    arm: armLabel({ name: cell.arm, role: cell.role }),
    role: cell.role.toUpperCase(),
    decided: cell.decided,
    passRate: cell.passRate,
    lower: cell.wilson95?.lower ?? null,
    upper: cell.wilson95?.upper ?? null,
    count:
      cell.decided === 0
        ? `no decided reps\n${cell.recorded === 0 ? 'none recorded' : `${cell.indeterminate} indeterminate`}`
        : `${cell.pass}/${cell.decided}${cell.indeterminate > 0 ? ` (+${cell.indeterminate} ind.)` : ''}`,
    summary:
      cell.wilson95 === null
        ? `${cellLabel(cell)}: no decided reps (${cell.indeterminate} indeterminate)`
        : `${cellLabel(cell)}: ${cell.pass}/${cell.decided} passed, Wilson 95% interval ${percent(cell.wilson95.lower)} to ${percent(cell.wilson95.upper)}`,
  }));
  const description = { field: 'summary', type: 'nominal' as const };
  const x = armAxis(model);
  const colour = {
    field: 'role',
    type: 'nominal' as const,
    scale: { domain: ['RED', 'GREEN'], range: [ROLE_COLOURS.RED, ROLE_COLOURS.GREEN] },
    legend: null,
  };
  const y = {
    type: 'quantitative' as const,
    scale: { domain: [0, 1] },
    axis: { format: '.0%', tickCount: 5 },
    title: 'pass rate (Wilson 95% interval)',
  };
  return {
    description:
      'Pass rate per cell with Wilson 95% intervals, RED and GREEN side by side per scenario',
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
          transform: [{ filter: 'datum.decided > 0' }],
          mark: { type: 'rule', strokeWidth: 3 },
          encoding: {
            x,
            y: { ...y, field: 'lower' },
            y2: { field: 'upper' },
            color: colour,
            description,
          },
        },
        {
          transform: [{ filter: 'datum.decided > 0' }],
          mark: { type: 'point', filled: true, size: 140, opacity: 1 },
          encoding: { x, y: { ...y, field: 'passRate' }, color: colour, description },
        },
        {
          transform: [{ filter: 'datum.decided > 0' }],
          mark: { type: 'text', align: 'left', dx: 12, fontSize: 12, color: '#222222' },
          encoding: { x, y: { ...y, field: 'passRate' }, text: { field: 'count' }, description },
        },
        {
          transform: [{ filter: 'datum.decided == 0' }],
          mark: {
            type: 'text',
            fontSize: 12,
            color: '#8a1c00',
            y: 120,
            align: 'center',
            baseline: 'middle',
            lineBreak: '\n',
            lineHeight: 16,
          },
          encoding: { x, text: { field: 'count' }, description },
        },
      ],
    },
  };
}
