/**
 * The scenario room's extension point: prompt variables a pack supplies from
 * a scenario's own fields, and how a pack checks its fields of a scenario
 * against the recipe's fixture scenario. A pack's part applies to the
 * scenarios that name it (`packs`); a scenario naming none resolves with the
 * core alone. installPacks hands each pack's part here before any command
 * runs; nothing registers itself on import.
 */
import type { ScenarioShell } from '../score/scenario-schema.js';

/** A prompt variable a pack supplies, valued from the scenario file. */
export interface PromptVariableSource {
  /** The template variable (`{{name}}`). */
  readonly name: string;
  /** Its value for a scenario; undefined when the scenario gives none. */
  readonly valueOf: (scenario: ScenarioShell) => string | undefined;
  /** Why a template may not use it when the scenario gives none (`the scenario has no …`). */
  readonly absentProblem: string;
  /** How the scenario gives it (`give the scenario a "…"`). */
  readonly absentFix: string;
  /** What sessions would miss if the rendered prompt left it out when the scenario gives it. */
  readonly unmentionedProblem: string;
}

/** A pack's field of a scenario that does not fit the recipe's fixture scenario. */
export interface ScenarioFieldProblem {
  /** The scenario field at fault. */
  readonly field: string;
  readonly problem: string;
  readonly fix: string;
}

export interface ScenarioExtension {
  readonly promptVariables?: readonly PromptVariableSource[];
  /** The pack's check of a scenario against its recipe's fixture scenario (plain data). */
  readonly recipeProblem?: (
    scenario: ScenarioShell,
    fixtureScenario: Readonly<Record<string, unknown>>,
  ) => ScenarioFieldProblem | undefined;
}

const registered = new Map<string, ScenarioExtension>();

/** Adds a pack's part (installPacks calls it once for every pack). */
export function registerScenarioExtension(pack: string, extension: ScenarioExtension): void {
  if (registered.get(pack) === extension) return;
  if (registered.has(pack)) throw new Error(`pack ${pack} extends the scenario room twice`);
  const taken = new Set(
    [...registered.values()].flatMap((known) => (known.promptVariables ?? []).map((v) => v.name)),
  );
  for (const variable of extension.promptVariables ?? []) {
    if (taken.has(variable.name) || CORE_VARIABLES.includes(variable.name)) {
      throw new Error(`the prompt variable ${variable.name} is supplied twice (pack ${pack})`);
    }
  }
  registered.set(pack, extension);
}

/** The variables every session's prompt is rendered with, whatever its packs. */
export const CORE_VARIABLES: readonly string[] = ['skillDir', 'fixtureRepo', 'startDir'];

/** The parts of the packs a scenario names, in installation order. */
export function scenarioExtensionsOf(
  packs: readonly string[] | undefined,
): readonly ScenarioExtension[] {
  return [...registered]
    .filter(([pack]) => packs === undefined || packs.includes(pack))
    .map(([, extension]) => extension);
}

/** The prompt variables of the packs named (every installed pack's when undefined). */
export function promptVariableSources(
  packs: readonly string[] | undefined,
): readonly PromptVariableSource[] {
  return scenarioExtensionsOf(packs).flatMap((extension) => extension.promptVariables ?? []);
}

/** The installed pack that supplies a prompt variable, and its source, if one does. */
export function promptVariableOwner(
  name: string,
): { readonly pack: string; readonly source: PromptVariableSource } | undefined {
  for (const [pack, extension] of registered) {
    const source = (extension.promptVariables ?? []).find((variable) => variable.name === name);
    if (source !== undefined) return { pack, source };
  }
  return undefined;
}
