/**
 * Load a scenario folder: find `scenario.json` (or `.yaml`/`.yml`), refuse the
 * old `scoring.json` format with a pointer to `redgreen scenario migrate`,
 * validate every field, compile the report contract and every check, and
 * resolve the paths it names. Any problem is one InputError naming the file,
 * the field and the fix; nothing runs on a scenario that fails to load.
 *
 * The fixture recipe, its layouts and the prompt template's variables are
 * checked by the campaign's resolver, which loads the recipe.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fixtureFactShapes, installedFactPacks, packOfFact } from '../fixture/fixture-facts.js';
import { didYouMean } from '../lib/did-you-mean.js';
import { type InputError, inputError } from '../lib/input-error.js';
import { packageRoot } from '../lib/package-root.js';
import { err, ok, type Result } from '../lib/result.js';
import { shippedSkillDir, shippedSkillNames } from '../lib/shipped-skills.js';
import { parseYamlData } from '../lib/yaml-data.js';
import { type CheckNode, type CompileContext, compileCheck, leavesOf } from './check-schema.js';
import { compileObservation, type ObservationNode } from './compile-observation.js';
import { type CompiledSection, compileSections } from './compile-report.js';
import { selectorToolProblem } from './event-selector.js';
import { validateJudgeSpec } from './judge-spec.js';
import { firstPlaceholder } from './placeholders.js';
import { checkProblemError, scenarioFieldError } from './scenario-errors.js';
import { SCENARIO_ID, type ScenarioShell, scenarioShellSchema } from './scenario-schema.js';
import { knownFactsOf, registeredScenarioFields, scoreContributors } from './score-registry.js';
import { sessionStopOf, stopText } from './stop-mode.js';
import { JUDGED_VERB } from './verbs/judged.js';

export type { ObservationNode } from './compile-observation.js';
export type { CompiledSection } from './compile-report.js';

export const SCENARIO_FILES = ['scenario.json', 'scenario.yaml', 'scenario.yml'] as const;
export const OLD_SCORING_FILE = 'scoring.json';

export interface CalibrationRun {
  readonly policy: string;
  /** Absolute path of the skill directory, or of the library (checked when lint runs it). */
  readonly skillDir: string;
  /** When the run is a library arm: its overrides' absolute skill directories, by skill. */
  readonly library?: { readonly overrides: Readonly<Record<string, string>> } | undefined;
  readonly layout: string;
  readonly expect: 'pass' | 'fail';
  /** For a must-fail run: post checks that must be among the failing ones. */
  readonly failing: readonly string[];
}

/** A scenario, validated and compiled: what the engine, the runner and lint use. */
export interface CompiledScenario {
  readonly id: string;
  /** Absolute path of the scenario file. */
  readonly file: string;
  readonly dir: string;
  readonly config: ScenarioShell;
  /** Absolute path of the prompt template. */
  readonly promptTemplate: string;
  readonly promptVariables: Readonly<Record<string, string>>;
  /** Sections in reading order (a section another reads comes first). */
  readonly sections: readonly CompiledSection[];
  readonly pre: readonly CheckNode[];
  readonly post: readonly CheckNode[];
  readonly observe: readonly ObservationNode[];
  readonly calibration: readonly CalibrationRun[];
}

export interface LoadOptions {
  /** Scripted policies a calibration run may name; unchecked when undefined. */
  readonly knownPolicies?: readonly string[] | undefined;
  /**
   * The tool names a session of the scenario may call, on either backend, in
   * its stop mode with its tool changes (harness/session/session-tool-table.ts);
   * tool checks and tool event selectors are unchecked when undefined.
   */
  readonly sessionTools?:
    | ((scenario: Pick<ScenarioShell, 'stop' | 'tools' | 'calibration'>) => readonly string[])
    | undefined;
}

const MIGRATE_FIX = (dir: string): string =>
  `run \`redgreen scenario migrate ${dir}\` (it writes the new scenario.json with checks and removes scoring.json; see docs/writing-a-scenario.md)`;

