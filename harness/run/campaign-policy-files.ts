/**
 * A campaign's offline brain as data: `offlineModel: "scripted:<name>"` (or a
 * model's `offline`) that no built-in policy answers names a policy file,
 * `policies/<name>.yaml` (or `.yml`, `.json`) beside the campaign file, else
 * in redgreen's own `scenarios/policies/`. It is the same kind of file a
 * scenario's calibration names (README "Calibration as data"), so one data
 * brain can run a whole campaign of scenarios offline, each scenario's
 * calibration saying what it must do on each text.
 */
import path from 'node:path';
import type { InputError } from '../lib/input-error.js';
import { packageRoot } from '../lib/package-root.js';
import { ok, type Result } from '../lib/result.js';
import type { Brain } from '../model-server/brain.js';
import { isPolicyName } from '../model-server/index.js';
import { loadPolicyFile, policyFilesIn } from '../model-server/load-policy.js';

const POLICIES_DIR = 'policies';

/** Policy files by name: beside the campaign file first, then redgreen's own; built-in names left out. */
export function campaignPolicyFiles(campaignFile: string): Map<string, string> {
  const files = new Map<string, string>();
  const dirs = new Set([
    path.join(path.dirname(path.resolve(campaignFile)), POLICIES_DIR),
    path.join(packageRoot(), 'scenarios', POLICIES_DIR),
  ]);
  for (const { name, file } of policyFilesIn(dirs)) {
    if (isPolicyName(name) || files.has(name)) continue;
    files.set(name, file);
  }
  return files;
}

/** The data brains the named offline policies need, loaded and checked; built-in names need none. */
export async function loadCampaignBrains(
  policies: readonly string[],
  files: ReadonlyMap<string, string>,
): Promise<Result<ReadonlyMap<string, Brain>, InputError>> {
  const brains = new Map<string, Brain>();
  for (const name of new Set(policies)) {
    const file = files.get(name);
    if (file === undefined || isPolicyName(name)) continue;
    const loaded = await loadPolicyFile(file, name);
    if (!loaded.ok) return loaded;
    brains.set(name, loaded.value.brain);
  }
  return ok(brains);
}
