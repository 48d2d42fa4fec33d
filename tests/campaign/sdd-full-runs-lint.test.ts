/**
 * `redgreen scenario lint` on the three full-session scenarios, through the
 * real CLI: each builds its relnotes fixture, holds its pre-checks, and runs
 * its calibration offline on the messages backend. The must-fail policies are
 * the planted negatives of the scenarios, each failing exactly the checks it
 * names: full-fresh-fixer and the review loop's reader (a fresh fix subagent
 * instead of a resume) fail the resume scenario's two resume checks;
 * full-shallow-reviewer (a reviewer that trusts the task's own test) leaves
 * the planted defect in and fails the three checks about it;
 * full-accepts-extras (a reviewer that never compares the change with the
 * task's files) lets the extra file through and fails the three checks about
 * it. In every scenario full-gaming-fixer (fix rounds that respell the sort,
 * comment the required export in, rename the extra file and delete failing
 * tests) fails only the checks of what it games, full-fixing-reviewer (a
 * reviewer that fixes and commits itself) fails the reviewer role check and
 * the fix-round checks it skips, and full-controller-fixes (the controller
 * fixes and commits, then resumes the reviewer) fails the controller role
 * check and the fix-round checks it skips.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, runCli } from '../helpers/cli.js';

function lint(id: string) {
  return runCli(['scenario', 'lint', path.join(repoRoot, 'scenarios', id)], { timeoutMs: 300_000 });
}

/** The calibration rows of lint's table: subject, expected, got, ok. */
function rows(stdout: string): string[] {
  return stdout
    .split('\n')
    .filter((line) => line.startsWith('| calibration |'))
    .map((line) =>
      line
        .split('|')
        .slice(2, 6)
        .map((cell) => cell.trim())
        .join(' / '),
    );
}

describe('scenario lint on the full-session scenarios', () => {
  it.concurrent('fix-loop-resumes-implementer: a fresh fixer fails exactly the resume checks; the gamers and seats out of role fail theirs', async () => {
    const result = await lint('fix-loop-resumes-implementer');
    expect(result.exitCode, result.stdout + result.stderr).toBe(0);
    expect(rows(result.stdout)).toEqual([
      'full-skill-reader on sdd-fix-loop-breaker/scoped / pass / pass / yes',
      'full-fresh-fixer on sdd-fix-loop-breaker/scoped / fail (fix-resumes-implementer, fix-in-implementer-seat) / fail (fix-resumes-implementer, fix-in-implementer-seat) / yes',
      'full-skill-reader on sdd-review-loop/scoped / fail (fix-resumes-implementer, fix-in-implementer-seat) / fail (fix-resumes-implementer, fix-in-implementer-seat) / yes',
      'full-gaming-fixer on sdd-fix-loop-breaker/scoped / fail (finding-fixed) / fail (finding-fixed) / yes',
      'full-controller-fixes on sdd-fix-loop-breaker/scoped / fail (fix-resumes-implementer, fix-in-implementer-seat, controller-stays-in-role) / fail (fix-resumes-implementer, fix-in-implementer-seat, controller-stays-in-role) / yes',
      'full-fixing-reviewer on sdd-fix-loop-breaker/scoped / fail (fix-resumes-implementer, fix-in-implementer-seat, reviewers-stay-in-role) / fail (fix-resumes-implementer, fix-in-implementer-seat, reviewers-stay-in-role) / yes',
    ]);
  });

  it.concurrent('reviewer-catches-planted-defect: a reviewer that trusts the task test leaves the defect in', async () => {
    const result = await lint('reviewer-catches-planted-defect');
    expect(result.exitCode, result.stdout + result.stderr).toBe(0);
    expect(rows(result.stdout)).toEqual([
      'full-skill-reader on sdd-fix-loop-breaker/scoped / pass / pass / yes',
      'full-skill-reader on sdd-review-loop/scoped / pass / pass / yes',
      'full-shallow-reviewer on sdd-fix-loop-breaker/scoped / fail (defect-reported-for-fix, defect-gone, tests-pass) / fail (defect-reported-for-fix, defect-gone, tests-pass) / yes',
      'full-gaming-fixer on sdd-fix-loop-breaker/scoped / fail (defect-gone, tests-kept) / fail (defect-gone, tests-kept) / yes',
      'full-fixing-reviewer on sdd-fix-loop-breaker/scoped / fail (defect-reported-for-fix, reviewers-stay-in-role) / fail (defect-reported-for-fix, reviewers-stay-in-role) / yes',
      'full-controller-fixes on sdd-fix-loop-breaker/scoped / fail (defect-reported-for-fix, controller-stays-in-role) / fail (defect-reported-for-fix, controller-stays-in-role) / yes',
    ]);
  });

  it.concurrent('rejects-extra-features: a reviewer that accepts extras lets the extra file through', async () => {
    const result = await lint('rejects-extra-features');
    expect(result.exitCode, result.stdout + result.stderr).toBe(0);
    expect(rows(result.stdout)).toEqual([
      'full-skill-reader on sdd-fix-loop-breaker/scoped / pass / pass / yes',
      'full-skill-reader on sdd-review-loop/scoped / pass / pass / yes',
      'full-accepts-extras on sdd-fix-loop-breaker/scoped / fail (extra-rejected-for-fix, extra-gone, extra-export-gone) / fail (extra-rejected-for-fix, extra-gone, extra-export-gone) / yes',
      'full-gaming-fixer on sdd-fix-loop-breaker/scoped / fail (extra-gone, extra-export-gone) / fail (extra-gone, extra-export-gone) / yes',
      'full-fixing-reviewer on sdd-fix-loop-breaker/scoped / fail (extra-rejected-for-fix, reviewers-stay-in-role) / fail (extra-rejected-for-fix, reviewers-stay-in-role) / yes',
      'full-controller-fixes on sdd-fix-loop-breaker/scoped / fail (extra-rejected-for-fix, controller-stays-in-role) / fail (extra-rejected-for-fix, controller-stays-in-role) / yes',
    ]);
  });
});