/** The scenario file of a folder, refusing the old two-file format. */
export function findScenarioFile(dir: string): Result<string, InputError> {
  if (existsSync(path.join(dir, OLD_SCORING_FILE))) {
    return err(
      inputError(
        path.join(dir, OLD_SCORING_FILE),
        'is the old scoring format, which redgreen no longer reads',
        MIGRATE_FIX(dir),
      ),
    );
  }
  const found = SCENARIO_FILES.map((name) => path.join(dir, name)).filter((file) =>
    existsSync(file),
  );
  if (found.length === 0) {
    return err(
      inputError(
        dir,
        'has no scenario.json (or scenario.yaml)',
        'create one, e.g. with `redgreen scenario new <id>`',
      ),
    );
  }
  if (found.length > 1) {
    return err(
      inputError(
        dir,
        `has ${found.map((file) => path.basename(file)).join(' and ')}`,
        'keep exactly one scenario file',
      ),
    );
  }
  return ok(found[0] as string);
}

function readScenarioData(file: string): Result<unknown, InputError> {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    return err(
      inputError(
        file,
        `cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)})`,
        'check the path',
      ),
    );
  }
  if (!file.endsWith('.json')) {
    const data = parseYamlData(text);
    if (data.ok) return data;
    return err(
      data.error.field === ''
        ? inputError(file, `is not valid YAML (${data.error.problem})`, 'fix the syntax')
        : inputError(
            `${file}: ${data.error.field}`,
            data.error.problem,
            'write the node out, or alias a node outside the one that names it',
          ),
    );
  }
  try {
    return ok(JSON.parse(text));
  } catch (error) {
    const first = (error instanceof Error ? error.message : String(error)).split('\n')[0];
    return err(inputError(file, `is not valid JSON (${first})`, 'fix the syntax'));
  }
}

/**
 * Where a scenario's prompt template is: a path (with `/` or `.hbs`) from the
 * scenario's folder; a bare name from the `prompts/` folder beside it, or, when
 * that has no such template, from the prompts shipped with redgreen, so a
 * scenario copied out of the repository still finds `full-session` (as bare
 * skill names and scenario ids fall back to the shipped ones).
 */
function resolvePromptTemplate(dir: string, prompt: ScenarioShell['prompt']): string {
  const template = typeof prompt === 'string' ? prompt : prompt.template;
  if (template.includes('/') || template.endsWith('.hbs')) return path.resolve(dir, template);
  const beside = path.join(path.dirname(dir), 'prompts', `${template}.hbs`);
  const shipped = path.join(packageRoot(), 'scenarios', 'prompts', `${template}.hbs`);
  return !existsSync(beside) && existsSync(shipped) ? shipped : beside;
}

