/**
 * A results directory a live run holds (`.redgreen.lock`) is not rewritten
 * by `report` or `score`: they refuse with one line naming the lock. A lock
 * whose process is gone is stale and does not stop them.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { cleanEnv, cliPath, repoRoot, runCli } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { defaultCampaign, filesUnder, repLines, runOneRep } from './support.js';

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
  it('is refused by report and score, naming the lock, while the run is live', async () => {
    const out = path.join(makeTempDir(), 'out');
    const run = execa(
      process.execPath,
      [cliPath, 'run', defaultCampaign, '--reps', '1', '--fault', 'delay=500ms', '--out', out],
      { cwd: repoRoot, env: cleanEnv(), extendEnv: false, reject: false },
    );
    const lock = path.join(out, '.redgreen.lock');
    const ledger = path.join(out, 'ledger.jsonl');
    await waitFor(
      () => existsSync(lock) && existsSync(ledger) && repLines(out).length >= 1,
      120_000,
    );
    const before = contents(out);
    for (const command of ['report', 'score']) {
      const refused = await runCli([command, out]);
      expect(refused.exitCode, refused.stdout).toBe(2);
      const lines = refused.stderr.trim().split('\n');
      expect(lines, refused.stderr).toHaveLength(1);
      expect(lines[0]).toContain('.redgreen.lock');
      expect(lines[0]).toMatch(/pid \d+/);
    }
    // Nothing the run had written was rewritten by them. The run itself goes on meanwhile:
    // its ledger only grows (appended lines), every other file stays as it was.
    const during = contents(out);
    for (const [file, text] of Object.entries(before)) {
      if (file === 'ledger.jsonl') expect(during[file]?.startsWith(text), file).toBe(true);
      else expect(during[file], file).toBe(text);
    }
    expect(existsSync(path.join(out, 'results.md'))).toBe(false);
    const finished = await run;
    expect(finished.exitCode, String(finished.stderr)).toBe(0);
  });

  it('whose process is gone is stale: report and score work and leave no lock behind', async () => {
    const { out, run } = await runOneRep('2/4');
    expect(run.exitCode, run.stderr).toBe(0);
    const gone = spawnSync('true').pid;
    writeFileSync(path.join(out, '.redgreen.lock'), `${gone}\n`);
    for (const command of ['report', 'score']) {
      const result = await runCli([command, out]);
      expect(result.exitCode, result.stderr).toBe(0);
    }
    expect(existsSync(path.join(out, '.redgreen.lock'))).toBe(false);
  });
});
