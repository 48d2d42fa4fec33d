/**
 * The policy files a scenario's calibration can name: `policies/<name>.yaml`
 * (or `.yml`, `.json`) in the scenario's folder, else in the `policies/`
 * folder beside it (shared by the scenarios of one folder, as `prompts/`
 * is), else redgreen's own. A calibration entry names a built-in policy or one of these alike; a
 * file with a built-in policy's name is refused, so a name means one brain.
 *
 * Each file a calibration entry names is loaded and checked when the
 * scenario loads (model-server/load-policy.ts), and fitted to the sessions
 * the scenario can have: at load against every backend's tools, at lint
 * against the backend it runs on (harness/session/session-tool-table.ts is
 * the one table of what a session is given).
 */
import path from 'node:path';
import { type InputError, inputError } from '../lib/input-error.js';
import { packageRoot } from '../lib/package-root.js';
import { err, ok, type Result } from '../lib/result.js';
import { fitPolicyToSession, type SessionTools } from '../model-server/data-policy/session-fit.js';
import { isPolicyName } from '../model-server/index.js';
import { type LoadedPolicy, loadPolicyFile, policyFilesIn } from '../model-server/load-policy.js';
import type { CalibrationRun } from '../score/load-scenario.js';
import type { ScenarioShell } from '../score/scenario-schema.js';
import { sessionStopOf } from '../score/stop-mode.js';
import {
  type BackendName,
  SESSION_TOOLS,
  sessionToolNames,
} from '../session/session-tool-table.js';

export const POLICIES_DIR = 'policies';

/**
 * Policy files by name: the scenario folder's own first, then the shared
 * folder beside it, then redgreen's own `scenarios/policies/` (so a copied
 * scenario keeps the data policies it names, as it keeps its prompts).
 */
export function policyFilesOf(scenarioDir: string): Result<Map<string, string>, InputError> {
  const files = new Map<string, string>();
  const dirs = new Set([
    path.join(scenarioDir, POLICIES_DIR),
    path.join(path.dirname(scenarioDir), POLICIES_DIR),
    path.join(packageRoot(), 'scenarios', POLICIES_DIR),
  ]);
  for (const { name, file } of policyFilesIn(dirs)) {
    if (isPolicyName(name)) {
      return err(
        inputError(
          file,
          `has the name of the built-in policy ${name}, so a calibration naming it would be ambiguous`,
          'rename the file',
        ),
      );
    }
    if (!files.has(name)) files.set(name, file);
  }
  return ok(files);
}

/** Load every policy file the calibration names, each fitted to every session the scenario can have. */
export async function loadCalibrationPolicies(
  config: ScenarioShell,
  calibration: readonly CalibrationRun[],
  files: ReadonlyMap<string, string>,
): Promise<Result<ReadonlyMap<string, LoadedPolicy>, InputError>> {
  const loaded = new Map<string, LoadedPolicy>();
  for (const run of calibration) {
    const file = files.get(run.policy);
    if (file === undefined) continue;
    let policy = loaded.get(run.policy);
    if (policy === undefined) {
      const read = await loadPolicyFile(file, run.policy);
      if (!read.ok) return read;
      policy = read.value;
      loaded.set(run.policy, policy);
    }
    const problem = policyFitError(policy, sessionToolsOf(config, run, 'every'));
    if (problem !== undefined) return err(problem);
  }
  return ok(loaded);
}

/**
 * The tools a calibration run's session is given on a backend, or (`every`)
 * on any backend: the stop mode's, the Skill tool with a library, and the
 * scenario's tool changes.
 */
export function sessionToolsOf(
  config: ScenarioShell,
  run: Pick<CalibrationRun, 'library'>,
  backend: BackendName | 'every',
): SessionTools {
  const stop = sessionStopOf(config.stop);
  const backends = backend === 'every' ? (Object.keys(SESSION_TOOLS) as BackendName[]) : [backend];
  const tools = backends.map(
    (name) =>
      new Set(
        sessionToolNames(name, stop.mode, {
          library: run.library !== undefined,
          changes: config.tools,
        }),
      ),
  );
  const offered = new Set(tools.flatMap((names) => [...names]));
  const everyOffered = new Set(
    [...offered].filter((name) => tools.every((names) => names.has(name))),
  );
  return {
    label: backend === 'every' ? 'any backend' : `the ${backend} backend`,
    stop: stop.at === undefined ? stop.mode : 'at',
    offered,
    everyOffered,
    everySession: backend === 'every',
  };
}

/** The first reason the policy cannot run in the session, as an InputError naming file and field. */
export function policyFitError(
  policy: LoadedPolicy,
  session: SessionTools,
): InputError | undefined {
  const [problem] = fitPolicyToSession(policy.spec, session);
  return problem === undefined
    ? undefined
    : inputError(`${policy.file}: ${problem.field}`, problem.problem, problem.fix);
}
