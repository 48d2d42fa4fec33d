/**
 * `redgreen scenario calibrate <scenario> --from <results>/reps/<arm>/<rep>
 * --must pass|fail`: a rep that really ran becomes a permanent calibration of
 * its scenario. Into the scenario's `policies/` go the rep's transcript
 * (`<name>.transcript.jsonl`), its prompt (`<name>.prompt.md`), the skill text
 * it ran with as the run copied it (`<name>.skill/`: a library arm's whole
 * library), and `<name>.yaml`, a replay policy naming them; the scenario
 * file gains a calibration entry with that policy on that text and the rep's
 * layout. A must-fail entry names the post checks the rep failed (or
 * `--failing`). `scenario lint` then replays the rep: a scorer change that
 * changes its verdict fails the lint, and a session that no longer fits the
 * recording is reported as diverged.
 *
 * Nothing is overwritten: a name already taken is refused, the files are
 * written under a temporary name and moved into place, and the scenario file
 * is replaced atomically once they are.
 */
import { existsSync } from 'node:fs';
import {
  chmod,
  copyFile,
  mkdir,
  readdir,
  readFile,
  rename,
  rm,
  stat,
  writeFile,
} from 'node:fs/promises';
import path from 'node:path';
import { parseDocument } from 'yaml';
import { readCampaignRecord } from '../campaign/campaign-record.js';
import { writeFileAtomic } from '../lib/atomic-write.js';
import { containedDirectoryProblem, readRegularText } from '../lib/contained-file.js';
import { copyDataTree, irregularEntryIn } from '../lib/data-tree.js';
import { type InputError, inputError } from '../lib/input-error.js';
import { packageRoot } from '../lib/package-root.js';
import { err, ok, type Result } from '../lib/result.js';
import { isPolicyName } from '../model-server/index.js';
import { loadPolicyFile } from '../model-server/load-policy.js';
import { repMetaSchema } from '../results/rep-meta.js';
import { REP_FILES, resultsLayout } from '../results/results-layout.js';
import { resolveScenarioIn } from '../scenario/resolve-scenario.js';
import { POLICIES_DIR, policyFilesOf } from '../scenario/scenario-policies.js';
import { listScenarioIds, resolveScenarioDir } from '../score/load-scenario.js';
import { repScoreSchema } from '../score/score-rep.js';

export interface CalibrateRequest {
  readonly scenario: string;
  readonly scenariosDirs: readonly string[];
  /** The rep's directory: `<results>/reps/<arm>/<scenario>-rep<N>` (or under `reps/<model>/`). */
  readonly from: string;
  readonly must: 'pass' | 'fail';
  readonly name?: string | undefined;
  /** For --must fail: the post checks it must fail (default: those the rep failed). */
  readonly failing?: readonly string[] | undefined;
}

export interface Calibrated {
  readonly policy: string;
  readonly policyFile: string;
  readonly scenarioFile: string;
  /** The rep's verdict as it was recorded (a must-pass from a rep that failed is a scorer bug to fix). */
  readonly recordedVerdict: string;
  readonly failing: readonly string[];
}

const NAME = /^[a-z][a-z0-9-]*$/;

