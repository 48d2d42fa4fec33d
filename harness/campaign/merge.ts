import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { writeFileAtomic } from '../lib/atomic-write.js';
import { describeError } from '../lib/describe-error.js';
import { type InputError, inputError } from '../lib/input-error.js';
import { err, ok, type Result } from '../lib/result.js';
import { appendRepLine, createLedger, type LedgerRepLine, readLedger } from './ledger.js';
import { planReps } from './plan.js';
import { type CampaignRecord, campaignRecordSchema } from './prepare-run.js';
import { resultsLayout } from './results-layout.js';

export interface MergeSummary {
  readonly outDir: string;
  readonly reps: number;
  readonly sources: number;
}

async function readRecord(dir: string): Promise<Result<CampaignRecord, InputError>> {
  const layout = resultsLayout(dir);
  if (!existsSync(layout.campaignFile) || !existsSync(layout.ledgerFile)) {
    return err(
      inputError(
        dir,
        'is not a redgreen results directory (no campaign.json and ledger.jsonl)',
        'pass directories `redgreen run` wrote',
      ),
    );
  }
  try {
    return ok(campaignRecordSchema.parse(JSON.parse(await readFile(layout.campaignFile, 'utf8'))));
  } catch (error) {
    return err(
      inputError(layout.campaignFile, `is not valid (${describeError(error)})`, 'rerun that shard'),
    );
  }
}

/**
 * Combine results directories of the same campaign identity (typically the
 * shards of one CI run) into a new directory: every recorded rep copied with
 * all its attempts, one ledger, campaign.json without a shard. Refuses
 * directories of another identity and reps recorded in more than one of them.
 */
export async function mergeResults(
  dirs: readonly string[],
  outDir: string,
): Promise<Result<MergeSummary, InputError>> {
  if (dirs.length === 0)
    return err(inputError('merge', 'no directories given', 'pass the shard directories to merge'));
  const out = resultsLayout(outDir);
  if (existsSync(out.root) && (await readdir(out.root)).length > 0) {
    return err(
      inputError(
        '--out',
        `${out.root} already exists and is not empty`,
        'merge into a new directory',
      ),
    );
  }
  const records: CampaignRecord[] = [];
  const owners = new Map<string, { dir: string; line: LedgerRepLine; lines: LedgerRepLine[] }>();
  for (const dir of dirs) {
    const record = await readRecord(dir);
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
    const ledger = await readLedger(resultsLayout(dir).ledgerFile);
    if (!ledger.ok) {
      return err(inputError(dir, 'has an unreadable ledger.jsonl', 'rerun that shard'));
    }
    for (const [id, line] of ledger.value.reps) {
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
        lines: ledger.value.lines.filter((candidate) => candidate.id === id),
      });
    }
  }
  const record = records[0];
  if (record === undefined) throw new Error('no record after reading the directories');

  await mkdir(out.repsDir, { recursive: true });
  await createLedger(out.ledgerFile, {
    type: 'campaign',
    identity: record.identity,
    campaign: record.campaign.id,
    harness: record.harnessVersion,
  });
  const plan = planReps(
    record.arms.map((arm) => arm.name),
    record.scenarios.map((scenario) => scenario.id),
    record.reps,
  );
  let copied = 0;
  for (const planned of plan) {
    const owner = owners.get(planned.id);
    if (owner === undefined) continue;
    const source = resultsLayout(owner.dir);
    for (const line of owner.lines) {
      const from = path.join(source.root, line.dir);
      const to = path.join(out.root, line.dir);
      if (existsSync(from) && !existsSync(to)) await cp(from, to, { recursive: true });
    }
    const attempts = path.join(source.repsDir, planned.arm);
    for (const entry of existsSync(attempts) ? await readdir(attempts) : []) {
      if (entry.startsWith(`${planned.scenario}-rep${planned.rep}.attempt`)) {
        await cp(path.join(attempts, entry), path.join(out.repsDir, planned.arm, entry), {
          recursive: true,
        });
      }
    }
    for (const line of owner.lines) await appendRepLine(out.ledgerFile, line);
    copied += 1;
  }
  const firstSource = resultsLayout(dirs[0] as string);
  if (existsSync(firstSource.skillsDir))
    await cp(firstSource.skillsDir, out.skillsDir, { recursive: true });
  await writeFileAtomic(
    out.campaignFile,
    `${JSON.stringify({ ...record, shard: null }, null, 2)}\n`,
  );
  return ok({ outDir: out.root, reps: copied, sources: dirs.length });
}
