import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { resolveScenarioIn } from '../../harness/scenario/resolve-scenario.js';
import { repoRoot } from './cli.js';
import { makeTempDir } from './temp-dir.js';

/**
 * A copy of a shipped scenario (`base`, e.g. `s1`) in a temp dir, its file
 * changed by `change`, loaded as a run loads it: `loads`, or the one-line
 * error it is refused with (`input: problem; fix`).
 */
export async function loadChangedScenario(
  base: string,
  change: (scenario: Record<string, unknown>) => void,
): Promise<string> {
  const dir = path.join(makeTempDir(), base);
  cpSync(path.join(repoRoot, 'scenarios', base), dir, { recursive: true });
  const file = path.join(dir, 'scenario.json');
  const scenario = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  change(scenario);
  writeFileSync(file, JSON.stringify(scenario));
  const loaded = await resolveScenarioIn(dir);
  return loaded.ok
    ? 'loads'
    : `${loaded.error.input}: ${loaded.error.problem}; ${loaded.error.fix}`;
}
