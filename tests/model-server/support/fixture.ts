/**
 * Widget-v3 fixture repositories for the tests, built with the fixture room's
 * public API (harness/fixture), identical to the campaign's.
 */
import path from 'node:path';
import { buildFixture, loadRecipe, resolveRecipeDir } from '../../../harness/fixture/index.js';
import { repoRoot } from '../../helpers/cli.js';
import { makeTempDir } from '../../helpers/temp-dir.js';

export type Scenario = 's1' | 's2';
export type Layout = 'flat' | 'scoped';

export async function widgetFixture(scenario: Scenario, layout: Layout): Promise<string> {
  const dest = path.join(makeTempDir('redgreen-ms-fixture-'), `${scenario}-${layout}`);
  const built = await buildFixture({ scenario, layout, dest });
  if (!built.ok)
    throw new Error(`fixture ${scenario}/${layout} failed: ${JSON.stringify(built.error)}`);
  return dest;
}

/** A fixture of one of the shipped recipes (by name), built the same way. */
export async function recipeFixture(
  recipe: string,
  scenario: string,
  layout: string,
): Promise<string> {
  const dir = resolveRecipeDir(recipe);
  if (!dir.ok) throw new Error(`recipe ${recipe}: ${dir.error.problem}`);
  const loaded = loadRecipe(dir.value);
  if (!loaded.ok) throw new Error(`recipe ${recipe}: ${loaded.error.problem}`);
  const dest = path.join(makeTempDir('redgreen-ms-fixture-'), `${recipe}-${scenario}-${layout}`);
  const built = await buildFixture({ recipe: loaded.value, scenario, layout, dest });
  if (!built.ok)
    throw new Error(
      `fixture ${recipe} ${scenario}/${layout} failed: ${JSON.stringify(built.error)}`,
    );
  return dest;
}
