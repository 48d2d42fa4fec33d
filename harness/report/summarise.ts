import type { CampaignRecord } from '../campaign/campaign-record.js';
import { gateSchema } from '../campaign/config-schema.js';
import { scheduledModelNames } from '../campaign/model-record.js';
import { judgeRowFields, judgeSection, rowsAgreement } from '../judge/report-model.js';
import { harnessVersion } from '../lib/package-root.js';
import type { ExtractedValue, Reading } from '../score/evidence.js';
import { shownValue } from '../score/extracted-values.js';
import { packMetricOf } from '../score/pack-metric-registry.js';
import type { RepScore } from '../score/score-rep.js';
import { gateDecision } from './gates.js';
import type { LoadedResults, RecordedRep } from './load-results.js';
import { evaluateGateOnModels } from './model-gates.js';
import { interactionSummary, isInfrastructureFailure, modelSummaries } from './model-summary.js';
import { axisNoun } from './model-tables.js';
import { cellMetrics, metricRowFields, packMetricNamesOf } from './rep-metrics.js';
import type {
  CellSummary,
  Comparison,
  ObservationSummaryRow,
  RepRow,
  ResultsModel,
} from './results-schema.js';
import { conflictText, scenarioFiles, versionConflicts } from './scenario-files.js';
import { seatToolSummary } from './seat-tools.js';
import {
  bootstrapInterval,
  fisherExact,
  mean,
  median,
  permutationTest,
  powerStatement,
  wilsonInterval,
} from './stats.js';
import { type Subset, subsetOf } from './subset.js';

/** Fixed seed for the report's resampling, so the same results always give the same tables. */
export const REPORT_SEED = 20260706;

function effectiveVerdict(loaded: LoadedResults, rep: RecordedRep): RepRow['verdict'] {
  return loaded.overrides[rep.id]?.verdict ?? rep.score.verdict;
}

/** One extracted value as a table shows it: `?` when unreadable (extracted-values.ts). */
function valueText(reading: Reading<ExtractedValue>): string {
  return shownValue(reading);
}

/**
 * A rep's findings: the details of its failing checks. Only checks: an
 * observation never gates, and one that "fails" (a file the session
 * wrote, as the skill tells it to) may be the right move; the Reps table
 * shows what it saw.
 */
export function repFindings(score: Pick<RepScore, 'checks'>): string[] {
  return score.checks.filter((check) => check.outcome === 'fail').map((check) => check.detail);
}

function repRow(loaded: LoadedResults, rep: RecordedRep): RepRow {
  const arm = loaded.record.arms.find((candidate) => candidate.name === rep.meta.arm);
  const override = loaded.overrides[rep.id];
  const { meta, score } = rep;
  const ids = (checks: RepScore['checks'], outcome: string): string[] =>
    checks.filter((check) => check.outcome === outcome).map((check) => check.id);
  const findings = repFindings(score);
  return {
    rep_id: rep.id,
    arm: meta.arm,
    role: arm?.role ?? 'red',
    scenario: meta.scenario,
    rep: meta.rep,
    attempt: meta.attempt,
    verdict: effectiveVerdict(loaded, rep),
    verdict_source: override === undefined ? 'scored' : 'override',
    scored_verdict: score.verdict,
    override_reason: override?.reason ?? '',
    reasons: score.reasons.join('; '),
    failed_checks: ids(score.checks, 'fail').join(' '),
    undecided_checks: [...ids(score.pre, 'undecided'), ...ids(score.checks, 'undecided')].join(' '),
    values: Object.entries(score.values)
      .map(([section, reading]) => `${section}=${valueText(reading)}`)
      .join('; '),
    tool_uses: meta.toolUses,
    subagent_tool_uses: meta.subagentToolUses,
    turns: meta.turns,
    input_tokens: meta.tokens?.input ?? null,
    output_tokens: meta.tokens?.output ?? null,
    cache_write_tokens: meta.tokens?.cacheWrite ?? null,
    cache_read_tokens: meta.tokens?.cacheRead ?? null,
    tokens_estimated: meta.tokensEstimated,
    cost_usd: meta.costUsd,
    ...metricRowFields(meta),
    duration_ms: meta.durationMs,
    ...(meta.model.name === undefined ? {} : { model: meta.model.name }),
    // A campaign of several engines: the engine the rep ran on, as its meta.json says.
    ...(loaded.record.models?.some((entry) => entry.engine !== undefined) === true
      ? { engine: meta.backend }
      : {}),
    model_requested: meta.model.requested,
    model_reported: meta.model.reported ?? '',
    scripted_model: meta.model.scripted,
    status: meta.status.kind,
    indeterminate_stage: meta.status.kind === 'indeterminate' ? meta.status.stage : '',
    stop_reason: meta.stopReason ?? '',
    findings: findings.join('; '),
    skill_tree: meta.skill.tree,
    fixture_head: meta.fixture.head,
    scenario_sha256: score.scoredWith?.scenario ?? '',
    rescored_at: score.scoredWith?.rescoredAt ?? '',
    ...judgeRowFields(score, loaded.judgements.get(rep.id), loaded.overrides[rep.id]),
    observations: Object.fromEntries(
      score.observations.map((observation) => [
        observation.id,
        observation.observed ?? observation.outcome,
      ]),
    ),
    ...(score.metrics === undefined ? {} : { pack_metrics: installedPackMetrics(score.metrics) }),
  };
}

