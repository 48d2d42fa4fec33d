/**
 * A scenario names the packs whose extractors, verbs, fields and dispatch
 * params it uses: one that uses a pack's without naming it, or names a pack
 * not installed, is refused in one line with the fix; one that names no pack
 * loads with the core alone.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadScenarioDir } from '../../harness/score/load-scenario.js';
import {
  registerScoreContribution,
  removeScoreContribution,
} from '../../harness/score/score-registry.js';

const root = mkdtempSync(path.join(tmpdir(), 'redgreen-packs-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const scenarios = path.join(import.meta.dirname, '../../scenarios');

/** A copy of a shipped scenario with its file changed by `edit`. */
function copied(id: string, edit: (file: Record<string, unknown>) => void): string {
  const dir = path.join(root, `${id}-${Math.random().toString(36).slice(2, 8)}`, id);
  cpSync(path.join(scenarios, id), dir, { recursive: true });
  const file = path.join(dir, 'scenario.json');
  const data = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  edit(data);
  writeFileSync(file, JSON.stringify(data));
  return dir;
}

function refusal(dir: string): string {
  const loaded = loadScenarioDir(dir);
  if (loaded.ok) throw new Error(`${dir} loaded`);
  return `${loaded.error.input}: ${loaded.error.problem} (${loaded.error.fix})`;
}

describe('the packs a scenario names', () => {
  it('refuses a pack extractor, verb or field used without naming its pack, saying how to add it', () => {
    const unnamed = copied('s1', (file) => {
      delete file.packs;
    });
    expect(refusal(unnamed)).toMatch(
      /plans: is a field of the sdd pack, and the scenario does not name that pack \(add "packs": \["sdd"\]\)/,
    );
    const noCatalogue = copied('s1', (file) => {
      delete file.packs;
      delete file.plans;
      delete file.plan;
    });
    expect(refusal(noCatalogue)).toMatch(
      /report\.\w+\.extract: uses the extractor (task|tasks|path-judgements), which the sdd pack brings.*add "packs": \["sdd"\]/,
    );
    const probe = copied('s1-probe', (file) => {
      delete file.packs;
      delete file.plans;
      // Without the pack's plan its {{ownPlan}} premise cannot load either.
      delete file.plan;
      (file.checks as { pre: unknown[] }).pre = [];
    });
    expect(refusal(probe)).toMatch(
      /checks\.post\[\d+\]\.verb: uses the field dispatch\.(task|plan), which the sdd pack brings.*add "packs": \["sdd"\]/,
    );
  });

  it('refuses a pack that is not installed, listing those that are', () => {
    const dir = copied('s1', (file) => {
      file.packs = ['sdd', 'sdd-extra'];
    });
    expect(refusal(dir)).toMatch(
      /packs\[1\]: "sdd-extra" is no installed pack \(.*use one of sdd, skill-triggering\)/,
    );
  });

  it('with the core alone, a scenario naming no pack loads and an SDD one is refused', () => {
    const taken = removeScoreContribution('sdd');
    expect(taken).toBeDefined();
    try {
      expect(loadScenarioDir(path.join(scenarios, 'skill-triggering-feature')).ok).toBe(true);
      expect(refusal(path.join(scenarios, 's1'))).toMatch(
        /packs\[0\]: "sdd" is no installed pack \(use one of skill-triggering\)/,
      );
    } finally {
      if (taken !== undefined) registerScoreContribution('sdd', taken);
    }
    expect(loadScenarioDir(path.join(scenarios, 's1')).ok).toBe(true);
  });
});
