import { pValue } from './html/format.js';
import {
  AGREEMENT_RULE,
  agreementNote,
  agreementTable,
  disagreementsMarkdown,
  judgeSummaryLine,
} from './judge-text.js';
import { markdownTable as table } from './markdown-table.js';
import { costByArmSection } from './metrics-markdown.js';
import {
  acrossModelsSection,
  backendFact,
  findCell,
  modelsSection,
  withModelCell,
  withModelHeader,
} from './model-tables.js';
import type { CellSummary, Comparison, RepRow, ResultsModel } from './results-schema.js';
import { scoredWithText } from './scenario-files.js';
import { seatToolsSection } from './seat-tools-markdown.js';
import { droppedGatesText, subsetPhrase } from './subset.js';

function pct(value: number): string {
  return `${Math.round(value * 100)}%`;
}

function num(value: number | null, digits = 1): string {
  return value === null ? 'n/a' : value.toFixed(digits);
}

/** The columns of the RED vs GREEN table, in results.md and report.html alike. */
export const COMPARISON_COLUMNS = [
  'Scenario',
  'RED pass',
  'GREEN pass',
  'Fisher two-sided p',
  'p (GREEN better)',
  'p (RED better)',
  'tool_uses mean GREEN−RED (decided reps)',
] as const;

/** Says which reps the tool_uses figures count, and how many were left out. */
export function toolUsesRule(model: Pick<ResultsModel, 'cells'>): string {
  const left = model.cells.reduce((sum, cell) => sum + cell.indeterminate, 0);
  return (
    'tool_uses figures count decided reps only (median, mean, bootstrap interval, permutation test), ' +
    "as do the Notes' observation summaries: an indeterminate rep was cut short or could not be read, " +
    'so what it counted or observed measures nothing' +
    (left === 0 ? '.' : `; ${left} indeterminate rep(s) left out.`)
  );
}

export function cellName(cell: Pick<CellSummary, 'scenario' | 'arm'>): string {
  return `${cell.scenario.toUpperCase()} ${cell.arm.toUpperCase()}`;
}

/**
 * A classification's value as a sentence says it: `neither` and `both` of
 * two labels name them (`5 neither structural nor forensic`), any other
 * value is itself.
 */
export function tallyValueText(value: string, labels: readonly string[] | undefined): string {
  if (labels?.length !== 2) return value;
  const [a, b] = labels;
  if (value === 'neither') return `neither ${a} nor ${b}`;
  if (value === 'both') return `both ${a} and ${b}`;
  return value;
}

/**
 * Each summarised observation of a cell's decided reps, as the Notes say it:
 * `resolution: 5 structural`, `none via …`.
 */
function observationSentences(cell: CellSummary): string[] {
  if (cell.decided === 0) return [];
  return cell.observations.map((summary) => {
    if (summary.kind === 'passes') {
      return `${summary.passes === 0 ? 'none' : summary.passes} ${summary.phrase}`;
    }
    const counts = Object.entries(summary.counts)
      .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
      .map(([value, count]) => `${count} ${tallyValueText(value, summary.labels)}`);
    return `${summary.title}: ${counts.join(', ')}`;
  });
}

/** The most of a failure reason the Results table's Notes quote. */
const NOTE_REASON = 160;

function notes(cell: CellSummary, rows: readonly RepRow[]): string {
  const parts: string[] = [];
  if (cell.wilson95 !== null)
    parts.push(`95% CI ${pct(cell.wilson95.lower)}–${pct(cell.wilson95.upper)}`);
  parts.push(...observationSentences(cell));
  if (cell.toolUses.values.length > 0) parts.push(`tool_uses ${cell.toolUses.values.join('/')}`);
  if (cell.indeterminate > 0) parts.push(`${cell.indeterminate} indeterminate (excluded)`);
  if (cell.overrides > 0) parts.push(`${cell.overrides} verdict(s) overridden by hand`);
  if (cell.agreement !== undefined && cell.agreement.judged > 0)
    parts.push(agreementNote(cell.agreement));
  const firstFail = rows.find(
    (row) =>
      row.arm === cell.arm &&
      row.scenario === cell.scenario &&
      row.model === cell.model &&
      row.verdict === 'fail',
  );
  if (firstFail !== undefined) {
    // A table cell (and a PR comment) quotes the first reason, cut: score.json has it whole.
    const reason = firstFail.reasons.split('; ')[0] ?? '';
    parts.push(
      `e.g. ${firstFail.rep_id}: ${reason.length > NOTE_REASON ? `${reason.slice(0, NOTE_REASON)}…` : reason}`,
    );
  }
  return parts.join('; ');
}

/** The fixture a scenario builds (`widget-v3 s1`), as the Fixture column names it. */
export function fixtureOf(model: Pick<ResultsModel, 'scenarios'>, scenario: string): string {
  return model.scenarios.find((entry) => entry.id === scenario)?.fixture ?? scenario;
}

