/**
 * What a pack adds to the command line, gathered in one value: flags of the
 * check commands (check-flags.ts) and the help of its fixture recipes. installPacks hands each pack's here; the commands read
 * them when they are built, after installation.
 */
import { type CheckFlag, registerCheckFlags } from './check-flags.js';

export interface CliExtensions {
  /** Flags added to `redgreen check` and `redgreen score-reply`. */
  readonly checkFlags?: readonly CheckFlag[];
  /** The pack's fixture recipes, as `redgreen fixture --help` lists them. */
  readonly recipeHelp?: readonly HelpEntry[];
}

const recipes: HelpEntry[] = [];

export function registerCliExtensions(pack: string, extensions: CliExtensions): void {
  registerCheckFlags(pack, extensions.checkFlags ?? []);
  recipes.push(...(extensions.recipeHelp ?? []));
}

let defaultRecipeSource: () => string | undefined = () => undefined;

/**
 * Where `redgreen fixture --help` reads the default recipe from: the fixture
 * room's own rule (the first installed pack that names one), handed over by
 * installPacks so this module loads nothing of the fixture engine.
 */
export function setDefaultRecipeSource(source: () => string | undefined): void {
  defaultRecipeSource = source;
}

/** The recipe `redgreen fixture` builds when none is named; undefined when no installed pack names one. */
export function defaultRecipeForHelp(): string | undefined {
  return defaultRecipeSource();
}

/** The installed packs' fixture recipes, in installation order. */
export function packRecipeHelp(): readonly HelpEntry[] {
  return recipes;
}

/** Named entries of a command's help (a policy, a recipe): the name in a column, its lines beside it. */
export interface HelpEntry {
  /** The name the command takes (`--policy <name>`, `--recipe <name>`). */
  readonly name: string;
  /** What it is or does, one help line each (about 76 columns). */
  readonly lines: readonly string[];
}

/** Each entry's lines, its name padded to `column(name)`, continuation lines under its text. */
export function formatHelpEntries(
  entries: readonly HelpEntry[],
  column: (name: string) => number,
): string[] {
  return entries.flatMap(({ name, lines }) => {
    const width = column(name);
    return lines.map((line, index) =>
      index === 0 ? `  ${name.padEnd(width)}${line}` : `${' '.repeat(2 + width)}${line}`,
    );
  });
}
