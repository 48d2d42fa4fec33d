/**
 * `redgreen judge <dir>`: judge every recorded rep of a finished results
 * directory whose scenario has a judge block. A rep whose judge.json is
 * current (same protocol, rubric, material and model) is left as it is
 * unless `refresh`; a rep whose judgement failed is asked again. Judgements
 * are asked a few at a time; once the priced cost reaches `maxCostUsd` no new
 * request is started (the rest are listed as left). Needs the results
 * directory's lock, which the caller holds.
 */
import pLimit from 'p-limit';
import { resolveRecordedScenarios } from '../campaign/recorded-scenarios.js';
import { JudgeBrains } from '../judge/judge-brains.js';
import {
  chooseJudgeModel,
  type JudgeModelChoice,
  preflightJudges,
  refuseUnpricedJudges,
} from '../judge/judge-model.js';
import { judgeRepDirectory } from '../judge/judge-rep-dir.js';
import { type Judgement, readJudgement } from '../judge/judgement.js';
import { newestJudgement } from '../judge/judging-scope.js';
import { type InputError, inputError } from '../lib/input-error.js';
import { err, ok, type Result } from '../lib/result.js';
import { loadResults } from '../report/load-results.js';
import { resultsLayout } from '../results/results-layout.js';
import { rescoreResults } from '../run/rescore.js';
import { scenarioHasJudgedChecks } from '../run/score-rep-dir.js';
import { credentialValues } from '../sandbox/credentials.js';
import type { JudgeSpec } from '../score/judge-spec.js';
import { SecretRedactor } from '../session/secret-redactor.js';

export interface JudgeResultsOptions {
  readonly dir: string;
  readonly refresh: boolean;
  /**
   * `--model`: one judge for every scenario; undefined: the directory's
   * current judge of each scenario (the judge of its newest judgement), or
   * the scenario's own when none judged it yet (or with `refresh`).
   */
  readonly model: string | undefined;
  readonly maxCostUsd: number | null;
  readonly concurrency: number;
  readonly env: NodeJS.ProcessEnv;
  /** Called as each rep is judged (not for reps whose judgement is current). */
  readonly onJudged?: (id: string, judgement: Judgement) => void;
}

export interface JudgeResultsSummary {
  /** Reps asked this time. */
  readonly judged: number;
  /** Reps whose stored judgement was current. */
  readonly current: number;
  /** Of those asked, judgements that could not be had (API errors after retries). */
  readonly errors: number;
  /** Reps not asked because --max-cost was reached. */
  readonly left: readonly string[];
  /** Scenarios of the run without a judge block: their reps are not judged. */
  readonly unjudgedScenarios: readonly string[];
  readonly judges: readonly string[];
  /** Priced cost of this time's requests; null when none was priced. */
  readonly costUsd: number | null;
}

/**
 * The current judge of each scenario that has judgements: the model of its
 * newest one, read from every stored judge.json (stale ones too: a rubric
 * change leaves the judge as it was).
 */
async function currentJudges(
  reps: readonly { readonly dir: string; readonly meta: { readonly scenario: string } }[],
): Promise<Map<string, string>> {
  const byScenario = new Map<string, Judgement[]>();
  for (const rep of reps) {
    const judgement = await readJudgement(rep.dir);
    if (judgement === undefined || judgement instanceof Error) continue;
    byScenario.set(rep.meta.scenario, [...(byScenario.get(rep.meta.scenario) ?? []), judgement]);
  }
  const judges = new Map<string, string>();
  for (const [scenario, judgements] of byScenario) {
    const newest = newestJudgement(judgements);
    if (newest !== undefined) judges.set(scenario, newest.model.requested);
  }
  return judges;
}

export async function judgeResults(
  options: JudgeResultsOptions,
): Promise<Result<JudgeResultsSummary, InputError>> {
  const loaded = await loadResults(options.dir);
  if (!loaded.ok) return loaded;
  const { record, reps } = loaded.value;
  const scenarios = await resolveRecordedScenarios(record);
  if (!scenarios.ok) return scenarios;
  const specs = new Map<string, { spec: JudgeSpec; choice: JudgeModelChoice }>();
  const unjudgedScenarios: string[] = [];
  const currentJudge =
    options.model === undefined && !options.refresh
      ? await currentJudges(reps)
      : new Map<string, string>();
  for (const [id, scenario] of scenarios.value) {
    const spec = scenario.config.judge;
    if (spec === undefined) {
      unjudgedScenarios.push(id);
      continue;
    }
    const choice = chooseJudgeModel({
      requested: options.model ?? currentJudge.get(id),
      ...(options.model === undefined && currentJudge.has(id)
        ? {
            requestedBy: `the current judge of ${id} in ${options.dir} (give --model to replace it)`,
          }
        : {}),
      spec,
      runScripted: record.model.scripted,
      env: options.env,
      scenarioFile: scenario.compiled.file,
    });
    if (!choice.ok) return choice;
    specs.set(id, { spec, choice: choice.value });
  }
  if (specs.size === 0) {
    return err(
      inputError(
        options.dir,
        `no scenario of this run (${[...scenarios.value.keys()].join(', ')}) has a judge block`,
        'add a "judge" block to a scenario file (README: Second opinions and adjudication), then judge again',
      ),
    );
  }

  const priced = refuseUnpricedJudges(
    [...specs.values()].map((entry) => entry.choice),
    options.maxCostUsd,
  );
  if (!priced.ok) return priced;
  const reachable = await preflightJudges(
    [...specs.values()].map((entry) => entry.choice),
    options.env,
  );
  if (!reachable.ok) return reachable;
  const layout = resultsLayout(options.dir);
  const brains = new JudgeBrains(options.env, record.seed);
  // Every credential redgreen knows of, as in a rep's files.
  const redactor = new SecretRedactor(credentialValues(options.env));
  const limit = pLimit(options.concurrency);
  let spent: number | null = null;
  let judged = 0;
  let current = 0;
  let errors = 0;
  const left: string[] = [];
  try {
    await Promise.all(
      reps.map((rep) =>
        limit(async () => {
          const entry = specs.get(rep.meta.scenario);
          if (entry === undefined) return;
          if (options.maxCostUsd !== null && spent !== null && spent >= options.maxCostUsd) {
            left.push(rep.id);
            return;
          }
          const brain = await brains.brainFor(entry.choice);
          const outcome = await judgeRepDirectory(
            {
              id: rep.id,
              dir: rep.dir,
              skillDir: layout.skillDir(rep.meta.arm),
              score: rep.score,
            },
            { spec: entry.spec, ...brain, redactor, refresh: options.refresh },
          );
          if (outcome.kind === 'current') {
            current += 1;
            return;
          }
          judged += 1;
          if (outcome.judgement.status === 'error') errors += 1;
          if (outcome.judgement.costUsd !== null) spent = (spent ?? 0) + outcome.judgement.costUsd;
          options.onJudged?.(rep.id, outcome.judgement);
        }),
      ),
    );
  } finally {
    await brains.close();
  }
  // Checks only the judge decides (`judged`) read judge.json: those reps are scored again.
  if (judged > 0 && [...scenarios.value.values()].some(scenarioHasJudgedChecks)) {
    const rescored = await rescoreResults(options.dir);
    if (!rescored.ok) return rescored;
  }
  return ok({
    judged,
    current,
    errors,
    left: reps.map((rep) => rep.id).filter((id) => left.includes(id)),
    unjudgedScenarios,
    judges: [...new Set([...specs.values()].map((entry) => entry.choice.id))],
    costUsd: spent,
  });
}
