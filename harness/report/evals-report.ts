/**
 * The tables of an evals run, beside redgreen's own: per expectation the
 * arms' pass rates side by side (flagging expectations that pass or fail in
 * every arm, which do not discriminate, and ones whose reps disagree), the
 * expectation pass rate per arm with its interval, and for a trigger set
 * precision, recall and F1 per arm with intervals and the queries whose
 * outcome changed. Also skill-creator's files, in the shapes its
 * `references/schemas.md` documents so its viewer and scripts read them: a
 * `grading.json` per rep and `benchmark.json` (`configuration` `with_skill`
 * for the new text, `without_skill` for the arm it is gated against; another
 * baseline arm gets `benchmark-<arm>.json`). Pure but for the writer at the end.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Judgement } from '../judge/judgement.js';
import { writeFileAtomic } from '../lib/atomic-write.js';
import type { ImportRecord } from '../results/import-record.js';
import type { LoadedResults, RecordedRep } from './load-results.js';
import { markdownTable } from './markdown-table.js';
import type { CellSummary } from './results-schema.js';
import { wilsonInterval } from './stats-rates.js';
import { type Rate, triggerCounts, triggerFigures } from './trigger-rates.js';

type Outcome = 'pass' | 'fail' | 'undecided';

interface ItemOutcome {
  readonly checkId: string;
  readonly text: string;
  readonly decidedBy: string;
  readonly outcome: Outcome;
  readonly evidence: string;
}

interface GradedRep {
  readonly rep: RecordedRep;
  readonly evalCase: ImportRecord['cases'][number];
  readonly items: readonly ItemOutcome[];
}

function gradedReps(loaded: LoadedResults, record: ImportRecord): GradedRep[] {
  const cases = new Map(record.cases.map((item) => [item.scenario, item]));
  return loaded.reps.flatMap((rep) => {
    const evalCase = cases.get(rep.meta.scenario);
    if (evalCase === undefined) return [];
    const judgement: Judgement | undefined = loaded.judgements.get(rep.id);
    const items = evalCase.expectations.map((expectation) => {
      const check = rep.score.checks.find((candidate) => candidate.id === expectation.checkId);
      const judged = judgement?.items.find((item) => item.id === expectation.checkId);
      const detail = check === undefined ? 'not scored' : check.detail.replace(`${check.id}: `, '');
      const quote =
        judged === undefined || judged.quote === '' || expectation.decidedBy === 'judge'
          ? ''
          : `; judge ${judged.verdict}: "${judged.quote}"`;
      return {
        checkId: expectation.checkId,
        text: expectation.text,
        decidedBy: expectation.decidedBy,
        outcome: (check?.outcome ?? 'undecided') as Outcome,
        evidence: `${detail}${quote}`,
      };
    });
    return [{ rep, evalCase, items }];
  });
}

/** skill-creator's grading.json for one rep, with redgreen's own verdict beside it. */
export function gradingJson(
  graded: GradedRep,
  configuration: string | null,
): Record<string, unknown> {
  const { rep, items } = graded;
  const passed = items.filter((item) => item.outcome === 'pass').length;
  const undecided = items.filter((item) => item.outcome === 'undecided').length;
  const calls = Object.values(rep.meta.toolCallsByName).reduce((sum, count) => sum + count, 0);
  return {
    expectations: items.map((item) => ({
      text: item.text,
      passed: item.outcome === 'pass',
      evidence: item.outcome === 'undecided' ? `undecided: ${item.evidence}` : item.evidence,
    })),
    summary: {
      passed,
      failed: items.length - passed,
      total: items.length,
      pass_rate: items.length === 0 ? 0 : round(passed / items.length),
    },
    execution_metrics: {
      tool_calls: rep.meta.toolCallsByName,
      total_tool_calls: calls,
      total_steps: rep.meta.turns,
      errors_encountered: rep.meta.status.kind === 'indeterminate' ? 1 : 0,
      output_chars: rep.reply.length,
    },
    timing: {
      executor_duration_seconds: round(rep.meta.durationMs / 1000, 1),
      total_duration_seconds: round(rep.meta.durationMs / 1000, 1),
    },
    redgreen: {
      rep: rep.id,
      arm: rep.meta.arm,
      configuration,
      verdict: rep.score.verdict,
      undecided,
      decidedBy: Object.fromEntries(items.map((item) => [item.checkId, item.decidedBy])),
    },
  };
}

