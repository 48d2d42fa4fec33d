/**
 * Resolve a scenario for a run, a rescore, `redgreen check` or `scenario
 * lint`: load and compile its file (harness/score/load-scenario.ts), load its
 * fixture recipe and check the scenario fits it (the fixture scenario, its
 * packs' fields, every calibration layout), and load its prompt template. Also the
 * placeholder facts of one rep: from a built fixture's fingerprint, or from
 * the recipe alone when the session ran elsewhere.
 */
import path from 'node:path';
import {
  fixtureFacts,
  loadRecipe,
  type Recipe,
  recipeFixtureFields,
  resolveRecipeDir,
} from '../fixture/index.js';
import { type InputError, inputError } from '../lib/input-error.js';
import { packageRoot } from '../lib/package-root.js';
import { err, ok, type Result } from '../lib/result.js';
import { policyNames } from '../model-server/index.js';
import type { LoadedPolicy } from '../model-server/load-policy.js';
import { type CompiledScenario, loadScenarioDir } from '../score/load-scenario.js';
import type { Facts } from '../score/placeholders.js';
import type { ScenarioShell } from '../score/scenario-schema.js';
import { sessionStopOf } from '../score/stop-mode.js';
import { recordedScenarioToolNames, scenarioToolNames } from '../session/session-tool-table.js';
import { unknownCheckoutProblem } from './checkout-names.js';
import {
  loadPromptTemplate,
  type PromptTemplate,
  renderedPromptProblem,
} from './prompt-template.js';
import { scenarioExtensionsOf } from './scenario-extensions.js';
import { scenarioSha256 } from './scenario-identity.js';
import { loadCalibrationPolicies, policyFilesOf } from './scenario-policies.js';

export interface ResolvedScenario {
  readonly id: string;
  /** The scenario file as validated (fixture, prompt, stop, its packs' fields, …). */
  readonly config: ScenarioShell;
  readonly compiled: CompiledScenario;
  readonly recipe: Recipe;
  readonly prompt: PromptTemplate;
  /** The scenario hash (scenario-identity.ts): what decides its reps' verdicts. */
  readonly sha256: string;
  /** The policy files its calibration names, loaded and checked (scenario-policies.ts). */
  readonly policies: ReadonlyMap<string, LoadedPolicy>;
}

/**
 * Where `check`, `score-reply` and `scenario lint` look for a scenario given
 * by id: the user's own `scenarios/` (in the current directory) first, then
 * the ones redgreen ships.
 */
export function scenarioSearchDirs(): string[] {
  return [...new Set([path.resolve('scenarios'), path.join(packageRoot(), 'scenarios')])];
}

function recipeDirFor(name: string, scenarioDir: string): string {
  if (name.includes('/')) return path.resolve(scenarioDir, name);
  // A shipped recipe by name (fixtures/, then the packs' folders); an unknown one is read where it would be.
  const shipped = resolveRecipeDir(name);
  return shipped.ok ? shipped.value : path.join(packageRoot(), 'fixtures', name);
}

