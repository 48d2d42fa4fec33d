/**
 * `redgreen scenario lint`: prove a scenario before any real session is
 * spent on it. It loads and validates the files (a bad one is an InputError,
 * exit 2), builds each fixture layout the calibration uses and runs the
 * pre-checks on it, then runs every calibration policy offline, one rep each,
 * on the local model server, and checks that each must-pass policy passes
 * and each must-fail one fails with the declared checks among its failing
 * ones. The rows say what was expected and what happened.
 */
import path from 'node:path';
import { type BackendName, campaignSchema } from '../campaign/config-schema.js';
import type { ResolvedCampaign } from '../campaign/load-campaign.js';
import { singleModelAxis } from '../campaign/model-axis.js';
import { buildFixture, formatGateFailure, snapshotBuiltFixture } from '../fixture/index.js';
import { type InputError, inputError } from '../lib/input-error.js';
import { readJson } from '../lib/read-json.js';
import { err, ok, type Result } from '../lib/result.js';
import { withTempWorkDir } from '../lib/temp-work-dir.js';
import { resolveLibrary } from '../library/library-source.js';
import { resolveSkillSource } from '../library/skill-source.js';
import { readJournal } from '../results/rep-journal.js';
import { checkFreshOutput } from '../results/results-dir.js';
import { REP_FILES, resultsLayout } from '../results/results-layout.js';
import { capturePreEvidence } from '../run/rep-evidence.js';
import { runCampaign } from '../run/run-campaign.js';
import { RunControl } from '../run/run-control.js';
import { detectSandbox, openPathToSandbox } from '../sandbox/sandbox.js';
import { renderedPromptProblem } from '../scenario/prompt-template.js';
import {
  type ResolvedScenario,
  resolveScenarioIn,
  scenarioFacts,
} from '../scenario/resolve-scenario.js';
import { policyFitError, sessionToolsOf } from '../scenario/scenario-policies.js';
import { resolveScenarioDir } from '../score/load-scenario.js';
import { repScoreSchema } from '../score/score-rep.js';
import { conversationProblem } from '../session/conversation-support.js';
import { limitsSchema } from '../session/session-limits.js';
import { stopProblem, toolChangesProblem } from '../session/session-tool-table.js';

export interface LintRow {
  /** `pre-check` or `calibration`. */
  readonly kind: 'pre-check' | 'calibration';
  /** What ran: a layout for pre-checks, `policy on skill/layout` for calibration. */
  readonly subject: string;
  readonly expected: string;
  readonly got: string;
  readonly ok: boolean;
  /** For a row not as declared: what each check that decided it observed. */
  readonly why?: readonly string[];
}

export interface LintReport {
  readonly scenario: string;
  readonly file: string;
  readonly backend: BackendName;
  readonly rows: readonly LintRow[];
  /** What the calibration shows a check or observation cannot tell apart (lint still holds). */
  readonly warnings: readonly string[];
  readonly ok: boolean;
  /** Where `--keep` kept the calibration sessions' results directories. */
  readonly kept?: string | undefined;
}

type CalibrationScore = ReturnType<typeof repScoreSchema.parse>;

/**
 * Checks every calibration run passed decide nothing among them (no planted
 * behaviour shows they can fail), and observations that passed in every run
 * record nothing that tells the runs apart: both are said, never hidden.
 */
export function calibrationWarnings(scores: readonly CalibrationScore[]): string[] {
  if (scores.length === 0) return [];
  const first = scores[0];
  if (first === undefined) return [];
  const passedEverywhere = (
    pick: (score: CalibrationScore) => readonly { id: string; outcome: string; verb: string }[],
  ) =>
    pick(first)
      .filter((entry) => entry.verb !== 'classify')
      .map((entry) => entry.id)
      .filter((id) =>
        scores.every((score) =>
          pick(score).some((entry) => entry.id === id && entry.outcome === 'pass'),
        ),
      );
  const runs = `${scores.length} calibration run${scores.length === 1 ? '' : 's'}`;
  const observations = passedEverywhere((score) => score.observations);
  return [
    ...passedEverywhere((score) => score.checks).map(
      (id) =>
        `check ${id} passes under every calibration policy (${runs}): it decides nothing among them; add a must-fail run that fails it (with ${id} in its failing list), or drop it`,
    ),
    ...(observations.length === 0
      ? []
      : [
          `observation${observations.length === 1 ? '' : 's'} ${observations.join(', ')} passed in every calibration run (${runs}): no calibrated session shows what failing looks like, so nothing may be able to fail ${observations.length === 1 ? 'it' : 'them'}`,
        ]),
  ];
}

