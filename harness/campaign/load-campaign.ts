import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { resolveVariant } from '../fixture/index.js';
import { closestMatch } from '../lib/did-you-mean.js';
import { type InputError, inputError } from '../lib/input-error.js';
import { packageRoot } from '../lib/package-root.js';
import { err, ok, type Result } from '../lib/result.js';
import { inputErrorFromZod } from '../lib/zod-input-error.js';
import { type ResolvedLibrary, resolveLibrary } from '../library/library-source.js';
import { resolveSkillSource, type SkillSource, skillSourceLabel } from '../library/skill-source.js';
import { loadRunRecordings, type RunRecordings } from '../results/run-recordings.js';
import { renderedPromptProblem } from '../scenario/prompt-template.js';
import { type ResolvedScenario, resolveScenarioIn } from '../scenario/resolve-scenario.js';
import { conversationProblem } from '../session/conversation-support.js';
import { type Limits, limitsSchema } from '../session/session-limits.js';
import { stopProblem, toolChangesProblem } from '../session/session-tool-table.js';
import { parseArmOverride } from './arm-override.js';
import { packDefaultCampaign } from './campaign-extensions.js';
import {
  type BackendName,
  type CampaignConfig,
  campaignSchema,
  type GateConfig,
} from './config-schema.js';
import { metricPack } from './metric-gates-config.js';
import { checkOnly, gatesFor, type OnlySelection, selected } from './only.js';
import { scenarioFolderCandidates } from './scenario-entry.js';

export type { ResolvedScenario } from '../scenario/resolve-scenario.js';

/** An arm without any skill (`"skill": null`): a baseline whose sessions are given none. */
export interface NoSkill {
  readonly kind: 'none';
  readonly spec: 'none';
}
export const NO_SKILL: NoSkill = { kind: 'none', spec: 'none' };

export interface ResolvedArm {
  readonly name: string;
  readonly role: 'red' | 'green';
  readonly label: string;
  readonly layout: string;
  /** The skill folder's source; for a library arm, the library's own source; for a baseline, none. */
  readonly source: SkillSource | NoSkill;
  /** A library arm's sources (its overrides too); undefined for a one-folder arm. */
  readonly library?: ResolvedLibrary | undefined;
}

/** A campaign file with every reference checked and every CLI override applied. */
export interface ResolvedCampaign {
  readonly file: string;
  readonly config: CampaignConfig;
  readonly arms: readonly ResolvedArm[];
  readonly scenarios: readonly ResolvedScenario[];
  readonly reps: number;
  readonly concurrency: number;
  /** The first of `engines`: the engine of a one-engine campaign. */
  readonly backend: BackendName;
  /**
   * The engines every cell runs on (`engines`, `--engine`; else `[backend]`).
   * With more than one, the model axis is crossed with them (engine-axis.ts).
   */
  readonly engines: readonly BackendName[];
  readonly seed: number;
  readonly limits: Limits;
  readonly gates: readonly GateConfig[];
  /** The subset of cells `--only` selects, or null for the whole campaign. */
  readonly only: OnlySelection | null;
  /** The campaign file's gates that `--only` leaves out (they need cells it does not run). */
  readonly droppedGates: readonly GateConfig[];
  /** A replay campaign's recorded sessions (`replay`: the results directory that holds them). */
  readonly replay?: RunRecordings | undefined;
}

/** Values from the command line that replace the campaign file's. */
export interface CampaignOverrides {
  readonly reps?: number;
  readonly concurrency?: number;
  readonly backend?: BackendName;
  /** `--engine`: replaces the campaign's engines (and its backend). */
  readonly engines?: readonly BackendName[];
  readonly seed?: number;
  readonly maxTurns?: number;
  readonly sessionTimeoutSeconds?: number;
  readonly maxCostUsd?: number;
  /** `name=source` pairs from `--arm`; sources resolve against `cwd`. */
  readonly arms?: readonly string[];
  /** Run only these arms and scenarios (`--only`). */
  readonly only?: OnlySelection | null;
  readonly cwd: string;
}

