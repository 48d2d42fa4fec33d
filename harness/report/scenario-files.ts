/**
 * Which scenario files a results directory's verdicts come from: per
 * scenario, its fixture, the folder the run read, the hash campaign.json
 * records, and the hashes its reps' score.json files say they were scored
 * with (and when they were rescored). Reps of one scenario scored with two
 * versions of its checks are said to be mixed, never pooled silently.
 */
import { z } from 'zod';
import type { CampaignRecord } from '../campaign/campaign-record.js';
import { shortScenarioHash } from '../scenario/scenario-identity.js';
import type { RepScore } from '../score/score-rep.js';

export const scenarioFilesSchema = z
  .object({
    id: z.string(),
    title: z.string(),
    /** The fixture the scenario builds: `<recipe> <fixture scenario>`. */
    fixture: z.string(),
    /** The scenario folder the run read; null in a directory from before it was recorded. */
    dir: z.string().nullable(),
    /** The scenario hash campaign.json records (what its reps are scored with); null when not recorded. */
    sha256: z.string().nullable(),
    /** The reps by the scenario hash their score says (null: not recorded), with the latest rescore. */
    scoredWith: z.array(
      z
        .object({
          sha256: z.string().nullable(),
          reps: z.number().int(),
          /** When the latest of these reps was rescored (ISO 8601), or null when none was. */
          rescoredAt: z.string().nullable(),
        })
        .strict(),
    ),
  })
  .strict();
export type ScenarioFiles = z.infer<typeof scenarioFilesSchema>;

/** The scenario files of a directory's scenarios, from campaign.json and each rep's score. */
export function scenarioFiles(
  record: Pick<CampaignRecord, 'scenarios'> & Partial<Pick<CampaignRecord, 'fixtures'>>,
  reps: readonly { readonly scenario: string; readonly score: RepScore }[],
): ScenarioFiles[] {
  return record.scenarios.map((scenario) => {
    const groups = new Map<string | null, { reps: number; rescoredAt: string | null }>();
    for (const rep of reps) {
      if (rep.scenario !== scenario.id) continue;
      const sha = rep.score.scoredWith?.scenario ?? null;
      const at = rep.score.scoredWith?.rescoredAt ?? null;
      const group = groups.get(sha) ?? { reps: 0, rescoredAt: null };
      group.reps += 1;
      if (at !== null && (group.rescoredAt === null || at > group.rescoredAt))
        group.rescoredAt = at;
      groups.set(sha, group);
    }
    return {
      id: scenario.id,
      title: scenario.title,
      fixture: `${recipeNameOf(record, scenario.fixture)} ${scenario.fixture.scenario}`,
      dir: scenario.dir ?? null,
      sha256: scenario.sha256 ?? null,
      scoredWith: [...groups].map(([sha256, group]) => ({ sha256, ...group })),
    };
  });
}

/**
 * The name of the recipe a scenario builds, as its fingerprints record it
 * (a recipe given by path, `../../fixtures/tidykit`, is `tidykit`); the
 * scenario's `recipe` as written when no fingerprint was recorded.
 */
function recipeNameOf(
  record: Partial<Pick<CampaignRecord, 'fixtures'>>,
  fixture: { readonly recipe: string; readonly scenario: string },
): string {
  const prefix = `${fixture.recipe}:${fixture.scenario}:`;
  const key = Object.keys(record.fixtures ?? {}).find((name) => name.startsWith(prefix));
  return (key === undefined ? undefined : record.fixtures?.[key]?.recipe) ?? fixture.recipe;
}

/** Whether a scenario's reps were scored with more than one version of it. */
export function isMixed(files: ScenarioFiles): boolean {
  return files.scoredWith.length > 1;
}

/** The recorded versions of a scenario: campaign.json's and those its reps say they were scored with. */
function recordedVersions(files: ScenarioFiles): Set<string> {
  const versions = new Set<string>();
  if (files.sha256 !== null) versions.add(files.sha256);
  for (const group of files.scoredWith) if (group.sha256 !== null) versions.add(group.sha256);
  return versions;
}

/**
 * The scenarios whose reps, or their reps and campaign.json, name two or
 * more versions (an interrupted rescore, a hand-edited or merged directory):
 * no gate is decided on them. Reps from before scenario identity (no hash)
 * beside hashed ones are shown as mixed but do not block the gate.
 */
export function versionConflicts(scenarios: readonly ScenarioFiles[]): ScenarioFiles[] {
  return scenarios.filter((files) => recordedVersions(files).size > 1);
}

/** `s1 (campaign.json 9d311da70ad4; reps 9d311da70ad4: 3, b6c864778257: 1)`: the versions of a conflict. */
export function conflictText(files: ScenarioFiles): string {
  const reps = files.scoredWith.flatMap((group) =>
    group.sha256 === null ? [] : [`${shortScenarioHash(group.sha256)}: ${group.reps}`],
  );
  const recorded =
    files.sha256 === null ? '' : `campaign.json ${shortScenarioHash(files.sha256)}; `;
  return `${files.id} (${recorded}reps ${reps.join(', ')})`;
}

/** `rescored with scenario 1234abcd5678 on 2026-12-02 (4 reps)`: what one scenario's reps were scored with. */
export function scoredWithText(files: ScenarioFiles): string {
  if (files.scoredWith.length === 0) return 'no rep recorded';
  const parts = files.scoredWith.map((group) => {
    const reps = `(${group.reps} rep${group.reps === 1 ? '' : 's'})`;
    if (group.sha256 === null)
      return `scored before scenario identity, with files not recorded ${reps}`;
    const hash = shortScenarioHash(group.sha256);
    return group.rescoredAt === null
      ? `scored with scenario ${hash} ${reps}`
      : `rescored with scenario ${hash} on ${group.rescoredAt.slice(0, 10)} ${reps}`;
  });
  return isMixed(files)
    ? `MIXED: ${parts.join('; ')}: these reps were scored with different versions of the scenario (\`redgreen score <dir>\` rescores them all with its current files)`
    : (parts[0] ?? '');
}
