import { parse, View } from 'vega';
import { compile, type TopLevelSpec } from 'vega-lite';
import { escapeHtml } from './html-template.js';

/**
 * Render a Vega-Lite spec to a static SVG string in Node: compile it to a
 * Vega spec, run a headless View (renderer 'none': no canvas, no browser) and
 * ask it for SVG. The result is inlined into the page, so the namespace
 * attributes (only needed for standalone .svg files) are dropped and the
 * element gets an accessible role and name.
 */
export async function renderVegaLiteSvg(spec: TopLevelSpec, label: string): Promise<string> {
  const vegaSpec = compile(spec).spec;
  const view = new View(parse(vegaSpec), { renderer: 'none' });
  try {
    const svg = await view.toSVG();
    return inlineSvg(svg, label);
  } finally {
    view.finalize();
  }
}

/** Drop the xmlns attributes of the root element and add role="img" with an aria-label. */
function inlineSvg(svg: string, label: string): string {
  const openEnd = svg.indexOf('>');
  if (!svg.startsWith('<svg') || openEnd < 0) {
    throw new Error('renderVegaLiteSvg: Vega did not return an <svg> element');
  }
  const open = svg
    .slice(0, openEnd)
    .replace(/\s+xmlns(:xlink)?="[^"]*"/g, '')
    .replace(/^<svg/, `<svg role="img" aria-label="${escapeHtml(label)}"`);
  return open + svg.slice(openEnd);
}
