import path from 'node:path';
import type { Command } from 'commander';
import type { BuildFailure, SanityGateFailure } from '../fixture/index.js';
import { inputError } from '../lib/input-error.js';
import {
  defaultRecipeForHelp,
  formatHelpEntries,
  type HelpEntry,
  packRecipeHelp,
} from './cli-extensions.js';
import { ExitCode, failWithInputError } from './exit.js';
import { loadPacks } from './pack-loader.js';

/** The recipes of the core's own scenarios; a pack's are listed before them (cli/cli-extensions.ts). */
const CORE_RECIPES: readonly HelpEntry[] = [
  {
    name: 'textkit',
    lines: [
      'a small Node text-helpers project, scenario start (the',
      'skill-triggering scenarios), layouts default and claude-md (an',
      'untracked CLAUDE.md that says to write no tests), and scenario',
      'instructed (the skills panel CLAUDE.md scenario), layout default',
      '(see fixtures/README.md).',
    ],
  },
  {
    name: 'wordfreq',
    lines: [
      'a small Python package with pytest tests, scenario failing-test',
      '(one test fails at HEAD), layout default; provisioned: a .venv',
      'that sees the system pytest (needs python3 and python3-pytest).',
    ],
  },
  {
    name: 'slugkit',
    lines: [
      'a small Node package, scenario feature-worktree (branch slugify',
      'checked out in the linked worktree .worktrees/slugify, two commits',
      'ahead of main; the session starts there); beside-worktree (the same',
      'worktree beside the repository: slugkit/ and slugkit-slugify/),',
      'layout default.',
    ],
  },
];

function helpAfter(): string {
  return `
Forms:
  redgreen fixture <scenario> <layout> <dest>   build one variant at <dest>
  redgreen fixture --all <dir>                  build every variant in <dir>

Shipped recipes (fixtures/<name>, packs/<pack>/fixtures/<name>; --recipe <name>):
${formatHelpEntries([...packRecipeHelp(), ...CORE_RECIPES], () => 12).join('\n')}
A sanity gate runs before anything is placed at <dest>; for a recipe that
claims its tests pass, it runs the recipe's own \`node --test\` in the built
repository. A scenario's provision steps run once in the sandbox, without
network, and their result is cached in $REDGREEN_CACHE_DIR/provision
(default ~/.cache/redgreen/provision) by the hash of their inputs.

Exit codes: 0 built; 1 the sanity gate rejected the fixture (nothing written);
2 bad input.

Examples:
  redgreen fixture s1 scoped /tmp/s1-scoped --json
  redgreen fixture s2 flat /tmp/s2-flat --tz=-07:00
  redgreen fixture --all /tmp/fixtures
  redgreen fixture --recipe buildclock breaker-at-cap scoped /tmp/breaker-at-cap
  redgreen fixture --recipe relnotes resume-fix scoped /tmp/resume-fix
  redgreen fixture --recipe textkit start claude-md /tmp/textkit
  redgreen fixture --recipe wordfreq failing-test default /tmp/wordfreq
  redgreen fixture --recipe ./my-recipe --all /tmp/mine
`;
}

/** The --recipe help: the shipped recipes' names and the default the installed packs give. */
function recipeOptionHelp(): string {
  const names = [...packRecipeHelp(), ...CORE_RECIPES].map((entry) => entry.name);
  const fallback = defaultRecipeForHelp();
  return `a recipe shipped in fixtures/ or a pack by name (${names.join(', ')}), or a recipe directory (a path with a /); ${fallback === undefined ? 'no default: no installed pack names one' : `default ${fallback}`}`;
}

