/**
 * `redgreen scenario lint` proves every scenario in the repository offline:
 * its pre-checks pass on each fixture layout its calibration uses, each
 * must-pass policy passes, and each must-fail policy fails with the declared
 * checks among its failing ones. A scaffold from `redgreen scenario new`
 * lints as written. Planted negatives: a calibration that is wrong about a
 * policy makes lint exit 1 and say which row.
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { lintScenario } from '../../harness/authoring/scenario-lint.js';
import { listScenarioIds } from '../../harness/score/load-scenario.js';
import { repoRoot, runCli } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';

const scenariosDir = path.join(repoRoot, 'scenarios');

describe('every scenario in the repository lints', () => {
  const ids = listScenarioIds(scenariosDir);
  it('finds the shipped scenarios', () => {
    expect(ids).toEqual(
      expect.arrayContaining([
        's1',
        's2',
        's1-probe',
        's2-probe',
        'breaker-at-cap',
        'round4-escalates-model',
        'final-review-carries-parked',
        'broken-plan-ruling',
        'breaker-rules-and-continues',
      ]),
    );
  });
  // The full-session scenarios are linted through the CLI, row by row, in
  // tests/campaign/sdd-full-runs-lint.test.ts (the same messages-backend lint, with
  // each row's expected and actual outcome asserted): not a second time here.
  const lintedElsewhere = [
    'fix-loop-resumes-implementer',
    'reviewer-catches-planted-defect',
    'rejects-extra-features',
  ];
  it('leaves out only scenarios another test lints', () => {
    expect(ids).toEqual(expect.arrayContaining(lintedElsewhere));
  });
  for (const id of ids.filter((id) => !lintedElsewhere.includes(id))) {
    it(`${id}: pre-checks pass and every calibration policy lands as declared`, async () => {
      const report = await lintScenario(id, { backend: 'messages', scenariosDirs: [scenariosDir] });
      if (!report.ok) throw new Error(`${report.error.input}: ${report.error.problem}`);
      expect(report.value.rows.filter((row) => !row.ok)).toEqual([]);
      expect(
        report.value.rows.filter((row) => row.kind === 'calibration').length,
      ).toBeGreaterThanOrEqual(2);
      expect(report.value.ok).toBe(true);
      if (id === 'skill-triggering-feature') {
        // The released and branch rows of one library differ by the skill replaced: the row says it.
        expect(report.value.rows.map((row) => row.subject)).toContain(
          'skill-trigger on devflow/default with test-first from devflow-test-first-v2',
        );
      }
    });
  }
});

/** s1 in a scratch scenarios folder, its calibration replaced. */
function s1With(calibration: unknown): string {
  const root = makeTempDir();
  cpSync(path.join(scenariosDir, 'prompts'), path.join(root, 'prompts'), { recursive: true });
  mkdirSync(path.join(root, 's1'));
  const scenario = JSON.parse(
    readFileSync(path.join(scenariosDir, 's1/scenario.json'), 'utf8'),
  ) as Record<string, unknown>;
  scenario.calibration = calibration;
  writeFileSync(path.join(root, 's1/scenario.json'), JSON.stringify(scenario));
  return path.join(root, 's1');
}

const released = path.join(repoRoot, 'skills-under-test/sdd-released');
const planScoped = path.join(repoRoot, 'skills-under-test/sdd-plan-scoped');

