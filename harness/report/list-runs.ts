import { existsSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { type CampaignRecord, readCampaignRecord } from '../campaign/campaign-record.js';
import { type InputError, inputError } from '../lib/input-error.js';
import { plural } from '../lib/plural.js';
import { err, ok, type Result } from '../lib/result.js';
import { readJournal } from '../results/rep-journal.js';
import { resultsLayout } from '../results/results-layout.js';
import { loadResults, scheduledIds } from './load-results.js';
import { subsetOf } from './subset.js';
import { summariseResults } from './summarise.js';

/**
 * `redgreen list [results-root]`: the runs under a results root (each
 * subdirectory; or the root itself when it is one run), newest first, with
 * campaign, arms, model, reps recorded of scheduled, and the gate outcome. A
 * directory that cannot be read whole is listed with what is wrong and with
 * whatever could be read; it never stops the listing.
 */
export const runListingSchema = z
  .object({
    /** The run's directory: the results root as given, joined with its name. */
    dir: z.string(),
    /** When the run started: campaign.json's modification time (else ledger.jsonl's, else the directory's), ISO 8601 UTC. */
    startedAt: z.string(),
    campaign: z.object({ id: z.string(), title: z.string() }).strict().nullable(),
    arms: z.array(z.object({ name: z.string(), role: z.enum(['red', 'green']) }).strict()),
    model: z.object({ id: z.string(), scripted: z.boolean() }).strict().nullable(),
    /** `k/n` when the directory is one shard of a campaign. */
    shard: z.string().nullable(),
    /** A subset run (`run --only`): its flags and how many of the campaign's gates it left out (null: not recorded); else null. */
    subset: z
      .object({ only: z.string(), droppedGates: z.number().int().nullable() })
      .strict()
      .nullable(),
    /** Reps in ledger.jsonl (of the schedule, when campaign.json is readable) and reps scheduled. */
    reps: z
      .object({ recorded: z.number().int().nullable(), planned: z.number().int().nullable() })
      .strict(),
    /** The gate decision, as `redgreen gate` would give it; null when the directory cannot be gated. */
    gate: z
      .object({
        outcome: z.enum(['pass', 'fail', 'undecided']),
        exitCode: z.union([z.literal(0), z.literal(1), z.literal(2)]),
      })
      .strict()
      .nullable(),
    /** `ok`: it reads whole; `damaged`: a run that cannot be read whole; `not-a-run`: neither campaign.json nor ledger.jsonl. */
    status: z.enum(['ok', 'damaged', 'not-a-run']),
    /** What is wrong with the directory, or null when it reads whole. */
    problem: z.string().nullable(),
  })
  .strict();
export type RunListing = z.infer<typeof runListingSchema>;

export const listJsonSchema = z
  .object({
    schemaVersion: z.literal(1),
    command: z.literal('list'),
    root: z.string(),
    runs: z.array(runListingSchema),
  })
  .strict();
export type ListJson = z.infer<typeof listJsonSchema>;

/** A problem as one phrase, naming files inside the run relative to it. */
function describe(error: InputError, dir: string): string {
  const relative = path.relative(path.resolve(dir), path.resolve(error.input));
  const input = relative === '' || relative.startsWith('..') ? error.input : relative;
  return `${input}: ${error.problem}`;
}

async function modified(file: string): Promise<Date | undefined> {
  try {
    return (await stat(file)).mtime;
  } catch {
    return undefined;
  }
}

/** Everything `list` says about one directory; never fails. */
async function listRun(dir: string): Promise<RunListing> {
  const layout = resultsLayout(dir);
  const started =
    (await modified(layout.campaignFile)) ??
    (await modified(layout.journalFile)) ??
    (await modified(dir)) ??
    new Date(0);
  const listing: RunListing = {
    dir,
    startedAt: started.toISOString(),
    campaign: null,
    arms: [],
    model: null,
    shard: null,
    subset: null,
    reps: { recorded: null, planned: null },
    gate: null,
    status: 'damaged',
    problem: null,
  };
  const hasCampaign = existsSync(layout.campaignFile);
  const journal = existsSync(layout.journalFile)
    ? await readJournal(layout.journalFile)
    : undefined;
  if (!hasCampaign && journal === undefined) {
    return {
      ...listing,
      status: 'not-a-run',
      problem: 'not a results directory (no campaign.json, no ledger.jsonl)',
    };
  }
  const journalIds = journal?.ok ? [...journal.value.reps.keys()] : undefined;
  const journalProblem =
    journal === undefined
      ? 'no ledger.jsonl: the record of finished reps is missing'
      : journal.ok
        ? null
        : journal.error.kind === 'missing'
          ? 'ledger.jsonl is missing'
          : `ledger.jsonl is corrupt at line ${journal.error.line}: ${journal.error.detail}`;
  if (!hasCampaign) {
    return {
      ...listing,
      reps: { recorded: journalIds?.length ?? null, planned: null },
      problem: journalProblem ?? "no campaign.json: the run's record is missing",
    };
  }
  const record = await readCampaignRecord(dir, dir);
  if (!record.ok) {
    return {
      ...listing,
      reps: { recorded: journalIds?.length ?? null, planned: null },
      problem: describe(record.error, dir),
    };
  }
  const scheduled = scheduledIds(record.value);
  const described: RunListing = {
    ...listing,
    campaign: { id: record.value.campaign.id, title: record.value.campaign.title },
    arms: record.value.arms.map((arm) => ({ name: arm.name, role: arm.role })),
    model:
      record.value.models !== undefined && record.value.models.length > 1
        ? {
            id: record.value.models.map((model) => model.name).join(', '),
            scripted: record.value.models.every((model) => model.scripted),
          }
        : { id: record.value.model.id, scripted: record.value.model.scripted },
    shard:
      record.value.shard === null
        ? null
        : `${record.value.shard.index}/${record.value.shard.count}`,
    subset: subsetListing(record.value),
    reps: {
      recorded:
        journalIds === undefined ? null : scheduled.filter((id) => journalIds.includes(id)).length,
      planned: scheduled.length,
    },
  };
  if (journalProblem !== null) return { ...described, problem: journalProblem };
  const loaded = await loadResults(dir);
  if (!loaded.ok) return { ...described, problem: describe(loaded.error, dir) };
  const model = summariseResults(loaded.value);
  return {
    ...described,
    status: 'ok',
    reps: { recorded: model.recorded, planned: model.planned },
    gate: { outcome: model.gates.outcome, exitCode: model.gates.exitCode },
  };
}

/** What a listing says of a subset run. */
function subsetListing(record: CampaignRecord): RunListing['subset'] {
  const subset = subsetOf(record);
  return subset === null
    ? null
    : { only: subset.only, droppedGates: subset.droppedGates?.length ?? null };
}

/** The runs under `root` (or `root` itself when it is a run), newest first. */
export async function listRuns(root: string): Promise<Result<ListJson, InputError>> {
  let entries: string[];
  try {
    if (!(await stat(root)).isDirectory()) {
      return err(
        inputError(
          root,
          'is not a directory',
          'pass the directory that holds your runs (default: results)',
        ),
      );
    }
    entries = await readdir(root);
  } catch {
    return err(
      inputError(
        root,
        'does not exist or cannot be read',
        'pass the directory that holds your runs (default: results)',
      ),
    );
  }
  const dirs: string[] = [];
  if (existsSync(resultsLayout(root).campaignFile)) {
    dirs.push(root);
  } else {
    for (const name of entries.sort()) {
      if (name.startsWith('.')) continue;
      const dir = path.join(root, name);
      if ((await stat(dir).catch(() => undefined))?.isDirectory()) dirs.push(dir);
    }
  }
  const runs = await Promise.all(dirs.map(listRun));
  runs.sort((a, b) => b.startedAt.localeCompare(a.startedAt) || a.dir.localeCompare(b.dir));
  return ok(listJsonSchema.parse({ schemaVersion: 1, command: 'list', root, runs }));
}

/** The listing as an aligned table, a problem on an indented line under its run. */
export function listTable(listing: ListJson): string {
  if (listing.runs.length === 0) return `no runs under ${listing.root}\n`;
  const header = ['started (UTC)', 'outcome', 'reps', 'campaign', 'model', 'arms', 'directory'];
  const rows = listing.runs.map((run) => [
    `${run.startedAt.slice(0, 10)} ${run.startedAt.slice(11, 16)}Z`,
    run.status === 'ok'
      ? `${run.gate?.outcome.toUpperCase() ?? '?'}${run.subset === null ? '' : ' (subset)'}`
      : run.status === 'damaged'
        ? 'DAMAGED'
        : 'NOT A RUN',
    `${run.reps.recorded ?? '?'}/${run.reps.planned ?? '?'}${run.shard === null ? '' : ` (shard ${run.shard})`}`,
    run.campaign?.id ?? '?',
    run.model?.id ?? '?',
    run.arms.length === 0 ? '?' : run.arms.map((arm) => arm.name).join(', '),
    run.dir,
  ]);
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, column) =>
        column === cells.length - 1 ? cell : cell.padEnd(widths[column] ?? 0),
      )
      .join('  ');
  const out = [line(header)];
  listing.runs.forEach((run, index) => {
    out.push(line(rows[index] ?? []));
    if (run.problem !== null) out.push(`    ${run.problem}`);
    if (run.subset !== null) {
      out.push(
        `    a subset (${run.subset.only}): ${run.subset.droppedGates === null ? 'the gates about the cells it leaves out' : plural(run.subset.droppedGates, 'gate')} not evaluated`,
      );
    }
  });
  return `${out.join('\n')}\n`;
}
