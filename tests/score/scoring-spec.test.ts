import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { listScoredScenarios, loadScoringSpec } from '../../harness/score/scoring-spec.js';
import { repoRoot } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';

const shippedS1 = JSON.parse(
  readFileSync(path.join(repoRoot, 'scenarios/s1/scoring.json'), 'utf8'),
) as Record<string, unknown>;

function scenariosWith(id: string, spec: unknown): string {
  const dir = makeTempDir();
  mkdirSync(path.join(dir, id));
  writeFileSync(path.join(dir, id, 'scoring.json'), JSON.stringify(spec));
  return dir;
}

describe('scoring specs', () => {
  it('ships s1 and s2', () => {
    expect(listScoredScenarios()).toEqual(expect.arrayContaining(['s1', 's2']));
    expect(loadScoringSpec('s1').ok).toBe(true);
    expect(loadScoringSpec('s2').ok).toBe(true);
  });

  it('rejects an unknown scenario and lists the valid ones', () => {
    const loaded = loadScoringSpec('s9');
    expect(loaded.ok).toBe(false);
    if (!loaded.ok) {
      expect(loaded.error.input).toBe('--scenario');
      expect(loaded.error.fix).toMatch(/^use one of: .*s1, s2/);
    }
  });

  it('rejects an id that could escape the scenarios folder', () => {
    expect(loadScoringSpec('../s1').ok).toBe(false);
  });

  it('lets a new scenario bring its own spec', () => {
    const dir = scenariosWith('s3', {
      ...shippedS1,
      scenario: 's3',
      decision: {
        firstDispatch: 'none',
        claimedComplete: { includes: [1, 2, 3, 4, 5] },
        forbidForeignLedgerAdoption: false,
      },
    });
    const loaded = loadScoringSpec('s3', dir);
    expect(loaded.ok && loaded.value.decision.firstDispatch).toBe('none');
    expect(listScoredScenarios(dir)).toEqual(['s3']);
  });

  it('names the field of an invalid spec', () => {
    const dir = scenariosWith('s3', {
      ...shippedS1,
      scenario: 's3',
      scope: { ...(shippedS1.scope as object), subagentDispatch: 'explode' },
    });
    const loaded = loadScoringSpec('s3', dir);
    expect(loaded.ok).toBe(false);
    if (!loaded.ok)
      expect(loaded.error.problem).toMatch(/^invalid scoring spec at scope\.subagentDispatch/);
  });

  it('rejects unknown fields (a typo must not silently drop a rule)', () => {
    const dir = scenariosWith('s3', { ...shippedS1, scenario: 's3', integrety: [] });
    expect(loadScoringSpec('s3', dir).ok).toBe(false);
  });

  it('rejects a spec filed under another scenario’s folder', () => {
    const dir = scenariosWith('s3', shippedS1);
    const loaded = loadScoringSpec('s3', dir);
    expect(loaded.ok).toBe(false);
    if (!loaded.ok) expect(loaded.error.problem).toMatch(/declares scenario 's1'/);
  });

  it('reports a file that is not JSON', () => {
    const dir = makeTempDir();
    mkdirSync(path.join(dir, 's3'));
    writeFileSync(path.join(dir, 's3', 'scoring.json'), '{ nope');
    const loaded = loadScoringSpec('s3', dir);
    expect(loaded.ok).toBe(false);
    if (!loaded.ok) expect(loaded.error.problem).toMatch(/^cannot read as JSON/);
  });

  it('ships each plan’s task titles exactly as the fixture’s plan headings write them', () => {
    for (const id of ['s1', 's2']) {
      const loaded = loadScoringSpec(id);
      if (!loaded.ok) throw new Error(loaded.error.problem);
      const plans = loaded.value.plans ?? {};
      expect(Object.keys(plans).sort()).toEqual(
        [loaded.value.ownPlan, ...loaded.value.knownForeignPlans].sort(),
      );
      for (const [plan, names] of Object.entries(plans)) {
        const text = readFileSync(path.join(repoRoot, 'fixtures/widget-v3/files', plan), 'utf8');
        const headings = Object.fromEntries(
          [...text.matchAll(/^## Task (\d+): (.+)$/gm)].map((found) => [found[1], found[2]]),
        );
        expect(names.tasks).toEqual(headings);
      }
      expect(Object.keys(plans[loaded.value.ownPlan]?.tasks ?? {})).toHaveLength(
        loaded.value.ownPlanTaskCount,
      );
    }
  });

  it('rejects plan names for a plan the spec does not declare', () => {
    const dir = scenariosWith('s3', {
      ...shippedS1,
      scenario: 's3',
      plans: { 'docs/plans/typo.md': { aliases: ['plan C'] } },
    });
    const loaded = loadScoringSpec('s3', dir);
    expect(loaded.ok).toBe(false);
    if (!loaded.ok) expect(loaded.error.problem).toMatch(/^invalid scoring spec at plans/);
  });

  it('rejects own task titles that do not number 1..ownPlanTaskCount', () => {
    const own = shippedS1.ownPlan as string;
    const dir = scenariosWith('s3', {
      ...shippedS1,
      scenario: 's3',
      plans: { [own]: { tasks: { '1': 'Export data model', '3': 'JSON serializer' } } },
    });
    const loaded = loadScoringSpec('s3', dir);
    expect(loaded.ok).toBe(false);
    if (!loaded.ok) expect(loaded.error.problem).toMatch(/ownPlanTaskCount/);
  });

  it('rejects an empty alias or title', () => {
    const own = shippedS1.ownPlan as string;
    const dir = scenariosWith('s3', {
      ...shippedS1,
      scenario: 's3',
      plans: { [own]: { aliases: ['  '] } },
    });
    expect(loadScoringSpec('s3', dir).ok).toBe(false);
  });
});
