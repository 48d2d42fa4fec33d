/**
 * A results directory is untrusted input (a shard from another machine, a
 * directory a session could once write): `report`, `score`, `gate`, `merge`,
 * `score-reply` and `check` read a rep's files only inside the directory,
 * follow no symlink, read only regular files (a FIFO would block them
 * forever), refuse a ledger line naming a directory the layout does not,
 * and cross-check each rep's score.json against the verdict the ledger
 * recorded. One real run (one rep) is shared; each case tampers with a copy.
 */
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkSession } from '../../harness/check/check-session.js';
import type { InputError } from '../../harness/lib/input-error.js';
import type { Result } from '../../harness/lib/result.js';
import { loadResults } from '../../harness/report/load-results.js';
import { repsTreeProblem } from '../../harness/results/results-dir.js';
import { resultsLayout } from '../../harness/results/results-layout.js';
import { mergeResults } from '../../harness/run/merge.js';
import { rescoreResults } from '../../harness/run/rescore.js';
import { runCli } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { readLedgerLines, repLines, sharedOneRep } from './support.js';

let pristine = '';
let repDir = '';

let shared = '';

beforeAll(async () => {
  // Kept for the whole file (a test's temp dirs go when the test ends).
  shared = mkdtempSync(path.join(os.tmpdir(), 'redgreen-untrusted-run-'));
  chmodSync(shared, 0o711);
  pristine = path.join(shared, 'out');
  // The run is shared with other files (shared-runs.ts); this file keeps its own copy.
  const { out, run } = await sharedOneRep('2/4', ['--backend', 'messages']);
  expect(run.exitCode, run.stderr).toBe(0);
  cpSync(out, pristine, { recursive: true });
  repDir = repLines(pristine)[0]?.dir ?? '';
  expect(repDir).toBe('reps/green/s1-rep1');
}, 120_000);

afterAll(() => {
  rmSync(shared, { recursive: true, force: true });
});

/** A fresh copy of the run, to tamper with. */
function copyOfRun(): string {
  const dir = path.join(makeTempDir('redgreen-untrusted-'), 'run');
  cpSync(pristine, dir, { recursive: true });
  return dir;
}

/** The readers behind `report`/`gate` (loadResults), `score` (rescoreResults) and `merge`, in-process. */
async function inProcessProblems(dir: string): Promise<string[]> {
  const merged = path.join(path.dirname(dir), `merged-${Math.random().toString(36).slice(2)}`);
  const problem = (result: Result<unknown, InputError>): string =>
    result.ok ? 'ok' : `${result.error.input}: ${result.error.problem}`;
  const loaded = await loadResults(dir);
  const rescored = await rescoreResults(dir);
  const unscorable = rescored.ok ? rescored.value.unscorable.map((rep) => rep.problem) : [];
  const mergedResult = await mergeResults([dir], merged);
  // A merge that refuses leaves nothing behind.
  if (!mergedResult.ok) expect(existsSync(merged)).toBe(false);
  return [problem(loaded), unscorable[0] ?? problem(rescored), problem(mergedResult)];
}

async function expectRefused(args: string[], pattern: RegExp): Promise<void> {
  const result = await runCli(args, { timeoutMs: 30_000 });
  expect(result.timedOut, args.join(' ')).toBe(false);
  expect(result.exitCode, `${args.join(' ')}\n${result.stdout}\n${result.stderr}`).toBe(2);
  expect(result.stderr, args.join(' ')).toMatch(pattern);
}

