import { createHash } from 'node:crypto';
import type { LoadedResults } from '../load-results.js';
import type { ResultsModel } from '../results-schema.js';
import { campaignSection } from './campaign-section.js';
import { passRateSection, toolUsesSection } from './cell-sections.js';
import { costChartSpec } from './cost-chart.js';
import { costSection } from './cost-section.js';
import { FILTER_SCRIPT } from './filter-script.js';
import { findingsSection, indeterminateSection } from './findings-sections.js';
import { html, trustedHtml } from './html-template.js';
import { interactionChartSpec } from './interaction-chart.js';
import { agreementSection, disagreementSection } from './judge-sections.js';
import { modelAxisSection } from './model-sections.js';
import { PAGE_STYLE } from './page-style.js';
import { passRateChartSpec } from './pass-rate-chart.js';
import { loadRepDetails, type RepDetails } from './rep-details.js';
import { DEFAULT_REP_EMBED_LIMITS, type RepEmbedLimits, repTableSection } from './rep-table.js';
import { seatToolsHtmlSection } from './seat-tools-section.js';
import { attentionSection, gatesSection, headerSection } from './summary-sections.js';
import { toolUsesChartSpec } from './tool-uses-chart.js';
import { renderVegaLiteSvg } from './vega-svg.js';

/**
 * `report.html`: one self-contained page per results directory. Inline CSS,
 * one inline script (allowed by hash in the page's Content-Security-Policy,
 * which also forbids every fetch), and charts rendered to static SVG in Node
 * with Vega-Lite → Vega. Opens from disk with no network.
 */
export interface ReportHtmlOptions {
  readonly limits?: RepEmbedLimits;
}

function contentSecurityPolicy(script: string): string {
  const hash = createHash('sha256').update(script, 'utf8').digest('base64');
  return [
    "default-src 'none'",
    "style-src 'unsafe-inline'",
    `script-src 'sha256-${hash}'`,
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

/** Build the page from the results model and each rep's reply and transcript. Pure apart from rendering. */
export async function buildReportHtml(
  model: ResultsModel,
  details: RepDetails,
  options: ReportHtmlOptions = {},
): Promise<string> {
  const costSpec = costChartSpec(model);
  const [passRateSvg, toolUsesSvg, interactionSvg, costSvg] = await Promise.all([
    renderVegaLiteSvg(
      passRateChartSpec(model),
      'Pass rate per cell with Wilson 95% intervals, RED and GREEN side by side per scenario',
    ),
    renderVegaLiteSvg(
      toolUsesChartSpec(model),
      `tool_uses per rep per cell, coloured by ${model.legend?.title ?? 'nothing observed'}, with each cell median`,
    ),
    model.interaction === undefined
      ? Promise.resolve('')
      : renderVegaLiteSvg(
          interactionChartSpec(model),
          'Pass rate of RED and GREEN on each model, one line per model, per scenario',
        ),
    costSpec === null
      ? Promise.resolve('')
      : renderVegaLiteSvg(costSpec, 'Tokens, cost and bytes written per rep per cell, by arm'),
  ]);
  const page = html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${contentSecurityPolicy(FILTER_SCRIPT)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="${model.generatedBy}">
<title>${model.campaign.title} — redgreen report</title>
<style>${trustedHtml(PAGE_STYLE)}</style>
</head>
<body>
<main>
${headerSection(model)}
${gatesSection(model)}
${attentionSection(model, details)}
${disagreementSection(model)}
${passRateSection(model, passRateSvg)}
${agreementSection(model)}
${modelAxisSection(model, interactionSvg)}
${toolUsesSection(model, toolUsesSvg)}
${costSection(model, costSvg)}
${seatToolsHtmlSection(model)}
${repTableSection(model, details, options.limits ?? DEFAULT_REP_EMBED_LIMITS)}
${findingsSection(model)}
${indeterminateSection(model)}
${campaignSection(model)}
</main>
<script>${trustedHtml(FILTER_SCRIPT)}</script>
</body>
</html>
`;
  return page.markup;
}

/** Load every rep's transcript from a results directory and build its page. */
export async function renderReportHtml(
  model: ResultsModel,
  loaded: Pick<LoadedResults, 'layout' | 'reps'>,
  options: ReportHtmlOptions = {},
): Promise<string> {
  const details = await loadRepDetails(loaded.layout.root, loaded.reps);
  return buildReportHtml(model, details, options);
}
