import path from 'node:path';
import {
  type CampaignRecord,
  campaignRecordSchema,
  readCampaignRecord,
} from '../campaign/campaign-record.js';
import { resolveRecordedScenarios } from '../campaign/recorded-scenarios.js';
import { isShippedScenario } from '../campaign/scenario-entry.js';
import type { FixtureFingerprint } from '../fixture/index.js';
import { writeFileAtomic } from '../lib/atomic-write.js';
import { readRegularText } from '../lib/contained-file.js';
import { type InputError, inputError } from '../lib/input-error.js';
import { readJson } from '../lib/read-json.js';
import { err, ok, type Result } from '../lib/result.js';
import { scheduledIds } from '../report/load-results.js';
import { repDamage } from '../results/rep-health.js';
import { appendRepLine, type JournalRepLine, readJournal } from '../results/rep-journal.js';
import { type RepMeta, repMetaSchema } from '../results/rep-meta.js';
import { recordedRepDirProblem } from '../results/results-dir.js';
import { REP_FILES, resultsLayout } from '../results/results-layout.js';
import { refreshedSeatCounts } from '../results/seat-counts.js';
import type { ResolvedScenario } from '../scenario/resolve-scenario.js';
import { combinedIdentity } from '../scenario/scenario-identity.js';
import { type RepScore, scoreOfAnyVersionSchema } from '../score/score-rep.js';
import { variantKey } from './rep-runner.js';
import { scoreRepDirectories } from './score-rep-dir.js';

/** A scenario a rescore read: its file, its hash, and the hash the directory recorded before. */
export interface RescoredScenario {
  readonly id: string;
  readonly file: string;
  readonly sha256: string;
  /** The hash the directory's reps were scored with before (absent in a directory from before scenario identity). */
  readonly recorded: string | undefined;
}

export interface RescoreSummary {
  readonly rescored: number;
  /** Each scenario as read for this rescore, in the campaign's order. */
  readonly scenarios: readonly RescoredScenario[];
  /** When the reps were rescored (ISO 8601 UTC), as each score.json records it. */
  readonly at: string;
  /** Reps whose verdict changed: id, before, after (`unreadable` when the old score.json was damaged). */
  readonly changed: readonly { id: string; before: string; after: string }[];
  /** Recorded reps whose files could not be scored (missing or unreadable), with the problem. */
  readonly unscorable: readonly { id: string; problem: string }[];
}

/** The verdict a rep's score.json holds, whatever redgreen wrote it; `unreadable` when it is damaged. */
async function oldVerdict(repDir: string): Promise<string> {
  try {
    return scoreOfAnyVersionSchema.parse(await readJson(path.join(repDir, REP_FILES.score)))
      .verdict;
  } catch {
    return 'unreadable';
  }
}

/**
 * A rep's meta.json as written, with `seats` (the per-seat tool counts) read
 * again from its kept transcript; undefined when they already agree or the
 * transcript cannot be read. Only `seats` changes: the rest of the file is
 * kept as it is.
 */
async function metaWithSeats(
  repDir: string,
  meta: RepMeta,
): Promise<{ file: string; meta: unknown } | undefined> {
  let transcript: string;
  try {
    transcript = await readRegularText(path.join(repDir, REP_FILES.transcript));
  } catch {
    return undefined;
  }
  const seats = refreshedSeatCounts(meta.seats, transcript);
  if (seats === undefined) return undefined;
  const file = path.join(repDir, REP_FILES.meta);
  const raw = (await readJson(file)) as Record<string, unknown>;
  return { file, meta: { ...raw, seats } };
}

/**
 * Score every recorded rep of a results directory again from its files
 * (reply, transcript, snapshots, captured files, command outcomes, meta),
 * with the scenarios' current scenario files, and rewrite each score.json
 * (atomically); a damaged score.json, or one an older redgreen wrote, is
 * rebuilt the same way, and meta.json's per-seat tool counts are read again
 * from the transcript (added to files written before they existed). Reps whose other files are missing or unreadable
 * cannot be scored: they are listed, left as they are, and only a rerun
 * (`run --resume`) repairs them. Needs no model. The journal gets a line for
 * each rep whose verdict the rescore changed (the same attempt, the new
 * verdict, `rescored: true`), which supersedes the rep's earlier line.
 */
