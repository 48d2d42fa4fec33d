/**
 * A compiled scenario with the given post checks, for scoring a
 * conversation's transcript: the scripted-user test scenario
 * (../fixtures/scripted-user) with its checks replaced and the user's turns
 * declared (so checks naming a turn load), copied to a temp dir.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { policyNames } from '../../../harness/model-server/index.js';
import { type CompiledScenario, loadScenarioDir } from '../../../harness/score/load-scenario.js';
import { makeTempDir } from '../../helpers/temp-dir.js';

const fixture = path.join(import.meta.dirname, '..', 'fixtures', 'scripted-user');

export function compileChecks(
  checks: readonly Record<string, unknown>[],
  turns: readonly Record<string, unknown>[] = [
    { id: 'plain', say: 'x' },
    { id: 'squeeze', compact: true },
    { id: 'fancy', say: 'y' },
    { id: 'after', say: 'z' },
  ],
): CompiledScenario {
  const dir = path.join(makeTempDir('conversation-checks-'), 'scripted-user');
  cpSync(fixture, dir, { recursive: true });
  const file = path.join(dir, 'scenario.json');
  const scenario = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  scenario.checks = { post: checks.map((check) => ({ why: 'test', ...check })) };
  scenario.user = { ...(scenario.user as object), turns };
  const calibration = scenario.calibration as { mustFail: { failing: string[] }[] };
  for (const run of calibration.mustFail) run.failing = [String(checks[0]?.id)];
  writeFileSync(file, JSON.stringify(scenario));
  const loaded = loadScenarioDir(dir, { knownPolicies: policyNames() });
  if (!loaded.ok) throw new Error(`${loaded.error.input}: ${loaded.error.problem}`);
  return loaded.value;
}
