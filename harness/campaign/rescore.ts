import { existsSync } from 'node:fs';
import path from 'node:path';
import type { FixtureFingerprint } from '../fixture/index.js';
import { writeFileAtomic } from '../lib/atomic-write.js';
import { type InputError, inputError } from '../lib/input-error.js';
import { packageRoot } from '../lib/package-root.js';
import { err, ok, type Result } from '../lib/result.js';
import { loadResultsForRescore } from '../report/load-results.js';
import { variantKey } from './rep-runner.js';
import { type ResolvedScenario, resolveScenarioIn } from './resolve-scenario.js';
import { REP_FILES } from './results-layout.js';
import { scoreRepDirectories } from './score-rep-dir.js';

export interface RescoreSummary {
  readonly rescored: number;
  /** Reps whose verdict changed: id, before, after. */
  readonly changed: readonly { id: string; before: string; after: string }[];
}

function scenarioDirs(campaignFile: string): string[] {
  return [path.dirname(campaignFile), path.join(packageRoot(), 'scenarios')];
}

/**
 * Score every recorded rep of a results directory again from its files,
 * with the scenarios' current scenario files, and rewrite each score.json
 * (atomically). Needs no model; the ledger is left as it is. A score.json an
 * older redgreen wrote is replaced by the current format.
 */
export async function rescoreResults(dir: string): Promise<Result<RescoreSummary, InputError>> {
  const loaded = await loadResultsForRescore(dir);
  if (!loaded.ok) return loaded;
  const { record } = loaded.value;
  const specs = new Map<string, ResolvedScenario>();
  for (const scenario of record.scenarios) {
    let found: ResolvedScenario | undefined;
    let lastError: InputError | undefined;
    for (const scenariosDir of scenarioDirs(record.campaign.file)) {
      const scenarioDir = path.join(scenariosDir, scenario.id);
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
        lastError ??
          inputError(scenario.id, 'has no scenario folder', 'add scenarios/<id>/scenario.json'),
      );
    }
    specs.set(scenario.id, found);
  }
  const jobs: { dir: string; scenario: ResolvedScenario; fixture: FixtureFingerprint }[] = [];
  for (const rep of loaded.value.reps) {
    const spec = specs.get(rep.meta.scenario);
    const key = variantKey(rep.meta.fixture, rep.meta.fixture.layout);
    const fingerprint = record.fixtures[key];
    if (spec === undefined || fingerprint === undefined) {
      return err(
        inputError(
          rep.dir,
          `has no fixture fingerprint ${key} in campaign.json`,
          'rerun the campaign',
        ),
      );
    }
    jobs.push({ dir: rep.dir, scenario: spec, fixture: fingerprint });
  }
  const scored = await scoreRepDirectories(jobs);
  if (!scored.ok) return scored;
  const changed: { id: string; before: string; after: string }[] = [];
  loaded.value.reps.forEach((rep, index) => {
    const after = scored.value[index]?.score.verdict;
    if (after !== undefined && after !== rep.score) {
      changed.push({ id: rep.id, before: rep.score, after });
    }
  });
  // Every rep is scored before any file changes: a failure leaves the directory as it was.
  for (const [index, rep] of loaded.value.reps.entries()) {
    const score = scored.value[index]?.score;
    if (score === undefined) continue;
    await writeFileAtomic(
      path.join(rep.dir, REP_FILES.score),
      `${JSON.stringify(score, null, 2)}\n`,
    );
  }
  return ok({ rescored: loaded.value.reps.length, changed });
}