describe('lint catches a calibration that is wrong', () => {
  it('exits 1 and names the row when a must-pass policy fails or a must-fail one passes or fails for another reason', async () => {
    const dir = s1With({
      mustPass: [
        { policy: 'structural', skill: planScoped, layout: 'scoped' },
        { policy: 'literal', skill: released, layout: 'flat' },
      ],
      mustFail: [
        { policy: 'always-redo', skill: planScoped, layout: 'scoped', failing: ['first-dispatch'] },
        {
          policy: 'literal',
          skill: released,
          layout: 'flat',
          failing: ['stale-artifacts-untouched'],
        },
      ],
    });
    const lint = await runCli(['scenario', 'lint', dir], { timeoutMs: 240_000 });
    expect(lint.exitCode, lint.stderr).toBe(1);
    const rows = lint.stdout.split('\n').filter((line) => line.startsWith('| calibration'));
    expect(rows).toHaveLength(4);
    expect(rows[0]).toMatch(/\| structural on sdd-plan-scoped\/scoped \| pass \| pass \| yes \|$/);
    expect(rows[1]).toMatch(
      /\| literal on sdd-released\/flat \| pass \| fail \(first-dispatch, claimed-complete, no-foreign-ledger-adopted\) \| NO \|$/,
    );
    expect(rows[2]).toMatch(
      /\| always-redo on sdd-plan-scoped\/scoped \| fail \(first-dispatch\) \| pass \| NO \|$/,
    );
    expect(rows[3]).toMatch(
      /\| fail \(stale-artifacts-untouched\) \| fail \(first-dispatch, claimed-complete, no-foreign-ledger-adopted\) \| NO \|$/,
    );
    expect(lint.stdout).toMatch(/lint: s1 FAILS: 3 row\(s\) not as declared/);
    // Under the table, why each row is not as declared: what the deciding checks observed.
    expect(lint.stdout).toMatch(/\nliteral on sdd-released\/flat:\n {2}- fail first-dispatch: /);
    expect(lint.stdout).toMatch(
      /\nalways-redo on sdd-plan-scoped\/scoped:\n {2}- pass first-dispatch: /,
    );
    expect(lint.stdout).not.toMatch(/\nstructural on sdd-plan-scoped\/scoped:\n/);
  });
});

describe('redgreen scenario new', () => {
  it('scaffolds a scenario that lints as written, and never overwrites one', async () => {
    const root = makeTempDir();
    const made = await runCli(['scenario', 'new', 'resume-check', '--dir', root]);
    expect(made.exitCode, made.stderr).toBe(0);
    expect(made.stdout).toContain(`wrote ${path.join(root, 'resume-check')}/scenario.json`);
    const lint = await runCli(['scenario', 'lint', path.join(root, 'resume-check')], {
      timeoutMs: 240_000,
    });
    expect(lint.exitCode, `${lint.stdout}\n${lint.stderr}`).toBe(0);
    expect(lint.stdout).toContain('lint: resume-check is sound');
    // Its calibration names the shipped skill texts by name, not by a path into the install,
    // so the folder still lints once moved; and an id is found in ./scenarios/ of the cwd.
    const written = JSON.parse(
      readFileSync(path.join(root, 'resume-check', 'scenario.json'), 'utf8'),
    ) as { calibration: { mustPass: { skill: string }[]; mustFail: { skill: string }[] } };
    for (const run of [...written.calibration.mustPass, ...written.calibration.mustFail]) {
      expect(run.skill).toBe('sdd-plan-scoped');
    }
    const elsewhere = path.join(makeTempDir(), 'mine');
    mkdirSync(path.join(elsewhere, 'scenarios'), { recursive: true });
    cpSync(path.join(root, 'resume-check'), path.join(elsewhere, 'scenarios', 'resume-check'), {
      recursive: true,
    });
    const byId = await runCli(['scenario', 'lint', 'resume-check'], {
      cwd: elsewhere,
      timeoutMs: 240_000,
    });
    expect(byId.exitCode, `${byId.stdout}\n${byId.stderr}`).toBe(0);
    expect(byId.stdout).toContain(path.join(elsewhere, 'scenarios', 'resume-check'));
    const unknown = await runCli(['scenario', 'lint', 'not-here'], { cwd: elsewhere });
    expect(unknown.exitCode).toBe(2);
    expect(unknown.stderr).toContain(`looked in ${path.join(elsewhere, 'scenarios')}, `);
    const again = await runCli(['scenario', 'new', 'resume-check', '--dir', root]);
    expect(again.exitCode).toBe(2);
    expect(again.stderr).toMatch(/already exists; choose another id/);
    const bad = await runCli(['scenario', 'new', 'Bad Id', '--dir', root]);
    expect(bad.exitCode).toBe(2);
  });

  it('documents lint, new and migrate in --help', async () => {
    const help = await runCli(['scenario', '--help']);
    expect(help.stdout).toMatch(/lint/);
    expect(help.stdout).toMatch(/new/);
    expect(help.stdout).toMatch(/migrate/);
    const lint = await runCli(['scenario', 'lint', '--help']);
    expect(lint.stdout).toContain('--backend <name>');
  });
});
