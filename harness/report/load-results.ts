import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { type CampaignRecord, readCampaignRecord } from '../campaign/campaign-record.js';
import { readLedger } from '../campaign/ledger.js';
import { planReps, shardOf } from '../campaign/plan.js';
import { type RepMeta, repMetaSchema } from '../campaign/rep-meta.js';
import { REP_FILES, type ResultsLayout, resultsLayout } from '../campaign/results-layout.js';
import { describeError } from '../lib/describe-error.js';
import { type InputError, inputError } from '../lib/input-error.js';
import { readJson } from '../lib/read-json.js';
import { err, ok, type Result } from '../lib/result.js';
import {
  type RepScore,
  repScoreSchema,
  SCORE_SCHEMA_VERSION,
  type Verdict,
  verdictSchema,
} from '../score/score-rep.js';
import { type Overrides, readOverrides } from './overrides.js';

/** One recorded rep (its newest attempt), as read back from disk, with its score read by `S`. */
export interface RecordedRepOf<S> {
  readonly id: string;
  readonly dir: string;
  readonly meta: RepMeta;
  readonly score: S;
  readonly reply: string;
}
export type RecordedRep = RecordedRepOf<RepScore>;

/** Everything the reports need from a results directory. */
export interface LoadedResultsOf<S> {
  readonly layout: ResultsLayout;
  readonly record: CampaignRecord;
  readonly reps: readonly RecordedRepOf<S>[];
  /** Rep ids the campaign plans (for this directory's shard, if any) that are not recorded. */
  readonly missing: readonly string[];
  readonly overrides: Overrides;
}
export type LoadedResults = LoadedResultsOf<RepScore>;

const anyScoreSchema = z.looseObject({
  verdict: verdictSchema,
  schemaVersion: z.number().optional(),
});

/** A score.json of the current format; an older one names the way to rescore it. */
function currentScore(value: unknown): RepScore {
  const version = anyScoreSchema.safeParse(value);
  if (version.success && version.data.schemaVersion !== SCORE_SCHEMA_VERSION) {
    throw new Error(
      'its score.json was written by an older redgreen (before checks): run `redgreen score <dir>` to rescore the directory',
    );
  }
  return repScoreSchema.parse(value);
}

/** Only the verdict of a score.json of any format (what a rescore compares). */
function anyVerdict(value: unknown): Verdict {
  return anyScoreSchema.parse(value).verdict;
}

/** The plan of reps a results directory should hold: the campaign's, or its shard's slice. */
export function plannedIds(record: CampaignRecord): string[] {
  const plan = planReps(
    record.arms.map((arm) => arm.name),
    record.scenarios.map((scenario) => scenario.id),
    record.reps,
  );
  return (record.shard === null ? plan : shardOf(plan, record.shard)).map((rep) => rep.id);
}

/**
 * Read a results directory back: campaign.json, the ledger (newest attempt
 * of each rep), each recorded rep's meta.json, score.json and reply, and
 * overrides.json. Every file is validated; a problem names the file.
 */
export function loadResults(dir: string): Promise<Result<LoadedResults, InputError>> {
  return loadResultsWith(dir, currentScore);
}

/** A results directory with each rep's scored verdict only, whatever format its score.json has. */
export function loadResultsForRescore(
  dir: string,
): Promise<Result<LoadedResultsOf<Verdict>, InputError>> {
  return loadResultsWith(dir, anyVerdict);
}

async function loadResultsWith<S>(
  dir: string,
  readScore: (value: unknown) => S,
): Promise<Result<LoadedResultsOf<S>, InputError>> {
  const layout = resultsLayout(dir);
  const read = await readCampaignRecord(dir, dir);
  if (!read.ok) return read;
  const record = read.value;
  const ledger = await readLedger(layout.ledgerFile);
  if (!ledger.ok) {
    return err(
      inputError(
        layout.ledgerFile,
        ledger.error.kind === 'missing'
          ? 'is missing'
          : `is corrupt at line ${ledger.error.line}: ${ledger.error.detail}`,
        'rerun the campaign',
      ),
    );
  }
  const overrides = await readOverrides(layout.overridesFile);
  if (!overrides.ok) return overrides;
  const reps: RecordedRepOf<S>[] = [];
  const planned = plannedIds(record);
  for (const id of planned) {
    const line = ledger.value.reps.get(id);
    if (line === undefined) continue;
    const repDir = path.join(layout.root, line.dir);
    try {
      const meta = repMetaSchema.parse(await readJson(path.join(repDir, REP_FILES.meta)));
      const score = readScore(await readJson(path.join(repDir, REP_FILES.score)));
      const reply = await readFile(path.join(repDir, REP_FILES.reply), 'utf8');
      reps.push({ id, dir: repDir, meta, score, reply });
    } catch (error) {
      return err(
        inputError(
          repDir,
          `cannot be read (${describeError(error)})`,
          'rescore it with `redgreen score`, or rerun it',
        ),
      );
    }
  }
  for (const id of Object.keys(overrides.value)) {
    if (!planned.includes(id)) {
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
  return ok({
    layout,
    record,
    reps,
    missing: planned.filter((id) => !recorded.has(id)),
    overrides: overrides.value,
  });
}