/**
 * A score's pack metrics, kept to those an installed pack adds: a results
 * directory is untrusted input, and a name no pack adds (a core metric's, a
 * markup) would become a column of its own.
 */
function installedPackMetrics(
  metrics: NonNullable<RepScore['metrics']>,
): Record<string, number | null> {
  return Object.fromEntries(
    Object.entries(metrics).filter(([name]) => packMetricOf(name) !== undefined),
  );
}

/** What the cell statistics need to know of an arm. */
export type ArmInfo = Pick<CellSummary, 'role' | 'label' | 'layout'> & { readonly name: string };

/** The summarised observations of a cell's reps, in the order their scenario declares them. */
function observationSummaries(scores: readonly RepScore[]): ObservationSummaryRow[] {
  const summaries = new Map<string, ObservationSummaryRow>();
  for (const score of scores) {
    for (const observation of score.observations) {
      const summary = observation.summary;
      if (summary === undefined) continue;
      if ('tally' in summary) {
        const known = summaries.get(observation.id);
        const counts = known?.kind === 'tally' ? known.counts : {};
        const seen = observation.observed ?? observation.outcome;
        counts[seen] = (counts[seen] ?? 0) + 1;
        const labels = Array.isArray(observation.params.labels)
          ? observation.params.labels.filter((label): label is string => typeof label === 'string')
          : [];
        summaries.set(observation.id, {
          kind: 'tally',
          id: observation.id,
          title: summary.tally,
          counts,
          ...(labels.length === 0 ? {} : { labels }),
        });
      } else {
        const known = summaries.get(observation.id);
        const passes =
          (known?.kind === 'passes' ? known.passes : 0) + (observation.outcome === 'pass' ? 1 : 0);
        summaries.set(observation.id, {
          kind: 'passes',
          id: observation.id,
          phrase: summary.passes,
          passes,
        });
      }
    }
  }
  return [...summaries.values()];
}

function cellSummary(
  arm: ArmInfo,
  scenario: string,
  rows: readonly RepRow[],
  scores: ReadonlyMap<string, RepScore>,
  scheduled: number,
  model: string | null = null,
  /** Whether the scenario has a judge block: then a cell with no judgement still has an (empty) agreement. */
  judged = false,
): CellSummary {
  const mine = rows
    .filter(
      (row) =>
        row.arm === arm.name &&
        row.scenario === scenario &&
        (model === null || row.model === model),
    )
    .sort((a, b) => a.rep - b.rep);
  const pass = mine.filter((row) => row.verdict === 'pass').length;
  const fail = mine.filter((row) => row.verdict === 'fail').length;
  const decided = pass + fail;
  // An indeterminate rep was cut short or could not be read: its tool_uses measures nothing.
  const values = mine.filter((row) => row.verdict !== 'indeterminate').map((row) => row.tool_uses);
  const boot = bootstrapInterval(values, { statistic: 'mean', seed: REPORT_SEED });
  const interval = decided === 0 ? null : wilsonInterval(pass, decided);
  const agreement = rowsAgreement(mine, judged);
  return {
    arm: arm.name,
    role: arm.role,
    label: arm.label,
    layout: arm.layout,
    scenario,
    ...(model === null
      ? {}
      : { model, infrastructure: mine.filter(isInfrastructureFailure).length }),
    planned: scheduled,
    recorded: mine.length,
    pass,
    fail,
    indeterminate: mine.length - decided,
    decided,
    passRate: decided === 0 ? null : pass / decided,
    wilson95: interval === null ? null : { lower: interval.lower, upper: interval.upper },
    toolUses: {
      values,
      median: median(values),
      mean: mean(values),
      bootstrap95Mean: boot === null ? null : { lower: boot.lower, upper: boot.upper },
    },
    // Every cell summarises each pack metric some rep of the campaign recorded: a cell without it is unrecorded.
    metrics: cellMetrics(mine, packMetricNamesOf(rows)),
    // Like tool_uses, what an indeterminate rep observed measures nothing: the summaries count decided reps.
    observations: observationSummaries(
      mine
        .filter((row) => row.verdict !== 'indeterminate')
        .map((row) => scores.get(row.rep_id))
        .filter((score) => score !== undefined),
    ),
    overrides: mine.filter((row) => row.verdict_source === 'override').length,
    ...(agreement === undefined ? {} : { agreement }),
  };
}

