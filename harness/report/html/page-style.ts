import { FONT_STACK, LEGEND_COLOURS, ROLE_COLOURS } from './chart-theme.js';

/**
 * The page's stylesheet, inlined. System fonts, a readable measure, colours
 * that keep at least 4.5:1 contrast for text, and every status carried by a
 * word as well as a colour.
 */
export const PAGE_STYLE = `
:root { color-scheme: light; --ink: #1b1b1b; --muted: #555; --line: #d0d0d0; --soft: #f4f4f2;
  --pass: #0b6b3a; --pass-bg: #e3f4ea; --fail: #a4200b; --fail-bg: #fbe6e1;
  --ind: #7a4b00; --ind-bg: #fff1cc; --ovr: #4b2a8a; --ovr-bg: #ece5fa; }
* { box-sizing: border-box; }
[hidden] { display: none !important; }
body { margin: 0; background: #fff; color: var(--ink); font: 15px/1.5 ${FONT_STACK}; overflow-wrap: break-word; }
main { max-width: 72rem; margin: 0 auto; padding: 1.5rem 1.25rem 4rem; }
h1 { font-size: 1.6rem; margin: .2rem 0 .8rem; line-height: 1.25; }
h2 { font-size: 1.25rem; margin: 2.2rem 0 .6rem; border-bottom: 1px solid var(--line); padding-bottom: .2rem; }
h3 { font-size: 1.05rem; margin: 1.4rem 0 .4rem; }
h4 { font-size: .95rem; margin: 1rem 0 .3rem; }
h5 { font-size: .85rem; margin: .6rem 0 .2rem; color: var(--muted); }
a { color: #0b57a4; }
code, pre { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace; font-size: .88em; }
pre { background: var(--soft); border: 1px solid var(--line); padding: .5rem .7rem; overflow: auto;
  max-height: 28rem; white-space: pre-wrap; overflow-wrap: anywhere; margin: .2rem 0; }
.muted { color: var(--muted); }
.kicker { color: var(--muted); margin: 0; font-size: .9rem; }
.facts { display: flex; flex-wrap: wrap; gap: .4rem 2rem; margin: 0; }
.facts dt { font-size: .8rem; color: var(--muted); }
.facts > div { min-width: 0; max-width: 100%; }
.facts dd { margin: 0; overflow-wrap: anywhere; }
.note-scripted { background: var(--ovr-bg); border-left: 4px solid var(--ovr); padding: .5rem .8rem; }
.pairs { display: grid; grid-template-columns: max-content 1fr; gap: .2rem 1rem; }
.pairs dt { color: var(--muted); }
.pairs dd { margin: 0; overflow-wrap: anywhere; }
.hash { overflow-wrap: anywhere; }
tbody.rep th code { white-space: nowrap; }
.table-scroll { max-width: 100%; overflow-x: auto; margin: .5rem 0 1rem; }
.table-scroll:focus-visible { outline: 2px solid #0b57a4; outline-offset: 2px; }
table.data { border-collapse: collapse; width: 100%; margin: 0; font-size: .92rem; }
td.reason { min-width: 12rem; overflow-wrap: anywhere; }
table.data th, table.data td { border-bottom: 1px solid var(--line); padding: .3rem .5rem; text-align: left; vertical-align: top; }
table.data thead th { background: var(--soft); font-weight: 600; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
.badge { display: inline-block; padding: 0 .45em; border-radius: .3em; font-size: .8rem; font-weight: 600;
  border: 1px solid currentColor; white-space: nowrap; }
.verdict-pass, .gate-holds { color: var(--pass); background: var(--pass-bg); }
.verdict-fail, .gate-fails { color: var(--fail); background: var(--fail-bg); }
.verdict-indeterminate, .gate-undecided, .badge-warn { color: var(--ind); background: var(--ind-bg); }
.badge-override, .badge-scripted { color: var(--ovr); background: var(--ovr-bg); }
.badge-integrity { color: var(--fail); background: var(--fail-bg); }
.overall { display: inline-block; padding: .05em .5em; border-radius: .3em; color: #fff; }
.overall-pass { background: var(--pass); } .overall-fail { background: var(--fail); } .overall-undecided { background: var(--ind); }
.gates { border: 2px solid var(--line); border-radius: .4rem; padding: 0 1rem .2rem; margin-top: 1.2rem; }
.gates h2 { border: 0; margin-top: .8rem; }
.gates-pass { border-color: var(--pass); } .gates-fail { border-color: var(--fail); } .gates-undecided { border-color: var(--ind); }
.gate-row-fails td { background: var(--fail-bg); } .gate-row-undecided td { background: var(--ind-bg); }
.attention { border-left: 6px solid var(--fail); background: #fff7f5; padding: .2rem 1rem .4rem; margin: 1rem 0; }
.attention h2 { border: 0; margin-top: .6rem; }
.attention-clear { border-left-color: var(--pass); background: var(--pass-bg); }
.hl-integrity { background: var(--fail-bg); border-left: 4px solid var(--fail); padding: .2rem .6rem; margin: .3rem 0; }
.hl-indeterminate { background: var(--ind-bg); }
li.hl-indeterminate, p.hl-override { border-left: 4px solid var(--ind); padding: .2rem .6rem; margin: .3rem 0; }
.hl-override { background: var(--ovr-bg); border-left-color: var(--ovr); }
.warn { color: var(--ind); font-weight: 600; }
.cut { font-size: .85rem; }
figure.chart { margin: .5rem 0 1rem; }
.chart-scroll { max-width: 100%; overflow-x: auto; }
.chart-scroll:focus-visible { outline: 2px solid #0b57a4; outline-offset: 2px; }
figure.chart svg { display: block; }
figcaption { color: var(--muted); font-size: .88rem; }
.legend-value { white-space: nowrap; }
.swatch { display: inline-block; width: .75em; height: .75em; border-radius: 50%; margin-right: .35em; vertical-align: baseline; }
${LEGEND_COLOURS.map((colour, index) => `.swatch.legend-${index} { background: ${colour}; }`).join('\n')}
.badge.badge-check { color: #0b57a4; background: #e6f0f8; }
.role-red { color: ${ROLE_COLOURS.RED}; } .role-green { color: ${ROLE_COLOURS.GREEN}; }
.filter { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center; background: var(--soft);
  padding: .5rem .8rem; border-radius: .3rem; }
.filter select, .filter button { font: inherit; }
#rep-count { color: var(--muted); }
tbody.rep { border-top: 2px solid var(--line); }
tbody.verdict-row-indeterminate > tr.rep-row > * { background: var(--ind-bg); }
tbody.has-findings > tr.rep-row > * { background: var(--fail-bg); }
tr.rep-detail-row > td { padding-top: 0; border-bottom: 0; }
details > summary { cursor: pointer; }
details.rep-detail > summary { color: #0b57a4; font-size: .9rem; }
.rep-panels { padding: .2rem 0 .6rem 1rem; border-left: 3px solid var(--line); margin: .3rem 0; }
ol.calls { padding-left: 0; list-style: none; margin: .2rem 0; }
li.call { border: 1px solid var(--line); border-radius: .3rem; margin: .25rem 0; padding: .15rem .5rem; }
li.call-error { border-color: var(--ind); }
li.call-subagent { margin-left: 1.5rem; }
.call-no { color: var(--muted); font-variant-numeric: tabular-nums; }
.preview { display: block; margin-left: 2.2rem; font-family: ui-monospace, Menlo, Consolas, monospace; font-size: .82rem; overflow-wrap: anywhere; }
.preview-out { color: var(--muted); }
.files { font-size: .85rem; }
@media print { .filter, noscript { display: none; } details { display: block; } }
`;