/** The campaign file `redgreen run` runs when none is named: an installed pack's; undefined when none names one. */
export function defaultCampaignFile(): string | undefined {
  return packDefaultCampaign();
}

/** The campaign files redgreen ships, by name (`sdd-panel.campaign.json`), sorted. */
export function shippedCampaignNames(): string[] {
  try {
    return readdirSync(path.join(packageRoot(), 'scenarios'))
      .filter((name) => name.endsWith(CAMPAIGN_SUFFIX))
      .sort();
  } catch {
    return [];
  }
}

const CAMPAIGN_SUFFIX = '.campaign.json';

/**
 * Where a campaign given on the command line is: the path as given (from
 * the current directory), else one redgreen ships, by the same path from
 * its own folder (`scenarios/sdd-panel.campaign.json`), by file name, or by
 * id (`sdd-panel`), as shipped scenarios are found from anywhere.
 */
export function locateCampaignFile(file: string, cwd: string): string {
  const given = path.resolve(cwd, file);
  if (existsSync(given) || path.isAbsolute(file)) return given;
  const name = path.basename(file);
  const shipped = [
    path.join(packageRoot(), file),
    path.join(packageRoot(), 'scenarios', name),
    path.join(packageRoot(), 'scenarios', `${name}${CAMPAIGN_SUFFIX}`),
  ];
  return (
    shipped.find((candidate) => candidate.endsWith(CAMPAIGN_SUFFIX) && existsSync(candidate)) ??
    given
  );
}

/** Read and validate a campaign file (its references are checked by loadCampaign). */
export function readCampaignFile(file: string): Result<CampaignConfig, InputError> {
  if (!existsSync(file)) {
    const shipped = shippedCampaignNames();
    const near = closestMatch(
      path.basename(file).replace(CAMPAIGN_SUFFIX, ''),
      shipped.map((name) => name.replace(CAMPAIGN_SUFFIX, '')),
    );
    return err(
      inputError(
        'campaign',
        `${file} does not exist, and redgreen ships no campaign of that name`,
        `${near === undefined ? '' : `did you mean "${near}${CAMPAIGN_SUFFIX}"? `}pass a campaign file, or one redgreen ships: ${shipped.join(', ')} (or none for the default)`,
      ),
    );
  }
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    return err(
      inputError(file, `is not valid JSON (${(error as Error).message})`, 'fix the JSON syntax'),
    );
  }
  if (isEvalsCampaign(json)) {
    return err(
      inputError(
        file,
        "names skills' eval files (evals), which `redgreen run` expands into a campaign in the results directory",
        `run it with \`redgreen run ${file}\` (or check it with \`redgreen evals lint <skill-dir>\`)`,
      ),
    );
  }
  if (hasKeys(json, ['backend', 'engines'])) {
    return err(
      inputError(
        file,
        'gives both "backend" (one engine) and "engines" (several)',
        'keep one: "engines": ["claude-code", "codex"] runs every cell on each, "backend" on one',
      ),
    );
  }
  const parsed = campaignSchema.safeParse(json);
  if (!parsed.success)
    return err(inputErrorFromZod(file, parsed.error, { schema: campaignSchema, data: json }));
  return ok(parsed.data);
}

async function resolveScenario(
  entry: string,
  campaignDir: string,
  where: string,
): Promise<Result<ResolvedScenario, InputError>> {
  const candidates = scenarioFolderCandidates(entry, campaignDir);
  const scenarioDir = candidates.find((candidate) => existsSync(candidate));
  const [first = entry] = candidates;
  if (scenarioDir === undefined) {
    return err(
      candidates.length === 1
        ? inputError(
            where,
            `scenario folder ${first} does not exist`,
            'fix the path (relative to the campaign file)',
          )
        : inputError(
            where,
            `scenario "${entry}" has no folder ${first} (nor ${candidates[1] ?? first}, where redgreen scenario new writes it), and redgreen ships none of that id`,
            `create ${first}/ with a scenario.json (or run redgreen scenario new ${entry} beside the campaign file), give the path of its folder, or fix the id`,
          ),
    );
  }
  return resolveScenarioIn(scenarioDir);
}