/** What a classification can observe besides its labels, in the order colours are given. */
const CLASSIFY_EXTRAS = ['both', 'neither', 'none'];

/**
 * The first tally observation of the reps, for the charts' colours. Its
 * values: every value a classification can take (its labels, then `both`,
 * `neither`), so a value keeps its colour whichever were seen, then any
 * other value seen, in order.
 */
/** An arm's skill text as the results name it: the directory read, or the git ref with its commit. */
function skillSourceText(source: CampaignRecord['arms'][number]['source']): string {
  if (source.kind === 'none') return 'no skill';
  return source.kind === 'dir'
    ? source.dir
    : `git:${source.repo}@${source.ref}${source.subdir === '' ? '' : `:${source.subdir}`} (commit ${source.commit.slice(0, 12)})`;
}

function legendOf(loaded: LoadedResults, rows: readonly RepRow[]): ResultsModel['legend'] {
  for (const rep of loaded.reps) {
    const tally = rep.score.observations.find(
      (observation) => observation.summary !== undefined && 'tally' in observation.summary,
    );
    if (tally?.summary === undefined || !('tally' in tally.summary)) continue;
    const labels = Array.isArray(tally.params.labels)
      ? tally.params.labels.filter((label): label is string => typeof label === 'string')
      : [];
    const possible =
      labels.length === 0
        ? []
        : [...labels, ...(labels.length === 2 ? CLASSIFY_EXTRAS.slice(0, 2) : ['none'])];
    const seen = rows
      .map((row) => row.observations[tally.id])
      .filter((value): value is string => value !== undefined && !possible.includes(value));
    return {
      id: tally.id,
      title: tally.summary.tally,
      values: [...new Set([...possible, ...seen.sort()])],
    };
  }
  return null;
}

function comparison(
  scenario: string,
  cells: readonly CellSummary[],
  model: string | null = null,
): Comparison | undefined {
  const inCell = (cell: CellSummary): boolean =>
    cell.scenario === scenario && (model === null || cell.model === model);
  const red = cells.find((cell) => cell.role === 'red' && inCell(cell));
  const green = cells.find((cell) => cell.role === 'green' && inCell(cell));
  if (red === undefined || green === undefined) return undefined;
  const decided = red.decided > 0 && green.decided > 0;
  const redCount = { successes: red.pass, trials: red.decided };
  const greenCount = { successes: green.pass, trials: green.decided };
  const tools =
    red.toolUses.values.length > 0 && green.toolUses.values.length > 0
      ? permutationTest(green.toolUses.values, red.toolUses.values, { seed: REPORT_SEED })
      : null;
  return {
    scenario,
    ...(model === null ? {} : { model }),
    red: red.arm,
    green: green.arm,
    fisherTwoSided: decided ? fisherExact(greenCount, redCount, 'two-sided') : null,
    fisherGreenBetter: decided ? fisherExact(greenCount, redCount, 'greater') : null,
    fisherRedBetter: decided ? fisherExact(redCount, greenCount, 'greater') : null,
    toolUses:
      tools === null
        ? null
        : {
            meanDifference: tools.observed,
            pValue: tools.pValue,
            method: tools.method,
            description: tools.description,
          },
  };
}

/**
 * The per-cell figures and the RED vs GREEN comparisons of a set of rep rows:
 * pass counts, Wilson intervals, Fisher tests, the tool_uses statistics, and
 * the summarised observations of the reps whose scores (by rep id) are given.
 */
