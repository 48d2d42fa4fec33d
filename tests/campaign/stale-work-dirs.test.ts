/**
 * A run killed with SIGKILL cannot remove its private work dir
 * (`$TMPDIR/redgreen-run-*`). The next run removes such stale dirs, and only
 * those: a dir whose run is still alive, a file, or a symlink of that name
 * are left alone. A dir without an owner file (an older redgreen's, or a run
 * killed before it wrote one) is removed only when it is over a day old and
 * no process works in it; the others are named in a note with the command
 * that removes them.
 */
import {
  existsSync,
  mkdirSync,
  readdirSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { removeStaleWorkRoots } from '../../harness/run/work-root.js';
import { cleanEnv, cliPath, repoRoot } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { defaultCampaign, oneRepArgs, readJson, repLines, runCampaignCli } from './support.js';

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Decoys named like work dirs (mkdtemp's six characters) that are not a run's. */
const DECOYS = ['redgreen-run-nodata', 'redgreen-run-isfile', 'redgreen-run-islink'];

function workRoots(tmp: string): string[] {
  return readdirSync(tmp)
    .filter((entry) => /^redgreen-run-[A-Za-z0-9]{6}$/.test(entry) && !DECOYS.includes(entry))
    .sort();
}

function slowRun(out: string, tmp: string, reps: string, extra: readonly string[] = []) {
  return execa(
    process.execPath,
    [
      cliPath,
      'run',
      defaultCampaign,
      '--reps',
      reps,
      '--fault',
      'delay=500ms',
      '--out',
      out,
      ...extra,
    ],
    {
      cwd: repoRoot,
      env: cleanEnv({ TMPDIR: tmp }),
      extendEnv: false,
      reject: false,
      detached: true,
    },
  );
}

describe('stale work dirs of killed runs', () => {
  it('are removed by the next run, which leaves a live run, unknown dirs, files and symlinks alone', async () => {
    const base = makeTempDir();
    const tmp = path.join(base, 'tmp');
    mkdirSync(tmp);

    // A live run in this TMPDIR (two reps per cell, slowed: it outlives the next run).
    const liveOut = path.join(base, 'live');
    const live = slowRun(liveOut, tmp, '2');
    await waitFor(() => workRoots(tmp).length === 1 && existsSync(liveOut), 60_000);
    const [liveRoot] = workRoots(tmp);

    // A run killed with SIGKILL leaves its work dir behind.
    const killedOut = path.join(base, 'killed');
    // The killed run and the next one on the quicker backend: the live run must outlive both.
    const killed = slowRun(killedOut, tmp, '1', ['--backend', 'messages']);
    await waitFor(() => workRoots(tmp).length === 2 && existsSync(killedOut), 60_000);
    const stale = workRoots(tmp).find((entry) => entry !== liveRoot);
    // Both processes of the run: the one that does the work (its work dir's owner) and the one the shell started.
    const owner = readJson<{ pid: number }>(path.join(tmp, stale ?? '', 'owner.json')).pid;
    process.kill(-owner, 'SIGKILL');
    if (killed.pid !== undefined) process.kill(-killed.pid, 'SIGKILL');
    await killed;
    expect(existsSync(path.join(tmp, stale ?? ''))).toBe(true);

    // Things of the same name that must survive.
    const foreign = path.join(tmp, 'redgreen-run-nodata');
    mkdirSync(foreign);
    writeFileSync(path.join(foreign, 'mine.txt'), 'not redgreen');
    writeFileSync(path.join(tmp, 'redgreen-run-isfile'), 'a file');
    const target = path.join(base, 'target');
    mkdirSync(target);
    writeFileSync(path.join(target, 'keep.txt'), 'keep');
    symlinkSync(target, path.join(tmp, 'redgreen-run-islink'));

    const next = await runCampaignCli(
      oneRepArgs('1/4', path.join(base, 'next'), ['--backend', 'messages']),
      { TMPDIR: tmp },
    );
    expect(next.exitCode, next.stderr).toBe(0);
    expect(next.stdout).toMatch(/removed 1 stale work dir/);
    expect(stale).toBeDefined();
    expect(existsSync(path.join(tmp, stale ?? ''))).toBe(false);
    expect(existsSync(path.join(tmp, liveRoot ?? ''))).toBe(true);
    expect(existsSync(path.join(foreign, 'mine.txt'))).toBe(true);
    expect(existsSync(path.join(tmp, 'redgreen-run-isfile'))).toBe(true);
    expect(existsSync(path.join(target, 'keep.txt'))).toBe(true);

    const finished = await live;
    expect(finished.exitCode, String(finished.stderr)).toBe(0);
    expect(repLines(liveOut)).toHaveLength(8);
    expect(workRoots(tmp)).toEqual([]);
  });

  it('without an owner file: removed when over a day old and unused, else named in a note', async () => {
    const base = makeTempDir();
    const tmp = path.join(base, 'tmp');
    mkdirSync(tmp);
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 60 * 60 * 1000);
    const make = (name: string, old: boolean): string => {
      const dir = path.join(tmp, name);
      mkdirSync(path.join(dir, 'repo'), { recursive: true });
      writeFileSync(path.join(dir, 'repo', 'file.txt'), 'left by an older redgreen');
      if (old) utimesSync(dir, twoDaysAgo, twoDaysAgo);
      return dir;
    };
    const oldUnused = make('redgreen-run-old001', true);
    const fresh = make('redgreen-run-new001', false);
    const held = make('redgreen-run-held01', true);
    // A process still working in the old one (as an older redgreen's session would).
    const worker = execa('sleep', ['120'], { cwd: path.join(held, 'repo'), reject: false });
    try {
      const next = await runCampaignCli(
        [defaultCampaign, '--reps', '1', '--shard', '1/4', '--out', path.join(base, 'next')],
        { TMPDIR: tmp },
      );
      expect(next.exitCode, next.stderr).toBe(0);
      expect(existsSync(oldUnused)).toBe(false);
      expect(existsSync(path.join(fresh, 'repo', 'file.txt'))).toBe(true);
      expect(existsSync(path.join(held, 'repo', 'file.txt'))).toBe(true);
      expect(next.stdout).toMatch(/removed 1 stale work dir/);
      const note = next.stdout.split('\n').find((line) => line.includes('no owner file'));
      expect(note, next.stdout).toBeDefined();
      expect(note).toContain(fresh);
      expect(note).toContain(held);
      expect(note).toMatch(/rm -rf /);
    } finally {
      worker.kill('SIGKILL');
      await worker;
    }
  });
});

describe('sweeping stale work dirs is housekeeping', () => {
  it('removes a dead owner’s dir even while a process it left still has its cwd there', async () => {
    const tmp = makeTempDir();
    const dir = path.join(tmp, 'redgreen-run-Orphan');
    mkdirSync(path.join(dir, 'private', 'home', '.claude'), { recursive: true });
    // An owner that is gone: a process that has exited.
    const exited = execa(process.execPath, ['-e', '0'], { reject: false });
    const gonePid = exited.pid;
    await exited;
    writeFileSync(
      path.join(dir, 'owner.json'),
      JSON.stringify({ pid: gonePid, started: null, boot: null, keep: false }),
    );
    // What it left behind: a process working inside the dir (as an engine in its own group would).
    const orphan = execa('sleep', ['30'], {
      cwd: path.join(dir, 'private', 'home'),
      reject: false,
    });
    try {
      await waitFor(() => orphan.pid !== undefined, 5_000);
      const swept = await removeStaleWorkRoots(tmp);
      expect(swept.removed).toEqual([dir]);
      expect(existsSync(dir)).toBe(false);
    } finally {
      orphan.kill('SIGKILL');
      await orphan;
    }
  });
});