/** Load and compile the scenario in `dir`. */
export function loadScenarioDir(
  dir: string,
  options: LoadOptions = {},
): Result<CompiledScenario, InputError> {
  const absolute = path.resolve(dir);
  const found = findScenarioFile(absolute);
  if (!found.ok) return found;
  const file = found.value;
  const data = readScenarioData(file);
  if (!data.ok) return data;
  const value = data.value as Record<string, unknown> | null;
  if (
    value !== null &&
    typeof value === 'object' &&
    value.checks === undefined &&
    typeof value.prompt === 'string' &&
    value.report === undefined
  ) {
    return err(
      inputError(file, 'has no checks: it is the old scenario format', MIGRATE_FIX(absolute)),
    );
  }
  const packsProblem = unknownPackProblem(file, value);
  if (packsProblem !== undefined) return err(packsProblem);
  const shell = scenarioShellSchema().safeParse(data.value);
  if (!shell.success)
    return err(
      scenarioFieldError(file, shell.error, { schema: scenarioShellSchema(), data: data.value }),
    );
  const config = shell.data;
  const fieldProblem = unnamedPackFieldProblem(file, config, value);
  if (fieldProblem !== undefined) return err(fieldProblem);
  if (config.user !== undefined && config.stop !== 'complete') {
    return err(
      inputError(
        `${file}: user`,
        `has no effect under "stop": "${stopText(config.stop)}" (only a complete session is answered; a question ends any other)`,
        'set "stop": "complete" or remove the user block',
      ),
    );
  }
  const stopProblem = stopAtProblem(file, config);
  if (stopProblem !== undefined) return err(stopProblem);
  if (config.id !== path.basename(absolute)) {
    return err(
      inputError(
        `${file}: id`,
        `is "${config.id}" but the folder is ${path.basename(absolute)}`,
        `set "id": "${path.basename(absolute)}" or rename the folder`,
      ),
    );
  }
  const sections = Object.fromEntries(
    Object.entries(config.report ?? {}).map(([name, section]) => [
      name,
      typeof section.extract === 'string' ? section.extract : section.extract.kind,
    ]),
  );
  const packProblem = packProblemOf(config.packs ?? []);
  // Checks compile against every installed pack's facts, so a scenario's
  // other problems read as they always have; a fact of a pack the scenario
  // does not name is refused once they compile (unnamedPackFact below).
  const facts = fixtureFactShapes({
    packs: installedFactPacks(),
    variables: Object.keys(config.fixture.variables),
    scenario: config,
  });
  const compiledSections = compileSections(file, config, { sections, facts, packProblem });
  if (!compiledSections.ok) return compiledSections;
  const context: CompileContext = {
    sections,
    facts,
    packProblem,
    knownFacts: knownFactsOf(config.packs ?? [], config),
    sectionSpecs: Object.fromEntries(
      compiledSections.value.map((section) => [section.name, section.spec]),
    ),
    scenario: config,
    ...(options.sessionTools === undefined
      ? {}
      : {
          tools: {
            stop: typeof config.stop === 'string' ? `stop: ${config.stop}` : stopText(config.stop),
            names: options.sessionTools(config),
          },
        }),
  };
  // An event stop at a tool no session is offered would never stop the session.
  const stopAt = typeof config.stop === 'string' ? undefined : config.stop.at;
  for (const [index, selector] of (Array.isArray(stopAt) ? stopAt : [stopAt]).entries()) {
    if (selector === undefined) continue;
    const field = Array.isArray(stopAt) ? `stop.at[${index}]` : 'stop.at';
    const problem = selectorToolProblem(selector, field, context);
    if (problem !== undefined) {
      return err(inputError(`${file}: ${problem.field}`, problem.problem, problem.fix));
    }
  }

  const ids = new Set<string>();
  const claim = (id: string, where: string): InputError | undefined => {
    if (ids.has(id))
      return inputError(
        `${file}: ${where}.id`,
        `"${id}" is used twice`,
        'give every check and observation its own id',
      );
    ids.add(id);
    return undefined;
  };
  const compileList = (
    list: readonly unknown[],
    where: string,
  ): Result<CheckNode[], InputError> => {
    const nodes: CheckNode[] = [];
    for (const [index, raw] of list.entries()) {
      const compiled = compileCheck(raw, `${where}[${index}]`, context, undefined);
      if (!compiled.ok) return err(checkProblemError(file, compiled.problem));
      const duplicate = claim(compiled.node.id, `${where}[${index}]`);
      if (duplicate !== undefined) return err(duplicate);
      nodes.push(compiled.node);
    }
    return ok(nodes);
  };
  const pre = compileList(config.checks.pre, 'checks.pre');
  if (!pre.ok) return pre;
  const post = compileList(config.checks.post, 'checks.post');
  if (!post.ok) return post;
  const observe: ObservationNode[] = [];
  for (const [index, raw] of config.observe.entries()) {
    const compiled = compileObservation(raw, `observe[${index}]`, context);
    if (!compiled.ok) return err(checkProblemError(file, compiled.error));
    const duplicate = claim(compiled.value.id, `observe[${index}]`);
    if (duplicate !== undefined) return err(duplicate);
    observe.push(compiled.value);
  }

  const unnamedFact = unnamedPackFact(file, config, packProblem);
  if (unnamedFact !== undefined) return err(unnamedFact);

  const postIds = new Set(post.value.map((node) => node.id));
  if (config.judge !== undefined) {
    const problem = validateJudgeSpec(file, config.judge, [...postIds]);
    if (problem !== undefined) return err(problem);
  }
  const judgedProblem = judgedItemProblem(file, config, [
    ...pre.value,
    ...post.value,
    ...observedNodes(observe),
  ]);
  if (judgedProblem !== undefined) return err(judgedProblem);
  const calibration: CalibrationRun[] = [];
  const runs = [
    ...(config.calibration?.mustPass ?? []).map((run) => ({
      ...run,
      expect: 'pass' as const,
      failing: [] as string[],
    })),
    ...(config.calibration?.mustFail ?? []).map((run) => ({ ...run, expect: 'fail' as const })),
  ];
  for (const [index, run] of runs.entries()) {
    const list = run.expect === 'pass' ? 'mustPass' : 'mustFail';
    const where = `${file}: calibration.${list}[${run.expect === 'pass' ? index : index - (config.calibration?.mustPass.length ?? 0)}]`;
    if (options.knownPolicies !== undefined && !options.knownPolicies.includes(run.policy)) {
      return err(
        inputError(
          `${where}.policy`,
          `"${run.policy}" is neither a built-in policy nor a policy file of the scenario`,
          `use one of ${options.knownPolicies.join(', ')}, or write policies/${run.policy}.yaml in the scenario's folder (or in the policies/ folder beside it)`,
        ),
      );
    }
    const skillDir = calibrationSkillDir(run.skill ?? run.library ?? '', absolute);
    const library =
      run.library === undefined
        ? undefined
        : {
            overrides: Object.fromEntries(
              Object.entries(run.overrides ?? {}).map(([skill, dir]) => [
                skill,
                calibrationSkillDir(dir, absolute),
              ]),
            ),
          };
    if (run.skill !== undefined && !run.skill.includes('/') && !existsSync(skillDir)) {
      const names = shippedSkillNames();
      return err(
        inputError(
          `${where}.skill`,
          `"${run.skill}" is no skill text redgreen ships (a bare name is one of those; a folder is a path with a /)`,
          `${didYouMean(run.skill, names)}use one of ${names.join(', ')}, or the path of a skill folder relative to the scenario folder`,
        ),
      );
    }
    const unknownId = run.failing.find((id) => !postIds.has(id));
    if (unknownId !== undefined) {
      return err(
        inputError(
          `${where}.failing`,
          `names "${unknownId}", which is not a post check`,
          `${didYouMean(unknownId, [...postIds])}use post check ids: ${[...postIds].join(', ')}`,
        ),
      );
    }
    calibration.push({
      policy: run.policy,
      skillDir,
      ...(library === undefined ? {} : { library }),
      layout: run.layout,
      expect: run.expect,
      failing: run.failing,
    });
  }

  return ok({
    id: config.id,
    file,
    dir: absolute,
    config,
    promptTemplate: resolvePromptTemplate(absolute, config.prompt),
    promptVariables: typeof config.prompt === 'string' ? {} : config.prompt.variables,
    sections: compiledSections.value,
    pre: pre.value,
    post: post.value,
    observe,
    calibration,
  });
}

