import path from 'node:path';
import { type CampaignRecord, readCampaignRecord } from '../campaign/campaign-record.js';
import { scheduledModelNames } from '../campaign/model-record.js';
import { type Judgement, readJudgement } from '../judge/judgement.js';
import { type Overrides, readOverrides } from '../judge/overrides.js';
import { readRegularText } from '../lib/contained-file.js';
import { describeError } from '../lib/describe-error.js';
import { type InputError, inputError } from '../lib/input-error.js';
import { readJson } from '../lib/read-json.js';
import { err, ok, type Result } from '../lib/result.js';
import { repDamage } from '../results/rep-health.js';
import { readJournal } from '../results/rep-journal.js';
import { type RepMeta, repMetaSchema } from '../results/rep-meta.js';
import { recordedRepDirProblem } from '../results/results-dir.js';
import { REP_FILES, type ResultsLayout, resultsLayout } from '../results/results-layout.js';
import { scheduleReps, shardOf } from '../schedule/schedule.js';
import {
  type RepScore,
  repScoreSchema,
  SCORE_SCHEMA_VERSION,
  scoreOfAnyVersionSchema,
} from '../score/score-rep.js';

/** One recorded rep (its newest attempt), as read back from disk. */
export interface RecordedRep {
  readonly id: string;
  readonly dir: string;
  readonly meta: RepMeta;
  readonly score: RepScore;
  readonly reply: string;
}

/** Everything the reports need from a results directory. */
export interface LoadedResults {
  readonly layout: ResultsLayout;
  readonly record: CampaignRecord;
  readonly reps: readonly RecordedRep[];
  /** Rep ids the campaign schedules (for this directory's shard, if any) that are not recorded. */
  readonly missing: readonly string[];
  readonly overrides: Overrides;
  /** Each judged rep's judge.json that counts (current, by the scenario's current judge), by rep id. */
  readonly judgements: ReadonlyMap<string, Judgement>;
  /** Scenarios with a judge block: each of their recorded reps is expected to be judged. */
  readonly judgedScenarios: ReadonlySet<string>;
  /** Stored judgements that do not count (stale, or by another judge), and why. */
  readonly judgementsSetAside: readonly { readonly id: string; readonly why: string }[];
  /** Reps whose judge.json exists but cannot be read (they count as not judged). */
  readonly judgementProblems: readonly { readonly id: string; readonly problem: string }[];
}

/** Whether a score.json was written by an older redgreen: stale, not damaged (a rescore rebuilds it). */
function isStaleScore(value: unknown): boolean {
  const version = scoreOfAnyVersionSchema.safeParse(value);
  return version.success && version.data.schemaVersion !== SCORE_SCHEMA_VERSION;
}

/** The schedule of reps a results directory should hold: the campaign's, or its shard's slice. */
export function scheduledIds(record: CampaignRecord): string[] {
  const schedule = scheduleReps(
    record.arms.map((arm) => arm.name),
    record.scenarios.map((scenario) => scenario.id),
    record.reps,
    scheduledModelNames(record),
  );
  return (record.shard === null ? schedule : shardOf(schedule, record.shard)).map((rep) => rep.id);
}

/**
 * Read a results directory back: campaign.json, ledger.jsonl (newest attempt
 * of each rep), each recorded rep's meta.json, score.json and reply, and
 * overrides.json. Every file is validated; a problem names the file.
 */
export async function loadResults(dir: string): Promise<Result<LoadedResults, InputError>> {
  const layout = resultsLayout(dir);
  const read = await readCampaignRecord(dir, dir);
  if (!read.ok) return read;
  const record = read.value;
  const journal = await readJournal(layout.journalFile);
  if (!journal.ok) {
    return err(
      inputError(
        layout.journalFile,
        journal.error.kind === 'missing'
          ? 'is missing'
          : `is corrupt at line ${journal.error.line}: ${journal.error.detail}`,
        'rerun the campaign',
      ),
    );
  }
  const overrides = await readOverrides(layout.overridesFile);
  if (!overrides.ok) return overrides;
  const reps: RecordedRep[] = [];
  const judgements = new Map<string, Judgement>();
  const judgementProblems: { id: string; problem: string }[] = [];
  const scheduled = scheduledIds(record);
  for (const id of scheduled) {
    const line = journal.value.reps.get(id);
    if (line === undefined) continue;
    const repDir = path.join(layout.root, line.dir);
    const tampered = await recordedRepDirProblem(layout.root, line);
    if (tampered !== undefined) return err(tampered);
    try {
      const meta = repMetaSchema.parse(await readJson(path.join(repDir, REP_FILES.meta)));
      const scoreJson = await readJson(path.join(repDir, REP_FILES.score));
      if (isStaleScore(scoreJson)) {
        return err(
          inputError(
            repDir,
            'its score.json was written by an older redgreen (before checks)',
            `run \`redgreen score ${layout.root}\` to rescore the directory from the reps' files`,
          ),
        );
      }
      const score = repScoreSchema.parse(scoreJson);
      // ledger.jsonl recorded the verdict when the rep landed (and `redgreen score` records
      // each one it changes): a score.json that says otherwise was changed behind its back.
      if (score.verdict !== line.verdict) {
        return err(
          inputError(
            repDir,
            `its score.json says ${score.verdict} but ledger.jsonl recorded ${line.verdict}: the rep's files were changed after it was recorded`,
            `rebuild score.json from the rep's files with \`redgreen score ${layout.root}\` (it records the verdict it gives), or restore the directory as the run wrote it`,
          ),
        );
      }
      const reply = await readRegularText(path.join(repDir, REP_FILES.reply));
      reps.push({ id, dir: repDir, meta, score, reply });
      const judgement = await readJudgement(repDir);
      if (judgement instanceof Error) judgementProblems.push({ id, problem: judgement.message });
      else if (judgement !== undefined) judgements.set(id, judgement);
    } catch (error) {
      return err(await unreadableRep(repDir, layout.root, describeError(error)));
    }
  }
  for (const id of Object.keys(overrides.value)) {
    if (!scheduled.includes(id)) {
      return err(
        inputError(
          layout.overridesFile,
          `overrides "${id}", which is not a rep of this run`,
          'fix the rep id',
        ),
      );
    }
  }
  const recorded = new Set(reps.map((rep) => rep.id));
  const { judgingScope } = await import('../judge/judging-scope.js');
  const scope = await judgingScope(
    record,
    reps.map((rep) => ({ id: rep.id, scenario: rep.meta.scenario })),
    judgements,
  );
  return ok({
    layout,
    record,
    reps,
    missing: scheduled.filter((id) => !recorded.has(id)),
    overrides: overrides.value,
    judgements: scope.judgements,
    judgedScenarios: scope.judgedScenarios,
    judgementsSetAside: scope.setAside,
    judgementProblems,
  });
}

/**
 * The error for a recorded rep that cannot be read, with the way out that
 * works: a damaged score.json is rebuilt by `redgreen score` from the rep's
 * other files; any other damaged file means running the rep again, which
 * `--resume` does (keeping the damaged attempt).
 */
async function unreadableRep(repDir: string, root: string, detail: string): Promise<InputError> {
  const damage = await repDamage(repDir);
  const problem = damage === undefined ? `cannot be read (${detail})` : damage.problem;
  return damage?.file === REP_FILES.score
    ? inputError(repDir, problem, `rebuild it from the rep's files with \`redgreen score ${root}\``)
    : inputError(
        repDir,
        problem,
        `rerun that rep with \`redgreen run --resume ${root}\` (the damaged attempt is kept)`,
      );
}