/** A source spec with its path (a directory, or a git: source's repository) made absolute. */
function absoluteSource(spec: string, base: string): string {
  const git = /^git:(.+?)@([^@:]+(?::.*)?)$/.exec(spec);
  if (git !== null) return `git:${path.resolve(base, git[1] ?? '')}@${git[2] ?? ''}`;
  return spec.startsWith('git:') ? spec : path.resolve(base, spec);
}

/**
 * Read a campaign file and check everything it references — scenario
 * folders, scenario files and their checks, prompt templates and their
 * variables, fixture recipes and layouts, skill directories and git refs —
 * before any fixture is built or any session starts. The first problem comes back as one
 * InputError naming the field and the fix.
 */
/** A path with symlinks resolved where it exists (a missing path is read as written). */
function realPathOf(file: string): string {
  try {
    return realpathSync(file);
  } catch {
    return path.resolve(file);
  }
}

/**
 * A replay campaign that lies inside the results directory it replays (the
 * `replay.campaign.json` a recorded run writes) is part of that directory, which
 * is untrusted input: it reads its arms' texts only from inside it (`./skills/<arm>`,
 * as the run copied them). An arm naming a host directory or a git repository would
 * have that copied into the new results directory and every session.
 */
function replayArmOutside(config: CampaignConfig, file: string): InputError | undefined {
  if (config.replay === undefined) return undefined;
  const base = path.dirname(file);
  const results = realPathOf(path.resolve(base, config.replay));
  const inside = (target: string) => target.startsWith(`${results}${path.sep}`);
  if (!inside(realPathOf(file))) return undefined;
  for (const [index, arm] of config.arms.entries()) {
    const specs: [string, string][] =
      typeof arm.skill === 'string'
        ? [['skill', arm.skill]]
        : arm.library === undefined
          ? []
          : [
              ['library.source', arm.library.source],
              ...Object.entries(arm.library.overrides).map(([skill, spec]): [string, string] => [
                `library.overrides.${skill}`,
                spec,
              ]),
            ];
    for (const [field, spec] of specs) {
      if (!spec.startsWith('git:') && inside(realPathOf(path.resolve(base, spec)))) continue;
      return inputError(
        `${file}: arms[${index}].${field}`,
        `${spec} lies outside the results directory this campaign replays, and a replay campaign inside a results directory (untrusted input) reads its arms' texts only from there`,
        `name the arm's copy in the results directory (./skills/${arm.name}), or replay from a campaign file of your own (replay: <results dir>)`,
      );
    }
  }
  return undefined;
}