/** `redgreen fixture`: build fixture repositories from a recipe. */
export function registerFixtureCommand(program: Command): void {
  program
    .command('fixture')
    .description(
      'build a fixture repository (history, files, workspace layout) from a recipe, check it with the sanity gate, and print its fingerprint',
    )
    .argument('[scenario]', "scenario id from the recipe (each shipped recipe's are listed below)")
    .argument('[layout]', "layout id of that scenario (each shipped recipe's are listed below)")
    .argument('[dest]', 'directory to create; must not exist, or be empty')
    .option(
      '--all <dir>',
      'build every scenario/layout variant into <dir>/<scenario>-<layout> in one process',
    )
    .option(
      '--tz <offset>',
      'UTC offset (±HH:MM) at which the recipe wall-clock commit dates are read',
      '+00:00',
    )
    .option('--json', 'print the fingerprint as JSON (an array with --all) instead of a summary')
    .option(
      '--realistic-gitignore',
      'also write .superpowers/sdd/.gitignore (*) in flat layouts, as the released workspace script does; off by default so fixtures match the campaign',
    )
    .option('--recipe <name|dir>', recipeOptionHelp())
    .addHelpText('after', helpAfter())
    .action(
      async (
        scenario: string | undefined,
        layout: string | undefined,
        dest: string | undefined,
        rawOptions: unknown,
      ) => {
        process.exitCode = await runFixtureCommand([scenario, layout, dest], rawOptions);
      },
    );
}

async function runFixtureCommand(
  positionals: readonly (string | undefined)[],
  rawOptions: unknown,
): Promise<number> {
  // The argument count is checked first, so a wrong call fails before the option
  // schema and the fixture engine are loaded. `--all` is a string flag of commander's.
  const all = (rawOptions as { readonly all?: unknown }).all;
  const given = positionals.filter((value): value is string => value !== undefined);
  if (all !== undefined && given.length > 0) {
    return failWithInputError(
      inputError(
        'arguments',
        '--all takes no scenario, layout or dest',
        'give either --all <dir> or <scenario> <layout> <dest>',
      ),
    );
  }
  if (all === undefined && given.length !== 3) {
    return failWithInputError(
      inputError(
        'arguments',
        `expected <scenario> <layout> <dest>, got ${given.length} argument(s)`,
        'e.g. redgreen fixture s1 scoped /tmp/s1-scoped, or --all <dir>',
      ),
    );
  }
  await loadPacks();
  const { fixtureCommandOptionsSchema } = await import('../fixture/command-options.js');
  const parsed = fixtureCommandOptionsSchema.safeParse(rawOptions);
  if (!parsed.success) {
    return failWithInputError(
      inputError('options', parsed.error.issues[0]?.message ?? 'invalid', 'see --help'),
    );
  }
  const options = parsed.data;

  const fixture = await import('../fixture/index.js');
  const recipeDir =
    options.recipe === undefined
      ? fixture.defaultRecipeDir()
      : fixture.resolveRecipeDir(options.recipe);
  if (!recipeDir.ok) return failWithInputError(recipeDir.error);
  const recipe = fixture.loadRecipe(recipeDir.value);
  if (!recipe.ok) return failWithInputError(recipe.error);
  const common = {
    recipe: recipe.value,
    tz: options.tz,
    realisticGitignore: options.realisticGitignore ?? false,
  };

  if (options.all !== undefined) {
    const built = await fixture.buildAllFixtures({ ...common, dest: options.all });
    if (!built.ok) return reportFailure(built.error, fixture.formatGateFailure);
    if (options.json) {
      const fingerprints = built.value.map((variant) => variant.fingerprint);
      process.stdout.write(`${JSON.stringify(fingerprints, null, 2)}\n`);
    } else {
      for (const variant of built.value) {
        process.stdout.write(
          fixture.formatFixtureSummary(
            variant.path,
            variant.fingerprint,
            recipe.value.spec.scenarios[variant.fingerprint.scenario]?.start,
          ),
        );
      }
    }
    return ExitCode.ok;
  }

  const [scenario = '', layout = '', dest = ''] = given;
  const built = await fixture.buildFixture({ ...common, scenario, layout, dest });
  if (!built.ok) return reportFailure(built.error, fixture.formatGateFailure);
  if (options.json) process.stdout.write(`${JSON.stringify(built.value, null, 2)}\n`);
  else {
    const start = recipe.value.spec.scenarios[scenario]?.start;
    process.stdout.write(fixture.formatFixtureSummary(path.resolve(dest), built.value, start));
  }
  return ExitCode.ok;
}

function reportFailure(
  failure: BuildFailure,
  formatGate: (gate: SanityGateFailure) => string,
): number {
  if (failure.kind === 'gate') {
    process.stderr.write(`redgreen: ${formatGate(failure)}\n`);
    return ExitCode.failed;
  }
  return failWithInputError(failure);
}
