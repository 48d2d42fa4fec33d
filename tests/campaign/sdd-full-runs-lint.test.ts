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
 * task's files) lets the extra file through and fails the two checks about it.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, runCli } from '../helpers/cli.js';

function lint(id: string) {
  return runCli(['scenario', 'lint', path.join(repoRoot, 'scenarios', id)], { timeoutMs: 180_000 });
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
  it.concurrent('fix-loop-resumes-implementer: a fresh fixer fails exactly the resume checks', async () => {
    const result = await lint('fix-loop-resumes-implementer');
    expect(result.exitCode, result.stdout + result.stderr).toBe(0);
    expect(rows(result.stdout)).toEqual([
      'full-skill-reader on sdd-fix-loop-breaker/scoped / pass / pass / yes',
      'full-fresh-fixer on sdd-fix-loop-breaker/scoped / fail (fix-resumes-implementer, fix-in-implementer-seat) / fail (fix-resumes-implementer, fix-in-implementer-seat) / yes',
      'full-skill-reader on sdd-review-loop/scoped / fail (fix-resumes-implementer, fix-in-implementer-seat) / fail (fix-resumes-implementer, fix-in-implementer-seat) / yes',
    ]);
  });

  it.concurrent('reviewer-catches-planted-defect: a reviewer that trusts the task test leaves the defect in', async () => {
    const result = await lint('reviewer-catches-planted-defect');
    expect(result.exitCode, result.stdout + result.stderr).toBe(0);
    expect(rows(result.stdout)).toEqual([
      'full-skill-reader on sdd-fix-loop-breaker/scoped / pass / pass / yes',
      'full-skill-reader on sdd-review-loop/scoped / pass / pass / yes',
      'full-shallow-reviewer on sdd-fix-loop-breaker/scoped / fail (defect-reported-for-fix, defect-gone, tests-pass) / fail (defect-reported-for-fix, defect-gone, tests-pass) / yes',
    ]);
  });

  it.concurrent('rejects-extra-features: a reviewer that accepts extras lets the extra file through', async () => {
    const result = await lint('rejects-extra-features');
    expect(result.exitCode, result.stdout + result.stderr).toBe(0);
    expect(rows(result.stdout)).toEqual([
      'full-skill-reader on sdd-fix-loop-breaker/scoped / pass / pass / yes',
      'full-skill-reader on sdd-review-loop/scoped / pass / pass / yes',
      'full-accepts-extras on sdd-fix-loop-breaker/scoped / fail (extra-rejected-for-fix, extra-gone) / fail (extra-rejected-for-fix, extra-gone) / yes',
    ]);
  });
});