describe('a results directory is untrusted input', () => {
  it('a reply.md symlinked to a host file is never read, nor embedded in report.html', async () => {
    const dir = copyOfRun();
    const host = path.join(makeTempDir('redgreen-host-'), 'host-secret.txt');
    writeFileSync(host, '3\nHOST-SECRET-CONTENT\n');
    const reply = path.join(dir, repDir, 'reply.md');
    rmSync(reply);
    symlinkSync(host, reply);
    rmSync(path.join(dir, 'report.html'));
    await expectRefused(['report', dir], /reply\.md .*symlink \(not followed\)/);
    expect(existsSync(path.join(dir, 'report.html'))).toBe(false);
  });

  it('a FIFO in a rep directory ends every reader at once, never blocks it', async () => {
    const dir = copyOfRun();
    const reply = path.join(dir, repDir, 'reply.md');
    const kept = readFileSync(reply);
    rmSync(reply);
    await execa('mkfifo', [reply]);
    const [loaded, rescored] = await inProcessProblems(dir);
    expect(loaded).toMatch(/reply\.md .*not a regular file \(a pipe, socket or device\)/);
    expect(rescored).toMatch(/reply\.md .*not a regular file/);
    const checked = await checkSession({ scenario: 's1', reply });
    expect(checked.ok ? 'ok' : checked.error.problem).toMatch(/named pipe \(FIFO\)/);
    await expectRefused(['score-reply', '--scenario', 's1', reply], /named pipe \(FIFO\)/);
    // Planted negative: the same reply as a regular file is read.
    rmSync(reply);
    writeFileSync(reply, kept);
    expect((await loadResults(dir)).ok).toBe(true);
  });

  it('a ledger line whose dir leaves the layout is refused by score, report, gate and merge; nothing is written there', async () => {
    const dir = copyOfRun();
    const elsewhere = path.join(path.dirname(dir), 'elsewhere');
    cpSync(path.join(dir, repDir), path.join(elsewhere, 'reps', 'green', 's1-rep1'), {
      recursive: true,
    });
    const ledger = path.join(dir, 'ledger.jsonl');
    writeFileSync(
      ledger,
      readFileSync(ledger, 'utf8').replace(
        `"dir":"${repDir}"`,
        '"dir":"../elsewhere/reps/green/s1-rep1"',
      ),
    );
    const before = readFileSync(path.join(elsewhere, 'reps/green/s1-rep1/score.json'), 'utf8');
    const [loaded, rescored, merged] = await inProcessProblems(dir);
    for (const problem of [loaded, rescored])
      expect(problem).toMatch(
        /is corrupt at line 2: dir: .*not where its rep lives \(reps\/green\/s1-rep1\)/,
      );
    expect(merged).toMatch(/unreadable ledger\.jsonl/);
    await expectRefused(['score', dir], /ledger\.jsonl: is corrupt at line 2: dir: /);
    expect(readFileSync(path.join(elsewhere, 'reps/green/s1-rep1/score.json'), 'utf8')).toBe(
      before,
    );
  });

  it('a symlinked reps/<arm> is not followed by score, report, gate, merge or a resume', async () => {
    const dir = copyOfRun();
    const arm = path.join(dir, 'reps', 'green');
    const moved = path.join(path.dirname(dir), 'green-elsewhere');
    renameSync(arm, moved);
    symlinkSync(moved, arm);
    for (const problem of await inProcessProblems(dir))
      expect(problem).toMatch(/reps\/green is a symlink \(not followed\), not a directory/);
    expect((await repsTreeProblem(resultsLayout(dir)))?.problem).toMatch(
      /is a symlink or not a directory/,
    );
    await expectRefused(
      ['merge', dir, '--out', path.join(path.dirname(dir), 'merged')],
      /reps\/green is a symlink/,
    );
  });

  it('merge refuses a rep directory holding a symlink, before writing anything', async () => {
    const dir = copyOfRun();
    symlinkSync('/etc/hostname', path.join(dir, repDir, 'extra.txt'));
    const [, , merged] = await inProcessProblems(dir);
    expect(merged).toMatch(/extra\.txt: is a symlink, which no rep directory holds/);
  });

  it("a score.json whose verdict is not the ledger's is reported, never silently taken; `score` rebuilds it from the rep's files", async () => {
    const dir = copyOfRun();
    const scoreFile = path.join(dir, repDir, 'score.json');
    expect(repLines(dir)[0]?.verdict).toBe('pass');
    const forged = JSON.parse(readFileSync(scoreFile, 'utf8')) as { verdict: string };
    writeFileSync(scoreFile, JSON.stringify({ ...forged, verdict: 'fail' }, null, 2));
    await expectRefused(['report', dir], /score\.json says fail but ledger\.jsonl recorded pass/);
    const loaded = await loadResults(dir);
    expect(loaded.ok ? 'ok' : loaded.error.problem).toMatch(
      /score\.json says fail but ledger\.jsonl recorded pass/,
    );
    // `score` rebuilds it: the verdict the rep's files give, which the ledger already holds.
    expect((await rescoreResults(dir)).ok).toBe(true);
    expect((JSON.parse(readFileSync(scoreFile, 'utf8')) as { verdict: string }).verdict).toBe(
      'pass',
    );
    expect(readLedgerLines(dir).filter((line) => line.type === 'rep')).toHaveLength(1);
    expect((await loadResults(dir)).ok).toBe(true);
    // A rescore whose verdict differs from the ledger's records it: a line of the same
    // attempt that supersedes the earlier one, so readers agree with score.json again.
    const ledger = path.join(dir, 'ledger.jsonl');
    writeFileSync(
      ledger,
      readFileSync(ledger, 'utf8').replace('"verdict":"pass"', '"verdict":"fail"'),
    );
    expect((await loadResults(dir)).ok).toBe(false);
    expect((await rescoreResults(dir)).ok).toBe(true);
    const lines = readLedgerLines(dir).filter((line) => line.type === 'rep');
    expect(lines.map((line) => `${line.verdict} ${line.attempt}`)).toEqual(['fail 1', 'pass 1']);
    const reread = await loadResults(dir);
    expect(reread.ok ? reread.value.reps.map((rep) => rep.score.verdict) : []).toEqual(['pass']);
  });
});