function round(value: number, places = 4): number {
  const factor = 10 ** places;
  return Math.round(value * factor) / factor;
}

function stats(values: readonly number[]): {
  mean: number;
  stddev: number;
  min: number;
  max: number;
} {
  if (values.length === 0) return { mean: 0, stddev: 0, min: 0, max: 0 };
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
  const variance =
    values.length > 1
      ? values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (values.length - 1)
      : 0;
  return {
    mean: round(mean),
    stddev: round(Math.sqrt(variance)),
    min: round(Math.min(...values)),
    max: round(Math.max(...values)),
  };
}

function signed(value: number, places: number): string {
  return `${value >= 0 ? '+' : ''}${value.toFixed(places)}`;
}

function tokensOf(rep: RecordedRep): number {
  const tokens = rep.meta.tokens;
  return tokens === null ? 0 : tokens.input + tokens.output + tokens.cacheRead + tokens.cacheWrite;
}

function evalIdOf(id: string): number | string {
  return /^-?\d+$/.test(id) ? Number(id) : id;
}

/** skill-creator's benchmark.json: `with` is the new text's arm, `without` the baseline it is compared with. */
export function benchmarkJson(
  loaded: LoadedResults,
  record: ImportRecord,
  graded: readonly GradedRep[],
  arms: { readonly with: string; readonly without: string },
  judgeModel: string | null,
  flags: readonly string[],
  timestamp: string | null,
): Record<string, unknown> {
  const configuration = (arm: string) =>
    arm === arms.with ? 'with_skill' : arm === arms.without ? 'without_skill' : undefined;
  const runs = graded.flatMap((entry) => {
    const config = configuration(entry.rep.meta.arm);
    if (config === undefined) return [];
    const passed = entry.items.filter((item) => item.outcome === 'pass').length;
    return [
      {
        eval_id: evalIdOf(entry.evalCase.evalId),
        eval_name:
          entry.evalCase.evalName ?? `${entry.evalCase.skill} eval ${entry.evalCase.evalId}`,
        configuration: config,
        run_number: entry.rep.meta.rep,
        result: {
          pass_rate: entry.items.length === 0 ? 0 : round(passed / entry.items.length),
          passed,
          failed: entry.items.length - passed,
          total: entry.items.length,
          time_seconds: round(entry.rep.meta.durationMs / 1000, 1),
          tokens: tokensOf(entry.rep),
          tool_calls: entry.rep.meta.toolUses,
          errors: entry.rep.meta.status.kind === 'indeterminate' ? 1 : 0,
        },
        expectations: entry.items.map((item) => ({
          text: item.text,
          passed: item.outcome === 'pass',
          evidence: item.evidence,
        })),
        notes: entry.rep.score.verdict === 'pass' ? [] : entry.rep.score.reasons.slice(0, 3),
      },
    ];
  });
  const summary = (config: string) => {
    const mine = runs.filter((run) => run.configuration === config);
    return {
      pass_rate: stats(mine.map((run) => run.result.pass_rate)),
      time_seconds: stats(mine.map((run) => run.result.time_seconds)),
      tokens: stats(mine.map((run) => run.result.tokens)),
    };
  };
  const withSkill = summary('with_skill');
  const withoutSkill = summary('without_skill');
  return {
    metadata: {
      skill_name: record.skills.map((skill) => skill.name).join(', '),
      skill_path: record.skills.map((skill) => skill.dir).join(', '),
      executor_model: loaded.record.model.id,
      analyzer_model: judgeModel,
      timestamp,
      evals_run: [...new Set(record.cases.map((item) => evalIdOf(item.evalId)))],
      runs_per_configuration: loaded.record.reps,
      configurations: { with_skill: arms.with, without_skill: arms.without },
      generated_by: `redgreen ${loaded.record.harnessVersion}`,
    },
    runs,
    run_summary: {
      with_skill: withSkill,
      without_skill: withoutSkill,
      delta: {
        pass_rate: signed(withSkill.pass_rate.mean - withoutSkill.pass_rate.mean, 2),
        time_seconds: signed(withSkill.time_seconds.mean - withoutSkill.time_seconds.mean, 1),
        tokens: signed(withSkill.tokens.mean - withoutSkill.tokens.mean, 0),
      },
    },
    notes: flags,
  };
}

