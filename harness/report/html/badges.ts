import type { GateOutcome, RepRow, ResultsModel } from '../results-schema.js';
import { html, type SafeHtml } from './html-template.js';

/**
 * The small labelled marks the page uses for verdicts, gate outcomes, legend values
 * and scripted models. Each carries its meaning in words, not colour alone.
 */
export const SCRIPTED_NOTE = 'scripted policy, not a model';

export function verdictBadge(verdict: RepRow['verdict']): SafeHtml {
  return html`<span class="badge verdict-${verdict}">${verdict}</span>`;
}

/** A rep's verdict, marked as an override (with the scored verdict and the reason) when it is one. */
export function repVerdict(row: RepRow): SafeHtml {
  if (row.verdict_source !== 'override') return verdictBadge(row.verdict);
  return html`${verdictBadge(row.verdict)} <span class="badge badge-override" title="${row.override_reason}">override</span> <span class="muted">scored ${row.scored_verdict}</span>`;
}

export function gateOutcomeBadge(outcome: GateOutcome['outcome']): SafeHtml {
  return html`<span class="badge gate-${outcome}">${outcome.toUpperCase()}</span>`;
}

export function overallGateBadge(outcome: ResultsModel['gates']['outcome']): SafeHtml {
  return html`<span class="overall overall-${outcome}">${outcome.toUpperCase()}</span>`;
}

/** A legend value with its colour swatch (the swatch is decoration; the word carries the meaning). */
export function legendBadge(value: string, index: number): SafeHtml {
  return html`<span class="legend-value"><span class="swatch legend-${index}" aria-hidden="true"></span>${value}</span>`;
}

/** A model name as reported back, marked when a scripted policy stood in for a model. */
export function modelName(name: string, scripted: boolean): SafeHtml {
  const shown = name === '' ? '(not reported)' : name;
  return scripted
    ? html`<code>${shown}</code> <span class="badge badge-scripted">${SCRIPTED_NOTE}</span>`
    : html`<code>${shown}</code>`;
}
