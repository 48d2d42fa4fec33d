import type { GateConfig } from '../campaign/config-schema.js';

/** A gate in words, as the gate table and the subset note name it. */
export function describeGate(gate: GateConfig): string {
  switch (gate.kind) {
    case 'min-pass-rate':
      return `${gate.scenario.toUpperCase()} ${gate.arm.toUpperCase()} passes at least ${gate.passes}/${gate.of}`;
    case 'green-better':
      return `${gate.scenario.toUpperCase()}: GREEN passes more often than RED (one-sided Fisher, α = ${gate.alpha})`;
    case 'no-regression':
      return `${gate.scenario.toUpperCase()}: no GREEN regression against RED (one-sided Fisher, α = ${gate.alpha})`;
    case 'max-indeterminate-share':
      return `indeterminate reps at most ${Math.round(gate.share * 100)}% of those recorded`;
    case 'max-disagreement-share':
      return `${gate.scenario === undefined ? '' : `${gate.scenario.toUpperCase()}: `}checks and judge disagree on at most ${Math.round(gate.share * 100)}% of the reps both decided`;
    case 'trigger-recall-no-regression':
      return `trigger recall: no GREEN regression against RED on ${gate.positives.length} quer${gate.positives.length === 1 ? 'y' : 'ies'} that should trigger (one-sided Fisher over reps, α = ${gate.alpha})`;
    case 'trigger-precision-no-regression':
      return `trigger precision: no GREEN regression against RED over ${gate.positives.length + gate.negatives.length} queries (one-sided Fisher over the reps that triggered, α = ${gate.alpha})`;
    case 'no-scenario-regresses':
      return `no scenario regresses: GREEN against RED in ${gate.scenarios === undefined ? 'every scenario' : gate.scenarios.map((id) => id.toUpperCase()).join(', ')} (one-sided Fisher, α = ${gate.alpha}${gate.correction === 'holm' ? ', Holm-corrected across scenarios' : ', uncorrected'})`;
    case 'metric-ratio':
      return `${gate.scenario.toUpperCase()}: GREEN's ${gate.statistic} ${gate.metric} at most ${gate.ratio} × RED's (${Math.round(gate.confidence * 100)}% bootstrap interval)`;
    case 'metric-cap':
      return `${gate.scenario === undefined ? 'every scenario' : gate.scenario.toUpperCase()}, ${gate.arm === undefined ? 'every arm' : gate.arm.toUpperCase()}: every rep's ${gate.metric} at most ${gate.max}`;
    case 'engines-agree':
      return `the engines agree: in ${gate.scenarios === undefined ? 'every scenario' : gate.scenarios.map((id) => id.toUpperCase()).join(', ')}, ${gate.arms === undefined ? 'every arm' : gate.arms.map((arm) => arm.toUpperCase()).join(', ')}, any two engines' pass rates ${gate.maxGapPts > 0 ? `at most ${gate.maxGapPts} pts apart or ` : ''}not different by a two-sided Fisher test (α = ${gate.alpha}${gate.correction === 'holm' ? ', Holm-corrected across the pairs' : ', uncorrected'})`;
  }
}
