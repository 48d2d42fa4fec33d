/**
 * Scenario files: the shipped ones load; a bad one is refused at load with
 * one line naming the file, the field and the fix (an unknown verb, a regex
 * that does not compile, a selector that can never match, a section the
 * report contract lacks, an empty list, an unknown placeholder or policy),
 * and nothing runs; YAML works as JSON does; the old format points at the
 * migration, and the migration of the old S1/S2 files gives the shipped ones.
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify as toYaml } from 'yaml';
import { checkSchema, verbNames } from '../../harness/score/check-schema.js';
import { listScenarioIds, loadScenarioDir } from '../../harness/score/load-scenario.js';
import { migratedScenario } from '../../packs/sdd/authoring/legacy-migration.js';
import { repoRoot, runCli } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';

type Json = Record<string, unknown>;
const shipped = (id: string): Json =>
  JSON.parse(readFileSync(path.join(repoRoot, 'scenarios', id, 'scenario.json'), 'utf8')) as Json;

/** A scenarios folder with one scenario `id`, s1 changed by `change`, calibration skills made absolute. */
function scenarioDir(
  change: (scenario: Json) => void,
  id = 's1',
  format: 'json' | 'yaml' = 'json',
): string {
  const root = makeTempDir();
  mkdirSync(path.join(root, id));
  cpSync(path.join(repoRoot, 'scenarios/prompts'), path.join(root, 'prompts'), { recursive: true });
  const scenario = structuredClone(shipped('s1'));
  scenario.id = id;
  const calibration = scenario.calibration as Record<string, { skill: string }[]>;
  for (const run of [...(calibration.mustPass ?? []), ...(calibration.mustFail ?? [])]) {
    // A bare name is a shipped text wherever the scenario is; a folder is relative to it.
    if (run.skill.includes('/')) run.skill = path.resolve(repoRoot, 'scenarios/s1', run.skill);
  }
  change(scenario);
  const file = path.join(root, id, format === 'json' ? 'scenario.json' : 'scenario.yaml');
  writeFileSync(file, format === 'json' ? JSON.stringify(scenario) : toYaml(scenario));
  return path.join(root, id);
}

function loadError(change: (scenario: Json) => void): string {
  const loaded = loadScenarioDir(scenarioDir(change), {
    knownPolicies: ['structural', 'literal', 'skill-reader', 'structural-data', 'literal-data'],
  });
  if (loaded.ok) throw new Error('expected the scenario to be refused');
  return `${loaded.error.input}: ${loaded.error.problem}; ${loaded.error.fix}`;
}

const post = (scenario: Json): unknown[] => (scenario.checks as { post: unknown[] }).post;

describe('the shipped scenarios', () => {
  it('load, compile and keep their checks in order', () => {
    expect(listScenarioIds(path.join(repoRoot, 'scenarios'))).toEqual(
      expect.arrayContaining(['s1', 's2']),
    );
    for (const id of ['s1', 's2']) {
      const loaded = loadScenarioDir(path.join(repoRoot, 'scenarios', id));
      expect(loaded.ok, loaded.ok ? '' : loaded.error.problem).toBe(true);
      if (!loaded.ok) continue;
      expect(loaded.value.post.map((node) => node.id).slice(0, 3)).toEqual([
        'first-dispatch',
        'claimed-complete',
        'no-foreign-ledger-adopted',
      ]);
      expect(loaded.value.sections.map((section) => section.name)).toEqual([
        'ledgers',
        'complete',
        'dispatch',
      ]);
      for (const check of post(shipped(id)))
        expect(checkSchema.safeParse(check).success).toBe(true);
    }
  });

  it('hold no fixture paths or plan titles in scoring code: all of it is in the scenario files', () => {
    const s1 = JSON.stringify(shipped('s1'));
    expect(s1).toContain('.superpowers/');
    expect(s1).toContain('LEDGERS CHECKED');
    expect(s1).toContain('Export data model');
  });
});

