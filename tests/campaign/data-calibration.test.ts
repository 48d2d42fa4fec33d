/**
 * Calibration without TypeScript: a scenario for a skill other than SDD whose
 * must-pass and must-fail policies are files lints green through the real
 * Claude Code engine (the messages backend lints it with every shipped
 * scenario, tests/score/scenario-lint.test.ts); `structural` and `literal`
 * rewritten as data land as the TypeScript policies do on S1 (S2's shipped
 * calibration holds structural-data); `scenario
 * new --skill` scaffolds a scenario that lints as written; a policy file that
 * cannot run is refused before any session, naming the file and the field.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintScenario } from '../../harness/authoring/scenario-lint.js';
import { repoRoot, runCli } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';

const scenariosDir = path.join(repoRoot, 'scenarios');

function gotByPolicy(rows: readonly { kind: string; subject: string; got: string; ok: boolean }[]) {
  return Object.fromEntries(
    rows
      .filter((row) => row.kind === 'calibration')
      .map((row) => [row.subject.split(' ')[0], { got: row.got, ok: row.ok }]),
  );
}

/** A copy of a shipped scenario whose calibration is `calibration`, in a scratch folder. */
function copyWith(id: string, calibration: unknown): string {
  const dir = path.join(makeTempDir(), id);
  cpSync(path.join(scenariosDir, id), dir, { recursive: true });
  const file = path.join(dir, 'scenario.json');
  writeFileSync(file, JSON.stringify({ ...JSON.parse(readFileSync(file, 'utf8')), calibration }));
  return dir;
}

describe('data calibration', () => {
  it('release-notes-from-history, calibrated by two policy files, lints green through the real engine', async () => {
    const report = await lintScenario('release-notes-from-history', {
      backend: 'claude-code',
      scenariosDirs: [scenariosDir],
    });
    if (!report.ok) throw new Error(`${report.error.input}: ${report.error.problem}`);
    expect(gotByPolicy(report.value.rows)).toEqual({
      'follows-release-notes': { got: 'pass', ok: true },
      'guesses-release-notes': {
        got: 'fail (loads-release-notes, history-read, changelog-names-the-feature, changes-grouped, skill-before-notes)',
        ok: true,
      },
    });
  }, 240_000);

  it('structural and literal as data land on S1 as the TypeScript policies do', async () => {
    const s1 = copyWith('s1', {
      mustPass: ['structural', 'structural-data'].map((policy) => ({
        policy,
        skill: 'sdd-plan-scoped',
        layout: 'scoped',
      })),
      mustFail: ['literal', 'literal-data'].map((policy) => ({
        policy,
        skill: 'sdd-released',
        layout: 'flat',
        failing: ['first-dispatch', 'claimed-complete', 'no-foreign-ledger-adopted'],
      })),
    });
    // S2's shipped calibration has structural-data, linted with every shipped scenario.
    const one = await lintScenario(s1, { backend: 'messages', scenariosDirs: [] });
    if (!one.ok) throw new Error(`${one.error.input}: ${one.error.problem}`);
    const s1Rows = gotByPolicy(one.value.rows);
    expect(s1Rows['structural-data']).toEqual(s1Rows.structural);
    expect(s1Rows['literal-data']).toEqual(s1Rows.literal);
    expect(s1Rows.structural).toEqual({ got: 'pass', ok: true });
    expect(s1Rows.literal?.got).toBe(
      'fail (first-dispatch, claimed-complete, no-foreign-ledger-adopted)',
    );
  }, 240_000);

  it('scenario new --skill scaffolds a plan-free scenario with two policy files that lints as written', async () => {
    const dir = makeTempDir();
    const made = await runCli(
      [
        'scenario',
        'new',
        'notes-probe',
        '--skill',
        path.join(repoRoot, 'skills-under-test/devflow/skills/brainstorm'),
        '--dir',
        dir,
      ],
      { cwd: dir },
    );
    expect(made.exitCode, made.stderr).toBe(0);
    expect(made.stdout).toContain('policies/follows-skill.yaml and policies/skips-skill.yaml');
    const scenario = JSON.parse(readFileSync(path.join(dir, 'notes-probe/scenario.json'), 'utf8'));
    expect(scenario.plan).toBeUndefined();
    // --keep keeps each calibration session's results, to see what a policy did.
    const kept = path.join(dir, 'kept');
    const lint = await lintScenario(path.join(dir, 'notes-probe'), {
      backend: 'messages',
      scenariosDirs: [],
      keep: kept,
    });
    if (!lint.ok) throw new Error(`${lint.error.input}: ${lint.error.problem}`);
    expect(gotByPolicy(lint.value.rows)).toEqual({
      'follows-skill': { got: 'pass', ok: true },
      'skips-skill': { got: 'fail (read-the-skill)', ok: true },
    });
    expect(
      readFileSync(
        path.join(kept, '1-follows-skill/reps/calibration/notes-probe-rep1/transcript.jsonl'),
        'utf8',
      ),
    ).toContain('NOTES.md');
    expect(
      existsSync(path.join(kept, '2-skips-skill/reps/calibration/notes-probe-rep1/score.json')),
    ).toBe(true);
    const again = await lintScenario(path.join(dir, 'notes-probe'), {
      backend: 'messages',
      scenariosDirs: [],
      keep: kept,
    });
    expect(again.ok ? 'linted' : `${again.error.input}: ${again.error.problem}`).toBe(
      `--keep: ${kept} already exists and is not empty`,
    );

    const noSkill = await runCli(['scenario', 'new', 'other', '--skill', dir, '--dir', dir], {
      cwd: dir,
    });
    expect(noSkill.exitCode).toBe(2);
    expect(noSkill.stderr).toContain(`--skill: ${dir} holds no SKILL.md`);
  }, 240_000);

  it('refuses, before any session, a policy file naming a tool the backend does not give, or a value never defined', async () => {
    const dir = path.join(makeTempDir(), 'release-notes-from-history');
    cpSync(path.join(scenariosDir, 'release-notes-from-history'), dir, { recursive: true });
    const policy = path.join(dir, 'policies/guesses-release-notes.yaml');
    writeFileSync(
      policy,
      'steps:\n  - tool: Write\n    input: { file_path: "{{cwd}}/CHANGELOG.md", content: notes }\n  - reply: done\n',
    );
    const tool = await runCli(['scenario', 'lint', dir]);
    expect(tool.exitCode).toBe(2);
    expect(tool.stderr).toContain(
      `${policy}: steps[0].tool: "Write" is not a tool the messages backend is given (it is given Bash, Read, Glob, Grep, Agent, Skill)`,
    );
    writeFileSync(policy, 'steps:\n  - reply: "Wrote {{version}}."\n');
    const name = await lintScenario(dir, { backend: 'messages', scenariosDirs: [] });
    expect(name.ok ? 'linted' : `${name.error.input}: ${name.error.problem}`).toBe(
      `${policy}: steps[0].reply: {{version}} names no fact, id or capture defined before this step`,
    );
  });
});