function observedNodes(observe: readonly ObservationNode[]): CheckNode[] {
  return observe.flatMap((observation) =>
    observation.kind === 'check' ? [observation.node] : observation.labels.map(({ node }) => node),
  );
}

/**
 * A `judged` check reads the judge's answer on one rubric item: the scenario
 * must have a judge block with that item.
 */
function judgedItemProblem(
  file: string,
  config: ScenarioShell,
  nodes: readonly CheckNode[],
): InputError | undefined {
  for (const leaf of nodes.flatMap(leavesOf)) {
    if (leaf.verb !== JUDGED_VERB) continue;
    const item = (leaf.params as { item?: unknown }).item;
    const rubric = config.judge?.rubric ?? {};
    if (typeof item === 'string' && Object.hasOwn(rubric, item)) continue;
    return inputError(
      `${file}: checks (${leaf.id}).item`,
      config.judge === undefined
        ? "a judged check needs the scenario's judge, and the scenario has no judge block"
        : `names "${String(item)}", which is not an item of judge.rubric`,
      'add a "judge" block whose rubric has that item (keyed by the post check it decides)',
    );
  }
  return undefined;
}

/** Ids of the scenario folders under `scenariosDir`, sorted. */
export function listScenarioIds(scenariosDir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(scenariosDir);
  } catch {
    return [];
  }
  return entries
    .filter((name) => SCENARIO_ID.test(name))
    .filter((name) => {
      const dir = path.join(scenariosDir, name);
      return (
        statSync(dir).isDirectory() &&
        [...SCENARIO_FILES, OLD_SCORING_FILE].some((file) => existsSync(path.join(dir, file)))
      );
    })
    .sort();
}

