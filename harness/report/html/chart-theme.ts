import type { Config } from 'vega-lite';
import type { RepRow } from '../results-schema.js';

/**
 * Colours and type shared by the charts and the page, so a colour means the
 * same thing in a plot, its legend and the rep table. Okabe–Ito colours: told
 * apart with the common colour-vision deficiencies, and always paired with a
 * second cue (position, mark shape or a text label).
 */
export const ROLE_COLOURS = { RED: '#D55E00', GREEN: '#009E73' } as const;

export const SHAPE_ORDER: readonly RepRow['shape'][] = [
  'structural',
  'forensic',
  'both',
  'neither',
];

export const SHAPE_COLOURS: Readonly<Record<RepRow['shape'], string>> = {
  structural: '#0072B2',
  forensic: '#E69F00',
  both: '#CC79A7',
  neither: '#6F6F6F',
};

/** Vega symbol shapes, one per resolution shape, so shape never relies on colour alone. */
export const SHAPE_SYMBOLS: Readonly<Record<RepRow['shape'], string>> = {
  structural: 'circle',
  forensic: 'diamond',
  both: 'square',
  neither: 'triangle-up',
};

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
