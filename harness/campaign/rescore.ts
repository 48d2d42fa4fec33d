import path from 'node:path';
import { writeFileAtomic } from '../lib/atomic-write.js';
import { type InputError, inputError } from '../lib/input-error.js';
import { packageRoot } from '../lib/package-root.js';
import { readJson } from '../lib/read-json.js';
import { err, ok, type Result } from '../lib/result.js';
import { plannedIds } from '../report/load-results.js';
import { repScoreSchema } from '../score/score-rep.js';
import { loadScoringSpec, type ScoringSpec } from '../score/scoring-spec.js';
import { readCampaignRecord } from './campaign-record.js';
import { readLedger } from './ledger.js';
import { repDamage } from './rep-health.js';
import { type RepMeta, repMetaSchema } from './rep-meta.js';
import { variantKey } from './rep-runner.js';
import { REP_FILES, resultsLayout } from './results-layout.js';
import { scoreRepDirectory } from './score-rep-dir.js';

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

async function oldVerdict(repDir: string): Promise<string> {
  try {
    return repScoreSchema.parse(await readJson(path.join(repDir, REP_FILES.score))).verdict;
  } catch {
    return 'unreadable';
  }
}

/**
 * Score every recorded rep of a results directory again from its files
 * (reply, transcript, snapshots, meta), with the scenarios' current scoring
 * specs, and rewrite each score.json (atomically); a damaged score.json is
 * rebuilt the same way. Reps whose other files are missing or unreadable
 * cannot be scored: they are listed, left as they are, and only a rerun
 * (`run --resume`) repairs them. Needs no model; the ledger is left as it is.
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
  const specs = new Map<string, ScoringSpec>();
  for (const scenario of record.scenarios) {
    let found: ScoringSpec | undefined;
    let lastError: InputError | undefined;
    for (const scenariosDir of scenarioDirs(record.campaign.file)) {
      const spec = loadScoringSpec(scenario.id, scenariosDir);
      if (spec.ok) {
        found = spec.value;
        break;
      }
      lastError = spec.error;
    }
    if (found === undefined) {
      return err(
        lastError ??
          inputError(scenario.id, 'has no scoring spec', 'add scenarios/<id>/scoring.json'),
      );
    }
    specs.set(scenario.id, found);
  }
  const changed: { id: string; before: string; after: string }[] = [];
  const unscorable: { id: string; problem: string }[] = [];
  const rescored: { file: string; score: unknown }[] = [];
  for (const id of plannedIds(record)) {
    const line = ledger.value.reps.get(id);
    if (line === undefined) continue;
    const repDir = path.join(layout.root, line.dir);
    let meta: RepMeta;
    try {
      meta = repMetaSchema.parse(await readJson(path.join(repDir, REP_FILES.meta)));
    } catch {
      const damage = await repDamage(repDir);
      unscorable.push({ id, problem: damage?.problem ?? `${REP_FILES.meta} is unreadable` });
      continue;
    }
    const spec = specs.get(meta.scenario);
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
    const scored = await scoreRepDirectory(repDir, spec, fingerprint);
    if (!scored.ok) {
      const damage = await repDamage(repDir);
      unscorable.push({ id, problem: damage?.problem ?? scored.error.problem });
      continue;
    }
    const before = await oldVerdict(repDir);
    if (scored.value.score.verdict !== before) {
      changed.push({ id, before, after: scored.value.score.verdict });
    }
    rescored.push({ file: path.join(repDir, REP_FILES.score), score: scored.value.score });
  }
  // Every scorable rep is scored before any file changes.
  for (const { file, score } of rescored) {
    await writeFileAtomic(file, `${JSON.stringify(score, null, 2)}\n`);
  }
  return ok({ rescored: rescored.length, changed, unscorable });
}