function percent(rate: number | null): string {
  return rate === null ? 'n/a' : `${Math.round(rate * 100)}%`;
}

function rateText(rate: Rate): string {
  if (rate.trials === 0 || rate.interval === null) return `n/a (0 reps)`;
  return `${rate.successes}/${rate.trials} = ${percent(rate.rate)} (95% CI ${percent(rate.interval.lower)}–${percent(rate.interval.upper)})`;
}

interface ExpectationRow {
  readonly scenario: string;
  readonly checkId: string;
  readonly text: string;
  readonly decidedBy: string;
  readonly byArm: ReadonlyMap<string, { pass: number; decided: number }>;
}

function expectationRows(
  record: ImportRecord,
  graded: readonly GradedRep[],
  arms: readonly string[],
): ExpectationRow[] {
  return record.cases.flatMap((evalCase) =>
    evalCase.expectations.map((expectation) => {
      const byArm = new Map(arms.map((arm) => [arm, { pass: 0, decided: 0 }]));
      for (const entry of graded) {
        if (entry.evalCase.scenario !== evalCase.scenario) continue;
        const item = entry.items.find((candidate) => candidate.checkId === expectation.checkId);
        const counts = byArm.get(entry.rep.meta.arm);
        if (item === undefined || counts === undefined || item.outcome === 'undecided') continue;
        counts.decided += 1;
        if (item.outcome === 'pass') counts.pass += 1;
      }
      return {
        scenario: evalCase.scenario,
        checkId: expectation.checkId,
        text: expectation.text,
        decidedBy: expectation.decidedBy,
        byArm,
      };
    }),
  );
}

/** Why an expectation says little: it passes (or fails) in every arm, or its reps disagree. */
function flagsOf(row: ExpectationRow): string[] {
  const counts = [...row.byArm.values()].filter((entry) => entry.decided > 0);
  const flags: string[] = [];
  if (counts.length > 1 && counts.every((entry) => entry.pass === entry.decided))
    flags.push('passes in every arm: does not discriminate');
  if (counts.length > 1 && counts.every((entry) => entry.pass === 0))
    flags.push('fails in every arm: does not discriminate');
  const varied = [...row.byArm.entries()].filter(
    ([, entry]) =>
      entry.decided > 1 && entry.pass / entry.decided >= 0.2 && entry.pass / entry.decided <= 0.8,
  );
  if (varied.length > 0)
    flags.push(`reps disagree in ${varied.map(([arm]) => arm).join(', ')}: high variance`);
  return flags;
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\s+/g, ' ');
}

