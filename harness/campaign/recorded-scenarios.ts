/**
 * The scenarios of a results directory, found again where the run read them
 * and nowhere else: a rescore, the judge and the reports never score a rep
 * with another folder that happens to have the same id. campaign.json
 * records each scenario's folder (and whether it is one redgreen ships,
 * then read from this redgreen's own); a directory from before that is
 * resolved as its campaign file names each scenario: by its path when the
 * file names it by path, else by id.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { type InputError, inputError } from '../lib/input-error.js';
import { packageRoot } from '../lib/package-root.js';
import { err, ok, type Result } from '../lib/result.js';
import { type ResolvedScenario, resolveScenarioIn } from '../scenario/resolve-scenario.js';
import type { CampaignRecord } from './campaign-record.js';
import { scenarioFoldersByPath } from './scenario-entry.js';

type RecordedScenario = CampaignRecord['scenarios'][number];

/** The folders a recorded scenario may be read from, in order. */
function recordedFolders(scenario: RecordedScenario, campaignFile: string): string[] {
  if (scenario.dir !== undefined) {
    return [
      scenario.shipped === true
        ? path.join(packageRoot(), 'scenarios', scenario.id)
        : path.resolve(scenario.dir),
    ];
  }
  const byPath = scenarioFoldersByPath(campaignFile).filter(
    (dir) => path.basename(dir) === scenario.id,
  );
  if (byPath.length > 0) return byPath;
  return [
    path.join(path.dirname(campaignFile), scenario.id),
    path.join(packageRoot(), 'scenarios', scenario.id),
  ];
}

/** Each recorded scenario, resolved where the run read it; a folder that is gone is an error naming it. */
export async function resolveRecordedScenarios(
  record: Pick<CampaignRecord, 'scenarios' | 'campaign'>,
): Promise<Result<Map<string, ResolvedScenario>, InputError>> {
  const specs = new Map<string, ResolvedScenario>();
  for (const scenario of record.scenarios) {
    const folders = recordedFolders(scenario, record.campaign.file);
    const folder = folders.find((candidate) => existsSync(candidate));
    if (folder === undefined) {
      return err(
        inputError(
          `scenario ${scenario.id}`,
          folders.length === 1
            ? `the run read it from ${folders[0]}, which is gone`
            : `is in none of the folders the run would have read it from (${folders.join(', ')})`,
          'put the scenario folder back where the run read it (a rescore reads a scenario only there, never another folder of the same id)',
        ),
      );
    }
    const resolved = await resolveScenarioIn(folder);
    if (!resolved.ok) return resolved;
    specs.set(scenario.id, resolved.value);
  }
  return ok(specs);
}
