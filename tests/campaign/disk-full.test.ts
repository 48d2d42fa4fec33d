/**
 * A full results disk (ENOSPC) is no bug: the run drops the rep it could not
 * write, starts no other, releases the results directory's lock and ends
 * with one line naming the directory and the way on (exit 2); a report on a
 * full disk ends with one line too. It ended in an unhandled ENOSPC stack
 * trace (the transcript's write stream had no error listener), the lock and
 * a temp file left behind. The full disk is a small tmpfs: root only.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { oneRepArgs, repLines, runCampaignCli } from './support.js';

const asRoot = process.getuid?.() === 0;
if (!asRoot) console.log('disk-full test skipped: mounting a small tmpfs needs root');

const mounted: string[] = [];
afterEach(async () => {
  for (const dir of mounted.splice(0)) await execa('umount', [dir], { reject: false });
});

/** Every file name under `dir` (recursively). */
function namesUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' });
}

describe.skipIf(!asRoot)('a results directory on a full disk', () => {
  it('drops the rep, releases the lock and ends with one line; so does a report there', async () => {
    const disk = path.join(makeTempDir(), 'disk');
    mkdirSync(disk);
    // Room for the campaign record and the skill copies, not for a rep.
    await execa('mount', ['-t', 'tmpfs', '-o', 'size=120k', 'tmpfs', disk]);
    mounted.push(disk);
    const out = path.join(disk, 'out');
    const run = await runCampaignCli(oneRepArgs('2/4', out, ['--backend', 'messages', '--quiet']));
    expect(run.exitCode, run.stderr).toBe(2);
    const errors = run.stderr.split('\n').filter((line) => line.startsWith('redgreen: '));
    expect(errors, run.stderr).toHaveLength(1);
    expect(errors[0]).toMatch(
      /ran out of space while writing its reps \(ENOSPC\).*redgreen run --resume /,
    );
    expect(run.stderr).not.toMatch(/^\s+at /m);
    expect(existsSync(path.join(out, '.redgreen.lock'))).toBe(false);
    expect(repLines(out)).toEqual([]);
    expect(namesUnder(out).filter((name) => /\.partial-|\.tmp-/.test(name))).toEqual([]);

    // Full to the last block: a report cannot write its files either.
    try {
      writeFileSync(path.join(disk, 'filler'), Buffer.alloc(1024 * 1024));
    } catch {
      // filled
    }
    const report = await runCli(['report', out]);
    expect(report.exitCode, report.stderr).toBe(2);
    expect(report.stderr.trim().split('\n')).toHaveLength(1);
    expect(report.stderr).toMatch(/\(ENOSPC\).*free space/);
    expect(namesUnder(out).filter((name) => /\.tmp-/.test(name))).toEqual([]);
  });
});
