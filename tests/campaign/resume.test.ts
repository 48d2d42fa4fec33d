import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { cleanEnv, cliPath, repoRoot } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import {
  defaultCampaign,
  filesUnder,
  lockHolderPid,
  repLines,
  runCampaignCli,
  sharedOneRep,
} from './support.js';

function hashTree(dir: string): Record<string, string> {
  return Object.fromEntries(
    filesUnder(dir).map((file) => [
      path.relative(dir, file),
      createHash('sha256').update(readFileSync(file)).digest('hex'),
    ]),
  );
}

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function recordedReps(out: string): number {
  return existsSync(path.join(out, 'ledger.jsonl')) ? repLines(out).length : 0;
}

describe('redgreen run --resume', () => {
  it('after kill -9 loses at most the reps in flight and resumes only the missing ones', async () => {
    const out = path.join(makeTempDir(), 'out');
    const slow = ['--reps', '2', '--concurrency', '2', '--fault', 'delay=700ms'];
    const child = execa(
      process.execPath,
      [cliPath, 'run', defaultCampaign, '--out', out, ...slow],
      {
        cwd: repoRoot,
        env: cleanEnv(),
        extendEnv: false,
        reject: false,
        detached: true,
      },
    );
    await waitFor(() => recordedReps(out) >= 2, 120_000);
    // Both processes of the run: the one doing the work (holding the lock) and the one the shell started.
    const worker = lockHolderPid(out);
    process.kill(-worker, 'SIGKILL');
    if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
    await child;
    const before = repLines(out);
    expect(before.length).toBeGreaterThanOrEqual(2);
    expect(before.length).toBeLessThan(8);
    const finished = Object.fromEntries(
      before.map((line) => [line.id, hashTree(path.join(out, line.dir ?? ''))]),
    );

    const resumed = await runCampaignCli(['--resume', out]);
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain(`${before.length} already done`);
    const after = repLines(out);
    const ids = after.map((line) => line.id);
    expect(new Set(ids).size).toBe(8);
    expect(ids).toHaveLength(8);
    // Nothing a finished rep wrote was touched by the resume.
    for (const [id, hashes] of Object.entries(finished)) {
      const line = after.find((candidate) => candidate.id === id);
      expect(hashTree(path.join(out, line?.dir ?? ''))).toEqual(hashes);
    }
    expect(filesUnder(path.join(out, 'reps')).some((file) => file.includes('.partial-'))).toBe(
      false,
    );
    expect(readFileSync(path.join(out, 'results.md'), 'utf8')).toContain('8/8 reps recorded');
  });

  it('refuses a directory whose campaign identity differs, and changes nothing in it', async () => {
    const { out, run: first } = await sharedOneRep('1/4');
    expect(first.exitCode, first.stderr).toBe(0);
    const before = hashTree(out);
    const other = await runCampaignCli(['--resume', out, '--model', 'scripted:forensic']);
    expect(other.exitCode).toBe(2);
    expect(other.stderr).toMatch(/different campaign identity/);
    expect(hashTree(out)).toEqual(before);
    const arm = await runCampaignCli([
      '--resume',
      out,
      '--arm',
      `red=${path.join(repoRoot, 'skills-under-test/sdd-plan-scoped')}`,
    ]);
    expect(arm.exitCode).toBe(2);
    expect(arm.stderr).toMatch(/different campaign identity/);
  });

  it('Ctrl-C stops dispatching, lets the rep in flight finish, and a resume completes the run', async () => {
    const out = path.join(makeTempDir(), 'out');
    const child = execa(
      process.execPath,
      [
        cliPath,
        'run',
        defaultCampaign,
        '--out',
        out,
        '--reps',
        '1',
        '--concurrency',
        '1',
        '--fault',
        'delay=300ms',
        '--json',
      ],
      { cwd: repoRoot, env: cleanEnv(), extendEnv: false, reject: false },
    );
    let interrupted = false;
    child.stdout?.on('data', (chunk: Buffer) => {
      if (!interrupted && chunk.toString().includes('"type":"rep-start"')) {
        interrupted = true;
        child.kill('SIGINT');
      }
    });
    const result = await child;
    expect(interrupted).toBe(true);
    expect(result.exitCode).toBe(1);
    expect(String(result.stderr)).toContain('stopping after the reps in flight');
    const events = String(result.stdout)
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; missing?: number });
    expect(events.at(-1)).toMatchObject({ type: 'run-end' });
    const recorded = repLines(out);
    expect(recorded).toHaveLength(1);
    expect(recorded[0]?.status).toBe('completed');

    const resumed = await runCampaignCli(['--resume', out]);
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(repLines(out)).toHaveLength(4);
  });

  it('adopts a rep a crash landed without its ledger line, and keeps a shard directory to its shard', async () => {
    const { out, run: first } = await sharedOneRep('2/4');
    expect(first.exitCode, first.stderr).toBe(0);
    const [landed] = repLines(out);
    expect(landed?.id).toBe('green/s1-rep1');
    const before = hashTree(path.join(out, landed?.dir ?? ''));
    // The crash window between landing the directory and appending its line.
    const journalFile = path.join(out, 'ledger.jsonl');
    writeFileSync(journalFile, `${readFileSync(journalFile, 'utf8').split('\n')[0]}\n`);
    expect(repLines(out)).toHaveLength(0);

    const resumed = await runCampaignCli(['--resume', out]);
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain(
      'recorded 1 rep(s) a crash had landed without their ledger.jsonl line',
    );
    expect(resumed.stdout).toContain('running 0 of 1 scheduled rep (1 already done)');
    expect(repLines(out).map((line) => line.id)).toEqual(['green/s1-rep1']);
    expect(hashTree(path.join(out, landed?.dir ?? ''))).toEqual(before);

    // Another shard never runs into this one's directory.
    const other = await runCampaignCli(['--resume', out, '--shard', '3/4']);
    expect(other.exitCode).toBe(2);
    expect(other.stderr).toMatch(/holds shard 2\/4, not shard 3\/4/);
  });
});