async function preCheckRows(
  scenario: ResolvedScenario,
  work: string,
): Promise<Result<LintRow[], InputError>> {
  const layouts = [...new Set(scenario.compiled.calibration.map((run) => run.layout))];
  const sandbox = await detectSandbox();
  // The pre-checks' fixture copies lie inside: a sandbox run as another user must reach them.
  await openPathToSandbox(sandbox, work);
  const rows: LintRow[] = [];
  for (const layout of layouts) {
    const dest = path.join(work, 'fixtures', layout);
    const built = await buildFixture({
      recipe: scenario.recipe,
      scenario: scenario.config.fixture.scenario,
      layout,
      dest,
    });
    if (!built.ok) {
      const problem =
        built.error.kind === 'gate' ? formatGateFailure(built.error) : built.error.problem;
      return err(
        inputError(
          `${scenario.compiled.file}: fixture`,
          `layout ${layout} could not be built: ${problem}`,
          'fix the fixture recipe',
        ),
      );
    }
    const facts = scenarioFacts(scenario, built.value);
    if (!facts.ok) return facts;
    // As a rep's pre-checks see it: checks without a checkout read the start checkout.
    const start = scenario.recipe.spec.scenarios[scenario.config.fixture.scenario]?.start;
    const fixture = await snapshotBuiltFixture(dest, start);
    const pre = await capturePreEvidence(scenario, facts.value, {
      repoDir: fixture.repoDir,
      before: fixture.snapshot,
      sandbox,
      readOnlyDirs: [],
      scratchDir: path.join(work, 'pre', layout),
    });
    rows.push({
      kind: 'pre-check',
      subject: `${scenario.config.fixture.recipe} ${scenario.config.fixture.scenario}/${layout}`,
      expected: `${scenario.compiled.pre.length} pre-check(s) pass`,
      got: pre.problems.length === 0 ? 'all pass' : pre.problems.join('; '),
      ok: pre.problems.length === 0,
    });
  }
  return ok(rows);
}

/**
 * Why the scenario cannot run on `backend`, as a campaign run would refuse
 * it at load (load-campaign.ts): its tools changes, its scripted user or
 * turns, its stop.
 */
function engineRefusal(scenario: ResolvedScenario, backend: BackendName): InputError | undefined {
  const file = scenario.compiled.file;
  const fix = (text: string): string => `${text}, or lint with another --backend`;
  if (scenario.config.tools !== undefined) {
    const problem = toolChangesProblem(backend, scenario.config.tools);
    if (problem !== undefined) {
      return inputError(`${file}: tools.${problem.field}`, problem.problem, fix(problem.fix));
    }
  }
  const conversation = conversationProblem(backend, scenario.config.user);
  if (conversation !== undefined) {
    return inputError(
      `${file}: ${conversation.field}`,
      conversation.problem,
      fix(conversation.fix),
    );
  }
  const user = scenario.config.user !== undefined;
  const stop = stopProblem(backend, scenario.config.stop, user);
  if (stop !== undefined) {
    return inputError(`${file}: ${user ? 'user' : 'stop'}`, stop.problem, fix(stop.fix));
  }
  return undefined;
}

/** A one-arm, one-rep campaign for one calibration run. */
async function calibrationCampaign(
  scenario: ResolvedScenario,
  run: ResolvedScenario['compiled']['calibration'][number],
  backend: BackendName,
  file: string,
): Promise<Result<ResolvedCampaign, InputError>> {
  const where = `${scenario.compiled.file}: calibration ${run.library === undefined ? 'skill' : 'library'}`;
  const library =
    run.library === undefined
      ? undefined
      : await resolveLibrary(
          { source: run.skillDir, overrides: run.library.overrides },
          scenario.compiled.dir,
          where,
        );
  if (library !== undefined && !library.ok) return library;
  const source =
    library === undefined
      ? await resolveSkillSource(run.skillDir, scenario.compiled.dir, where)
      : ok(library.value.source);
  if (!source.ok) return source;
  if (library === undefined) {
    const unnamed = renderedPromptProblem(scenario.prompt, { skillDir: true });
    if (unnamed !== undefined) return err(inputError(where, unnamed.problem, unnamed.fix));
  }
  const refused = engineRefusal(scenario, backend);
  if (refused !== undefined) return err(refused);
  const config = campaignSchema.parse({
    id: `lint-${scenario.id}`,
    title: `scenario lint: ${scenario.config.title}`,
    arms: [
      {
        name: 'calibration',
        role: run.expect === 'pass' ? 'green' : 'red',
        label: path.basename(run.skillDir),
        ...(library === undefined
          ? { skill: run.skillDir }
          : { library: { source: run.skillDir, overrides: run.library?.overrides ?? {} } }),
        layout: run.layout,
      },
    ],
    scenarios: [scenario.id],
    reps: 1,
    model: `scripted:${run.policy}`,
    offlineModel: `scripted:${run.policy}`,
    backend,
    concurrency: 1,
  });
  return ok({
    file,
    config,
    arms: [
      {
        name: 'calibration',
        role: run.expect === 'pass' ? 'green' : 'red',
        label: path.basename(run.skillDir),
        layout: run.layout,
        source: source.value,
        ...(library === undefined ? {} : { library: library.value }),
      },
    ],
    scenarios: [scenario],
    reps: 1,
    concurrency: 1,
    backend,
    engines: [backend],
    seed: config.seed,
    limits: limitsSchema.parse({ maxTurns: 40, sessionTimeoutSeconds: 300 }),
    gates: [],
    only: null,
    droppedGates: [],
  });
}