/**
 * The scenario folders one level down (`skills-panel/trigger-feature`), as
 * paths under `scenariosDir`: a group of scenarios is given by its folder.
 */
export function listNestedScenarioDirs(scenariosDir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(scenariosDir);
  } catch {
    return [];
  }
  const own = new Set(listScenarioIds(scenariosDir));
  return entries
    .filter((name) => !own.has(name) && statSync(path.join(scenariosDir, name)).isDirectory())
    .sort()
    .flatMap((group) =>
      listScenarioIds(path.join(scenariosDir, group)).map((id) =>
        path.join(scenariosDir, group, id),
      ),
    );
}

/**
 * A calibration run's skill directory: a bare name (no `/`) is one of the
 * skill texts redgreen ships (`skills-under-test/<name>`), as a bare recipe
 * name is one of its fixtures; a path is relative to the scenario folder.
 */
export function calibrationSkillDir(skill: string, scenarioDir: string): string {
  return skill.includes('/') ? path.resolve(scenarioDir, skill) : shippedSkillDir(skill);
}

/** A scenario folder from an id (under `scenariosDir`) or a path; an unknown id lists the known ones. */
export function resolveScenarioDir(
  idOrDir: string,
  scenariosDirs: string | readonly string[],
  input = 'scenario',
): Result<string, InputError> {
  if (idOrDir.includes('/') || idOrDir.startsWith('.')) {
    const dir = path.resolve(idOrDir);
    return existsSync(dir) && statSync(dir).isDirectory()
      ? ok(dir)
      : err(inputError(input, `${idOrDir} is not a directory`, 'pass a scenario folder or id'));
  }
  // An id is looked for in each folder in turn (the user's own scenarios/ before the package's).
  const dirs = [...new Set(typeof scenariosDirs === 'string' ? [scenariosDirs] : scenariosDirs)];
  const found = dirs.find((dir) => listScenarioIds(dir).includes(idOrDir));
  if (!SCENARIO_ID.test(idOrDir) || found === undefined) {
    const known = [...new Set(dirs.flatMap(listScenarioIds))].sort();
    // Nested scenarios have no id of their own here: they are given by folder.
    const nested = dirs.flatMap(listNestedScenarioDirs).map((dir) => {
      const relative = path.relative(process.cwd(), dir);
      return relative.startsWith('.') ? relative : `./${relative}`;
    });
    const folders =
      nested.length === 0
        ? 'pass a scenario folder (a path with a /)'
        : `pass a scenario folder (a path with a /), such as a nested one: ${nested.join(', ')}`;
    return err(
      inputError(
        input,
        `unknown scenario '${idOrDir}' (looked in ${dirs.join(', ')})`,
        known.length === 0 ? folders : `use one of: ${known.join(', ')}, or ${folders}`,
      ),
    );
  }
  return ok(path.join(found, idOrDir));
}

/**
 * What an event stop cannot do: stop at an answer (the scripted user's, not
 * a call the session makes), stop at a question nobody can be asked (the
 * question tool is offered only when `tools.add` names it), select a
 * conversation turn (a stopped session has one), or run with a scripted user
 * (an event stop works as a `report` session).
 */