describe('a stop: complete scenario calibrated by a policy file with a seat and a question', () => {
  it('asks the scripted user, dispatches a subagent whose seat steps write the file, and lints as declared', async () => {
    const dir = path.join(makeTempDir(), 'versioned-notes');
    const write = (file: string, text: string) => {
      mkdirSync(path.dirname(path.join(dir, file)), { recursive: true });
      writeFileSync(path.join(dir, file), text);
    };
    write(
      'prompt.hbs',
      'Have a subagent write NOTES.md for the next release of this repository.\n',
    );
    write(
      'scenario.json',
      JSON.stringify({
        id: 'versioned-notes',
        title: 'the notes name the version the user gives',
        fixture: { recipe: 'textkit', scenario: 'start' },
        prompt: { template: 'prompt.hbs', variables: {} },
        stop: 'complete',
        user: { answers: [{ id: 'version', pattern: 'version', answer: 'It is 0.3.0.' }] },
        checks: {
          post: [
            { id: 'asked-the-version', verb: 'user-answered', answer: 'version' },
            {
              id: 'notes-name-it',
              verb: 'file-contains',
              path: 'NOTES.md',
              pattern: '0\\.3\\.0',
              caseSensitive: true,
            },
            { id: 'subagent-wrote', verb: 'tool-called', tool: 'Bash', seat: 'subagent' },
          ],
        },
        calibration: {
          mustPass: [{ policy: 'asks-then-delegates', library: 'devflow', layout: 'default' }],
          mustFail: [
            {
              policy: 'guesses-version',
              library: 'devflow',
              layout: 'default',
              failing: ['asked-the-version', 'notes-name-it'],
            },
          ],
        },
      }),
    );
    const seat = [
      'seats:',
      "  - prompt: '^You write the release notes'",
      '    steps:',
      '      - capture: version',
      '        from: prompt',
      "        pattern: 'version (\\d+\\.\\d+\\.\\d+)'",
      '      - tool: Bash',
      '        input: { command: "printf \'# Notes for %s\\\\n\' {{shell version}} > NOTES.md", description: Write }',
      '      - reply: Wrote NOTES.md for {{version}}.',
    ];
    const dispatch = (version: string) => [
      '  - tool: Agent',
      `    input: { description: Write the notes, prompt: "You write the release notes of version ${version}.", subagent_type: general-purpose }`,
      '  - reply: The notes are written.',
    ];
    write(
      'policies/asks-then-delegates.yaml',
      [
        'steps:',
        '  - ask: Which version is this release?',
        '    id: answer',
        '  - capture: version',
        '    from: answer',
        "    pattern: '(\\d+\\.\\d+\\.\\d+)'",
        ...dispatch('{{version}}'),
        ...seat,
        '',
      ].join('\n'),
    );
    write(
      'policies/guesses-version.yaml',
      ['steps:', ...dispatch('0.0.1'), ...seat, ''].join('\n'),
    );
    const report = await lintScenario(dir, { backend: 'messages', scenariosDirs: [] });
    if (!report.ok) throw new Error(`${report.error.input}: ${report.error.problem}`);
    expect(gotByPolicy(report.value.rows)).toEqual({
      'asks-then-delegates': { got: 'pass', ok: true },
      'guesses-version': { got: 'fail (asked-the-version, notes-name-it)', ok: true },
    });
  }, 240_000);
});
