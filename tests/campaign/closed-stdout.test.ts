/**
 * `redgreen run | head -3`, or a `tee` that dies: stdout is closed while the
 * campaign runs. The work must not stop half-way with exit 0: redgreen
 * carries on with that output discarded, records every rep, writes the
 * reports, releases the lock and leaves no temp dir behind.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cliPath, repoRoot } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { defaultCampaign, repLines } from './support.js';

describe('a closed stdout', () => {
  it('is read three lines and closed: the run still finishes, reports, unlocks and cleans up', async () => {
    const base = makeTempDir();
    const tmp = path.join(base, 'tmp');
    mkdirSync(tmp);
    const out = path.join(base, 'out');
    const child = spawn(
      process.execPath,
      [cliPath, 'run', defaultCampaign, '--reps', '2', '--out', out],
      {
        cwd: repoRoot,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: base, TMPDIR: tmp, LANG: 'C' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let seen = '';
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    // Like `head -3`: read three lines, then close the pipe's read end.
    child.stdout.on('data', (chunk: Buffer) => {
      seen += chunk.toString();
      if (seen.split('\n').length > 3) child.stdout.destroy();
    });
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve));

    expect(seen.split('\n').length).toBeGreaterThan(3);
    expect(status, stderr).toBe(0);
    expect(repLines(out)).toHaveLength(8);
    expect(stderr).toContain('stdout was closed');
    expect(existsSync(path.join(out, 'results.md'))).toBe(true);
    expect(existsSync(path.join(out, 'report.html'))).toBe(true);
    expect(existsSync(path.join(out, '.redgreen.lock'))).toBe(false);
    expect(readdirSync(tmp).filter((entry) => entry.startsWith('redgreen-'))).toEqual([]);
  });

  for (const args of [['serve-model', '--help'], ['run', '--help'], ['--help']]) {
    it(`closed before \`redgreen ${args.join(' ')}\` writes: no note, since nothing carries on`, async () => {
      const child = spawn(process.execPath, [cliPath, ...args], {
        cwd: repoRoot,
        env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: makeTempDir(), LANG: 'C' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      // The reader is gone before the help is written: the write fails with EPIPE.
      child.stdout.destroy();
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
      expect(status, stderr).toBe(0);
      expect(stderr).toBe('');
    });
  }
});
