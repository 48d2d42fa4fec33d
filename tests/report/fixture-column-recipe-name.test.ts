/**
 * The Fixture column names the recipe a scenario builds by its name, as the
 * recorded fingerprints say, also when the scenario gives the recipe by path
 * (`../../fixtures/tidykit`); with no fingerprint recorded, as written.
 */
import { describe, expect, it } from 'vitest';
import { scenarioFiles } from '../../harness/report/scenario-files.js';

type Record = Parameters<typeof scenarioFiles>[0];

const scenario = (recipe: string) => ({
  id: 'wt',
  title: 'worktree',
  fixture: { recipe, scenario: 'pad-in-progress' },
  dir: '/scenarios/wt',
  sha256: 'a'.repeat(64),
});

describe('the Fixture column', () => {
  it('shows a recipe given by path by the name its fingerprint records', () => {
    const record = {
      scenarios: [scenario('../../fixtures/tidykit')],
      fixtures: { '../../fixtures/tidykit:pad-in-progress:default': { recipe: 'tidykit' } },
    } as unknown as Record;
    expect(scenarioFiles(record, [])[0]?.fixture).toBe('tidykit pad-in-progress');
  });

  it('keeps the recipe as written when no fingerprint was recorded for it', () => {
    const record = {
      scenarios: [scenario('../../fixtures/tidykit')],
      fixtures: { 'other:pad-in-progress:default': { recipe: 'other' } },
    } as unknown as Record;
    expect(scenarioFiles(record, [])[0]?.fixture).toBe('../../fixtures/tidykit pad-in-progress');
  });
});