describe('bad scenario files are refused at load, naming file, field and fix', () => {
  it('an unknown verb', () => {
    const message = loadError((s) => post(s).push({ id: 'x', verb: 'file-exist', path: 'a' }));
    expect(message).toMatch(
      /scenario\.json: checks\.post\[4\]\.verb: unknown verb "file-exist"; use one of file-exists, /,
    );
    expect(message).toContain(
      '; or combine checks: {"id": …, "not": {check}}, {"id": …, "all-of": [checks]}',
    );
  });

  it('a combinator written as a verb', () => {
    const message = loadError((s) =>
      post(s).push({ id: 'x', verb: 'any-of', checks: [{ verb: 'file-exists', path: 'a' }] }),
    );
    expect(message).toMatch(
      /checks\.post\[4\]\.verb: "any-of" is a combinator, not a verb; write it as the key that holds the checks it combines: /,
    );
  });

  it('a regular expression that does not compile', () => {
    const message = loadError((s) =>
      post(s).push({
        id: 'x',
        verb: 'file-contains',
        path: 'a.md',
        pattern: '(unclosed',
        caseSensitive: true,
      }),
    );
    expect(message).toMatch(/checks\.post\[4\]\.pattern: is not a valid regular expression/);
  });

  it('a file-contains without its explicit case flag', () => {
    expect(
      loadError((s) =>
        post(s).push({ id: 'x', verb: 'file-contains', path: 'a.md', pattern: 'x' }),
      ),
    ).toMatch(/checks\.post\[4\]\.caseSensitive: expected boolean/);
  });

  it('a selector that can never match', () => {
    expect(
      loadError((s) =>
        post(s).push({ id: 'x', verb: 'dispatch', select: { which: 'nth' }, task: 1 }),
      ),
    ).toMatch(/checks\.post\[4\]\.select\.n: n goes with which: "nth"/);
    expect(
      loadError((s) =>
        post(s).push({
          id: 'x',
          verb: 'dispatch',
          select: { kind: 'resume', subagentType: 'implementer' },
        }),
      ),
    ).toMatch(/could never match/);
    expect(
      loadError((s) => post(s).push({ id: 'x', verb: 'file-exists', path: '../outside.md' })),
    ).toMatch(/checks\.post\[4\]\.path: must be relative to the repository.*could never match/);
    expect(loadError((s) => post(s).push({ id: 'x', verb: 'tool-count', tool: 'Bash' }))).toMatch(
      /neither min nor max, so it could never fail/,
    );
    expect(
      loadError((s) =>
        post(s).push({ id: 'x', verb: 'dispatch', model: { atLeast: 'opus', atMost: 'haiku' } }),
      ),
    ).toMatch(/atLeast opus is above atMost haiku/);
  });

  it('a check naming a section the report contract lacks, or of the wrong kind', () => {
    expect(
      loadError((s) => post(s).push({ id: 'x', verb: 'reply-is-task', section: 'next', task: 1 })),
    ).toMatch(
      /checks\.post\[4\]\.section: names section "next", which the report contract lacks; use one of ledgers, complete, dispatch/,
    );
    expect(
      loadError((s) =>
        post(s).push({ id: 'x', verb: 'reply-is-task', section: 'complete', task: 1 }),
      ),
    ).toMatch(/section "complete" extracts a tasks value; this verb compares task values/);
  });

  it('a check that names a task, plan or value the scenario does not have, so it could never pass', () => {
    expect(
      loadError((s) =>
        post(s).push({ id: 'x', verb: 'reply-is-task', section: 'dispatch', task: 9 }),
      ),
    ).toMatch(
      /checks\.post\[4\]\.task: Task 9 is not a task of docs\/plans\/2026-07-06-widget-export\.md, which has 5 tasks; use 1–5 or none/,
    );
    expect(
      loadError((s) =>
        post(s).push({ id: 'x', verb: 'reply-tasks', section: 'complete', includes: [2, 7] }),
      ),
    ).toMatch(/checks\.post\[4\]\.includes: Task 7 is not a task of .*which has 5 tasks/);
    expect(loadError((s) => post(s).push({ id: 'x', verb: 'dispatch', task: 42 }))).toMatch(
      /checks\.post\[4\]\.task: Task 42 is not a task of docs\/plans\/2026-07-06-widget-export\.md, which has 5 tasks/,
    );
    expect(
      loadError((s) =>
        post(s).push({ id: 'x', verb: 'dispatch', task: 1, plan: 'docs/plans/nope.md' }),
      ),
    ).toMatch(
      /checks\.post\[4\]\.plan: "docs\/plans\/nope\.md" is not a plan of this scenario, .*; use \{\{ownPlan\}\} or one of docs\/plans\/2026-07-06-widget-export\.md, docs\/plans\/2026-07-01-widget-backend\.md/,
    );
    const foreignTask = loadScenarioDir(
      scenarioDir((s) =>
        post(s).push({
          id: 'x',
          verb: 'dispatch',
          task: 5,
          plan: 'docs/plans/2026-07-01-widget-backend.md',
        }),
      ),
    );
    expect(foreignTask.ok, foreignTask.ok ? '' : foreignTask.error.problem).toBe(true);
    const withChoice = (check: Json) => (s: Json) => {
      (s.report as Json).dec = {
        label: 'DECISION',
        extract: { kind: 'choice', values: { proceed: { synonyms: ['go'] }, ask: {} } },
      };
      post(s).push(check);
    };
    expect(
      loadError(withChoice({ id: 'x', verb: 'reply-equals', section: 'dec', value: 'procede' })),
    ).toMatch(
      /checks\.post\[4\]\.value: "procede" is not a value the "dec" section declares, .*; use one of proceed, ask/,
    );
    expect(
      loadError(withChoice({ id: 'x', verb: 'reply-one-of', section: 'dec', values: ['procede'] })),
    ).toMatch(/checks\.post\[4\]\.values: "procede" is not a value the "dec" section declares/);
    expect(
      loadError(withChoice({ id: 'x', verb: 'reply-one-of', section: 'dec', values: [3] })),
    ).toMatch(/checks\.post\[4\]\.values: 3 is a number, but the "dec" section reads a choice/);
    expect(
      loadError((s) =>
        post(s).push({ id: 'x', verb: 'reply-one-of', section: 'dispatch', values: ['soon'] }),
      ),
    ).toMatch(/checks\.post\[4\]\.values: "soon" is no task: the "dispatch" section reads a task/);
    expect(
      loadError((s) => post(s).push({ id: 'x', verb: 'files-matching', globs: ['[a-'], min: 1 })),
    ).toMatch(/checks\.post\[4\]\.globs\[0\]: .*unclosed/);
    expect(
      loadError((s) => post(s).push({ id: 'x', verb: 'files-matching', globs: ['[z-a]'], min: 1 })),
    ).toMatch(/checks\.post\[4\]\.globs\[0\]: /);
  });

  it('a malformed extractor names the field inside it, not "Invalid input"', () => {
    const message = loadError((s) => {
      (s.report as Json).dec = {
        label: 'DECISION',
        extract: { kind: 'choice', values: { proceed: ['go'], ask: ['ask'] } },
      };
    });
    expect(message).toMatch(
      /report\.dec\.extract\.values\.proceed: expected object, received array/,
    );
    expect(message).not.toMatch(/Invalid input/);
  });

  it('an empty list', () => {
    expect(loadError((s) => post(s).push({ id: 'x', 'all-of': [] }))).toMatch(
      /checks\.post\[4\]\.all-of: must be a non-empty list of checks/,
    );
    expect(loadError((s) => ((s.checks as Json).post = []))).toMatch(/checks\.post: Too small/);
    expect(loadError((s) => post(s).push({ id: 'x', verb: 'file-unchanged', paths: [] }))).toMatch(
      /checks\.post\[4\]\.paths: Too small/,
    );
  });

  it('an unknown placeholder, or a list placeholder in a single string', () => {
    expect(
      loadError((s) => post(s).push({ id: 'x', verb: 'file-exists', path: '{{ownPlann}}' })),
    ).toMatch(
      /names the placeholder \{\{ownPlann\}\}, which is no fact of a fixture; use one of \{\{ownPlan\}\}/,
    );
    expect(
      loadError((s) => post(s).push({ id: 'x', verb: 'file-exists', path: '{{ledgers}}' })),
    ).toMatch(/\{\{ledgers\}\} is a list and cannot stand in a single string/);
  });

  it('a calibration policy that does not exist, or a must-fail check that is not a post check', () => {
    expect(
      loadError(
        (s) =>
          (((s.calibration as { mustPass: Json[] }).mustPass[0] as Json).policy = 'structurall'),
      ),
    ).toMatch(
      /calibration\.mustPass\[0\]\.policy: "structurall" is neither a built-in policy nor a policy file of the scenario/,
    );
    expect(
      loadError(
        (s) =>
          (((s.calibration as { mustFail: Json[] }).mustFail[0] as Json).failing = [
            'no-such-check',
          ]),
      ),
    ).toMatch(
      /calibration\.mustFail\[0\]\.failing: names "no-such-check", which is not a post check/,
    );
  });

  it('duplicate ids and unknown fields', () => {
    expect(
      loadError((s) => post(s).push({ id: 'first-dispatch', verb: 'file-exists', path: 'a' })),
    ).toMatch(/"first-dispatch" is used twice/);
    expect(loadError((s) => (s.scoring = {}))).toMatch(/unknown field "scoring"/);
  });

  it('exits 2 with one line and runs nothing when lint is given a bad scenario', async () => {
    const dir = scenarioDir((s) => post(s).push({ id: 'x', verb: 'no-such-verb' }));
    const lint = await runCli(['scenario', 'lint', dir]);
    expect(lint.exitCode).toBe(2);
    expect(lint.stderr.trim().split('\n')).toHaveLength(1);
    expect(lint.stderr).toMatch(/unknown verb "no-such-verb"/);
    expect(lint.stdout).toBe('');
  });
});

