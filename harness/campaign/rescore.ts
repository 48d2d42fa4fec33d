import { existsSync } from 'node:fs';
import path from 'node:path';
import type { FixtureFingerprint } from '../fixture/index.js';
import { writeFileAtomic } from '../lib/atomic-write.js';
import { readRegularText } from '../lib/contained-file.js';
import { type InputError, inputError } from '../lib/input-error.js';
import { packageRoot } from '../lib/package-root.js';
import { readJson } from '../lib/read-json.js';
import { err, ok, type Result } from '../lib/result.js';
import { plannedIds } from '../report/load-results.js';
import { scoreOfAnyVersionSchema } from '../score/score-rep.js';
import { readCampaignRecord } from './campaign-record.js';
import { appendRepLine, type LedgerRepLine, readLedger } from './ledger.js';
import { repDamage } from './rep-health.js';
import { type RepMeta, repMetaSchema } from './rep-meta.js';
import { variantKey } from './rep-runner.js';
import { type ResolvedScenario, resolveScenarioIn } from './resolve-scenario.js';
import { recordedRepDirProblem } from './results-dir.js';
import { REP_FILES, resultsLayout } from './results-layout.js';
import { scenarioFoldersByPath } from './scenario-entry.js';
import { scoreRepDirectories } from './score-rep-dir.js';
import { refreshedSeatCounts } from './seat-counts.js';

export interface RescoreSummary {
  readonly rescored: number;
  /** Reps whose verdict changed: id, before, after (`unreadable` when the old score.json was damaged). */
  readonly changed: readonly { id: string; before: string; after: string }[];
  /** Recorded reps whose files could not be scored (missing or unreadable), with the problem. */
  readonly unscorable: readonly { id: string; problem: string }[];
}

function scenarioDirs(campaignFile: string): string[] {
  return [path.dirname(campaignFile), path.join(packageRoot(), 'scenarios')];
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

/** The scenario of each id the campaign ran, resolved from the campaign's folder or redgreen's own. */
export async function resolveScenarios(
  ids: readonly string[],
  campaignFile: string,
): Promise<Result<Map<string, ResolvedScenario>, InputError>> {
  const specs = new Map<string, ResolvedScenario>();
  for (const id of ids) {
    let found: ResolvedScenario | undefined;
    let lastError: InputError | undefined;
    const candidates = [
      ...scenarioDirs(campaignFile).map((scenariosDir) => path.join(scenariosDir, id)),
      ...scenarioFoldersByPath(campaignFile).filter((dir) => path.basename(dir) === id),
    ];
    for (const scenarioDir of candidates) {
      if (!existsSync(scenarioDir)) continue;
      const resolved = await resolveScenarioIn(scenarioDir);
      if (resolved.ok) {
        found = resolved.value;
        break;
      }
      lastError = resolved.error;
    }
    if (found === undefined) {
      return err(
        lastError ?? inputError(id, 'has no scenario folder', 'add scenarios/<id>/scenario.json'),
      );
    }
    specs.set(id, found);
  }
  return ok(specs);
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
 * (`run --resume`) repairs them. Needs no model. The ledger gets a line for
 * each rep whose verdict the rescore changed (the same attempt, the new
 * verdict, `rescored: true`), which supersedes the rep's earlier line.
 */
export async function rescoreResults(dir: string): Promise<Result<RescoreSummary, InputError>> {
  const read = await readCampaignRecord(dir, dir);
  if (!read.ok) return read;
  const record = read.value;
  const layout = resultsLayout(dir);
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
  const specs = await resolveScenarios(
    record.scenarios.map((scenario) => scenario.id),
    record.campaign.file,
  );
  if (!specs.ok) return specs;

  const planned = plannedIds(record);
  const unscorable: { id: string; problem: string }[] = [];
  const jobs: {
    id: string;
    dir: string;
    line: LedgerRepLine;
    scenario: ResolvedScenario;
    fixture: FixtureFingerprint;
  }[] = [];
  for (const id of planned) {
    const line = ledger.value.reps.get(id);
    if (line === undefined) continue;
    const repDir = path.join(layout.root, line.dir);
    const tampered = await recordedRepDirProblem(layout.root, line);
    if (tampered !== undefined) return err(tampered);
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
  const rescored: { file: string; score: unknown }[] = [];
  const relined: LedgerRepLine[] = [];
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
    rescored.push({ file: path.join(job.dir, REP_FILES.score), score: result.value.score });
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
  // The ledger records each verdict the rescore changed, so readers cross-checking
  // score.json against it see the rescore, not a tampered file.
  for (const line of relined) await appendRepLine(layout.ledgerFile, line);
  unscorable.sort((a, b) => planned.indexOf(a.id) - planned.indexOf(b.id));
  return ok({ rescored: rescored.length, changed, unscorable });
}