export async function loadCampaign(
  file: string,
  overrides: CampaignOverrides,
): Promise<Result<ResolvedCampaign, InputError>> {
  const absolute = locateCampaignFile(file, overrides.cwd);
  const read = readCampaignFile(absolute);
  if (!read.ok) return read;
  const config = read.value;
  const campaignDir = path.dirname(absolute);
  const outside = replayArmOutside(config, absolute);
  if (outside !== undefined) return err(outside);

  const sources = new Map(
    config.arms.map((arm, index) => [
      arm.name,
      {
        spec: arm.skill ?? arm.library?.source ?? 'none',
        base: campaignDir,
        input: `${absolute}: arms[${index}].${arm.skill === undefined ? 'library.source' : 'skill'}`,
      },
    ]),
  );
  // `--arm name:skill=source`: a library arm's override, resolved against the working directory.
  const librarySkills = new Map<string, Record<string, string>>();
  // Each replaced arm, with the label --arm gives it (undefined: named by its source).
  const overridden = new Map<string, string | undefined>();
  for (const text of overrides.arms ?? []) {
    const read = parseArmOverride(text);
    if (!read.ok) return read;
    const parsed = read.value;
    const skillAt = parsed.name.indexOf(':');
    if (skillAt > 0) {
      const armName = parsed.name.slice(0, skillAt);
      const skill = parsed.name.slice(skillAt + 1);
      const arm = config.arms.find((candidate) => candidate.name === armName);
      if (arm?.library === undefined) {
        return err(
          inputError(
            `--arm ${text}`,
            arm === undefined
              ? `the campaign has no arm "${armName}"`
              : `arm "${armName}" is a one-skill arm, whose skills cannot be replaced one by one`,
            `replace a library arm's skill (arms with "library": ${
              config.arms
                .filter((candidate) => candidate.library !== undefined)
                .map((candidate) => candidate.name)
                .join(', ') || 'none'
            }), or the arm's whole source with --arm ${armName}=<source>`,
          ),
        );
      }
      if (parsed.label !== undefined) {
        return err(
          inputError(
            `--arm ${text}`,
            'labels one skill of a library arm, and a label names a whole arm',
            `give the label with the arm's source (--arm ${armName}=<source>,label=<text>), or drop it`,
          ),
        );
      }
      const replaced = librarySkills.get(armName) ?? {};
      if (Object.hasOwn(replaced, skill)) {
        return err(
          inputError(
            `--arm ${parsed.name}`,
            'is given twice',
            'give each skill of an arm one source',
          ),
        );
      }
      replaced[skill] = absoluteSource(parsed.spec, overrides.cwd);
      librarySkills.set(armName, replaced);
      continue;
    }
    if (!sources.has(parsed.name)) {
      return err(
        inputError(
          `--arm ${text}`,
          `the campaign has no arm "${parsed.name}"`,
          `use one of ${config.arms.map((arm) => arm.name).join(', ')}`,
        ),
      );
    }
    if (overridden.has(parsed.name)) {
      return err(
        inputError(
          `--arm ${parsed.name}`,
          'is given twice',
          `give each arm one --arm ${parsed.name}=<source>`,
        ),
      );
    }
    overridden.set(parsed.name, parsed.label);
    sources.set(parsed.name, {
      spec: parsed.spec,
      base: overrides.cwd,
      input: `--arm ${parsed.name}`,
    });
  }

  const names = new Set<string>();
  for (const arm of config.arms) {
    if (names.has(arm.name)) {
      return err(
        inputError(
          `${absolute}: arms`,
          `arm "${arm.name}" appears twice`,
          'give every arm its own name',
        ),
      );
    }
    names.add(arm.name);
  }

  // Every entry is resolved first: an entry may be a path, and the scenario's id is its folder's.
  const listed: ResolvedScenario[] = [];
  for (const [index, entry] of config.scenarios.entries()) {
    const where = `${absolute}: scenarios[${index}]`;
    const scenario = await resolveScenario(entry, campaignDir, where);
    if (!scenario.ok) return scenario;
    if (listed.some((other) => other.id === scenario.value.id)) {
      return err(
        inputError(
          where,
          `scenario "${scenario.value.id}" is listed twice`,
          'list every scenario once (raise "reps" for more sessions)',
        ),
      );
    }
    listed.push(scenario.value);
  }
  const scenarioIds = listed.map((scenario) => scenario.id);

  const only = overrides.only ?? null;
  if (only !== null) {
    const known = checkOnly(only, {
      arms: config.arms.map((arm) => arm.name),
      scenarios: scenarioIds,
    });
    if (!known.ok) return known;
  }
  const scenarios = listed.filter(
    (scenario) => only === null || selected(only.scenarios, scenario.id),
  );

  const arms: ResolvedArm[] = [];
  for (const [index, arm] of config.arms.entries()) {
    if (only !== null && !selected(only.arms, arm.name)) continue;
    for (const scenario of scenarios) {
      const variant = resolveVariant(scenario.recipe, scenario.config.fixture.scenario, arm.layout);
      if (!variant.ok) {
        return err(
          inputError(
            `${absolute}: arms[${index}].layout`,
            `"${arm.layout}" is not a layout of scenario ${scenario.id}'s fixture`,
            variant.error.fix,
          ),
        );
      }
    }
    const source = sources.get(arm.name);
    if (source === undefined) throw new Error(`no skill source recorded for arm ${arm.name}`);
    if (arm.skill === null && !overridden.has(arm.name)) {
      // A baseline: no skill, so nothing for the prompt to name.
      arms.push({
        name: arm.name,
        role: arm.role,
        label: arm.label,
        layout: arm.layout,
        source: NO_SKILL,
      });
      continue;
    }
    if (arm.library === undefined) {
      for (const scenario of scenarios) {
        const unnamed = renderedPromptProblem(scenario.prompt, { skillDir: true });
        if (unnamed !== undefined) {
          return err(
            inputError(`scenario ${scenario.id} for arm ${arm.name}`, unnamed.problem, unnamed.fix),
          );
        }
      }
    }
    if (arm.library !== undefined) {
      // Overrides from the file resolve against it; --arm ones against the working directory.
      // An --arm that replaces the arm's library drops the file's overrides with it.
      const fileOverrides = Object.fromEntries(
        Object.entries(overridden.has(arm.name) ? {} : arm.library.overrides).map(
          ([skill, spec]) => [skill, absoluteSource(spec, campaignDir)],
        ),
      );
      const library = await resolveLibrary(
        {
          source: source.spec,
          overrides: { ...fileOverrides, ...librarySkills.get(arm.name) },
          name: arm.library.name,
        },
        source.base,
        source.input,
        {
          ...Object.fromEntries(
            Object.keys(fileOverrides).map((skill) => [
              skill,
              `${absolute}: arms[${config.arms.indexOf(arm)}].library.overrides.${skill}`,
            ]),
          ),
          ...Object.fromEntries(
            Object.keys(librarySkills.get(arm.name) ?? {}).map((skill) => [
              skill,
              `--arm ${arm.name}:${skill}`,
            ]),
          ),
        },
      );
      if (!library.ok) return library;
      arms.push({
        name: arm.name,
        role: arm.role,
        label: overridden.has(arm.name)
          ? (overridden.get(arm.name) ?? skillSourceLabel(library.value.source))
          : arm.label,
        layout: arm.layout,
        source: library.value.source,
        library: library.value,
      });
      continue;
    }
    const resolved = await resolveSkillSource(source.spec, source.base, source.input);
    if (!resolved.ok) return resolved;
    // A replaced text is named by its source and commit, unless --arm gives it a label.
    const label = overridden.has(arm.name)
      ? (overridden.get(arm.name) ?? skillSourceLabel(resolved.value))
      : arm.label;
    arms.push({
      name: arm.name,
      role: arm.role,
      label,
      layout: arm.layout,
      source: resolved.value,
    });
  }

  for (const [index, gate] of config.gates.entries()) {
    const where = `${absolute}: gates[${index}]`;
    if ('scenario' in gate && gate.scenario !== undefined && !scenarioIds.includes(gate.scenario)) {
      return err(
        inputError(
          where,
          `names scenario "${gate.scenario}", which the campaign does not run`,
          'fix the scenario id',
        ),
      );
    }
    if ('arm' in gate && gate.arm !== undefined && !names.has(gate.arm)) {
      return err(
        inputError(
          where,
          `names arm "${gate.arm}", which the campaign does not have`,
          'fix the arm name',
        ),
      );
    }
    if (gate.kind === 'metric-ratio' || gate.kind === 'metric-cap') {
      const problem = packMetricProblem(gate, scenarios);
      if (problem !== undefined) return err(inputError(where, problem.problem, problem.fix));
    }
    const gateRuns =
      only === null ||
      (gate.kind === 'max-disagreement-share' &&
        gate.scenario !== undefined &&
        selected(only.scenarios, gate.scenario));
    if (gate.kind === 'max-disagreement-share' && gateRuns) {
      const judged = scenarios.filter(
        (scenario) =>
          scenario.config.judge !== undefined &&
          (gate.scenario === undefined || scenario.id === gate.scenario),
      );
      if (judged.length === 0) {
        return err(
          inputError(
            where,
            `max-disagreement-share needs a judged scenario, and ${gate.scenario === undefined ? 'no scenario of the campaign has a judge block' : `scenario "${gate.scenario}" has no judge block`}`,
            'add a "judge" block to the scenario file (README: Second opinions and adjudication), or drop the gate',
          ),
        );
      }
    }
    const unknown =
      gate.kind === 'no-scenario-regresses' || gate.kind === 'engines-agree'
        ? (gate.scenarios ?? []).find((id) => !scenarioIds.includes(id))
        : gate.kind === 'trigger-recall-no-regression' ||
            gate.kind === 'trigger-precision-no-regression'
          ? [...gate.positives, ...gate.negatives].find((id) => !scenarioIds.includes(id))
          : undefined;
    const unknownArm =
      gate.kind === 'engines-agree'
        ? (gate.arms ?? []).find((name) => !config.arms.some((arm) => arm.name === name))
        : undefined;
    if (unknownArm !== undefined) {
      return err(
        inputError(
          where,
          `names arm "${unknownArm}", which the campaign does not run`,
          `use one of ${config.arms.map((arm) => arm.name).join(', ')}, or leave arms out to cover every arm`,
        ),
      );
    }
    if (unknown !== undefined) {
      return err(
        inputError(
          where,
          `names scenario "${unknown}", which the campaign does not run`,
          'fix the scenario id, or leave scenarios out to cover every scenario',
        ),
      );
    }
    if (
      gate.kind === 'green-better' ||
      gate.kind === 'no-regression' ||
      gate.kind === 'no-scenario-regresses' ||
      gate.kind === 'trigger-recall-no-regression' ||
      gate.kind === 'trigger-precision-no-regression'
    ) {
      const roles = new Set(config.arms.map((arm) => arm.role));
      if (!roles.has('red') || !roles.has('green')) {
        return err(
          inputError(
            where,
            `${gate.kind} compares a red and a green arm`,
            'give the campaign one arm of each role',
          ),
        );
      }
    }
  }

  const engines: readonly BackendName[] = overrides.engines ??
    (overrides.backend === undefined ? config.engines : undefined) ?? [
      overrides.backend ?? config.backend,
    ];
  const backend = engines[0] ?? config.backend;
  // Each engine must be able to run each scenario: a refusal names the engine when there are several.
  const onEngine = (engine: BackendName) => (engines.length > 1 ? ` (engine ${engine})` : '');
  const otherEngine =
    engines.length > 1
      ? 'or drop the engine from "engines"/--engine'
      : 'or run with another --backend';
  for (const engine of engines) {
    for (const scenario of scenarios) {
      const problem =
        scenario.config.tools === undefined
          ? undefined
          : toolChangesProblem(engine, scenario.config.tools);
      if (problem !== undefined) {
        return err(
          inputError(
            `${scenario.compiled.file}: tools.${problem.field}`,
            `${problem.problem}${onEngine(engine)}`,
            `${problem.fix}, ${otherEngine}`,
          ),
        );
      }
    }
    for (const scenario of scenarios) {
      const problem = conversationProblem(engine, scenario.config.user);
      if (problem !== undefined) {
        return err(
          inputError(
            `${scenario.compiled.file}: ${problem.field}`,
            `${problem.problem}${onEngine(engine)}`,
            `${problem.fix}, ${otherEngine}`,
          ),
        );
      }
    }
    for (const scenario of scenarios) {
      const problem = stopProblem(engine, scenario.config.stop, scenario.config.user !== undefined);
      if (problem !== undefined) {
        return err(
          inputError(
            `${scenario.compiled.file}: ${scenario.config.user === undefined ? 'stop' : 'user'}`,
            `${problem.problem}${onEngine(engine)}`,
            `${problem.fix}, ${otherEngine}`,
          ),
        );
      }
    }
  }

  const limitsInput = {
    ...config.limits,
    ...(overrides.maxTurns === undefined ? {} : { maxTurns: overrides.maxTurns }),
    ...(overrides.sessionTimeoutSeconds === undefined
      ? {}
      : { sessionTimeoutSeconds: overrides.sessionTimeoutSeconds }),
    ...(overrides.maxCostUsd === undefined ? {} : { maxCostUsd: overrides.maxCostUsd }),
  };
  const checkedLimits = limitsSchema.safeParse(limitsInput);
  if (!checkedLimits.success)
    return err(
      inputErrorFromZod(
        'limits (campaign file or --max-turns/--session-timeout/--max-cost)',
        checkedLimits.error,
      ),
    );
  const limits: Limits = checkedLimits.data;
  const gates =
    only === null
      ? { kept: config.gates, dropped: [] }
      : gatesFor(
          config.gates,
          only,
          new Map(config.arms.map((arm) => [arm.name, arm.role])),
          config.scenarios,
        );
  let replay: RunRecordings | undefined;
  if (config.replay !== undefined) {
    const recorded = await loadRunRecordings(
      path.resolve(campaignDir, config.replay),
      `${absolute}: replay`,
    );
    if (!recorded.ok) return recorded;
    replay = recorded.value;
  }
  return ok({
    file: absolute,
    config,
    arms,
    scenarios,
    reps: overrides.reps ?? config.reps,
    concurrency: overrides.concurrency ?? config.concurrency,
    backend,
    engines,
    seed: overrides.seed ?? config.seed,
    limits,
    gates: gates.kept,
    only,
    droppedGates: gates.dropped,
    ...(replay === undefined ? {} : { replay }),
  });
}