function expectationsMarkdown(
  record: ImportRecord,
  graded: readonly GradedRep[],
  arms: readonly string[],
): { lines: string[]; notes: string[] } {
  if (record.cases.length === 0) return { lines: [], notes: [] };
  const rows = expectationRows(record, graded, arms);
  const notes: string[] = [];
  const table = rows.map((row) => {
    const flags = flagsOf(row);
    for (const flag of flags)
      notes.push(`${row.scenario} ${row.checkId} ("${row.text.slice(0, 60)}") ${flag}`);
    return [
      row.scenario,
      cell(`${row.checkId}: ${row.text.length > 90 ? `${row.text.slice(0, 90)}…` : row.text}`),
      row.decidedBy,
      ...arms.map((arm) => {
        const counts = row.byArm.get(arm) ?? { pass: 0, decided: 0 };
        return counts.decided === 0 ? 'n/a' : `${counts.pass}/${counts.decided}`;
      }),
      flags.join('; '),
    ];
  });
  const perArm = arms.map((arm) => {
    const mine = graded.filter((entry) => entry.rep.meta.arm === arm);
    const items = mine
      .flatMap((entry) => entry.items)
      .filter((item) => item.outcome !== 'undecided');
    const pass = items.filter((item) => item.outcome === 'pass').length;
    const perRep = mine
      .map((entry) => {
        const decided = entry.items.filter((item) => item.outcome !== 'undecided');
        return decided.length === 0
          ? null
          : decided.filter((item) => item.outcome === 'pass').length / decided.length;
      })
      .filter((value): value is number => value !== null);
    const spread = stats(perRep);
    const interval = items.length === 0 ? null : wilsonInterval(pass, items.length);
    return [
      arm,
      items.length === 0 || interval === null
        ? 'n/a'
        : `${pass}/${items.length} = ${percent(pass / items.length)} (95% CI ${percent(interval.lower)}–${percent(interval.upper)})`,
      perRep.length === 0
        ? 'n/a'
        : `${percent(spread.mean)} ± ${percent(spread.stddev)} (min ${percent(spread.min)}, max ${percent(spread.max)}, ${perRep.length} reps)`,
    ];
  });
  return {
    lines: [
      '### Expectations by arm',
      '',
      'Each expectation passed / decided, per arm (undecided ones, e.g. not judged yet, left out); a rep passes when every expectation passes.',
      '',
      markdownTable(
        ['Eval', 'Expectation', 'Decided by', ...arms.map((arm) => arm.toUpperCase()), 'Flags'],
        table,
      ),
      '',
      '### Expectation pass rate per arm',
      '',
      markdownTable(['Arm', 'Expectations passed (pooled)', 'Per rep (mean ± sd)'], perArm),
      '',
    ],
    notes,
  };
}

function triggersMarkdown(
  record: ImportRecord,
  cells: readonly CellSummary[],
  arms: readonly string[],
): string[] {
  if (record.queries.length === 0) return [];
  const parts =
    record.split === null
      ? [['all queries', record.queries] as const]
      : [
          [
            'held out (gated)',
            record.queries.filter((query) => query.part === 'held-out'),
          ] as const,
          ['tuned on', record.queries.filter((query) => query.part === 'tune')] as const,
          ['all queries', record.queries] as const,
        ];
  const rows = parts.flatMap(([label, queries]) => {
    const positives = queries.filter((query) => query.shouldTrigger).map((query) => query.scenario);
    const negatives = queries
      .filter((query) => !query.shouldTrigger)
      .map((query) => query.scenario);
    return arms.map((arm) => {
      const figures = triggerFigures(
        triggerCounts(cells, (summary) => summary.arm === arm, positives, negatives),
      );
      return [
        label,
        arm,
        rateText(figures.precision),
        rateText(figures.recall),
        figures.f1 === null ? 'n/a' : figures.f1.toFixed(2),
        `${figures.tp}/${figures.fp}/${figures.fn}/${figures.tn}`,
      ];
    });
  });
  const triggered = (arm: string, scenario: string) => {
    const summary = cells.find((entry) => entry.arm === arm && entry.scenario === scenario);
    if (summary === undefined || summary.decided === 0) return undefined;
    const query = record.queries.find((entry) => entry.scenario === scenario);
    const hits = query?.shouldTrigger ? summary.pass : summary.fail;
    return { hits, decided: summary.decided, rate: hits / summary.decided };
  };
  const changed = record.queries.flatMap((query) => {
    const outcomes = arms.map((arm) => triggered(arm, query.scenario));
    const majorities = outcomes.map((outcome) =>
      outcome === undefined ? undefined : outcome.rate >= 0.5,
    );
    if (majorities.some((value) => value === undefined) || new Set(majorities).size < 2) return [];
    return [
      [
        query.scenario,
        cell(query.query.length > 70 ? `${query.query.slice(0, 70)}…` : query.query),
        query.shouldTrigger ? 'yes' : 'no',
        query.part,
        ...outcomes.map((outcome) =>
          outcome === undefined ? 'n/a' : `${outcome.hits}/${outcome.decided}`,
        ),
      ],
    ];
  });
  return [
    '### Trigger set',
    '',
    "A query triggers when the session's first call loads the skill; each rep is a trial (TP/FP/FN/TN over reps).",
    '',
    markdownTable(['Queries', 'Arm', 'Precision', 'Recall', 'F1', 'TP/FP/FN/TN'], rows),
    '',
    '#### Queries whose outcome changed between arms',
    '',
    changed.length === 0
      ? 'None: every query triggered (or not) in the same majority of reps in every arm.'
      : markdownTable(
          [
            'Query',
            'Text',
            'Should trigger',
            'Part',
            ...arms.map((arm) => `${arm.toUpperCase()} triggered`),
          ],
          changed,
        ),
    '',
  ];
}

