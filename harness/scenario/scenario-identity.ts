/**
 * A scenario's identity: the content hash of what decides a rep's verdict
 * (the scenario file as validated, without its calibration, judge block and
 * prose, and the prompt template's text). Every rep records the hash it was
 * scored with, a results directory records the hash its reps are scored
 * with now, and the campaign identity covers them: a resume with changed
 * scenario files is refused (a rescore first), and `redgreen score` says
 * which file it used and when it differs from the run's.
 */

import { canonicalJson } from '../lib/canonical-json.js';
import { sha256Hex } from '../lib/hash.js';
import type { ScenarioShell } from '../score/scenario-schema.js';

/**
 * Fields that decide no verdict: how the scenario is calibrated (lint's
 * business), the judge (whose judgements are keyed by their own rubric
 * hash), its prose, and the packs it names (which only decide what it may use).
 */
const NOT_SCORED = ['$schema', 'title', 'description', 'packs', 'calibration', 'judge'] as const;

/** The scenario hash of a validated scenario file and its prompt template's text. */
export function scenarioSha256(config: ScenarioShell, promptSource: string): string {
  const scored: Record<string, unknown> = { ...config };
  for (const field of NOT_SCORED) delete scored[field];
  return sha256Hex(canonicalJson({ scenario: scored, prompt: promptSource }));
}

/** A scenario hash as tables show it. */
export function shortScenarioHash(sha256: string): string {
  return sha256.slice(0, 12);
}

/**
 * The campaign identity: the session identity (identity.ts: everything a
 * session depends on) and each scenario's hash, so two directories scored
 * with different checks never share an identity.
 */
export function combinedIdentity(
  session: string,
  scenarios: readonly { readonly id: string; readonly sha256: string }[],
): string {
  return sha256Hex(
    canonicalJson({
      session,
      scenarios: scenarios.map((scenario) => [scenario.id, scenario.sha256]),
    }),
  );
}

/** A scenario whose hash differs from the one a results directory records. */
export interface ScenarioChange {
  readonly id: string;
  /** The scenario file read now. */
  readonly file: string;
  readonly recorded: string;
  readonly now: string;
}

/** The scenarios whose current hash differs from the recorded one (a scenario with none recorded is left out). */
export function changedScenarios(
  recorded: readonly { readonly id: string; readonly sha256?: string | undefined }[],
  current: readonly { readonly id: string; readonly sha256: string; readonly file: string }[],
): ScenarioChange[] {
  const changes: ScenarioChange[] = [];
  for (const scenario of current) {
    const before = recorded.find((entry) => entry.id === scenario.id)?.sha256;
    if (before === undefined || before === scenario.sha256) continue;
    changes.push({ id: scenario.id, file: scenario.file, recorded: before, now: scenario.sha256 });
  }
  return changes;
}

/** `s1 (scenarios/s1/scenario.json: scenario 1234abcd5678 → 9abcdef01234)`, for errors and warnings. */
export function describeChange(change: ScenarioChange): string {
  return `${change.id} (${change.file}: scenario ${shortScenarioHash(change.recorded)} → ${shortScenarioHash(change.now)})`;
}