export function summariseCells(
  arms: readonly ArmInfo[],
  scenarios: readonly string[],
  rows: readonly RepRow[],
  scheduled: number,
  scores: ReadonlyMap<string, RepScore> = new Map(),
  /** A campaign of several models: its model names (cells are then arm × scenario × model), else null. */
  models: readonly string[] | null = null,
  /** Scenarios with a judge block (their cells carry agreement even before any rep is judged). */
  judgedScenarios: ReadonlySet<string> = new Set(),
): { cells: CellSummary[]; comparisons: Comparison[] } {
  const cells = scenarios.flatMap((scenario) =>
    (models ?? [null]).flatMap((model) =>
      arms.map((arm) =>
        cellSummary(arm, scenario, rows, scores, scheduled, model, judgedScenarios.has(scenario)),
      ),
    ),
  );
  const comparisons = scenarios
    .flatMap((scenario) => (models ?? [null]).map((model) => comparison(scenario, cells, model)))
    .filter((value): value is Comparison => value !== undefined);
  return { cells, comparisons };
}

/** Turn a loaded results directory into the model every table is printed from. Pure given its input. */
export function summariseResults(loaded: LoadedResults): ResultsModel {
  const { record } = loaded;
  const order = (list: readonly { name?: string; id?: string }[], key: string): number =>
    list.findIndex((item) => (item.name ?? item.id) === key);
  const modelNames = scheduledModelNames(record);
  const rows = loaded.reps
    .map((rep) => repRow(loaded, rep))
    .sort(
      (a, b) =>
        order(record.scenarios, a.scenario) - order(record.scenarios, b.scenario) ||
        (modelNames ?? []).indexOf(a.model ?? '') - (modelNames ?? []).indexOf(b.model ?? '') ||
        order(record.arms, a.arm) - order(record.arms, b.arm) ||
        a.rep - b.rep,
    );
  const { cells, comparisons } = summariseCells(
    record.arms,
    record.scenarios.map((scenario) => scenario.id),
    rows,
    record.reps,
    new Map(loaded.reps.map((rep) => [rep.id, rep.score])),
    modelNames,
    loaded.judgedScenarios,
  );
  const axis =
    modelNames === null ? null : modelAxisSummary(record, modelNames, rows, cells, loaded.missing);
  const reported = [
    ...new Set(
      loaded.reps.map((rep) => rep.meta.model.reported).filter((id): id is string => id !== null),
    ),
  ];
  const scripted = record.model.scripted;
  const gates = gateSchema.array().parse(record.gates);
  const scheduled = loaded.reps.length + loaded.missing.length;
  const byId = new Map(loaded.reps.map((rep) => [rep.id, rep]));
  const judge = judgeSection(
    rows
      .map((row) => byId.get(row.rep_id))
      .filter((rep): rep is RecordedRep => rep !== undefined)
      .map((rep) => ({
        id: rep.id,
        arm: rep.meta.arm,
        scenario: rep.meta.scenario,
        score: rep.score,
        verdict: effectiveVerdict(loaded, rep),
        override: loaded.overrides[rep.id],
      })),
    loaded.judgements,
    cells,
    loaded.judgementProblems,
  );
  const adjudicated = rows.filter((row) => row.verdict_source === 'override').length;
  const seatTools = seatToolSummary(
    rows.flatMap((row) => {
      const rep = byId.get(row.rep_id);
      if (rep === undefined) return [];
      return [
        {
          id: row.rep_id,
          arm: row.arm,
          scenario: row.scenario,
          ...(row.model === undefined ? {} : { model: row.model }),
          verdict: row.verdict,
          stop: rep.meta.stop,
          toolUses: rep.meta.toolUses,
          seats: rep.meta.seats,
        },
      ];
    }),
    record.arms.map((arm) => arm.name),
  );
  const subset = subsetOf(record);
  const scenarios = scenarioFiles(
    record,
    loaded.reps.map((rep) => ({ scenario: rep.meta.scenario, score: rep.score })),
  );
  const conflicts = versionConflicts(scenarios);
  const decision = withAdjudication(
    onSubset(
      gateDecision(gates, cells, loaded.missing, (gate, judged) =>
        evaluateGateOnModels(gate, judged, record.models ?? []),
      ),
      subset,
    ),
    adjudicated,
  );
  return {
    schemaVersion: 2,
    generatedBy: `redgreen ${harnessVersion()}`,
    campaign: { id: record.campaign.id, title: record.campaign.title, identity: record.identity },
    model:
      axis === null
        ? {
            requested: record.model.id,
            reported,
            scripted,
            label: scripted
              ? `${record.model.id} (a scripted policy on redgreen's local model server, not a model; token counts are estimates)`
              : record.model.id,
          }
        : axis.model,
    backend: record.backend,
    engine: [...new Set(loaded.reps.map((rep) => rep.meta.engine))].join(', ') || record.engine,
    sandbox: record.sandbox,
    repsPerCell: record.reps,
    arms: record.arms.map((arm) => ({
      name: arm.name,
      role: arm.role,
      label: arm.label,
      layout: arm.layout,
      // A library arm: its library, the plugin it installs as, and the skills it replaces.
      source:
        arm.library === undefined
          ? skillSourceText(arm.source)
          : `library ${skillSourceText(arm.source)} as plugin ${arm.library.pluginName}${arm.library.overrides
              .map((override) => `, ${override.skill} from ${skillSourceText(override.source)}`)
              .join('')}`,
      tree: arm.tree,
    })),
    scenarios,
    observationColumns: [...new Set(rows.flatMap((row) => Object.keys(row.observations)))],
    legend: legendOf(loaded, rows),
    complete: loaded.missing.length === 0,
    planned: scheduled,
    recorded: loaded.reps.length,
    missing: [...loaded.missing],
    cells,
    comparisons,
    power: powerStatement({ trialsPerArm: record.reps, control: 0.2, treatment: 0.8 }),
    ...(axis === null ? {} : { models: axis.models, interaction: axis.interaction }),
    ...(subset === null ? {} : { subset }),
    gates:
      record.shard !== null
        ? {
            ...decision,
            outcome: 'undecided',
            exitCode: 2,
            why: `this is shard ${record.shard.index}/${record.shard.count} of the campaign: merge the shards (redgreen merge) before gating`,
          }
        : conflicts.length > 0
          ? {
              ...decision,
              outcome: 'undecided',
              exitCode: 2,
              why: `reps were scored with different versions of their scenario, ${conflicts.map(conflictText).join(', ')}: rescore them all with its current files (redgreen score <dir>) before gating`,
            }
          : decision,
    reps: rows,
    ...(judge === undefined ? {} : { judge }),
    ...(adjudicated === 0 ? {} : { adjudicated }),
    ...(seatTools === undefined ? {} : { seatTools }),
  };
}

