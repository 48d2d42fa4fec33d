/**
 * `redgreen score-reply` as a user runs it: the shorthand for `redgreen check
 * <scenario> --reply <file>` that judges the reply checks only.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';

function replyFile(content: string): string {
  const file = path.join(makeTempDir(), 'reply.md');
  writeFileSync(file, content);
  return file;
}

const S2_REPLY =
  '8\n1. LEDGERS CHECKED: `.superpowers/sdd/2026-07-06-widget-export/progress.md` — mine; trusted\n2. TASKS ALREADY COMPLETE: Tasks 1 and 2\n3. FIRST DISPATCH: Task 3\n';

describe('redgreen score-reply', () => {
  it('scores a reply.md and exits 0', async () => {
    const result = await runCli(['score-reply', '--scenario', 's2', replyFile(S2_REPLY)]);
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toContain('verdict: pass');
    expect(result.stdout).toContain('  dispatch: {"kind":"task","task":3}');
    expect(result.stdout).toContain('  complete: {"kind":"tasks","tasks":[1,2]}');
    expect(result.stdout).toContain(
      'n/a   own-ledger-untouched: not assessed: no before, after evidence',
    );
  });

  it('prints machine-readable JSON with --json', async () => {
    const result = await runCli(['score-reply', '--scenario', 's1', '--json', replyFile(S2_REPLY)]);
    expect(result.exitCode).toBe(0);
    const parsed = JSON.parse(result.stdout) as { score: { verdict: string; reasons: string[] } };
    expect(parsed.score.verdict).toBe('fail');
    expect(parsed.score.reasons[0]).toBe('first-dispatch: expected Task 1, "dispatch" says Task 3');
  });

  it('exits 2 with a one-line error for an unknown scenario', async () => {
    const result = await runCli(['score-reply', '--scenario', 'zz', replyFile(S2_REPLY)]);
    expect(result.exitCode).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(
      /unknown scenario 'zz' \(looked in [^)]*\/scenarios\); use one of: (?:.*, )?s1, (?:.*, )?s2\b/,
    );
  });

  it('exits 2 with a one-line error for a missing reply file', async () => {
    const result = await runCli([
      'score-reply',
      '--scenario',
      's1',
      path.join(makeTempDir(), 'none.md'),
    ]);
    expect(result.exitCode).toBe(2);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(result.stderr).toMatch(/none\.md: no such file/);
  });

  it('documents itself in --help', async () => {
    const result = await runCli(['score-reply', '--help']);
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/--scenario <id>/);
    expect(result.stdout).toMatch(/--json/);
    expect(result.stdout).toMatch(/--plan <path>/);
  });
});