function stopAtProblem(file: string, config: ScenarioShell): InputError | undefined {
  const { at } = sessionStopOf(config.stop);
  if (at === undefined) return undefined;
  const where = `${file}: stop.at`;
  if (at.some((selector) => selector.event === 'answer')) {
    return inputError(
      where,
      "names an answer, which is the scripted user's, not a call the session makes",
      'stop at the question (event "question"), or at a call',
    );
  }
  if (at.some((selector) => selector.turn !== undefined)) {
    return inputError(
      `${where}.turn`,
      'selects a conversation turn, but a session with an event stop has only its first',
      'drop turn from the stop (checks may select turns of stop: complete sessions)',
    );
  }
  const asks = config.tools?.add?.includes('AskUserQuestion') === true;
  if (
    at.some(
      (selector) =>
        selector.event === 'question' && (!asks || selector.via.some((via) => via === 'reply')),
    )
  ) {
    return inputError(
      where,
      'stops at a question, which a stopped session can only be asked through the question tool',
      'add "AskUserQuestion" to tools.add and give the question selector "via": ["tool"], or use "stop": "first-dispatch"',
    );
  }
  return undefined;
}

/** The fix for a pack a scenario uses and does not name: its `packs` with that pack added. */
function addPackFix(named: readonly string[], pack: string): string {
  return `add "packs": ${JSON.stringify([...named, pack])}`;
}

/** A pack-brought verb or extractor a scenario uses without naming its pack. */
function packProblemOf(named: readonly string[]): NonNullable<CompileContext['packProblem']> {
  return (what, name, owner) =>
    owner === undefined || named.includes(owner)
      ? undefined
      : {
          field: what === 'extractor' ? 'extract' : 'verb',
          problem: `uses the ${what} ${name}, which the ${owner} pack brings, and the scenario does not name that pack`,
          fix: addPackFix(named, owner),
        };
}

/**
 * The first placeholder in the scenario's report, checks or observations
 * naming a fact of an installed pack the scenario does not name: a scenario
 * sees the core's facts and those of the packs it names, no others.
 */
function unnamedPackFact(
  file: string,
  config: ScenarioShell,
  packProblem: NonNullable<CompileContext['packProblem']>,
): InputError | undefined {
  const named = fixtureFactShapes({
    packs: config.packs ?? [],
    variables: Object.keys(config.fixture.variables),
    scenario: config,
  });
  const found = firstPlaceholder(
    { report: config.report, checks: config.checks, observe: config.observe },
    (name) => named[name] === undefined,
  );
  if (found === undefined) return undefined;
  const problem = packProblem('fact', found.name, packOfFact(found.name, config));
  return problem === undefined
    ? undefined
    : inputError(`${file}: ${found.where}`, problem.problem, problem.fix);
}

/** A `packs` entry naming no installed pack. */
function unknownPackProblem(file: string, value: unknown): InputError | undefined {
  if (
    value === null ||
    typeof value !== 'object' ||
    !Array.isArray((value as { packs?: unknown }).packs)
  )
    return undefined;
  const installed = scoreContributors();
  for (const [index, pack] of (value as { packs: unknown[] }).packs.entries()) {
    if (typeof pack !== 'string' || installed.includes(pack)) continue;
    return inputError(
      `${file}: packs[${index}]`,
      `"${pack}" is no installed pack`,
      installed.length === 0
        ? 'remove it: no pack is installed'
        : `${didYouMean(pack, installed)}use one of ${installed.join(', ')}`,
    );
  }
  return undefined;
}

/** A field a pack adds that the scenario gives without naming the pack. */
function unnamedPackFieldProblem(
  file: string,
  config: ScenarioShell,
  raw: Record<string, unknown> | null,
): InputError | undefined {
  const named = config.packs ?? [];
  // In the order the packs declare their fields, so the one named is the same whatever the file's order.
  for (const { name: field, owner } of registeredScenarioFields()) {
    if (raw === null || !(field in raw) || owner === undefined || named.includes(owner)) continue;
    return inputError(
      `${file}: ${field}`,
      `is a field of the ${owner} pack, and the scenario does not name that pack`,
      addPackFix(named, owner),
    );
  }
  return undefined;
}