export async function rescoreResults(dir: string): Promise<Result<RescoreSummary, InputError>> {
  const read = await readCampaignRecord(dir, dir);
  if (!read.ok) return read;
  const record = read.value;
  const layout = resultsLayout(dir);
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
  const specs = await resolveRecordedScenarios(record);
  if (!specs.ok) return specs;
  const at = new Date().toISOString();

  const scheduled = scheduledIds(record);
  const unscorable: { id: string; problem: string }[] = [];
  const jobs: {
    id: string;
    dir: string;
    line: JournalRepLine;
    scenario: ResolvedScenario;
    fixture: FixtureFingerprint;
  }[] = [];
  for (const id of scheduled) {
    const line = journal.value.reps.get(id);
    if (line === undefined) continue;
    const tampered = await recordedRepDirProblem(layout.root, line);
    if (tampered !== undefined) return err(tampered);
    const repDir = path.join(layout.root, line.dir);
    let meta: RepMeta;
    try {
      meta = repMetaSchema.parse(await readJson(path.join(repDir, REP_FILES.meta)));
    } catch {
      const damage = await repDamage(repDir);
      unscorable.push({ id, problem: damage?.problem ?? `${REP_FILES.meta} is unreadable` });
      continue;
    }
    const spec = specs.value.get(meta.scenario);
    const key = variantKey(meta.fixture, meta.fixture.layout);
    const fingerprint = record.fixtures[key];
    if (spec === undefined || fingerprint === undefined) {
      return err(
        inputError(
          repDir,
          `has no fixture fingerprint ${key} in campaign.json`,
          'rerun the campaign',
        ),
      );
    }
    jobs.push({ id, dir: repDir, line, scenario: spec, fixture: fingerprint });
  }

  const scored = await scoreRepDirectories(jobs);
  const changed: { id: string; before: string; after: string }[] = [];
  const rescored: { file: string; score: RepScore }[] = [];
  const relined: JournalRepLine[] = [];
  const metas: { file: string; meta: unknown }[] = [];
  for (const [index, job] of jobs.entries()) {
    const result = scored[index];
    if (result === undefined) throw new Error(`rep ${job.id} was not scored`);
    if (!result.ok) {
      const damage = await repDamage(job.dir);
      unscorable.push({ id: job.id, problem: damage?.problem ?? result.error.problem });
      continue;
    }
    const before = await oldVerdict(job.dir);
    if (result.value.score.verdict !== before) {
      changed.push({ id: job.id, before, after: result.value.score.verdict });
    }
    const score: RepScore = {
      ...result.value.score,
      scoredWith: { scenario: job.scenario.sha256, rescoredAt: at },
    };
    rescored.push({ file: path.join(job.dir, REP_FILES.score), score });
    if (result.value.score.verdict !== job.line.verdict)
      relined.push({ ...job.line, verdict: result.value.score.verdict, rescored: true });
    const meta = await metaWithSeats(job.dir, result.value.meta);
    if (meta !== undefined) metas.push(meta);
  }
  // Every scorable rep is scored before any file changes.
  for (const { file, score } of rescored) {
    await writeFileAtomic(file, `${JSON.stringify(score, null, 2)}\n`);
  }
  for (const { file, meta } of metas) {
    await writeFileAtomic(file, `${JSON.stringify(meta, null, 2)}\n`);
  }
  // The journal records each verdict the rescore changed, so readers cross-checking
  // score.json against it see the rescore, not a tampered file.
  for (const line of relined) await appendRepLine(layout.journalFile, line);
  const scenarios = record.scenarios.flatMap((entry): RescoredScenario[] => {
    const spec = specs.value.get(entry.id);
    return spec === undefined
      ? []
      : [{ id: entry.id, file: spec.compiled.file, sha256: spec.sha256, recorded: entry.sha256 }];
  });
  await writeFileAtomic(
    layout.campaignFile,
    `${JSON.stringify(rescoredRecord(record, journal.value.header.identity, specs.value), null, 2)}\n`,
  );
  unscorable.sort((a, b) => scheduled.indexOf(a.id) - scheduled.indexOf(b.id));
  return ok({ rescored: rescored.length, scenarios, at, changed, unscorable });
}

/**
 * campaign.json after a rescore: each scenario's hash and folder as read now,
 * and the campaign identity over them (a directory from before scenario
 * identity gains its session identity: its journal's first line).
 */
function rescoredRecord(
  record: CampaignRecord,
  journalIdentity: string,
  specs: ReadonlyMap<string, ResolvedScenario>,
): CampaignRecord {
  const session = record.sessionIdentity ?? journalIdentity;
  const scenarios = record.scenarios.map((entry) => {
    const spec = specs.get(entry.id);
    return spec === undefined
      ? entry
      : {
          ...entry,
          sha256: spec.sha256,
          dir: spec.compiled.dir,
          shipped: isShippedScenario(spec.compiled.dir),
        };
  });
  const hashed = scenarios.flatMap((entry) =>
    entry.sha256 === undefined ? [] : [{ id: entry.id, sha256: entry.sha256 }],
  );
  return campaignRecordSchema().parse({
    ...record,
    sessionIdentity: session,
    identity:
      hashed.length === scenarios.length ? combinedIdentity(session, hashed) : record.identity,
    scenarios,
  });
}
