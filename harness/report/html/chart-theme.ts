import type { Config } from 'vega-lite';
import type { ResultsModel } from '../results-schema.js';

/**
 * Colours and type shared by the charts and the page, so a colour means the
 * same thing in a plot, its legend and the rep table. Okabe–Ito colours: told
 * apart with the common colour-vision deficiencies, and always paired with a
 * second cue (position, mark shape or a text label).
 */
export const ROLE_COLOURS = { RED: '#D55E00', GREEN: '#009E73' } as const;

/**
 * Colours and symbols for the values of the legend observation (the first
 * tally a scenario declares, e.g. resolution shape), by the value's position
 * in the model's legend, so a value keeps its colour in every chart and table.
 */
export const LEGEND_COLOURS = [
  '#0072B2',
  '#E69F00',
  '#CC79A7',
  '#6F6F6F',
  '#56B4E9',
  '#009E73',
  '#F0E442',
  '#000000',
] as const;

/** Vega symbol shapes, one per legend value, so a value never relies on colour alone. */
export const LEGEND_SYMBOLS = [
  'circle',
  'diamond',
  'square',
  'triangle-up',
  'cross',
  'triangle-down',
  'triangle-left',
  'triangle-right',
] as const;

/** A legend value's position (its colour and symbol index); values past the palette share the last. */
export function legendIndex(model: Pick<ResultsModel, 'legend'>, value: string): number {
  const index = model.legend?.values.indexOf(value) ?? -1;
  return index < 0 ? LEGEND_COLOURS.length - 1 : Math.min(index, LEGEND_COLOURS.length - 1);
}

/**
 * Horizontal room per arm in both charts (px): a count label right of a dot
 * (about 80 px at most) plus half of a neighbour's centred "no decided reps"
 * label (under 100 px) fit in it, so labels never overlap.
 */
export const ARM_STEP = 150;

export const FONT_STACK =
  'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", sans-serif';

/** Vega-Lite config for every chart: the page's fonts, no chart border, quiet axes. */
export const CHART_CONFIG: Config = {
  font: FONT_STACK,
  background: '#ffffff',
  view: { stroke: '#d0d0d0' },
  axis: { labelFontSize: 12, titleFontSize: 12, labelColor: '#222222', titleColor: '#222222' },
  header: { labelFontSize: 13, labelFontWeight: 'bold', titleFontSize: 12 },
  legend: { labelFontSize: 12, titleFontSize: 12 },
};
