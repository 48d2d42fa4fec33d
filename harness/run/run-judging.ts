/**
 * `redgreen run --judge`: each rep is judged as soon as it has landed, by the
 * judge of its scenario (or `--judge-model`), and the judgement's priced cost
 * counts toward `--max-cost` like the session's. An offline run's judge is a
 * scripted judge on the run's own local model server. The choices are checked
 * before anything is built (chooseRunJudges), so a judge that cannot be used
 * is bad input, not a run of unjudged reps.
 */
import path from 'node:path';
import { compareRep, type RepComparison } from '../judge/agreement.js';
import { JudgeBrains } from '../judge/judge-brains.js';
import {
  chooseJudgeModel,
  type JudgeModelChoice,
  preflightJudges,
  refuseUnpricedJudges,
} from '../judge/judge-model.js';
import { judgeRepDirectory } from '../judge/judge-rep-dir.js';
import type { Judgement } from '../judge/judgement.js';
import { writeFileAtomic } from '../lib/atomic-write.js';
import { type InputError, inputError } from '../lib/input-error.js';
import { err, ok, type Result } from '../lib/result.js';
import { REP_FILES } from '../results/results-layout.js';
import { credentialValues } from '../sandbox/credentials.js';
import type { BuiltFixture, ResolvedScenario } from '../scenario/resolve-scenario.js';
import type { JudgeSpec } from '../score/judge-spec.js';
import type { RepScore } from '../score/score-rep.js';
import { SecretRedactor } from '../session/secret-redactor.js';
import { scenarioHasJudgedChecks, scoreRepDirectory } from './score-rep-dir.js';

export interface RunJudgeChoices {
  readonly byScenario: ReadonlyMap<
    string,
    { spec: JudgeSpec; choice: JudgeModelChoice; scenario?: ResolvedScenario | undefined }
  >;
}

/** Reach every live judge of the run once (see preflightJudges). */
export function preflightRunJudging(
  judges: RunJudgeChoices,
  env: NodeJS.ProcessEnv,
): Promise<Result<string[], InputError>> {
  return preflightJudges(
    [...judges.byScenario.values()].map((entry) => entry.choice),
    env,
  );
}

/** Check every judged scenario's judge can be used; none judged is bad input too. */
export function chooseRunJudges(options: {
  readonly scenarios: readonly ResolvedScenario[];
  readonly requested: string | undefined;
  readonly runScripted: boolean;
  readonly env: NodeJS.ProcessEnv;
  /** The run's --max-cost: a live judge without a price is then refused. */
  readonly maxCostUsd?: number | null;
}): Result<RunJudgeChoices, InputError> {
  const byScenario = new Map<
    string,
    { spec: JudgeSpec; choice: JudgeModelChoice; scenario: ResolvedScenario }
  >();
  for (const scenario of options.scenarios) {
    const spec = scenario.config.judge;
    if (spec === undefined) continue;
    const choice = chooseJudgeModel({
      requested: options.requested,
      spec,
      runScripted: options.runScripted,
      env: options.env,
      scenarioFile: scenario.compiled.file,
    });
    if (!choice.ok) return choice;
    byScenario.set(scenario.id, { spec, choice: choice.value, scenario });
  }
  if (byScenario.size === 0) {
    return err(
      inputError(
        '--judge',
        `no scenario of the campaign (${options.scenarios.map((scenario) => scenario.id).join(', ')}) has a judge block`,
        'add a "judge" block to a scenario file (README: Second opinions and adjudication), or run without --judge',
      ),
    );
  }
  const priced = refuseUnpricedJudges(
    [...byScenario.values()].map((entry) => entry.choice),
    options.maxCostUsd ?? null,
  );
  if (!priced.ok) return priced;
  return ok({ byScenario });
}

export interface RunJudging {
  /**
   * Judge one landed rep; undefined when its scenario has no judge block. A
   * scenario with checks only the judge decides (`judged`) is scored again
   * once judged (score.json rewritten): `score` is then its verdict.
   */
  judge(rep: {
    readonly id: string;
    readonly scenario: string;
    readonly arm: string;
    readonly dir: string;
    readonly score: RepScore;
    /** The rep's fixture, for scoring it again. */
    readonly fixture: BuiltFixture;
    /** The run's abort signal: a second Ctrl-C stops a judgement in flight too. */
    readonly signal?: AbortSignal | undefined;
  }): Promise<{ judgement: Judgement; comparison: RepComparison; score: RepScore } | undefined>;
  /** Whether the judge decides part of this scenario's verdict (it has `judged` checks). */
  decidesVerdict(scenario: string): boolean;
  close(): Promise<void>;
}

export function startRunJudging(
  judges: RunJudgeChoices,
  options: {
    readonly env: NodeJS.ProcessEnv;
    readonly seed: number;
    /** The run's local model server, for scripted judges. */
    readonly localUrl: string | undefined;
    /** Where the arms' skill copies are (the results directory's `skills/<arm>`). */
    readonly skillDir: (arm: string) => string;
  },
): RunJudging {
  const brains = new JudgeBrains(options.env, options.seed, options.localUrl);
  // Every credential redgreen knows of, as in a rep's files.
  const redactor = new SecretRedactor(credentialValues(options.env));
  return {
    async judge(rep) {
      const entry = judges.byScenario.get(rep.scenario);
      if (entry === undefined) return undefined;
      const brain = await brains.brainFor(entry.choice);
      const outcome = await judgeRepDirectory(
        {
          id: rep.id,
          dir: path.resolve(rep.dir),
          skillDir: options.skillDir(rep.arm),
          score: rep.score,
        },
        { spec: entry.spec, ...brain, redactor, refresh: false, signal: rep.signal },
      );
      let score = rep.score;
      if (entry.scenario !== undefined && scenarioHasJudgedChecks(entry.scenario)) {
        const rescored = await scoreRepDirectory(
          path.resolve(rep.dir),
          entry.scenario,
          rep.fixture,
        );
        if (rescored.ok) {
          score = rescored.value.score;
          await writeFileAtomic(
            path.join(path.resolve(rep.dir), REP_FILES.score),
            `${JSON.stringify(score, null, 2)}\n`,
          );
        }
      }
      return {
        judgement: outcome.judgement,
        comparison: compareRep(score, outcome.judgement),
        score,
      };
    },
    decidesVerdict: (scenario) => {
      const entry = judges.byScenario.get(scenario);
      return entry?.scenario !== undefined && scenarioHasJudgedChecks(entry.scenario);
    },
    close: () => brains.close(),
  };
}