export async function calibrateFromRep(
  request: CalibrateRequest,
): Promise<Result<Calibrated, InputError>> {
  const dir = resolveScenarioDir(request.scenario, request.scenariosDirs, 'scenario');
  if (!dir.ok) return err(shippedScenarioError(request.scenario) ?? dir.error);
  const scenario = await resolveScenarioIn(dir.value);
  if (!scenario.ok) return scenario;
  const repDir = path.resolve(request.from);
  const rep = await readRep(repDir);
  if (!rep.ok) return rep;
  const { meta, score } = rep.value;
  if (meta.scenario !== scenario.value.id) {
    return err(
      inputError(
        '--from',
        `${repDir} is a rep of scenario ${meta.scenario}, not of ${scenario.value.id}`,
        `calibrate ${meta.scenario} with it, or give a rep of ${scenario.value.id}`,
      ),
    );
  }
  if (scenario.value.config.calibration === undefined) {
    // A calibration holds a must-pass and a must-fail run, so one rep cannot start one.
    return err(
      inputError(
        scenario.value.compiled.file,
        'has no calibration yet, and a calibration needs a must-pass and a must-fail run, so one rep cannot start it',
        'add a calibration with one of each (README: Writing scenarios; scenario new --skill writes two policy files), then calibrate recorded reps into it',
      ),
    );
  }
  if (score.verdict === 'indeterminate') {
    return err(
      inputError(
        '--from',
        `${repDir} is indeterminate (${score.reasons[0] ?? 'no reason recorded'}), so it shows no behaviour to calibrate with`,
        'give a rep that passed or failed',
      ),
    );
  }
  const postIds = scenario.value.compiled.post.map((node) => node.id);
  const failedIds = score.checks
    .filter((check) => check.outcome === 'fail' && postIds.includes(check.id))
    .map((check) => check.id);
  const failing = request.must === 'fail' ? (request.failing ?? failedIds) : [];
  if (request.must === 'fail' && failing.length === 0) {
    return err(
      inputError(
        '--must fail',
        `${repDir} failed no post check (it passed)`,
        'name the checks it must fail with --failing <id,id>, or calibrate it with --must pass',
      ),
    );
  }
  const unknown = failing.find((id) => !postIds.includes(id));
  if (unknown !== undefined) {
    return err(
      inputError('--failing', `"${unknown}" is not a post check`, `use ${postIds.join(', ')}`),
    );
  }
  const results = resultsRootOf(repDir);
  if (results === undefined) {
    return err(
      inputError(
        '--from',
        `${repDir} is not inside a results directory (no campaign.json above it)`,
        'give <results-dir>/reps/<arm>/<rep>',
      ),
    );
  }
  const record = await readCampaignRecord(results, '--from');
  if (!record.ok) return record;
  const arm = record.value.arms.find((candidate) => candidate.name === meta.arm);
  if (arm === undefined)
    throw new Error(`rep ${meta.id} names arm ${meta.arm}, which its run lacks`);

  const skillDir = resultsLayout(results).skillDir(arm.name);
  const tampered = await untrustedTreeProblem(results, repDir, skillDir);
  if (tampered !== undefined) return err(tampered);

  const name = request.name ?? `replay-${meta.arm}-${meta.scenario}-rep${meta.rep}`;
  const policiesDir = path.join(scenario.value.compiled.dir, POLICIES_DIR);
  const taken = policyFilesOf(scenario.value.compiled.dir);
  if (!taken.ok) return taken;
  if (!NAME.test(name) || isPolicyName(name) || taken.value.has(name)) {
    return err(
      inputError(
        '--name',
        NAME.test(name)
          ? `${name} is already a policy (${taken.value.get(name) ?? 'built in'})`
          : `${name} is not a policy name (lower-case letters, digits and dashes)`,
        'choose another name with --name',
      ),
    );
  }
  const files = {
    policy: `${name}.yaml`,
    transcript: `${name}.transcript.jsonl`,
    prompt: `${name}.prompt.md`,
    skill: `${name}.skill`,
  };
  const existing = Object.values(files).find((file) => existsSync(path.join(policiesDir, file)));
  if (existing !== undefined) {
    return err(
      inputError(
        '--name',
        `${path.join(policiesDir, existing)} already exists`,
        'choose another name with --name',
      ),
    );
  }

  // Everything is written beside the policies, then moved into place.
  const staging = path.join(policiesDir, `.calibrate-${process.pid}`);
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  try {
    await copyFile(path.join(repDir, REP_FILES.transcript), path.join(staging, files.transcript));
    const hasPrompt = existsSync(path.join(repDir, REP_FILES.prompt));
    if (hasPrompt)
      await copyFile(path.join(repDir, REP_FILES.prompt), path.join(staging, files.prompt));
    await copyDataTree(skillDir, path.join(staging, files.skill));
    await openToOwner(path.join(staging, files.skill));
    const manifest = path.join(staging, files.skill, '.claude-plugin', 'plugin.json');
    if (arm.library !== undefined && !existsSync(manifest)) {
      // The plugin name the library ran under, so the replayed session sees the same paths.
      await mkdir(path.dirname(manifest), { recursive: true });
      await writeFile(manifest, `${JSON.stringify({ name: arm.library.pluginName }, null, 2)}\n`);
    }
    await writeFile(
      path.join(staging, files.policy),
      [
        `# Rep ${meta.id} of ${path.basename(results)}, recorded ${score.verdict}, copied by redgreen scenario calibrate.`,
        `summary: replays rep ${meta.id} of ${path.basename(results)} (${meta.model.reported ?? meta.model.requested} on ${meta.backend})`,
        `replay: ${files.transcript}`,
        `backend: ${meta.backend}`,
        ...(hasPrompt ? [`prompt: ${files.prompt}`] : []),
        '',
      ].join('\n'),
    );
    // What lint would refuse is never written: the transcript is read as the replay reads it
    // (a recognised format, at most the readers' size).
    const replayable = await loadPolicyFile(path.join(staging, files.policy), name);
    if (!replayable.ok) {
      return err(
        inputError(
          '--from',
          `${repDir} cannot be replayed: ${replayable.error.problem}`,
          'calibrate a rep whose files redgreen wrote, or rerun it',
        ),
      );
    }
    for (const entry of await readdir(staging)) {
      await rename(path.join(staging, entry), path.join(policiesDir, entry));
    }
  } finally {
    await rm(staging, { recursive: true, force: true });
  }

  const entry = {
    policy: name,
    [arm.library === undefined ? 'skill' : 'library']: `${POLICIES_DIR}/${files.skill}`,
    layout: meta.fixture.layout,
    ...(request.must === 'fail' ? { failing: [...failing] } : {}),
    why: `rep ${meta.id} of ${path.basename(results)}, ${score.verdict} when recorded`,
  };
  const scenarioFile = scenario.value.compiled.file;
  const list = request.must === 'pass' ? 'mustPass' : 'mustFail';
  const text = await readFile(scenarioFile, 'utf8');
  if (scenarioFile.endsWith('.json')) {
    const parsed = JSON.parse(text) as { calibration: Record<string, unknown[]> };
    parsed.calibration[list] = [...(parsed.calibration[list] ?? []), entry];
    await writeFileAtomic(scenarioFile, `${JSON.stringify(parsed, null, 2)}\n`);
  } else {
    const document = parseDocument(text);
    document.addIn(['calibration', list], document.createNode(entry));
    await writeFileAtomic(scenarioFile, document.toString());
  }
  return ok({
    policy: name,
    policyFile: path.join(policiesDir, files.policy),
    scenarioFile,
    recordedVerdict: score.verdict,
    failing,
  });
}

