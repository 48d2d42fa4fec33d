/**
 * The judge block of a scenario file: what loads, and what is refused with a
 * one-line error naming the file, the field and the fix.
 */
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatInputError } from '../../harness/lib/input-error.js';
import { loadScenarioDir } from '../../harness/score/load-scenario.js';
import { repoRoot, runCli } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';

/** scenarios/s1 in a temp dir with its judge block replaced (undefined: removed). */
function s1With(judge: unknown): string {
  const dir = path.join(makeTempDir(), 's1');
  cpSync(path.join(repoRoot, 'scenarios/s1'), dir, { recursive: true });
  const file = path.join(dir, 'scenario.json');
  const scenario = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  if (judge === undefined) delete scenario.judge;
  else scenario.judge = judge;
  writeFileSync(file, JSON.stringify(scenario));
  return dir;
}

const rubric = { 'first-dispatch': 'names Task 1' };

describe('the judge block', () => {
  it('loads with defaults: the four kinds of material, the offline judge judge-agree', () => {
    const loaded = loadScenarioDir(s1With({ model: 'claude-sonnet-5-5', rubric }));
    expect(loaded.ok).toBe(true);
    expect(loaded.ok && loaded.value.config.judge).toEqual({
      model: 'claude-sonnet-5-5',
      rubric,
      material: ['reply', 'dispatches', 'tool-calls', 'diff'],
      offlineModel: 'scripted:judge-agree',
    });
  });

  it('is optional', () => {
    const loaded = loadScenarioDir(s1With(undefined));
    expect(loaded.ok && loaded.value.config.judge).toBeUndefined();
  });

  it.each([
    [
      'a rubric item keyed by no post check',
      { model: 'm', rubric: { 'ledger-pre': 'x' } },
      'judge.rubric.ledger-pre: names "ledger-pre", which is not a post check of this scenario; key each rubric item by the post check it shadows: first-dispatch, claimed-complete, no-foreign-ledger-adopted, stale-artifacts-untouched',
    ],
    ['an empty rubric', { model: 'm', rubric: {} }, 'judge.rubric: give at least one rubric item'],
    [
      'a blank item',
      { model: 'm', rubric: { 'first-dispatch': ' ' } },
      'judge.rubric.first-dispatch: must not be blank',
    ],
    ['no model', { rubric }, 'judge.model'],
    [
      'an unknown kind of material',
      { model: 'm', rubric, material: ['reply', 'thoughts'] },
      'judge.material[1]',
    ],
    [
      'a kind named twice',
      { model: 'm', rubric, material: ['reply', 'reply'] },
      'judge.material: name each kind once',
    ],
    [
      'an offline model that is no scripted judge',
      { model: 'm', rubric, offlineModel: 'scripted:literal' },
      'judge.offlineModel: a scripted judge: one of scripted:judge-agree',
    ],
    [
      'an offline judge policy that does not exist',
      { model: 'm', rubric, offlineModel: 'scripted:judge-nope' },
      'judge.offlineModel: a scripted judge: one of scripted:judge-agree',
    ],
    [
      'an unknown field',
      { model: 'm', rubric, temperature: 0 },
      'judge: unknown field "temperature"',
    ],
  ])('refuses %s', (_name, judge, message) => {
    const loaded = loadScenarioDir(s1With(judge));
    expect(loaded.ok).toBe(false);
    expect(loaded.ok ? '' : formatInputError(loaded.error)).toContain(message);
  });

  it('is checked by scenario lint like every other field (exit 2, one line)', async () => {
    const lint = await runCli(['scenario', 'lint', s1With({ model: 'm', rubric: { nope: 'x' } })]);
    expect(lint.exitCode).toBe(2);
    expect(lint.stderr.trim().split('\n')).toHaveLength(1);
    expect(lint.stderr).toContain('judge.rubric.nope: names "nope"');
  });
});
