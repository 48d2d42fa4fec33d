import { gatesTable, gateVerdictLine, resultsTable } from './markdown.js';
import type { ResultsModel } from './results-schema.js';

/** One line per gate, then the overall decision, for the terminal. */
export function gateReportLines(model: ResultsModel): string[] {
  const mark = { holds: 'HOLDS    ', fails: 'FAILS    ', undecided: 'UNDECIDED' } as const;
  return [
    `${model.campaign.title} — model${model.models === undefined ? '' : 's'} ${model.model.requested}${model.model.scripted ? ` (scripted ${model.models === undefined ? 'policy, not a model' : 'policies, not models'})` : ''}`,
    ...model.gates.results.map((gate) => `  ${mark[gate.outcome]} ${gate.gate}: ${gate.figure}`),
    ...(model.subset?.droppedGates ?? []).map(
      (gate) => `  NOT EVALUATED ${gate.gate}: ${model.subset?.only ?? ''} runs none of its cells`,
    ),
    gateVerdictLine(model),
  ];
}

function xml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/**
 * JUnit XML: one test case per gate (failed gates as <failure>, undecided
 * ones as <error>), plus a case for completeness when reps are missing.
 */
export function gateJunitXml(
  model: ResultsModel,
  options: { requireAllGates?: boolean } = {},
): string {
  const cases = model.gates.results.map((gate) => {
    const open = `    <testcase classname="redgreen.${xml(model.campaign.id)}" name="${xml(gate.gate)}">`;
    if (gate.outcome === 'holds')
      return `${open}<system-out>${xml(gate.figure)}</system-out></testcase>`;
    const tag = gate.outcome === 'fails' ? 'failure' : 'error';
    return `${open}<${tag} message="${xml(gate.figure)}" type="${gate.outcome}"/></testcase>`;
  });
  // A subset run's left-out gates: skipped, or errors when every gate is required.
  for (const gate of model.subset?.droppedGates ?? []) {
    const reason = `not evaluated: ${model.subset?.only ?? ''} runs none of its cells`;
    cases.push(
      `    <testcase classname="redgreen.${xml(model.campaign.id)}" name="${xml(gate.gate)}">${
        options.requireAllGates === true
          ? `<error message="${xml(reason)}" type="not-evaluated"/>`
          : `<skipped message="${xml(reason)}"/>`
      }</testcase>`,
    );
  }
  if (!model.complete) {
    cases.push(
      `    <testcase classname="redgreen.${xml(model.campaign.id)}" name="all scheduled reps recorded"><error message="${xml(model.gates.why)}" type="incomplete"/></testcase>`,
    );
  }
  const failures = model.gates.results.filter((gate) => gate.outcome === 'fails').length;
  const dropped = model.subset?.droppedGates?.length ?? 0;
  const errors =
    model.gates.results.filter((gate) => gate.outcome === 'undecided').length +
    (model.complete ? 0 : 1) +
    (options.requireAllGates === true ? dropped : 0);
  const skipped = options.requireAllGates === true ? 0 : dropped;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="redgreen" tests="${cases.length}" failures="${failures}" errors="${errors}" skipped="${skipped}">`,
    `  <testsuite name="${xml(model.campaign.title)}" tests="${cases.length}" failures="${failures}" errors="${errors}" skipped="${skipped}">`,
    ...cases,
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}

/** A markdown summary for a pull-request comment: decision, gates, Results table. */
export function gateSummaryMarkdown(model: ResultsModel): string {
  const icon = { pass: '✅', fail: '❌', undecided: '⚠️' }[model.gates.outcome];
  return [
    `### ${icon} redgreen: ${model.campaign.title}`,
    '',
    `Model: ${model.model.label}. ${model.recorded}/${model.planned} reps recorded.`,
    '',
    ...model.arms.map(
      (arm) => `- ${arm.role.toUpperCase()} (\`${arm.name}\`): ${arm.label} — \`${arm.source}\``,
    ),
    '',
    `**${gateVerdictLine(model)}**`,
    '',
    gatesTable(model),
    '',
    resultsTable(model),
    '',
    `_${model.power}._`,
    '',
  ].join('\n');
}