describe('documentation derived from the verb table', () => {
  it('the README lists every verb, and the scenario guide’s worked example is a shipped scenario', () => {
    const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
    for (const verb of verbNames()) expect(readme).toContain(`| \`${verb}\` |`);
    const guide = readFileSync(path.join(repoRoot, 'docs/writing-a-scenario.md'), 'utf8');
    expect(guide).toContain('scenarios/resume-audit/');
    expect(loadScenarioDir(path.join(repoRoot, 'scenarios/resume-audit')).ok).toBe(true);
  });
});

describe('formats', () => {
  it('reads a scenario written in YAML like its JSON', () => {
    const loaded = loadScenarioDir(scenarioDir(() => {}, 's1', 'yaml'));
    expect(loaded.ok, loaded.ok ? '' : loaded.error.problem).toBe(true);
    if (loaded.ok) expect(loaded.value.post).toHaveLength(4);
  });

  it('refuses a YAML alias that makes a check contain itself, naming where, never crashing', () => {
    const dir = scenarioDir(() => {}, 's1', 'yaml');
    const file = path.join(dir, 'scenario.yaml');
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace(
        /^ {2}post:\n/m,
        '  post: &post\n    - id: loops\n      all-of: *post\n',
      ),
    );
    const loaded = loadScenarioDir(dir);
    expect(loaded.ok).toBe(false);
    if (!loaded.ok) {
      expect(`${loaded.error.input}: ${loaded.error.problem}`).toBe(
        `${file}: checks.post[0].all-of: contains itself (a YAML alias of an enclosing node)`,
      );
    }
  });

  it('points an old two-file scenario at the migration', () => {
    const dir = path.join(makeTempDir(), 's1');
    mkdirSync(dir);
    cpSync(
      path.join(repoRoot, 'tests/score/fixtures/old-format/s1-scenario.json'),
      path.join(dir, 'scenario.json'),
    );
    cpSync(
      path.join(repoRoot, 'tests/score/fixtures/old-format/s1-scoring.json'),
      path.join(dir, 'scoring.json'),
    );
    const loaded = loadScenarioDir(dir);
    expect(loaded.ok).toBe(false);
    if (!loaded.ok) {
      expect(loaded.error.input).toBe(path.join(dir, 'scoring.json'));
      expect(loaded.error.problem).toBe(
        'is the old scoring format, which redgreen no longer reads',
      );
      expect(loaded.error.fix).toMatch(/^run `redgreen scenario migrate /);
    }
  });
});

describe('redgreen scenario migrate', () => {
  for (const id of ['s1', 's2']) {
    it(`turns the old ${id} files into the shipped ${id} (calibration and judge aside, which the old format lacked)`, () => {
      const old = (name: string): Json =>
        JSON.parse(
          readFileSync(
            path.join(repoRoot, `tests/score/fixtures/old-format/${id}-${name}.json`),
            'utf8',
          ),
        ) as Json;
      const migrated = migratedScenario(
        old('scenario') as Parameters<typeof migratedScenario>[0],
        old('scoring') as Parameters<typeof migratedScenario>[1],
        path.join(repoRoot, 'scenarios', id),
      );
      const { calibration: _guessed, ...rest } = migrated;
      const {
        calibration: _declared,
        judge: _judge,
        $schema: _editorHint,
        ...expected
      } = shipped(id);
      expect(rest).toEqual(expected);
    });
  }

  it('migrates a folder in place, and the result loads and lints its own calibration guess', async () => {
    const dir = path.join(makeTempDir(), 's1');
    mkdirSync(dir);
    cpSync(
      path.join(repoRoot, 'tests/score/fixtures/old-format/s1-scenario.json'),
      path.join(dir, 'scenario.json'),
    );
    cpSync(
      path.join(repoRoot, 'tests/score/fixtures/old-format/s1-scoring.json'),
      path.join(dir, 'scoring.json'),
    );
    cpSync(path.join(repoRoot, 'scenarios/prompts'), path.join(path.dirname(dir), 'prompts'), {
      recursive: true,
    });
    const migrated = await runCli(['scenario', 'migrate', dir]);
    expect(migrated.exitCode, migrated.stderr).toBe(0);
    expect(loadScenarioDir(dir).ok).toBe(true);
    const again = await runCli(['scenario', 'migrate', dir]);
    expect(again.exitCode).toBe(2);
    expect(again.stderr).toMatch(/has no scoring\.json, so it is not an old-format scenario/);
  });

  it('keeps the old files as *.pre-migration, and never overwrites such a backup', async () => {
    const dir = path.join(makeTempDir(), 's2');
    mkdirSync(dir);
    const oldScenario = path.join(repoRoot, 'tests/score/fixtures/old-format/s2-scenario.json');
    const oldScoring = path.join(repoRoot, 'tests/score/fixtures/old-format/s2-scoring.json');
    cpSync(oldScenario, path.join(dir, 'scenario.json'));
    cpSync(oldScoring, path.join(dir, 'scoring.json'));
    cpSync(path.join(repoRoot, 'scenarios/prompts'), path.join(path.dirname(dir), 'prompts'), {
      recursive: true,
    });
    const migrated = await runCli(['scenario', 'migrate', dir]);
    expect(migrated.exitCode, migrated.stderr).toBe(0);
    expect(migrated.stdout).toContain('scenario.json.pre-migration and scoring.json.pre-migration');
    expect(readFileSync(path.join(dir, 'scenario.json.pre-migration'), 'utf8')).toBe(
      readFileSync(oldScenario, 'utf8'),
    );
    expect(readFileSync(path.join(dir, 'scoring.json.pre-migration'), 'utf8')).toBe(
      readFileSync(oldScoring, 'utf8'),
    );
    // An old-format folder again (scoring.json back) with the backups still there: refused,
    // nothing touched.
    cpSync(oldScoring, path.join(dir, 'scoring.json'));
    cpSync(oldScenario, path.join(dir, 'scenario.json'));
    writeFileSync(path.join(dir, 'scoring.json.pre-migration'), 'an earlier backup\n');
    const refused = await runCli(['scenario', 'migrate', dir]);
    expect(refused.exitCode).toBe(2);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toMatch(/pre-migration: already exists/);
    expect(readFileSync(path.join(dir, 'scoring.json.pre-migration'), 'utf8')).toBe(
      'an earlier backup\n',
    );
    expect(readFileSync(path.join(dir, 'scenario.json'), 'utf8')).toBe(
      readFileSync(oldScenario, 'utf8'),
    );
  });
});