async function readRep(dir: string): Promise<
  Result<
    {
      meta: ReturnType<typeof repMetaSchema.parse>;
      score: ReturnType<typeof repScoreSchema.parse>;
    },
    InputError
  >
> {
  for (const file of [REP_FILES.meta, REP_FILES.score, REP_FILES.transcript]) {
    if (!existsSync(path.join(dir, file))) {
      return err(
        inputError(
          '--from',
          `${dir} holds no ${file}, so it is no rep directory`,
          'give <results-dir>/reps/<arm>/<scenario>-rep<N>',
        ),
      );
    }
  }
  try {
    return ok({
      meta: repMetaSchema.parse(JSON.parse(await readRegularText(path.join(dir, REP_FILES.meta)))),
      score: repScoreSchema.parse(
        JSON.parse(await readRegularText(path.join(dir, REP_FILES.score))),
      ),
    });
  } catch (error) {
    return err(
      inputError(
        '--from',
        `${dir}'s meta.json or score.json cannot be read (${error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error)})`,
        'rescore the run with redgreen score, or give another rep',
      ),
    );
  }
}

/**
 * Why the rep's files or the run's skill copy must not be copied: a results
 * directory is untrusted input, and what is copied becomes part of the
 * scenario (a symlink in it would hand a host file to every lint).
 */
async function untrustedTreeProblem(
  results: string,
  repDir: string,
  skillDir: string,
): Promise<InputError | undefined> {
  for (const dir of [repDir, skillDir]) {
    const found = await containedDirectoryProblem(results, path.relative(results, dir));
    const irregular = found === undefined ? await irregularEntryIn(dir) : undefined;
    const problem = found?.problem ?? (irregular && `${irregular.file} is ${irregular.kind}`);
    if (problem !== undefined) {
      return inputError(
        '--from',
        `${problem}, which a results directory redgreen wrote never holds`,
        'restore the results directory as the run wrote it, or calibrate from another rep',
      );
    }
  }
  return undefined;
}

/**
 * The refusal for an id that names none of the user's scenarios but one
 * redgreen ships: calibrating writes into the scenario, and redgreen's own
 * files are not the user's to change (an install's would be lost on update).
 */
function shippedScenarioError(id: string): InputError | undefined {
  if (id.includes('/') || id.startsWith('.')) return undefined;
  const shipped = path.join(packageRoot(), 'scenarios');
  if (!listScenarioIds(shipped).includes(id)) return undefined;
  return inputError(
    'scenario',
    `${id} is one of redgreen's own scenarios (${path.join(shipped, id)}), which calibrate does not change`,
    `copy it into your scenarios first (cp -r ${path.join(shipped, id)} scenarios/${id}), then calibrate scenarios/${id}`,
  );
}

/** The results directory a rep directory is in: the nearest ancestor holding campaign.json. */
function resultsRootOf(repDir: string): string | undefined {
  let dir = path.dirname(repDir);
  for (let level = 0; level < 4; level += 1) {
    if (existsSync(resultsLayout(dir).campaignFile)) return dir;
    dir = path.dirname(dir);
  }
  return undefined;
}

/** The run's copies are read-only; the scenario's copy is the user's to edit (scripts stay executable). */
async function openToOwner(dir: string): Promise<void> {
  await chmod(dir, 0o755);
  for (const entry of await readdir(dir)) {
    const at = path.join(dir, entry);
    const info = await stat(at);
    if (info.isDirectory()) await openToOwner(at);
    else await chmod(at, (info.mode & 0o777) | 0o200);
  }
}