/** Which scenario files the verdicts come from, and when reps were rescored (scenario-files.ts). */
export function scenarioFilesTable(model: ResultsModel): string {
  return table(
    ['Scenario', 'Fixture', 'Scenario folder', 'Scored with'],
    model.scenarios.map((scenario) => [
      scenario.id.toUpperCase(),
      scenario.fixture,
      scenario.dir === null ? 'not recorded' : `\`${scenario.dir}\``,
      scoredWithText(scenario),
    ]),
  );
}

export function resultsTable(model: ResultsModel): string {
  return table(
    withModelHeader(model, ['Arm', 'Text under test', 'Fixture', 'PASS', 'Notes']),
    model.cells.map((cell) =>
      withModelCell(model, cell, [
        cellName(cell),
        cell.label,
        `${fixtureOf(model, cell.scenario)} ${cell.layout}`,
        `${cell.pass}/${cell.decided}`,
        notes(cell, model.reps),
      ]),
    ),
  );
}

/**
 * The tool_uses section's title: the seed's "Disambiguation cost" where a
 * scenario classifies how sessions resolved their question (a tally
 * observation: what the tool_uses were spent on), else a plain one.
 */
export function costHeading(model: Pick<ResultsModel, 'legend'>): string {
  return model.legend === null ? 'tool_uses per cell' : 'Disambiguation cost';
}

export function costTable(model: ResultsModel): string {
  return table(
    withModelHeader(model, [
      'Cell',
      'Text',
      'tool_uses per decided rep',
      'median',
      'mean',
      'mean 95% CI (bootstrap)',
    ]),
    model.cells.map((cell) =>
      withModelCell(model, cell, [
        cellName(cell),
        cell.label,
        cell.toolUses.values.join(' / ') || '—',
        num(cell.toolUses.median),
        num(cell.toolUses.mean),
        cell.toolUses.bootstrap95Mean === null
          ? 'n/a'
          : `${num(cell.toolUses.bootstrap95Mean.lower)}–${num(cell.toolUses.bootstrap95Mean.upper)}`,
      ]),
    ),
  );
}

function comparisonRows(model: ResultsModel): string[][] {
  return model.comparisons.map((c: Comparison) => {
    const red = findCell(model.cells, c.red, c.scenario, c.model);
    const green = findCell(model.cells, c.green, c.scenario, c.model);
    return withModelCell(model, c, [
      c.scenario.toUpperCase(),
      red ? `${red.pass}/${red.decided}` : 'n/a',
      green ? `${green.pass}/${green.decided}` : 'n/a',
      pValue(c.fisherTwoSided),
      pValue(c.fisherGreenBetter),
      pValue(c.fisherRedBetter),
      c.toolUses === null
        ? 'n/a'
        : `${c.toolUses.meanDifference >= 0 ? '+' : ''}${c.toolUses.meanDifference.toFixed(1)} (p ${pValue(c.toolUses.pValue)}, ${c.toolUses.method})`,
    ]);
  });
}

export function gatesTable(model: ResultsModel): string {
  if (model.gates.results.length === 0) return '_No gates declared._';
  const mark = { holds: 'HOLDS', fails: 'FAILS', undecided: 'UNDECIDED' } as const;
  return table(
    ['Gate', 'Figure', 'Outcome'],
    model.gates.results.map((gate) => [gate.gate, gate.figure, mark[gate.outcome]]),
  );
}

export function gateVerdictLine(model: ResultsModel): string {
  const word = { pass: 'PASS', fail: 'FAIL', undecided: 'UNDECIDED' }[model.gates.outcome];
  const subset = model.subset === undefined ? '' : ` ${subsetPhrase(model.subset)}`;
  return `Gates: ${word}${subset} (${model.gates.why})`;
}

/** Under the gate line of a subset run: which gates it did not evaluate. */
export function subsetLines(model: ResultsModel): string[] {
  if (model.subset === undefined) return [];
  return [
    `This run is a subset of the campaign (${model.subset.only}): ${droppedGatesText(model.subset)}.`,
    '',
  ];
}

function repTable(model: ResultsModel): string {
  return table(
    [
      'Rep',
      'Verdict',
      'Values read',
      'Failed checks',
      'Observed',
      'tool_uses',
      'Tokens in/out',
      'Cost',
      'Duration',
    ],
    model.reps.map((row) => [
      row.rep_id,
      `${
        row.verdict_source === 'override'
          ? `${row.verdict} (override: ${row.override_reason}; scored ${row.scored_verdict})`
          : row.verdict
      }${row.judge_verdict === undefined ? '' : `; judge ${row.judge_verdict} (${row.judge_agreement ?? ''})`}`,
      row.values === '' ? '—' : row.values,
      [row.failed_checks, row.undecided_checks === '' ? '' : `undecided: ${row.undecided_checks}`]
        .filter(Boolean)
        .join('; ') || 'none',
      Object.entries(row.observations)
        .map(([id, seen]) => `${id}: ${seen}`)
        .join('; ') || '—',
      String(row.tool_uses),
      row.input_tokens === null
        ? 'n/a'
        : `${row.input_tokens + (row.cache_read_tokens ?? 0) + (row.cache_write_tokens ?? 0)}/${row.output_tokens}${row.tokens_estimated ? ' (est.)' : ''}`,
      row.cost_usd === null ? 'n/a' : `$${row.cost_usd.toFixed(4)}`,
      `${(row.duration_ms / 1000).toFixed(1)} s`,
    ]),
  );
}

