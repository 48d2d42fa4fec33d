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
import { fixtureFactShapes } from '../../harness/fixture/fixture-facts.js';
import { loadScenarioDir } from '../../harness/score/load-scenario.js';
import {
  registerScoreContribution,
  removeScoreContribution,
} from '../../harness/score/score-registry.js';
import { runCli } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';

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

  it("sees only the facts of the packs it names: the core's alone when it names none", () => {
    const core = fixtureFactShapes({ packs: [], variables: ['name'], scenario: {} });
    expect(Object.keys(core).sort()).toEqual(['branch', 'var.name']);
    const sdd = fixtureFactShapes({ packs: ['sdd'], variables: [], scenario: {} });
    expect(Object.keys(sdd)).toEqual(expect.arrayContaining(['branch', 'ledgers', 'citedHashes']));
    const ledgersCheck = {
      id: 'ledgers-present',
      verb: 'files-matching',
      globs: ['{{ledgers}}'],
      min: 1,
    };
    const addCheck = (file: Record<string, unknown>): void => {
      const checks = file.checks as { post: unknown[] };
      checks.post.push(ledgersCheck);
    };
    // Planted: a generic scenario that names no pack uses sdd's fact.
    const unnamed = copied('skill-triggering-feature', addCheck);
    expect(refusal(unnamed)).toMatch(
      /checks\.post\[\d+\]\.globs\[0\]: uses the fact ledgers, which the sdd pack brings, and the scenario does not name that pack \(add "packs": \["sdd"\]\)/,
    );
    const named = copied('skill-triggering-feature', (file) => {
      addCheck(file);
      file.packs = ['sdd'];
    });
    expect(loadScenarioDir(named).ok).toBe(true);
    // A name no pack has stays the core's message.
    const stray = copied('skill-triggering-feature', (file) => {
      (file.checks as { post: unknown[] }).post.push({ ...ledgersCheck, globs: ['{{nothing}}'] });
    });
    expect(refusal(stray)).toMatch(
      /names the placeholder \{\{nothing\}\}, which is no fact of a fixture/,
    );
  });
});

describe('redgreen check takes only the named packs’ part', () => {
  it('a scenario naming no pack gets no sdd field or note; one naming sdd gets both (planted)', async () => {
    const reply = path.join(makeTempDir(), 'reply.md');
    writeFileSync(reply, 'Done.\n');
    const generic = await runCli(['check', 'skill-triggering-feature', '--reply', reply, '--json']);
    expect(generic.exitCode, generic.stderr).toBe(0);
    expect(JSON.parse(generic.stdout)).not.toHaveProperty('ownPlan');
    const genericText = await runCli(['check', 'skill-triggering-feature', '--reply', reply]);
    expect(genericText.stdout).toMatch(/^scenario: skill-triggering-feature$/m);
    const sdd = await runCli(['check', 's1', '--reply', reply, '--json']);
    expect(sdd.exitCode, sdd.stderr).toBe(0);
    expect(JSON.parse(sdd.stdout)).toHaveProperty('ownPlan');
  });
});
