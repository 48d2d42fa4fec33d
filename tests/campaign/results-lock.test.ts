/**
 * A results directory a live run holds (`.redgreen.lock`) is not rewritten
 * by `report` or `score`, nor read half-written by `export` or `merge`: they
 * refuse with one line naming the lock. A lock whose process is gone is stale
 * and does not stop them.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { bootId, startTime } from '../../harness/lib/process-identity.js';
import { cleanEnv, cliPath, repoRoot, runCli } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { defaultCampaign, filesUnder, repLines, sharedOneRep } from './support.js';

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function contents(dir: string): Record<string, string> {
  return Object.fromEntries(
    filesUnder(dir)
      .filter((file) => !file.includes('.partial-') && !file.endsWith('.redgreen.lock'))
      .map((file) => [path.relative(dir, file), readFileSync(file, 'utf8')]),
  );
}

describe('a results directory a run holds locked', () => {
  it('is refused by report, score, export and merge, naming the lock, while the run is live', async () => {
    const out = path.join(makeTempDir(), 'out');
    // One rep's first turn waits 30 s, so the run is still live (holding its lock) while the
    // five commands below start, however slowly this machine runs them.
    const run = execa(
      process.execPath,
      [
        cliPath,
        'run',
        defaultCampaign,
        '--reps',
        '1',
        '--fault',
        'delay=500ms',
        '--fault',
        'delay=30s@1:session=green/s2-rep1',
        '--out',
        out,
      ],
      { cwd: repoRoot, env: cleanEnv(), extendEnv: false, reject: false },
    );
    const lock = path.join(out, '.redgreen.lock');
    await waitFor(
      () =>
        existsSync(lock) && existsSync(path.join(out, 'ledger.jsonl')) && repLines(out).length >= 1,
      120_000,
    );
    const before = contents(out);
    const elsewhere = path.join(makeTempDir(), 'elsewhere');
    for (const command of [
      ['report', out],
      ['score', out],
      ['export', '--atif', out],
      ['export', '--atif', out, '--out', elsewhere],
      ['merge', out, '--out', elsewhere],
    ]) {
      const refused = await runCli(command);
      expect(refused.exitCode, refused.stdout).toBe(2);
      const lines = refused.stderr.trim().split('\n');
      expect(lines, refused.stderr).toHaveLength(1);
      expect(lines[0]).toContain('.redgreen.lock');
      expect(lines[0]).toMatch(/pid \d+/);
    }
    // Nothing the run had written was rewritten by them (the live run only appends to its ledger meanwhile).
    const during = contents(out);
    for (const [file, text] of Object.entries(before)) {
      if (file === 'ledger.jsonl') expect(during[file]?.startsWith(text), file).toBe(true);
      else expect(during[file], file).toBe(text);
    }
    expect(existsSync(path.join(out, 'results.md'))).toBe(false);
    expect(existsSync(path.join(out, 'atif'))).toBe(false);
    expect(existsSync(elsewhere)).toBe(false);
    expect(existsSync(lock), 'the run was still live through every command').toBe(true);
    const finished = await run;
    expect(finished.exitCode, String(finished.stderr)).toBe(0);
  });

  it('whose process is gone is stale: report and score work and leave no lock behind', async () => {
    const { out, run } = await sharedOneRep('2/4');
    expect(run.exitCode, run.stderr).toBe(0);
    const gone = spawnSync('true').pid;
    writeFileSync(path.join(out, '.redgreen.lock'), `${gone}\n`);
    for (const command of [
      ['report', out],
      ['score', out],
      ['export', '--atif', out],
      ['merge', out, '--out', path.join(makeTempDir(), 'merged')],
    ]) {
      const result = await runCli(command);
      expect(result.exitCode, result.stderr).toBe(0);
    }
    expect(existsSync(path.join(out, '.redgreen.lock'))).toBe(false);
    // A lock naming a live process that is not the one it recorded (a reused pid: the
    // start time differs) is stale too; the very process it recorded still holds it.
    const live = { pid: process.pid, started: startTime(process.pid), boot: bootId() };
    writeFileSync(
      path.join(out, '.redgreen.lock'),
      `${JSON.stringify({ ...live, started: (live.started ?? 1) - 1 })}\n`,
    );
    const reused = await runCli(['report', out]);
    expect(reused.exitCode, reused.stderr).toBe(0);
    writeFileSync(path.join(out, '.redgreen.lock'), `${JSON.stringify(live)}\n`);
    const held = await runCli(['report', out]);
    expect(held.exitCode).toBe(2);
    expect(held.stderr).toContain(`pid ${process.pid}`);
  });
});