async function calibrationRow(
  scenario: ResolvedScenario,
  run: ResolvedScenario['compiled']['calibration'][number],
  index: number,
  lintBackend: BackendName,
  work: string,
  keep: string | undefined,
): Promise<Result<{ row: LintRow; score?: CalibrationScore }, InputError>> {
  const outDir =
    keep === undefined
      ? path.join(work, `calibration-${index + 1}`)
      : path.join(keep, `${index + 1}-${run.policy}`);
  // A recorded session is replayed on the backend it was recorded on: tools answer in its words.
  const policy = scenario.policies.get(run.policy);
  const backend = policy?.spec.backend ?? lintBackend;
  const campaign = await calibrationCampaign(
    scenario,
    run,
    backend,
    path.join(work, 'lint.campaign.json'),
  );
  if (!campaign.ok) return campaign;
  const model = {
    kind: 'scripted' as const,
    id: `scripted:${run.policy}`,
    policy: run.policy,
    reason: 'requested' as const,
  };
  const ran = await runCampaign({
    campaign: campaign.value,
    models: singleModelAxis(model),
    brains: policy === undefined ? undefined : new Map([[run.policy, policy.brain]]),
    shard: null,
    faults: [],
    outDir,
    resume: false,
    invocation: {
      campaignFile: campaign.value.file,
      arms: [],
      reps: 1,
      model: model.id,
      backend,
      seed: campaign.value.seed,
      maxTurns: campaign.value.limits.maxTurns,
      sessionTimeoutSeconds: campaign.value.limits.sessionTimeoutSeconds,
      shard: null,
      only: null,
    },
    retryIndeterminate: 0,
    keepWorkDirs: false,
    unsafeNoSandbox: false,
    control: new RunControl(),
    events: () => {},
    env: { ...process.env, ANTHROPIC_API_KEY: '' },
  });
  if (!ran.ok) return ran;
  // A library calibration names the skills it replaces: the released and branch rows differ there.
  const replaced = Object.entries(run.library?.overrides ?? {}).map(
    ([skill, source]) => ` with ${skill} from ${path.basename(source)}`,
  );
  const subject = `${run.policy} on ${path.basename(run.skillDir)}/${run.layout}${replaced.join('')}${backend === lintBackend ? '' : ` (on ${backend}, where it was recorded)`}`;
  const expected = run.expect === 'pass' ? 'pass' : `fail (${run.failing.join(', ')})`;
  const journal = await readJournal(resultsLayout(outDir).journalFile);
  const line = journal.ok ? [...journal.value.reps.values()][0] : undefined;
  if (line === undefined)
    return ok({
      row: { kind: 'calibration', subject, expected, got: 'no rep recorded', ok: false },
    });
  const score = repScoreSchema.parse(await readJson(path.join(outDir, line.dir, REP_FILES.score)));
  const failing = score.checks.filter((check) => check.outcome === 'fail').map((check) => check.id);
  const got =
    score.verdict === 'fail'
      ? `fail (${failing.join(', ')})`
      : `${score.verdict}${score.verdict === 'pass' ? '' : `: ${score.reasons[0] ?? ''}`}`;
  const good =
    run.expect === 'pass'
      ? score.verdict === 'pass'
      : score.verdict === 'fail' && run.failing.every((id) => failing.includes(id));
  if (good) return ok({ row: { kind: 'calibration', subject, expected, got, ok: good }, score });
  // Why not: the checks that failed unexpectedly, and those expected to fail that did not.
  const why = score.checks
    .filter(
      (check) =>
        (check.outcome === 'fail' && !(run.expect === 'fail' && run.failing.includes(check.id))) ||
        (check.outcome !== 'fail' && run.expect === 'fail' && run.failing.includes(check.id)),
    )
    .map((check) => `${check.outcome} ${check.detail}`);
  return ok({
    row: {
      kind: 'calibration',
      subject,
      expected,
      got,
      ok: good,
      why: why.length > 0 ? why : score.reasons.slice(0, 3),
    },
    score,
  });
}

