/**
 * Widget-v3 fixture repositories for the tests, built with the fixture room's
 * public API (harness/fixture), identical to the campaign's.
 */
import path from 'node:path';
import { buildFixture } from '../../../harness/fixture/index.js';
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
