/**
 * What `redgreen check` and `redgreen score-reply` print around the verdict:
 *
 * U5. The "not assessed" hint names only the inputs that would assess those
 *     checks, by the evidence they lacked (a reply-only check of S1 needs the
 *     repository and its layout, never a transcript); `score-reply`, which
 *     takes none of them, points at `redgreen check` instead; an unknown
 *     scenario is named as the positional argument in `check`.
 * U6. Observations never gate, so they print what was seen (yes / no / the
 *     classification), never PASS or FAIL.
 * U13. `--json` carries `schemaVersion` and `command`, as `gate --json` does.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';

const RIGHT_REPLY =
  '1. LEDGERS CHECKED: `.superpowers/sdd/progress.md` — plan A’s ledger, not mine; ignored.\n2. TASKS ALREADY COMPLETE: none\n3. FIRST DISPATCH: Task 1 (Export data model)\n';

function file(name: string, text: string): string {
  const written = path.join(makeTempDir(), name);
  writeFileSync(written, text);
  return written;
}

/** A stream-json session that finished, read the plan and made no other call. */
function finishedTranscript(): string {
  const lines = [
    { type: 'system', subtype: 'init', model: 'claude-sonnet-5-5', tools: ['Read'] },
    {
      type: 'assistant',
      parent_tool_use_id: null,
      message: {
        id: 'msg_1',
        content: [
          {
            type: 'tool_use',
            id: 'toolu_1',
            name: 'Read',
            input: { file_path: '/repo/docs/plans/2026-07-06-widget-export.md' },
          },
        ],
      },
    },
    {
      type: 'user',
      parent_tool_use_id: null,
      message: {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '# plan' }],
      },
    },
    { type: 'result', subtype: 'success', is_error: false, num_turns: 2, result: RIGHT_REPLY },
  ];
  return file('session.jsonl', `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
}

const hintOf = (stdout: string): string | undefined =>
  stdout.split('\n').find((line) => line.startsWith('not assessed: '));

async function fixture(): Promise<string> {
  const dir = path.join(makeTempDir(), 'repo');
  const built = await runCli(['fixture', 's1', 'flat', dir]);
  expect(built.exitCode, built.stderr).toBe(0);
  return dir;
}

describe('U5. the not-assessed hint names what would assess those checks', () => {
  it('check with a reply only: the repository and its layout, not a transcript', async () => {
    const run = await runCli(['check', 's1', '--reply', file('reply.md', RIGHT_REPLY)]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(hintOf(run.stdout)).toBe(
      'not assessed: stale-artifacts-untouched (give --repo <dir> --layout <name> for them)',
    );
  });

  it('check with a reply and a repository: only the layout is left', async () => {
    const run = await runCli([
      'check',
      's1',
      '--reply',
      file('reply.md', RIGHT_REPLY),
      '--repo',
      await fixture(),
    ]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(hintOf(run.stdout)).toBe(
      'not assessed: stale-artifacts-untouched (give --layout <name> for them)',
    );
  });

  it('check of a dispatch probe with a reply only: the transcript', async () => {
    const run = await runCli(['check', 's1-probe', '--reply', file('reply.md', RIGHT_REPLY)]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(hintOf(run.stdout)).toMatch(
      /\(give --transcript <file>(?: --repo <dir> --layout <name>)? for them\)$/,
    );
    expect(hintOf(run.stdout)).not.toMatch(/--reply/);
  });

  it('score-reply, which takes none of those inputs, points at check', async () => {
    const run = await runCli(['score-reply', '--scenario', 's1', file('reply.md', RIGHT_REPLY)]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(hintOf(run.stdout)).toBe(
      'not assessed: stale-artifacts-untouched (score-reply judges the reply alone; redgreen check s1 --reply <file> --repo <dir> --layout <name> assesses them)',
    );
    expect(run.stdout).not.toMatch(/give --/);
  });

  it('an unknown scenario is the positional argument in check, --scenario in score-reply', async () => {
    const reply = file('reply.md', RIGHT_REPLY);
    const checked = await runCli(['check', 's9', '--reply', reply]);
    expect(checked.exitCode).toBe(2);
    expect(checked.stderr).toMatch(/^redgreen: <scenario>: unknown scenario 's9'/);
    expect(checked.stderr).not.toMatch(/--scenario/);
    // Nested scenarios are listed too, as the folders that name them.
    expect(checked.stderr).toMatch(
      /such as a nested one: \S*scenarios\/skills-panel\/clarify-with-user, /,
    );
    expect(checked.stderr.trimEnd().split('\n')).toHaveLength(1);
    const scored = await runCli(['score-reply', '--scenario', 's9', reply]);
    expect(scored.exitCode).toBe(2);
    expect(scored.stderr).toMatch(/^redgreen: --scenario: unknown scenario 's9'/);
  });
});

describe('U6. observations print what was seen, never PASS or FAIL', () => {
  it('a count with no matching call is "no", a classification its label', async () => {
    const run = await runCli(['check', 's1', '--transcript', finishedTranscript()]);
    expect(run.exitCode, run.stderr).toBe(0);
    const observations = run.stdout
      .slice(run.stdout.indexOf('observations (never gate):'), run.stdout.indexOf('reasons:'))
      .split('\n')
      .slice(1, -1);
    expect(observations).toContain('  no    forensic-calls: 0 matching calls');
    expect(observations.some((line) => /^ {2}seen {2}resolution: /.test(line))).toBe(true);
    for (const line of observations) expect(line).not.toMatch(/^ {2}(?:pass|FAIL) /);
    // The checks above them still say pass or FAIL.
    expect(run.stdout).toMatch(/^ {2}(?:pass|FAIL) {2}first-dispatch: /m);
  });
});

describe('U13. --json carries schemaVersion and command', () => {
  it('check and score-reply', async () => {
    const reply = file('reply.md', RIGHT_REPLY);
    const checked = await runCli(['check', 's1', '--reply', reply, '--json']);
    expect(checked.exitCode, checked.stderr).toBe(0);
    const check = JSON.parse(checked.stdout) as Record<string, unknown>;
    expect(Object.keys(check).slice(0, 2)).toEqual(['schemaVersion', 'command']);
    expect(check).toMatchObject({ schemaVersion: 1, command: 'check', scenario: 's1' });
    const scored = await runCli(['score-reply', '--scenario', 's1', reply, '--json']);
    expect(JSON.parse(scored.stdout)).toMatchObject({
      schemaVersion: 1,
      command: 'score-reply',
      scenario: 's1',
    });
  });

  it('a not-assessed check lists the evidence it lacked', async () => {
    const checked = await runCli(['check', 's1', '--reply', file('r.md', RIGHT_REPLY), '--json']);
    const report = JSON.parse(checked.stdout) as {
      score: { checks: { id: string; missingEvidence?: string[] }[] };
    };
    const stale = report.score.checks.find((check) => check.id === 'stale-artifacts-untouched');
    expect(stale?.missingEvidence).toEqual(['before', 'after']);
    const assessed = report.score.checks.find((check) => check.id === 'first-dispatch');
    expect(assessed?.missingEvidence).toBeUndefined();
  });
});