function findingsSection(model: ResultsModel): string {
  const rows = model.reps.filter((row) => row.findings !== '');
  if (rows.length === 0)
    return 'None: no check failed (observations never gate: what they saw is in the Reps table).';
  return rows.map((row) => `- **${row.rep_id}** (${row.verdict}): ${row.findings}`).join('\n');
}

function indeterminateSection(model: ResultsModel): string {
  const rows = model.reps.filter((row) => row.verdict === 'indeterminate');
  if (rows.length === 0) return 'None.';
  return [
    `${rows.length} indeterminate rep(s), excluded from every pass rate's denominator:`,
    ...rows.map((row) => `- **${row.rep_id}**: ${row.reasons || row.override_reason}`),
  ].join('\n');
}

/** `results.md`: the tables a maintainer pastes into a PR. */
export function resultsMarkdown(model: ResultsModel): string {
  const arms = model.arms.map(
    (arm) =>
      `- **${arm.name}** (${arm.role.toUpperCase()}): ${arm.label} — \`${arm.source}\`, tree \`${arm.tree}\`, fixture layout ${arm.layout}`,
  );
  return [
    `# ${model.campaign.title}`,
    '',
    `- Model: ${model.model.label}${model.model.reported.length > 0 ? `; reported back: ${model.model.reported.join(', ')}` : ''}`,
    `- ${backendFact(model).term}: ${backendFact(model).text}; sandbox: ${model.sandbox}`,
    `- ${model.repsPerCell} fresh session(s) per cell; ${model.recorded}/${model.planned} reps recorded${model.complete ? '' : ` (missing: ${model.missing.join(', ')})`}`,
    `- Campaign identity \`${model.campaign.identity.slice(0, 16)}\`; ${model.generatedBy}`,
    '',
    '## Skill texts',
    '',
    ...arms,
    '',
    '## Scenarios',
    '',
    scenarioFilesTable(model),
    '',
    ...modelsSection(model),
    '## Gates',
    '',
    gateVerdictLine(model),
    '',
    ...subsetLines(model),
    gatesTable(model),
    '',
    ...judgeDisagreementLines(model),
    '## Results',
    '',
    resultsTable(model),
    '',
    'PASS counts decided reps (indeterminate ones are excluded); intervals are Wilson 95%.',
    '',
    ...judgeAgreementLines(model),
    `## ${costHeading(model)}`,
    '',
    costTable(model),
    '',
    toolUsesRule(model),
    '',
    ...costByArmSection(model),
    ...seatToolsSection(model),
    '## RED vs GREEN',
    '',
    table(withModelHeader(model, COMPARISON_COLUMNS), comparisonRows(model)),
    '',
    `Power: ${model.power}.`,
    '',
    ...acrossModelsSection(model),
    '## Reps',
    '',
    repTable(model),
    '',
    '## Findings',
    '',
    findingsSection(model),
    '',
    '## Indeterminate reps',
    '',
    indeterminateSection(model),
    '',
  ].join('\n');
}

/** results.md's disagreements section, listed before the Results: empty when nothing was judged. */
function judgeDisagreementLines(model: ResultsModel): string[] {
  if (model.judge === undefined) return [];
  return ['## Disagreements: checks vs judge', '', disagreementsMarkdown(model.judge), ''];
}

/** results.md's agreement section: empty when nothing was judged. */
function judgeAgreementLines(model: ResultsModel): string[] {
  if (model.judge === undefined) return [];
  return [
    '## Agreement: checks vs judge',
    '',
    judgeSummaryLine(model.judge),
    '',
    agreementTable(model.judge),
    '',
    AGREEMENT_RULE,
    '',
  ];
}

/** What `run` and `report` print: the Results table and the gate outcomes. */
export function terminalSummary(model: ResultsModel): string {
  return [
    '',
    `${model.campaign.title}`,
    `model: ${model.model.label}`,
    '',
    resultsTable(model),
    '',
    ...(model.judge === undefined
      ? []
      : ['Agreement: checks vs judge', agreementTable(model.judge), '']),
    gateVerdictLine(model),
    gatesTable(model),
    '',
  ].join('\n');
}