/**
 * Write an evals run's files into its results directory (grading.json per
 * rep, benchmark.json, evals.md) and return the markdown for results.md.
 */
export async function writeEvalsReports(
  loaded: LoadedResults,
  record: ImportRecord,
  cells: readonly CellSummary[],
): Promise<string> {
  const arms = loaded.record.arms.map((arm) => arm.name);
  const graded = gradedReps(loaded, record);
  const expectations = expectationsMarkdown(record, graded, arms);
  const judgeModel = [...loaded.judgements.values()][0]?.model.requested ?? null;
  for (const entry of graded) {
    const configuration =
      entry.rep.meta.arm === record.green
        ? 'with_skill'
        : entry.rep.meta.arm === record.red
          ? 'without_skill'
          : null;
    await writeFileAtomic(
      path.join(entry.rep.dir, 'grading.json'),
      `${JSON.stringify(gradingJson(entry, configuration), null, 2)}\n`,
    );
  }
  const written: string[] = [];
  // When the run started, as `redgreen list` tells it: campaign.json is written as it starts.
  const started = await stat(loaded.layout.campaignFile).then(
    (info) => info.mtime.toISOString(),
    () => null,
  );
  if (record.cases.length > 0) {
    for (const baseline of arms.filter((arm) => arm !== record.green)) {
      const file =
        baseline === record.red
          ? loaded.layout.benchmarkJson
          : path.join(loaded.layout.root, `benchmark-${baseline}.json`);
      const benchmark = benchmarkJson(
        loaded,
        record,
        graded,
        { with: record.green, without: baseline },
        judgeModel,
        expectations.notes,
        started,
      );
      await writeFileAtomic(file, `${JSON.stringify(benchmark, null, 2)}\n`);
      written.push(path.basename(file));
    }
  }
  const markdown = [
    "## The skill's own evals",
    '',
    `Imported from ${record.sources.map((source) => `${source.file} (${source.kind})`).join(', ')}; reach: ${record.reach}; ${record.arms.map((arm) => `${arm.name.toUpperCase()} = ${arm.texts.map((text) => text.text).join('; ')}`).join(', ')}.${written.length === 0 ? '' : ` skill-creator's files: ${written.join(', ')} and a grading.json in each rep.`}`,
    '',
    ...expectations.lines,
    ...triggersMarkdown(record, cells, arms),
    ...(record.notes.length === 0
      ? []
      : ['Import notes:', '', ...record.notes.map((note) => `- ${note}`), '']),
  ].join('\n');
  await writeFileAtomic(loaded.layout.evalsMarkdown, `${markdown}\n`);
  return markdown;
}