/** Lint one scenario (an id under one of `scenariosDirs`, or a folder). */
export async function lintScenario(
  idOrDir: string,
  options: {
    readonly backend: BackendName;
    readonly scenariosDirs: readonly string[];
    /** `--keep`: where each calibration session's results directory is kept (new or empty). */
    readonly keep?: string | undefined;
  },
): Promise<Result<LintReport, InputError>> {
  const dir = resolveScenarioDir(idOrDir, options.scenariosDirs, 'scenario');
  if (!dir.ok) return dir;
  const keep = options.keep === undefined ? undefined : path.resolve(options.keep);
  if (keep !== undefined) {
    const fresh = await checkFreshOutput(keep, '--keep', false);
    if (!fresh.ok) return fresh;
  }
  const scenario = await resolveScenarioIn(dir.value);
  if (!scenario.ok) return scenario;
  // What the run would refuse on this backend is refused before anything is built.
  const refused = engineRefusal(scenario.value, options.backend);
  if (refused !== undefined) return err(refused);
  // Every policy file fits the session this backend gives before anything is built or run.
  for (const run of scenario.value.compiled.calibration) {
    const policy = scenario.value.policies.get(run.policy);
    if (policy === undefined) continue;
    const problem = policyFitError(
      policy,
      sessionToolsOf(scenario.value.config, run, policy.spec.backend ?? options.backend),
    );
    if (problem !== undefined) return err(problem);
  }
  return withTempWorkDir('redgreen-lint-', async (work) => {
    const rows: LintRow[] = [];
    const pre = await preCheckRows(scenario.value, work);
    if (!pre.ok) return pre;
    rows.push(...pre.value);
    const scores: CalibrationScore[] = [];
    for (const [index, run] of scenario.value.compiled.calibration.entries()) {
      const row = await calibrationRow(scenario.value, run, index, options.backend, work, keep);
      if (!row.ok) return row;
      rows.push(row.value.row);
      if (row.value.score !== undefined) scores.push(row.value.score);
    }
    if (scenario.value.compiled.calibration.length === 0) {
      rows.push({
        kind: 'calibration',
        subject: 'none',
        expected: 'a must-pass and a must-fail run',
        got: 'no calibration declared: nothing shows the checks can pass or fail (a scenario imported from an eval file is checked by `redgreen evals lint <skill-dir>`)',
        ok: false,
      });
    }
    return ok({
      scenario: scenario.value.id,
      file: scenario.value.compiled.file,
      backend: options.backend,
      rows,
      warnings: calibrationWarnings(scores),
      ok: rows.every((row) => row.ok),
      kept: keep,
    });
  });
}

/** The table `scenario lint` prints. */
export function formatLintReport(report: LintReport): string {
  const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\s+/g, ' ');
  const lines = [
    `scenario ${report.scenario} (${report.file}), calibration on the ${report.backend} backend, offline:`,
    '',
    '| Check | Subject | Expected | Got | OK |',
    '|---|---|---|---|---|',
    ...report.rows.map(
      (row) =>
        `| ${row.kind} | ${cell(row.subject)} | ${cell(row.expected)} | ${cell(row.got)} | ${row.ok ? 'yes' : 'NO'} |`,
    ),
    ...report.rows.flatMap((row) =>
      row.ok || row.why === undefined || row.why.length === 0
        ? []
        : ['', `${row.subject}:`, ...row.why.map((line) => `  - ${line.split('\n')[0]}`)],
    ),
    ...(report.warnings.length === 0
      ? []
      : ['', ...report.warnings.map((warning) => `warning: ${warning}`)]),
    ...(report.kept !== undefined
      ? [
          '',
          `the calibration sessions are kept in ${report.kept} (<n>-<policy>/reps/…: transcript.jsonl, reply.md, score.json; redgreen transcript reads a transcript)`,
        ]
      : report.ok
        ? []
        : ['', 'to see what each session did: rerun with --keep <new dir>']),
    '',
    report.ok
      ? `lint: ${report.scenario} is sound`
      : `lint: ${report.scenario} FAILS: ${report.rows.filter((row) => !row.ok).length} row(s) not as declared`,
  ];
  return `${lines.join('\n')}\n`;
}