/** Whether parsed JSON is a campaign that names eval files (it has `evals`). */
/** True when the JSON is an object that has each of the keys. */
function hasKeys(json: unknown, keys: readonly string[]): boolean {
  return (
    typeof json === 'object' &&
    json !== null &&
    !Array.isArray(json) &&
    keys.every((key) => key in json)
  );
}

function isEvalsCampaign(json: unknown): boolean {
  return typeof json === 'object' && json !== null && !Array.isArray(json) && 'evals' in json;
}

/**
 * A metric gate on a pack's metric over a scenario that does not name the
 * pack: no rep of it would record the metric, so the gate could never decide.
 */
function packMetricProblem(
  gate: { readonly metric: string; readonly scenario?: string | undefined },
  scenarios: readonly {
    readonly id: string;
    readonly config: { readonly packs?: readonly string[] | undefined };
  }[],
): { problem: string; fix: string } | undefined {
  const pack = metricPack(gate.metric);
  if (pack === undefined) return undefined;
  const covered = scenarios.filter(
    (scenario) => gate.scenario === undefined || scenario.id === gate.scenario,
  );
  const without = covered.find((scenario) => !(scenario.config.packs ?? []).includes(pack));
  if (without === undefined) return undefined;
  return {
    problem: `metric ${gate.metric} is the ${pack} pack's, and scenario "${without.id}" does not name that pack, so none of its reps would record it`,
    fix:
      gate.scenario === undefined
        ? `give the gate "scenario" of one whose "packs" list ${pack}, or add "${pack}" to ${without.id}'s "packs"`
        : `add "${pack}" to ${without.id}'s "packs", or gate on a core metric`,
  };
}
