/**
 * Score one rep from what the runner wrote to its directory — reply,
 * transcript, snapshots, captured files, command outcomes, meta — and
 * nothing else. The runner and `redgreen score` both use this, so a rescore
 * equals the original score. Files an older redgreen did not write (captured
 * files, command outcomes) are simply missing evidence: the checks that read
 * them are not assessed.
 */

import path from 'node:path';
import pLimit from 'p-limit';
import { snapshotSchema } from '../fixture/index.js';
import { readJudgement } from '../judge/judgement.js';
import { rubricHash } from '../judge/prompt.js';
import { readRegularText } from '../lib/contained-file.js';
import { describeError } from '../lib/describe-error.js';
import type { InputError } from '../lib/input-error.js';
import { inputError } from '../lib/input-error.js';
import { readJson } from '../lib/read-json.js';
import { err, ok, type Result } from '../lib/result.js';
import { type RepMeta, repMetaSchema } from '../results/rep-meta.js';
import { REP_FILES } from '../results/results-layout.js';
import { skillDirOfPrompt } from '../scenario/prompt-skill-dir.js';
import {
  type BuiltFixture,
  type ResolvedScenario,
  scenarioFacts,
} from '../scenario/resolve-scenario.js';
import { leavesOf } from '../score/check-schema.js';
import {
  capturedFilesSchema,
  commandRecordSchema,
  type JudgementEvidence,
} from '../score/evidence.js';
import { parseReplyFile } from '../score/reply-file.js';
import { type RepScore, scoreRep } from '../score/score-rep.js';
import { readTranscript } from '../score/transcripts/claude-messages.js';
import { readQuestions } from '../score/user-question-record.js';
import { JUDGED_VERB } from '../score/verbs/judged.js';

async function optionalJson<T>(file: string, parse: (value: unknown) => T): Promise<T | undefined> {
  let text: string;
  try {
    text = await readRegularText(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  return parse(JSON.parse(text));
}

export async function scoreRepDirectory(
  repDir: string,
  scenario: ResolvedScenario,
  fixture: BuiltFixture,
): Promise<Result<{ score: RepScore; meta: RepMeta }, InputError>> {
  try {
    const meta = repMetaSchema.parse(await readJson(path.join(repDir, REP_FILES.meta)));
    const before = snapshotSchema.parse(
      await readJson(path.join(repDir, REP_FILES.snapshotBefore)),
    );
    const after = snapshotSchema.parse(await readJson(path.join(repDir, REP_FILES.snapshotAfter)));
    const reply = parseReplyFile(await readRegularText(path.join(repDir, REP_FILES.reply))).reply;
    const transcriptText = await readRegularText(path.join(repDir, REP_FILES.transcript));
    const transcript = readTranscript(transcriptText);
    const questions = readQuestions(transcriptText);
    const filesBefore = await optionalJson(path.join(repDir, REP_FILES.filesBefore), (v) =>
      capturedFilesSchema.parse(v),
    );
    const filesAfter = await optionalJson(path.join(repDir, REP_FILES.filesAfter), (v) =>
      capturedFilesSchema.parse(v),
    );
    const commands = await optionalJson(path.join(repDir, REP_FILES.commands), (v) =>
      commandRecordSchema.parse(v),
    );
    const prompt = await readRegularText(path.join(repDir, REP_FILES.prompt)).catch(() => '');
    const judgement = await judgementEvidence(repDir, scenario);
    const facts = scenarioFacts(scenario, fixture);
    if (!facts.ok) return facts;
    const score = scoreRep({
      scenario: scenario.compiled,
      facts: facts.value,
      inputs: {
        reply,
        toolCalls: transcript.toolCalls,
        sessionModel: meta.model.reported,
        repoDir: transcript.cwd ?? null,
        skillDir: skillDirOfPrompt(scenario.prompt, prompt) ?? null,
        transcriptPartial: transcript.malformed.length + questions.malformed.length > 0,
        questions: questions.questions,
        turns: questions.turns,
        before,
        after,
        filesBefore: filesBefore?.files,
        filesAfter: filesAfter?.files,
        commands: commands?.commands,
        judgement,
      },
      runner: meta.status,
    });
    return ok({ score: { ...score, scoredWith: { scenario: scenario.sha256 } }, meta });
  } catch (error) {
    return err(
      inputError(
        repDir,
        `cannot be scored (${describeError(error)})`,
        'rerun that rep (--resume reruns reps that are missing or incomplete)',
      ),
    );
  }
}

/**
 * The rep's judgement as evidence for the checks a judge decides (`judged`):
 * only when the scenario has such a check, and only a judgement that was had
 * and fits the scenario's rubric as it is now (an answer on another rubric
 * is no answer on this one). A judge.json that cannot be read is no evidence.
 */
async function judgementEvidence(
  repDir: string,
  scenario: ResolvedScenario,
): Promise<JudgementEvidence | undefined> {
  const spec = scenario.config.judge;
  if (spec === undefined || !scenarioHasJudgedChecks(scenario)) return undefined;
  const stored = await readJudgement(repDir);
  if (stored === undefined || stored instanceof Error || stored.status !== 'judged')
    return undefined;
  if (stored.rubricHash !== rubricHash(spec)) return undefined;
  return {
    model: stored.model.requested,
    items: Object.fromEntries(
      stored.items.map((item) => [item.id, { verdict: item.verdict, quote: item.quote }]),
    ),
  };
}

/** Whether any check of the scenario is decided by its judge (a `judged` leaf). */
export function scenarioHasJudgedChecks(scenario: Pick<ResolvedScenario, 'compiled'>): boolean {
  return [...scenario.compiled.pre, ...scenario.compiled.post]
    .flatMap(leavesOf)
    .some((leaf) => leaf.verb === JUDGED_VERB);
}

/** How many reps a rescore reads at once: it waits on the disk far more than it computes. */
const RESCORE_CONCURRENCY = 8;

/**
 * Score many rep directories, a few at a time: each rep's own result, in the
 * input order (a rep that cannot be scored does not hide the others).
 */
export function scoreRepDirectories(
  reps: readonly {
    readonly dir: string;
    readonly scenario: ResolvedScenario;
    readonly fixture: BuiltFixture;
  }[],
): Promise<Result<{ score: RepScore; meta: RepMeta }, InputError>[]> {
  const limit = pLimit(RESCORE_CONCURRENCY);
  return Promise.all(
    reps.map((rep) => limit(() => scoreRepDirectory(rep.dir, rep.scenario, rep.fixture))),
  );
}