/** Load the scenario in `dir` and check it against its recipe and prompt template. */
export async function resolveScenarioIn(
  dir: string,
): Promise<Result<ResolvedScenario, InputError>> {
  const policyFiles = policyFilesOf(path.resolve(dir));
  if (!policyFiles.ok) return policyFiles;
  const compiled = loadScenarioDir(dir, {
    knownPolicies: [...policyNames(), ...policyFiles.value.keys()],
    // A scenario without a calibration is one `redgreen check` scores: its checks may name the
    // tools of sessions recorded elsewhere (TodoWrite, Codex's apply_patch) as well.
    sessionTools: (scenario) =>
      (scenario.calibration === undefined ? recordedScenarioToolNames : scenarioToolNames)(
        sessionStopOf(scenario.stop).mode,
        scenario.tools,
      ),
  });
  if (!compiled.ok) return compiled;
  const { config, file } = compiled.value;
  const recipe = loadRecipe(recipeDirFor(config.fixture.recipe, compiled.value.dir));
  if (!recipe.ok) return recipe;
  const fixtureScenario = recipe.value.spec.scenarios[config.fixture.scenario];
  if (fixtureScenario === undefined) {
    return err(
      inputError(
        `${file}: fixture.scenario`,
        `"${config.fixture.scenario}" is not a scenario of the recipe`,
        `use one of ${Object.keys(recipe.value.spec.scenarios).join(', ')}`,
      ),
    );
  }
  const checkout = unknownCheckoutProblem(compiled.value, fixtureScenario.worktrees);
  if (checkout !== undefined) {
    return err(inputError(`${file}: ${checkout.field}`, checkout.problem, checkout.fix));
  }
  const packs = config.packs ?? [];
  for (const extension of scenarioExtensionsOf(packs)) {
    const misfit = extension.recipeProblem?.(config, fixtureScenario);
    if (misfit !== undefined) {
      return err(inputError(`${file}: ${misfit.field}`, misfit.problem, misfit.fix));
    }
  }
  for (const [index, run] of compiled.value.calibration.entries()) {
    if (fixtureScenario.layouts[run.layout] === undefined) {
      return err(
        inputError(
          `${file}: calibration (run ${index + 1}, ${run.policy}) layout`,
          `"${run.layout}" is not a layout of fixture scenario ${config.fixture.scenario}`,
          `use one of ${Object.keys(fixtureScenario.layouts).join(', ')}`,
        ),
      );
    }
  }
  const prompt = await loadPromptTemplate(
    compiled.value.promptTemplate,
    `${file}: prompt`,
    compiled.value.promptVariables,
    { packs, config },
  );
  if (!prompt.ok) return prompt;
  // Every arm needs the packs' variables named; only a one-folder arm its skill (load-campaign.ts checks that).
  const unnamed = renderedPromptProblem(prompt.value, { skillDir: false, packVariables: true });
  if (unnamed !== undefined) {
    return err(inputError(`${file}: prompt`, unnamed.problem, unnamed.fix));
  }
  const policies = await loadCalibrationPolicies(
    config,
    compiled.value.calibration,
    policyFiles.value,
  );
  if (!policies.ok) return policies;
  return ok({
    id: config.id,
    config,
    compiled: compiled.value,
    recipe: recipe.value,
    prompt: prompt.value,
    sha256: scenarioSha256(config, prompt.value.source),
    policies: policies.value,
  });
}

/** The fixture fields a campaign record and identity keep: variables only when there are some. */
export function fixtureRecord(config: ScenarioShell): {
  recipe: string;
  scenario: string;
  variables?: Record<string, string>;
} {
  const { recipe, scenario, variables } = config.fixture;
  return Object.keys(variables).length === 0
    ? { recipe, scenario }
    : { recipe, scenario, variables };
}

/** What a rep's fixture is, for its facts: a built fixture's fingerprint (the packs read their fields). */
export type BuiltFixture = Readonly<Record<string, unknown>>;

/**
 * The placeholder facts of one rep: from the built fixture when there is one,
 * else from the recipe (one layout, or every layout merged).
 */
export function scenarioFacts(
  scenario: ResolvedScenario,
  built?: BuiltFixture,
  layout?: string,
): Result<Facts, InputError> {
  let fixture: BuiltFixture;
  if (built !== undefined) {
    fixture = built;
  } else {
    const computed = recipeFixtureFields(scenario.recipe, scenario.config.fixture.scenario, layout);
    if (!computed.ok) return computed;
    fixture = computed.value.fields;
  }
  return ok(
    fixtureFacts({
      packs: scenario.config.packs ?? [],
      fixture,
      branch: scenario.recipe.spec.repository.branch,
      variables: scenario.config.fixture.variables,
      scenario: scenario.config,
    }),
  );
}