/**
 * A subset run's decision: a pass holds only for the gates it evaluated, and
 * says so (the gate line names the subset and how many gates it left out).
 */
function onSubset(decision: ResultsModel['gates'], subset: Subset | null): ResultsModel['gates'] {
  if (subset === null || decision.outcome !== 'pass') return decision;
  return { ...decision, why: 'every gate it evaluated holds' };
}

/** A gate decision that says how many of the verdicts it used were settled by hand. */
function withAdjudication(
  decision: ResultsModel['gates'],
  adjudicated: number,
): ResultsModel['gates'] {
  if (adjudicated === 0) return decision;
  return {
    ...decision,
    // A sentence of its own: after a failed gate's name it would read as part of that name.
    why: `${decision.why}. Used: ${adjudicated} verdict(s) adjudicated by hand (overrides.json)`,
  };
}

/**
 * The results' model axis in a campaign of several models: the header's
 * model line (every model named, scripted ones marked), each model's
 * summary, and the arm × model interaction.
 */
function modelAxisSummary(
  record: CampaignRecord,
  names: readonly string[],
  rows: readonly RepRow[],
  cells: readonly CellSummary[],
  missing: readonly string[],
): Pick<ResultsModel, 'model'> & {
  models: NonNullable<ResultsModel['models']>;
  interaction: NonNullable<ResultsModel['interaction']>;
} {
  const models = modelSummaries(
    record.models ?? [],
    names,
    rows,
    (name) =>
      rows.filter((row) => row.model === name).length +
      missing.filter((id) => id.startsWith(`${name}/`)).length,
  );
  const scripted = models.length > 0 && models.every((model) => model.scripted);
  return {
    model: {
      requested: models.map((model) => model.requested).join(', '),
      reported: [...new Set(models.flatMap((model) => model.reported))].sort(),
      scripted,
      label: `${models.length} ${axisNoun({ models }).many}: ${models.map((model) => `${model.name} = ${model.label}`).join('; ')}`,
    },
    models,
    interaction: interactionSummary(
      record.scenarios.map((scenario) => scenario.id),
      names,
      cells,
      undefined,
      entryNoun(record),
    ),
  };
}

/** `engine` when the entries are one model on several engines (their names are the engines'), else `model`. */
function entryNoun(record: CampaignRecord): string {
  const models = record.models ?? [];
  return models.length > 1 && models.every((model) => model.engine === model.name)
    ? 'engine'
    : 'model';
}
