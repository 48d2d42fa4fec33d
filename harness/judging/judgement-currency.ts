/**
 * Which stored judgements still fit the rep, without calling any model:
 * a judgement is current while its key (protocol, rubric, material, model)
 * equals the key the rep's files and the scenario's rubric give now. A
 * rescore (`redgreen score`) says which are not, so the reader knows
 * `redgreen judge` has work to do.
 */

import { resolveRecordedScenarios } from '../campaign/recorded-scenarios.js';
import { buildMaterial } from '../judge/material.js';
import { readRepMaterialParts } from '../judge/material-files.js';
import { judgementKey } from '../judge/prompt.js';
import type { InputError } from '../lib/input-error.js';
import { ok, type Result } from '../lib/result.js';
import { loadResults } from '../report/load-results.js';
import { resultsLayout } from '../results/results-layout.js';

export interface JudgementCurrency {
  /** Reps whose judge.json no longer fits (the rubric or what the rep holds changed). */
  readonly stale: readonly string[];
}

export async function judgementCurrency(
  dir: string,
): Promise<Result<JudgementCurrency, InputError>> {
  const loaded = await loadResults(dir);
  if (!loaded.ok) return loaded;
  const { record, reps, judgements, judgementsSetAside } = loaded.value;
  const scenarios = await resolveRecordedScenarios(record);
  if (!scenarios.ok) return scenarios;
  const layout = resultsLayout(dir);
  // Set aside when loaded (an old rubric or protocol, another judge, no judge block now).
  const stale: string[] = judgementsSetAside.map((entry) => entry.id);
  for (const rep of reps) {
    const spec = scenarios.value.get(rep.meta.scenario)?.config.judge;
    const judgement = judgements.get(rep.id);
    if (judgement === undefined) continue;
    if (spec === undefined) {
      stale.push(rep.id);
      continue;
    }
    const parts = await readRepMaterialParts(rep.dir, layout.skillDir(rep.meta.arm), spec.material);
    const key = judgementKey(
      spec,
      buildMaterial(parts, spec.material),
      judgement.model.requested,
      judgement.model.endpoint,
    );
    if (key !== judgement.key) stale.push(rep.id);
  }
  return ok({ stale: [...new Set(stale)] });
}
