/**
 * The scenario hash covers what decides a verdict and nothing else, the
 * campaign identity covers the scenario hashes, and the reports say when a
 * scenario's reps were scored with two versions of it (issue 27, item 1).
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REP_COLUMNS } from '../../harness/report/results-schema.js';
import { type ScenarioFiles, scoredWithText } from '../../harness/report/scenario-files.js';
import { resolveScenarioIn } from '../../harness/scenario/resolve-scenario.js';
import {
  changedScenarios,
  combinedIdentity,
  scenarioSha256,
} from '../../harness/scenario/scenario-identity.js';
import type { ScenarioShell } from '../../harness/score/scenario-schema.js';
import { repoRoot } from '../helpers/cli.js';

async function s1(): Promise<ScenarioShell & { promptSource: string; sha256: string }> {
  const resolved = await resolveScenarioIn(path.join(repoRoot, 'scenarios/s1'));
  if (!resolved.ok) throw new Error(resolved.error.problem);
  return {
    ...resolved.value.config,
    promptSource: resolved.value.prompt.source,
    sha256: resolved.value.sha256,
  };
}

describe('the scenario hash', () => {
  it('is what a resolved scenario carries, and ignores calibration, judge and prose', async () => {
    const { promptSource, sha256, ...config } = await s1();
    expect(scenarioSha256(config, promptSource)).toBe(sha256);
    const prose = {
      ...config,
      title: 'another title',
      description: 'words',
      calibration: undefined,
      judge: undefined,
    };
    expect(scenarioSha256(prose, promptSource)).toBe(sha256);
  });

  it('changes with a check, a section of the contract and the prompt template (planted negatives)', async () => {
    const { promptSource, sha256, ...config } = await s1();
    const edited = structuredClone(config.checks.post) as { task?: number }[];
    if (edited[0] !== undefined) edited[0].task = 2;
    expect(
      scenarioSha256({ ...config, checks: { ...config.checks, post: edited } }, promptSource),
    ).not.toBe(sha256);
    expect(scenarioSha256({ ...config, report: {} }, promptSource)).not.toBe(sha256);
    expect(scenarioSha256(config, `${promptSource}\n`)).not.toBe(sha256);
  });

  it('enters the campaign identity, and a change is listed by scenario with its file', () => {
    const a = 'a'.repeat(64);
    const b = 'b'.repeat(64);
    expect(combinedIdentity('s'.repeat(64), [{ id: 's1', sha256: a }])).not.toBe(
      combinedIdentity('s'.repeat(64), [{ id: 's1', sha256: b }]),
    );
    expect(
      changedScenarios(
        [{ id: 's1', sha256: a }, { id: 's2', sha256: a }, { id: 'old' }],
        [
          { id: 's1', sha256: b, file: '/x/s1/scenario.json' },
          { id: 's2', sha256: a, file: '/x/s2/scenario.json' },
          { id: 'old', sha256: b, file: '/x/old/scenario.json' },
        ],
      ),
    ).toEqual([{ id: 's1', file: '/x/s1/scenario.json', recorded: a, now: b }]);
  });
});

describe('what the reports say a scenario was scored with', () => {
  const files = (scoredWith: ScenarioFiles['scoredWith']): ScenarioFiles => ({
    id: 's1',
    title: 'S1',
    fixture: 'widget-v3 s1',
    dir: '/x/s1',
    sha256: 'a'.repeat(64),
    scoredWith,
  });

  it('names the hash and the rescore date', () => {
    expect(scoredWithText(files([{ sha256: 'a'.repeat(64), reps: 2, rescoredAt: null }]))).toBe(
      `scored with scenario ${'a'.repeat(12)} (2 reps)`,
    );
    expect(
      scoredWithText(
        files([{ sha256: 'a'.repeat(64), reps: 1, rescoredAt: '2026-12-02T10:00:00.000Z' }]),
      ),
    ).toBe(`rescored with scenario ${'a'.repeat(12)} on 2026-12-02 (1 rep)`);
  });

  it('calls reps scored with two versions of the scenario MIXED', () => {
    const text = scoredWithText(
      files([
        { sha256: 'a'.repeat(64), reps: 1, rescoredAt: null },
        { sha256: null, reps: 1, rescoredAt: null },
      ]),
    );
    expect(text).toMatch(
      /^MIXED: scored with scenario a{12} \(1 rep\); scored before scenario identity/,
    );
    expect(text).toContain('redgreen score');
  });

  it('gives results.csv the rep hash and rescore columns after the documented ones', () => {
    expect(REP_COLUMNS.slice(-2)).toEqual(['scenario_sha256', 'rescored_at']);
  });
});
