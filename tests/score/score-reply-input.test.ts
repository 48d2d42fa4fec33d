/**
 * What `redgreen score-reply` accepts as a reply: a text file, or `-` for
 * stdin. An empty or binary file, a device such as /dev/zero, a kernel
 * pseudo-file such as /proc/self/status, or an
 * oversized input is a one-line error (exit 2) that names it, never a
 * silent "indeterminate" or a crash; `--plan` must be one of the fixture's
 * plans.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CliResult, runCli } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';

const S2_REPLY = [
  'LEDGERS CHECKED: .superpowers/sdd/progress.md (plan B ledger, trusted)',
  'TASKS ALREADY COMPLETE: Task 1, Task 2',
  'FIRST DISPATCH: Task 3',
  '',
].join('\n');

function expectRefusal(result: CliResult, pattern: RegExp): void {
  expect(result.timedOut, 'it hung').toBe(false);
  expect(result.exitCode, result.stdout).toBe(2);
  const lines = result.stderr.trim().split('\n');
  expect(lines, result.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(pattern);
}

describe('score-reply input', () => {
  it('reads the reply from stdin with -', async () => {
    const result = await runCli(['score-reply', '--scenario', 's2', '-'], { input: S2_REPLY });
    expect(result.exitCode, result.stderr).toBe(0);
    expect(result.stdout).toContain('verdict: pass');
  });

  it('refuses an empty file, an empty stdin and a blank file', async () => {
    const empty = path.join(makeTempDir(), 'empty.md');
    writeFileSync(empty, '');
    expectRefusal(await runCli(['score-reply', '--scenario', 's1', empty]), /empty\.md: is empty/);
    expectRefusal(
      await runCli(['score-reply', '--scenario', 's1', '-'], { input: '' }),
      /stdin.*is empty/,
    );
    const blank = path.join(makeTempDir(), 'blank.md');
    writeFileSync(blank, '\n  \n\t\n');
    expectRefusal(await runCli(['score-reply', '--scenario', 's1', blank]), /blank\.md: is empty/);
  });

  it('refuses a binary file', async () => {
    const binary = path.join(makeTempDir(), 'reply.png');
    writeFileSync(binary, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0]));
    expectRefusal(
      await runCli(['score-reply', '--scenario', 's1', binary]),
      /reply\.png: is not text/,
    );
  });

  it('refuses /dev/zero at once instead of reading it until it crashes', async () => {
    expectRefusal(
      await runCli(['score-reply', '--scenario', 's1', '/dev/zero'], { timeoutMs: 30_000 }),
      /\/dev\/zero: is not a regular file/,
    );
  });

  it('refuses a kernel pseudo-file (/proc, /sys), which reads as a regular file', async () => {
    expectRefusal(
      await runCli(['score-reply', '--scenario', 's1', '/proc/self/status']),
      /^redgreen: \/proc\/self\/status: is a kernel pseudo-file \(\/proc\/\d+\/status\), so it is not a reply;/,
    );
    expectRefusal(
      await runCli(['check', 's1', '--transcript', '/proc/self/status']),
      /\/proc\/self\/status: is a kernel pseudo-file/,
    );
  });

  it('refuses an oversized reply', async () => {
    const huge = path.join(makeTempDir(), 'huge.md');
    writeFileSync(huge, `FIRST DISPATCH: Task 1\n${'x'.repeat(9 * 1024 * 1024)}\n`);
    expectRefusal(await runCli(['score-reply', '--scenario', 's1', huge]), /huge\.md: is larger/);
  });

  it('checks --plan against the plans of the scenario fixture', async () => {
    const reply = path.join(makeTempDir(), 'reply.md');
    writeFileSync(reply, S2_REPLY);
    expectRefusal(
      await runCli(['score-reply', '--scenario', 's2', '--plan', 'docs/plans/nope.md', reply]),
      /--plan docs\/plans\/nope\.md: .*not a plan of the s2 fixture.*2026-07-06-widget-export\.md/,
    );
    const other = await runCli([
      'score-reply',
      '--scenario',
      's2',
      '--plan',
      'docs/plans/2026-07-01-widget-backend.md',
      reply,
    ]);
    expect(other.exitCode, other.stderr).toBe(0);
    expect(other.stdout).toContain('own plan docs/plans/2026-07-01-widget-backend.md');
  });
});
