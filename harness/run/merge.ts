import { existsSync } from 'node:fs';
import { cp, mkdir } from 'node:fs/promises';
import path from 'node:path';
import {
  type CampaignRecord,
  campaignRecordSchema,
  readCampaignRecord,
} from '../campaign/campaign-record.js';
import { scheduledModelNames } from '../campaign/model-record.js';
import { writeFileAtomic } from '../lib/atomic-write.js';
import { copyDataTree, irregularEntryIn } from '../lib/data-tree.js';
import { type InputError, inputError } from '../lib/input-error.js';
import { err, ok, type Result } from '../lib/result.js';
import {
  appendRepLine,
  createJournal,
  type JournalRepLine,
  readJournal,
} from '../results/rep-journal.js';
import { checkFreshOutput, recordedRepDirProblem } from '../results/results-dir.js';
import { resultsLayout } from '../results/results-layout.js';
import { scheduleReps } from '../schedule/schedule.js';

export interface MergeSummary {
  readonly outDir: string;
  readonly reps: number;
  readonly sources: number;
  /** When shards were merged without all of their siblings: a warning naming the missing ones. */
  readonly missingShards: string | null;
}

function listed(items: readonly string[]): string {
  return items.length <= 1
    ? (items[0] ?? '')
    : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** Which shards of an n-way split the merged directories leave out, as a warning. */
function missingShardsWarning(records: readonly CampaignRecord[]): string | null {
  const shards = records.map((record) => record.shard).filter((shard) => shard !== null);
  if (shards.length === 0) return null;
  const counts = [...new Set(shards.map((shard) => shard.count))];
  const count = Math.max(...counts);
  const present = new Set(shards.filter((shard) => shard.count === count).map((s) => s.index));
  const missing: string[] = [];
  for (let index = 1; index <= count; index += 1) {
    if (!present.has(index)) missing.push(`${index}/${count}`);
  }
  if (missing.length === 0 && counts.length === 1) return null;
  const merged = [...present].sort((a, b) => a - b).map((index) => `${index}/${count}`);
  return (
    `merged shards ${listed(merged)} of ${count}: ` +
    (missing.length > 0
      ? `shard${missing.length > 1 ? 's' : ''} ${listed(missing)} ${missing.length > 1 ? 'are' : 'is'} missing`
      : `shards of other splits (${counts.filter((c) => c !== count).join(', ')}) are mixed in`) +
    '; gate exits 2 until every shard is merged in'
  );
}

/** A rep directory's first symlink, FIFO or device, as an error: merging would hand it to every reader. */
async function irregularRepEntry(dir: string): Promise<InputError | undefined> {
  const found = await irregularEntryIn(dir);
  return found === undefined
    ? undefined
    : inputError(
        found.file,
        `is ${found.kind}, which no rep directory holds`,
        'restore the rep directory as the run wrote it, then merge again',
      );
}

/**
 * Combine results directories of the same campaign identity (typically the
 * shards of one CI run) into a new directory: every recorded rep copied with
 * all its attempts, one journal, campaign.json without a shard. Refuses
 * directories of another identity and reps recorded in more than one of them.
 */
export async function mergeResults(
  dirs: readonly string[],
  outDir: string,
): Promise<Result<MergeSummary, InputError>> {
  if (dirs.length === 0)
    return err(inputError('merge', 'no directories given', 'pass the shard directories to merge'));
  const out = resultsLayout(outDir);
  const fresh = await checkFreshOutput(out.root, '--out', false);
  if (!fresh.ok) return fresh;
  const records: CampaignRecord[] = [];
  const owners = new Map<string, { dir: string; line: JournalRepLine; lines: JournalRepLine[] }>();
  for (const dir of dirs) {
    const record = await readCampaignRecord(dir, dir);
    if (!record.ok) return record;
    const first = records[0];
    if (first !== undefined && record.value.identity !== first.identity) {
      return err(
        inputError(
          dir,
          `is a run of campaign identity ${record.value.identity.slice(0, 12)}, not ${first.identity.slice(0, 12)} like ${dirs[0]}`,
          'merge only shards of the same campaign, skill texts, model and fixtures',
        ),
      );
    }
    records.push(record.value);
    const journal = await readJournal(resultsLayout(dir).journalFile);
    if (!journal.ok) {
      return err(inputError(dir, 'has an unreadable ledger.jsonl', 'rerun that shard'));
    }
    for (const [id, line] of journal.value.reps) {
      const previous = owners.get(id);
      if (previous !== undefined) {
        return err(
          inputError(
            dir,
            `records rep ${id}, which ${previous.dir} records too`,
            'merge each shard once; shards of one run never overlap',
          ),
        );
      }
      owners.set(id, {
        dir,
        line,
        lines: journal.value.lines.filter((candidate) => candidate.id === id),
      });
    }
  }
  const record = records[0];
  if (record === undefined) throw new Error('no record after reading the directories');
  // Every rep directory is checked before anything is written: no half-merged output.
  for (const owner of owners.values()) {
    for (const line of owner.lines) {
      const root = resultsLayout(owner.dir).root;
      const problem =
        (await recordedRepDirProblem(root, line)) ??
        (existsSync(path.join(root, line.dir))
          ? await irregularRepEntry(path.join(root, line.dir))
          : undefined);
      if (problem !== undefined) return err(problem);
    }
  }

  await mkdir(out.repsDir, { recursive: true });
  await createJournal(out.journalFile, {
    type: 'campaign',
    identity: record.identity,
    campaign: record.campaign.id,
    harness: record.harnessVersion,
  });
  // Shards of one identity may have been run with different --reps: the merged schedule covers them all.
  const reps = Math.max(...records.map((candidate) => candidate.reps));
  const schedule = scheduleReps(
    record.arms.map((arm) => arm.name),
    record.scenarios.map((scenario) => scenario.id),
    reps,
    scheduledModelNames(record),
  );
  let copied = 0;
  for (const scheduled of schedule) {
    const owner = owners.get(scheduled.id);
    if (owner === undefined) continue;
    const source = resultsLayout(owner.dir);
    for (const line of owner.lines) {
      const from = path.join(source.root, line.dir);
      const to = path.join(out.root, line.dir);
      if (existsSync(from) && !existsSync(to)) await copyDataTree(from, to);
    }
    for (const line of owner.lines) await appendRepLine(out.journalFile, line);
    copied += 1;
  }
  const firstSource = resultsLayout(dirs[0] as string);
  if (existsSync(firstSource.skillsDir))
    await cp(firstSource.skillsDir, out.skillsDir, { recursive: true });
  const merged = campaignRecordSchema().parse({
    ...record,
    reps,
    shard: null,
    invocation: { ...record.invocation, reps, shard: null },
  });
  await writeFileAtomic(out.campaignFile, `${JSON.stringify(merged, null, 2)}\n`);
  const unplaced = [...owners.keys()].filter(
    (id) => !schedule.some((scheduled) => scheduled.id === id),
  );
  if (unplaced.length > 0) throw new Error(`merge left out recorded reps: ${unplaced.join(', ')}`);
  return ok({
    outDir: out.root,
    reps: copied,
    sources: dirs.length,
    missingShards: missingShardsWarning(records),
  });
}
