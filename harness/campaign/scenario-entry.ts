/**
 * An entry of a campaign's `scenarios` list: a scenario id (the folder of
 * that name beside the campaign file, else in the `scenarios/` folder beside
 * it, where `scenario new` puts one, else the one redgreen ships in its own
 * `scenarios/`), or the path of a scenario folder relative to the campaign
 * file (anything with a `/`). Either way the scenario's id is its folder's
 * name (its scenario file says so too), which reps, gates and `--only` use.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { packageRoot } from '../lib/package-root.js';

const SCENARIO_ID = /^[a-z0-9][a-z0-9-]*$/;

/** The folder `redgreen scenario new` writes into by default (`--dir`), relative to where it runs. */
export const SCENARIOS_FOLDER = 'scenarios';

function isScenarioPath(entry: string): boolean {
  return entry.includes('/');
}

export const scenarioEntrySchema = z
  .string()
  .refine((entry) => SCENARIO_ID.test(entry) || isScenarioPath(entry), {
    message:
      'must be a scenario id (lower-case letters, digits and dashes: a folder beside the campaign file, or one redgreen ships) or the path of a scenario folder, relative to the campaign file (with a /, e.g. ../mine/my-probe)',
  });

/** Whether a scenario folder is one redgreen ships (in this redgreen's own `scenarios/`). */
export function isShippedScenario(dir: string): boolean {
  return path.dirname(path.resolve(dir)) === path.join(packageRoot(), 'scenarios');
}

/** The folders an entry's scenario may be in, in the order they are tried. */
export function scenarioFolderCandidates(entry: string, campaignDir: string): string[] {
  if (isScenarioPath(entry)) return [path.resolve(campaignDir, entry)];
  return [
    path.join(campaignDir, entry),
    // Where `redgreen scenario new <id>` writes it, run beside the campaign file.
    path.join(campaignDir, SCENARIOS_FOLDER, entry),
    path.join(packageRoot(), 'scenarios', entry),
  ];
}

/**
 * The scenario folders a campaign file names by path, for finding a
 * scenario again by its id (a rescore). Empty when the file is gone or
 * unreadable: ids are then looked up as usual.
 */
export function scenarioFoldersByPath(campaignFile: string): string[] {
  try {
    const parsed = JSON.parse(readFileSync(campaignFile, 'utf8')) as { scenarios?: unknown };
    const entries = Array.isArray(parsed.scenarios) ? parsed.scenarios : [];
    return entries
      .filter((entry): entry is string => typeof entry === 'string' && isScenarioPath(entry))
      .map((entry) => path.resolve(path.dirname(campaignFile), entry));
  } catch {
    return [];
  }
}
