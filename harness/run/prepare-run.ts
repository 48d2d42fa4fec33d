import { existsSync } from 'node:fs';
import { cp, mkdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import {
  type CampaignRecord,
  campaignRecordSchema,
  type Invocation,
  readCampaignRecord,
} from '../campaign/campaign-record.js';
import { campaignIdentity } from '../campaign/identity.js';
import type { ResolvedArm, ResolvedCampaign } from '../campaign/load-campaign.js';
import type { ModelAxis } from '../campaign/model-axis.js';
import { displayBaseUrl } from '../campaign/model-choice.js';
import { modelRecords } from '../campaign/model-record.js';
import { isShippedScenario } from '../campaign/scenario-entry.js';
import {
  buildFixture,
  checkProvisionTools,
  type FixtureFingerprint,
  formatGateFailure,
  repositoryDirFor,
  type ToolCheck,
  takeSnapshot,
} from '../fixture/index.js';
import { writeFileAtomic } from '../lib/atomic-write.js';
import { sha256Hex } from '../lib/hash.js';
import { type InputError, inputError } from '../lib/input-error.js';
import { harnessVersion } from '../lib/package-root.js';
import { readJson } from '../lib/read-json.js';
import { removeTree } from '../lib/remove-tree.js';
import { err, ok, type Result } from '../lib/result.js';
import { type ComposedLibrary, composeLibrary } from '../library/library-source.js';
import { materialiseSkill } from '../library/skill-source.js';
import { directoryTreeId } from '../library/tree-id.js';
import { createJournal, type JournalRepLine, readJournal } from '../results/rep-journal.js';
import {
  adoptLandedReps,
  checkFreshOutput,
  lockResultsDir,
  recordedRepDirProblem,
  removePartialRepDirs,
  repairJournalTail,
  repsTreeProblem,
} from '../results/results-dir.js';
import {
  EVALS_DIR,
  REP_FILES,
  type ResultsLayout,
  resultsLayout,
} from '../results/results-layout.js';
import { fixtureRecord, type ResolvedScenario } from '../scenario/resolve-scenario.js';
import {
  changedScenarios,
  describeChange,
  shortScenarioHash,
} from '../scenario/scenario-identity.js';
import { givesProjectSkills } from '../score/claude-dir.js';
import { identityFieldsOf } from '../score/score-registry.js';
import { bareSkillName, codexSkillClash } from '../session/codex-skill-installs.js';
import { PROJECT_SKILLS_DIR, readProjectSkills } from '../session/project-skills.js';
import type { PreparedSkill, PreparedVariant } from './rep-runner.js';
import { variantKey } from './rep-runner.js';
import { createWorkRoot, removeStaleWorkRoots } from './work-root.js';

export type { CampaignRecord, Invocation } from '../campaign/campaign-record.js';

export interface PreparedRun {
  readonly layout: ResultsLayout;
  readonly identity: Identity;
  readonly record: CampaignRecord;
  readonly variants: ReadonlyMap<string, PreparedVariant>;
  readonly skills: ReadonlyMap<string, PreparedSkill>;
  readonly workRoot: string;
  /** Reps a crash had landed without their journal line, recorded now. */
  readonly adopted: number;
  /** The reps per cell a resumed directory scheduled before `--reps` extended it, else null. */
  readonly extendedFrom: number | null;
  /** Work dirs of killed runs removed from $TMPDIR before this run made its own. */
  readonly staleRemoved: number;
  /** Work dirs in $TMPDIR without an owner file that were left (too young, or in use). */
  readonly unownedWorkRoots: readonly string[];
  /** Release the results-directory lock. */
  readonly release: () => Promise<void>;
}

export interface PrepareOptions {
  readonly campaign: ResolvedCampaign;
  readonly models: ModelAxis;
  readonly invocation: Invocation;
  readonly outDir: string;
  readonly resume: boolean;
  readonly shard: { index: number; count: number } | null;
  /** Engine name and version, e.g. `claude-code 2.1.332`: part of the identity. */
  readonly engine: string;
  readonly sandbox: string;
  /** `bubblewrap` or `process`: part of the identity. */
  readonly sandboxKind: string;
  /** --keep-workdirs: the work root is kept, and never cleaned up as stale. */
  readonly keepWorkDirs: boolean;
}

/** Where a library arm's library is composed (with its overrides) in a run's work root. */
function composedLibraryDir(workRoot: string, arm: ResolvedArm): string {
  return path.join(workRoot, 'libraries', arm.name);
}

/** Git's id of the empty tree: the text of an arm without a skill. */
const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

async function skillTree(arm: ResolvedArm): Promise<string> {
  if (arm.source.kind === 'none') return EMPTY_TREE;
  return arm.source.kind === 'git' ? arm.source.tree : directoryTreeId(arm.source.dir);
}

/**
 * Compose each library arm's library in the work root, before anything is
 * written to the results directory: a library that may not be installed
 * (library-tree.ts) is refused here, and so are library arms that would
 * install under different plugin names (the qualified skill names the
 * sessions see would tell the arm).
 */
async function composeLibraries(
  campaign: ResolvedCampaign,
  workRoot: string,
): Promise<Result<Map<string, ComposedLibrary>, InputError>> {
  const composed = new Map<string, ComposedLibrary>();
  for (const arm of campaign.arms) {
    if (arm.library === undefined) continue;
    const library = await composeLibrary(arm.library, composedLibraryDir(workRoot, arm));
    if (!library.ok) return library;
    const { pluginName } = library.value.contents;
    const other = [...composed.entries()].find(
      ([, known]) => known.contents.pluginName !== pluginName,
    );
    if (other !== undefined) {
      return err(
        inputError(
          `arm ${arm.name}`,
          `installs its library as plugin "${pluginName}" and arm ${other[0]} as "${other[1].contents.pluginName}": the skill names the sessions see would tell the arm`,
          'give both libraries the same plugin name (their .claude-plugin/plugin.json, or library.name)',
        ),
      );
    }
    composed.set(arm.name, library.value);
  }
  return ok(composed);
}

function sourceRecord(arm: ResolvedArm): CampaignRecord['arms'][number]['source'] {
  return skillSourceRecord(arm.source);
}

function skillSourceRecord(
  source: ResolvedArm['source'],
): CampaignRecord['arms'][number]['source'] {
  if (source.kind === 'none') return { kind: 'none', spec: 'none' };
  return source.kind === 'git'
    ? {
        kind: 'git',
        spec: source.spec,
        repo: source.repo,
        ref: source.ref,
        commit: source.commit,
        subdir: source.subdir,
      }
    : { kind: 'dir', spec: source.spec, dir: source.dir };
}

/** The directory name sessions see for a skill: its own `name:`, the same for every arm. */
async function skillName(dir: string): Promise<string> {
  try {
    const text = await readFile(path.join(dir, 'SKILL.md'), 'utf8');
    const match =
      /^---\s*\n(?:[\s\S]*?\n)?name:\s*["']?([A-Za-z0-9._-]+)["']?\s*\n[\s\S]*?---/m.exec(text);
    if (match?.[1] !== undefined) return match[1];
  } catch {
    // fall through to the generic name
  }
  return 'skill';
}

/** Build each fixture variant the campaign needs, once, in the run's temp work root. */
async function buildVariants(
  campaign: ResolvedCampaign,
  workRoot: string,
): Promise<Result<Map<string, PreparedVariant>, InputError>> {
  const variants = new Map<string, PreparedVariant>();
  // The steps' tools are probed once per recipe scenario, whatever its layouts.
  const probed = new Map<string, ToolCheck>();
  for (const scenario of campaign.scenarios) {
    for (const arm of campaign.arms) {
      const key = variantKey(scenario.config.fixture, arm.layout);
      if (variants.has(key)) continue;
      // A recipe given by path (`../mine/recipe`) must not lead out of the work root.
      let dir = path.join(
        workRoot,
        'fixtures',
        `${key.replace(/[^A-Za-z0-9_-]+/g, '-').replace(/^-+/, '')}-${sha256Hex(key).slice(0, 8)}`,
      );
      await mkdir(path.dirname(dir), { recursive: true });
      // Steps whose tools are missing here: the bare fixture is built and its reps are pre-check failures.
      const steps = scenario.recipe.spec.scenarios[scenario.config.fixture.scenario]?.provision;
      const probeKey = `${scenario.recipe.dir}\0${scenario.config.fixture.scenario}`;
      let tools = probed.get(probeKey);
      if (tools === undefined && steps !== undefined) {
        tools = await checkProvisionTools(steps);
        probed.set(probeKey, tools);
      }
      const unprovisioned = tools === undefined || tools.ok ? undefined : tools.problems;
      const built = await buildFixture({
        recipe: scenario.recipe,
        scenario: scenario.config.fixture.scenario,
        layout: arm.layout,
        dest: dir,
        ...(tools === undefined ? {} : { provisionTools: tools }),
        ...(unprovisioned === undefined ? {} : { provision: 'skip' as const }),
      });
      if (!built.ok) {
        const problem =
          built.error.kind === 'gate' ? formatGateFailure(built.error) : built.error.problem;
        return err(
          inputError(`fixture ${key}`, `could not be built: ${problem}`, 'fix the fixture recipe'),
        );
      }
      // The repository is the fixture root, or its subdirectory beside its worktrees.
      const fixtureScenario = scenario.recipe.spec.scenarios[scenario.config.fixture.scenario];
      const root = dir;
      const repositoryDir = repositoryDirFor(scenario.recipe.spec.name, fixtureScenario?.worktrees);
      dir = path.join(root, repositoryDir);
      const missing = (scenario.config.instructions ?? []).find(
        (file) => !existsSync(path.join(dir, file)),
      );
      if (missing !== undefined) {
        return err(
          inputError(
            `${scenario.compiled.file}: instructions`,
            `names ${missing}, which fixture ${key} does not hold`,
            'name a file the fixture writes (a tracked file or a layout file), or add it to the recipe',
          ),
        );
      }
      if (givesProjectSkills(scenario.config.claudeDir)) {
        const given = await readProjectSkills(dir);
        const problem =
          given.problems[0] === undefined
            ? given.skills.length === 0
              ? `holds no ${PROJECT_SKILLS_DIR}/<name>/SKILL.md`
              : undefined
            : `has one that cannot be given (${given.problems[0]})`;
        if (problem !== undefined) {
          return err(
            inputError(
              `${scenario.compiled.file}: claudeDir`,
              `opts in to the fixture's project skills, but fixture ${key} ${problem}`,
              `add regular files ${PROJECT_SKILLS_DIR}/<name>/SKILL.md to the recipe, or drop "skills" from claudeDir`,
            ),
          );
        }
      }
      variants.set(key, {
        dir,
        ...(repositoryDir === '.' ? {} : { root }),
        fingerprint: built.value,
        // A session starting in a linked worktree: checks default to that checkout.
        snapshot: await takeSnapshot(dir, {
          start: fixtureScenario?.start,
          ...(repositoryDir === '.' ? {} : { fixtureRoot: 'parent' as const }),
        }),
        unprovisioned,
      });
    }
  }
  return ok(variants);
}

/**
 * Copy each arm's skill (or composed library) into the results directory
 * (read-only), unless a resumed run already did.
 */
async function prepareSkills(
  campaign: ResolvedCampaign,
  layout: ResultsLayout,
  trees: ReadonlyMap<string, string>,
  libraries: ReadonlyMap<string, ComposedLibrary>,
  workRoot: string,
): Promise<Result<Map<string, PreparedSkill>, InputError>> {
  const skills = new Map<string, PreparedSkill>();
  for (const arm of campaign.arms) {
    const dir = layout.skillDir(arm.name);
    const tree = trees.get(arm.name) ?? '';
    const library = libraries.get(arm.name);
    if (library !== undefined) {
      if (!existsSync(dir)) await copyTree(composedLibraryDir(workRoot, arm), dir);
      skills.set(arm.name, {
        dir,
        tree,
        neutralName: library.contents.pluginName,
        library: library.contents,
        installFrom: composedLibraryDir(workRoot, arm),
      });
      continue;
    }
    if (arm.source.kind === 'none') {
      // A baseline: an empty folder, so the reps' sandbox has the same shape, and nothing to read.
      await mkdir(dir, { recursive: true });
      skills.set(arm.name, { dir, tree, neutralName: 'skill', none: true });
      continue;
    }
    if (!existsSync(path.join(dir, 'SKILL.md'))) {
      const materialised = await materialiseSkill(arm.source, dir);
      if (materialised.tree !== tree) {
        return err(
          inputError(
            `arm ${arm.name}`,
            `the copied skill text (tree ${materialised.tree.slice(0, 12)}) differs from its source (tree ${tree.slice(0, 12)})`,
            'check the source for files git archive leaves out (export-ignore) or unreadable files',
          ),
        );
      }
    }
    skills.set(arm.name, { dir, tree, neutralName: await skillName(dir) });
  }
  return ok(skills);
}

/**
 * Get a results directory ready: build each fixture variant the campaign
 * needs (once, in a temp work root), compute the campaign identity, take the
 * directory's lock, and either start it (journal header, read-only skill
 * copies, campaign.json) or check that a directory being resumed is a run of
 * the same identity, then tidy what a crash left (a torn last journal line,
 * partial rep directories, landed reps without their journal line). Nothing
 * finished is ever overwritten.
 */
export async function prepareRun(
  options: PrepareOptions,
): Promise<Result<PreparedRun, InputError>> {
  const { campaign } = options;
  const layout = resultsLayout(options.outDir);
  if (options.resume) {
    if (!existsSync(layout.journalFile)) {
      return err(
        inputError(
          '--resume',
          `${layout.root} has no ledger.jsonl`,
          'point --resume at a results directory redgreen wrote',
        ),
      );
    }
  } else {
    // A campaign generated from a skill's evals sits in the results directory it runs into.
    const generated = path.dirname(campaign.file) === layout.evalsDir ? [EVALS_DIR] : [];
    const fresh = await checkFreshOutput(layout.root, '--out', true, generated);
    if (!fresh.ok) return fresh;
  }

  const stale = await removeStaleWorkRoots();
  const workRoot = await createWorkRoot(options.keepWorkDirs);
  const computed = await computeIdentity(options, workRoot);
  if (!computed.ok) {
    await removeTree(workRoot);
    return computed;
  }
  const { identity, trees, libraries, fixtures, variants } = computed.value;
  const fail = async (error: InputError): Promise<Result<PreparedRun, InputError>> => {
    await removeTree(workRoot);
    return err(error);
  };

  if (options.resume) {
    const same = await sameIdentity(layout, identity, campaign.scenarios);
    if (!same.ok) return fail(same.error);
  } else {
    await mkdir(layout.repsDir, { recursive: true });
  }
  const lock = await lockResultsDir(layout.root);
  if (!lock.ok) return fail(lock.error);

  let adopted = 0;
  let extendedFrom: number | null = null;
  if (options.resume) {
    const tree = await repsTreeProblem(layout);
    if (tree !== undefined) {
      await lock.value();
      return fail(tree);
    }
    const extended = await extendRecordedSchedule(layout, campaign.reps, options.invocation);
    if (!extended.ok) {
      await lock.value();
      return fail(extended.error);
    }
    extendedFrom = extended.value;
    await repairJournalTail(layout.journalFile);
    await removePartialRepDirs(layout.repsDir);
    const journal = await readJournal(layout.journalFile);
    if (journal.ok) adopted = await adoptLandedReps(layout, journal.value);
  } else {
    await createJournal(layout.journalFile, {
      type: 'campaign',
      identity: identity.campaign,
      campaign: campaign.config.id,
      harness: harnessVersion(),
    });
  }

  const skills = await prepareSkills(campaign, layout, trees, libraries, workRoot);
  if (!skills.ok) {
    await lock.value();
    return fail(skills.error);
  }
  const first = options.models.models[0]?.choice;
  if (first === undefined) throw new Error('a run without a model');
  const record: CampaignRecord = {
    schemaVersion: 1,
    identity: identity.campaign,
    sessionIdentity: identity.session,
    campaign: { id: campaign.config.id, title: campaign.config.title, file: campaign.file },
    harnessVersion: harnessVersion(),
    invocation: options.invocation,
    model: {
      id: first.id,
      scripted: first.kind === 'scripted',
      policy: first.kind === 'scripted' ? first.policy : null,
      reason: first.kind === 'scripted' ? first.reason : 'live',
      baseUrl:
        first.kind === 'live' && first.baseUrl !== undefined ? displayBaseUrl(first.baseUrl) : null,
    },
    // Several models (or a profile): each recorded; a one-model campaign's record is as it always was.
    ...modelRecords(options.models),
    backend: campaign.backend,
    engine: options.engine,
    sandbox: options.sandbox,
    reps: campaign.reps,
    concurrency: campaign.concurrency,
    seed: campaign.seed,
    limits: campaign.limits,
    gates: [...campaign.gates],
    ...(campaign.droppedGates.length === 0 ? {} : { droppedGates: [...campaign.droppedGates] }),
    arms: campaign.arms.map((arm) => ({
      name: arm.name,
      role: arm.role,
      label: arm.label,
      layout: arm.layout,
      source: sourceRecord(arm),
      tree: trees.get(arm.name) ?? '',
      ...(arm.library === undefined
        ? {}
        : {
            library: {
              pluginName: skills.value.get(arm.name)?.library?.pluginName ?? '',
              overrides: arm.library.overrides.map((override) => ({
                skill: override.skill,
                source: skillSourceRecord(override.source),
              })),
              skills: (skills.value.get(arm.name)?.library?.skills ?? []).map((skill) => ({
                name: skill.name,
                dir: skill.dir,
                sha256: skill.sha256,
              })),
            },
          }),
    })),
    scenarios: campaign.scenarios.map((scenario) => ({
      id: scenario.id,
      title: scenario.config.title,
      ...identityFieldsOf(scenario.config),
      fixture: fixtureRecord(scenario.config),
      promptSha256: sha256Hex(scenario.prompt.source),
      sha256: scenario.sha256,
      dir: scenario.compiled.dir,
      shipped: isShippedScenario(scenario.compiled.dir),
    })),
    fixtures: Object.fromEntries(fixtures),
    shard: options.shard,
  };
  // A resumed directory keeps the campaign.json it was started with.
  if (!options.resume) {
    await writeFileAtomic(
      layout.campaignFile,
      `${JSON.stringify(campaignRecordSchema().parse(record), null, 2)}\n`,
    );
  }
  return ok({
    layout,
    identity,
    record,
    variants,
    skills: skills.value,
    workRoot,
    adopted,
    extendedFrom,
    staleRemoved: stale.removed.length,
    unownedWorkRoots: stale.unowned,
    release: lock.value,
  });
}

type Identity = ReturnType<typeof campaignIdentity>;

interface ComputedIdentity {
  readonly identity: Identity;
  readonly trees: ReadonlyMap<string, string>;
  readonly libraries: ReadonlyMap<string, ComposedLibrary>;
  readonly variants: ReadonlyMap<string, PreparedVariant>;
  readonly fixtures: ReadonlyMap<string, FixtureFingerprint>;
}

/**
 * On codex, each arm's skills (its library's and a scenario's opted-in
 * project skills) are installed one directory per bare name: two that would
 * share one are the campaign's input error, named with both files.
 */
async function codexSkillClashError(
  campaign: ResolvedCampaign,
  libraries: ReadonlyMap<string, ComposedLibrary>,
  variants: ReadonlyMap<string, PreparedVariant>,
): Promise<InputError | undefined> {
  if (!campaign.engines.includes('codex')) return undefined;
  for (const arm of campaign.arms) {
    const contents = libraries.get(arm.name)?.contents;
    const library = (contents?.skills ?? []).map((skill) => ({
      dir: bareSkillName(`${contents?.pluginName ?? ''}:${skill.name}`),
      from: `library skill ${skill.name} (skills/${skill.dir}/SKILL.md)`,
    }));
    const own = codexSkillClash(library);
    if (own !== undefined)
      return inputError(`arm ${arm.name} on engine codex`, own.problem, own.fix);
    for (const scenario of campaign.scenarios) {
      if (!givesProjectSkills(scenario.config.claudeDir)) continue;
      const key = variantKey(scenario.config.fixture, arm.layout);
      const variant = variants.get(key);
      if (variant === undefined) continue;
      const project = (await readProjectSkills(variant.dir)).skills.map((skill) => ({
        dir: path.basename(skill.dir),
        from: `fixture ${key}'s ${skill.file}`,
      }));
      const clash = codexSkillClash([...project, ...library]);
      if (clash !== undefined) {
        return inputError(
          `${scenario.compiled.file}: arm ${arm.name} on engine codex`,
          clash.problem,
          clash.fix,
        );
      }
    }
  }
  return undefined;
}

/** The campaign identity of this configuration: the skill trees, and the fixture variants built in `workRoot`. */
async function computeIdentity(
  options: Pick<PrepareOptions, 'campaign' | 'models' | 'engine' | 'sandboxKind'>,
  workRoot: string,
): Promise<Result<ComputedIdentity, InputError>> {
  const { campaign } = options;
  const libraries = await composeLibraries(campaign, workRoot);
  if (!libraries.ok) return libraries;
  const trees = new Map<string, string>();
  for (const arm of campaign.arms) {
    trees.set(arm.name, libraries.value.get(arm.name)?.tree ?? (await skillTree(arm)));
  }
  const variants = await buildVariants(campaign, workRoot);
  if (!variants.ok) return variants;
  const clash = await codexSkillClashError(campaign, libraries.value, variants.value);
  if (clash !== undefined) return err(clash);
  const fixtures = new Map<string, FixtureFingerprint>(
    [...variants.value].map(([key, variant]) => [key, variant.fingerprint]),
  );
  const identity = campaignIdentity({
    campaign,
    models: options.models,
    engine: options.engine,
    sandbox: options.sandboxKind,
    harness: harnessVersion(),
    trees,
    plugins: new Map(
      [...libraries.value].map(([arm, library]) => [arm, library.contents.pluginName]),
    ),
    fixtures,
  });
  return ok({ identity, trees, libraries: libraries.value, variants: variants.value, fixtures });
}

/**
 * Whether a directory being resumed is a run of this configuration: the same
 * session identity (skill texts, model, engine, fixtures, prompt, limits) and
 * the same scenario files as its reps are scored with; the error says what
 * differs and what to do. A directory from before scenario identity records
 * only the session identity, in its journal's first line.
 */
async function sameIdentity(
  layout: ResultsLayout,
  identity: Identity,
  scenarios: readonly ResolvedScenario[],
): Promise<Result<void, InputError>> {
  const journal = await readJournal(layout.journalFile);
  if (!journal.ok) {
    const detail =
      journal.error.kind === 'missing' ? 'is missing' : `is corrupt at line ${journal.error.line}`;
    return err(
      inputError(
        '--resume',
        `${layout.journalFile} ${detail}`,
        'resume a directory redgreen wrote, or start a new run',
      ),
    );
  }
  const record = await readCampaignRecord(layout.root, '--resume');
  if (!record.ok) return record;
  const session = record.value.sessionIdentity ?? journal.value.header.identity;
  if (session !== identity.session) {
    return err(
      inputError(
        '--resume',
        `${layout.root} is a run of a different campaign identity (${record.value.identity.slice(0, 12)}, this configuration is ${identity.campaign.slice(0, 12)}): its skill texts, model, engine, fixtures, prompt or limits differ`,
        'resume with the same campaign, arms and model, or start a new run with --out',
      ),
    );
  }
  const changes = changedScenarios(
    record.value.scenarios,
    scenarios.map((scenario) => ({
      id: scenario.id,
      sha256: scenario.sha256,
      file: scenario.compiled.file,
    })),
  );
  if (changes.length > 0) {
    return err(
      inputError(
        '--resume',
        `the scenario files changed since ${layout.root} was scored: ${changes.map(describeChange).join('; ')}; its new reps would be scored with other checks than its recorded ones`,
        `rescore the recorded reps with the files as they are now first (\`redgreen score ${layout.root}\`), then resume; or put the files back, or start a new run with --out`,
      ),
    );
  }
  const otherwise = await repsScoredOtherwise(layout, journal.value.reps.values(), scenarios);
  if (otherwise.length > 0) {
    return err(
      inputError(
        '--resume',
        `recorded reps of ${layout.root} were scored with another version of their scenario than campaign.json and the files now say (${otherwise.join('; ')}), as an interrupted \`redgreen score\` leaves them; its new reps would be scored with other checks than those`,
        `rescore the recorded reps with the files as they are now first (\`redgreen score ${layout.root}\`), then resume; or start a new run with --out`,
      ),
    );
  }
  return ok(undefined);
}

/**
 * The recorded reps whose score.json says they were scored with another
 * scenario hash than the current one (`green/s1-rep1: scenario 1234abcd5678`).
 * A rep with no readable score or none recorded is left out: a resume reruns
 * a damaged rep, and a score from before scenario identity says nothing.
 */
async function repsScoredOtherwise(
  layout: ResultsLayout,
  reps: Iterable<JournalRepLine>,
  scenarios: readonly ResolvedScenario[],
): Promise<string[]> {
  const found: string[] = [];
  for (const line of reps) {
    const current = scenarios.find((scenario) => scenario.id === line.scenario)?.sha256;
    if (current === undefined || (await recordedRepDirProblem(layout.root, line)) !== undefined) {
      continue;
    }
    const scoredWith = await recordedScenarioHash(
      path.join(layout.root, line.dir, REP_FILES.score),
    );
    if (scoredWith !== undefined && scoredWith !== current) {
      found.push(`${line.id}: scenario ${shortScenarioHash(scoredWith)}`);
    }
  }
  return found;
}

const scoredWithOnlySchema = z.looseObject({
  scoredWith: z.looseObject({ scenario: z.string() }).optional(),
});

/** The scenario hash a score.json records, or undefined when it records none or cannot be read. */
async function recordedScenarioHash(file: string): Promise<string | undefined> {
  try {
    return scoredWithOnlySchema.parse(await readJson(file)).scoredWith?.scenario;
  } catch {
    return undefined;
  }
}

/**
 * For `--resume --dry-run`: refuse what the real resume would refuse (a
 * directory of another campaign identity), building the fixtures in a work
 * root of its own that it removes; nothing in the directory is touched.
 */
export async function checkResumable(
  options: Pick<PrepareOptions, 'campaign' | 'models' | 'engine' | 'sandboxKind' | 'outDir'>,
): Promise<Result<void, InputError>> {
  const layout = resultsLayout(options.outDir);
  if (!existsSync(layout.journalFile)) {
    return err(
      inputError(
        '--resume',
        `${layout.root} has no ledger.jsonl`,
        'point --resume at a results directory redgreen wrote',
      ),
    );
  }
  const workRoot = await createWorkRoot(false);
  try {
    const computed = await computeIdentity(options, workRoot);
    if (!computed.ok) return computed;
    return await sameIdentity(layout, computed.value.identity, options.campaign.scenarios);
  } finally {
    await removeTree(workRoot);
  }
}

/**
 * A resume with more `--reps` than the directory scheduled extends its schedule:
 * campaign.json (otherwise kept as the run started it) records the new reps,
 * so reports and gates count the new reps as scheduled. Returns the old reps,
 * or null when nothing changed. (Fewer reps are refused before this.)
 */
async function extendRecordedSchedule(
  layout: ResultsLayout,
  reps: number,
  invocation: Invocation,
): Promise<Result<number | null, InputError>> {
  const record = await readCampaignRecord(layout.root, '--resume');
  if (!record.ok) return record;
  if (record.value.reps >= reps) return ok(null);
  const extended = campaignRecordSchema().parse({
    ...record.value,
    reps,
    invocation: { ...record.value.invocation, reps: invocation.reps },
  });
  await writeFileAtomic(layout.campaignFile, `${JSON.stringify(extended, null, 2)}\n`);
  return ok(record.value.reps);
}

/** Copy a composed (read-only) library into the results directory, keeping its modes. */
async function copyTree(from: string, to: string): Promise<void> {
  await mkdir(path.dirname(to), { recursive: true });
  await cp(from, to, { recursive: true });
}
