/**
 * What `redgreen run` prints while it works: a status line that fits the
 * terminal (and none under TERM=dumb), a heartbeat with the ETA when stdout
 * is not a terminal, `--quiet`, end counts that keep this run's reps apart
 * from the directory's totals, and no listener warning at high concurrency.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  chooseProgressMode,
  type ProgressMode,
  type ProgressOptions,
  progressReporter,
} from '../../harness/run/progress.js';
import type { RunEvent } from '../../harness/run/run-events.js';
import { cliPath, repoRoot } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { defaultCampaign, runCampaignCli } from './support.js';

function collect(
  mode: ProgressMode,
  options: ProgressOptions = {},
): { text: () => string; sink: (event: RunEvent) => void } {
  let text = '';
  const out = {
    write: (chunk: string) => {
      text += chunk;
      return true;
    },
  } as unknown as NodeJS.WritableStream;
  let clock = 0;
  const sink = progressReporter(mode, out, () => (clock += 1000), options);
  return { text: () => text, sink };
}

const start: RunEvent = {
  type: 'run-start',
  campaign: 'c',
  outDir: '/r',
  model: 'scripted:x',
  scripted: true,
  backend: 'claude-code',
  total: 20,
  alreadyDone: 16,
  toRun: 4,
  concurrency: 2,
};
const done = (id: string, verdict: 'pass' | 'fail'): RunEvent => ({
  type: 'rep-done',
  id,
  attempt: 1,
  verdict,
  reason: verdict === 'pass' ? undefined : 'first-dispatch: x',
  toolUses: 5,
  costUsd: null,
  durationMs: 3000,
});
const end: RunEvent = {
  type: 'run-end',
  finished: 4,
  thisRun: { pass: 3, fail: 1, indeterminate: 0 },
  recorded: 20,
  planned: 20,
  pass: 15,
  fail: 5,
  indeterminate: 0,
  missing: 0,
  costUsd: null,
  elapsedMs: 5000,
};

/** What a terminal shows as separate lines: the status line is redrawn after `\r` + erase-line. */
function lines(raw: string): string[] {
  return raw.replaceAll('\r\u001b[2K', '\n').replaceAll('\r\n', '\n').split('\n');
}

/** Run `redgreen` in a pseudo-terminal (util-linux `script`) and return the raw bytes it wrote. */
function inPseudoTerminal(command: string, env: Record<string, string>): string {
  const result = spawnSync('script', ['-qefc', command, '/dev/null'], {
    cwd: repoRoot,
    encoding: 'utf8',
    timeout: 240_000,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/', ...env },
  });
  expect(result.status, result.stderr).toBe(0);
  return result.stdout;
}

const hasScript = spawnSync('script', ['--version'], { stdio: 'ignore' }).status === 0;
if (!hasScript) console.log('skipping the pseudo-terminal tests: util-linux `script` is missing');

describe('progress output', () => {
  it('keeps this run apart from the directory when they differ', () => {
    const { text, sink } = collect('plain', { heartbeatMs: 0 });
    sink(start);
    for (const [index, verdict] of (['pass', 'pass', 'pass', 'fail'] as const).entries()) {
      sink(done(`red/s1-rep${index + 1}`, verdict));
    }
    sink(end);
    expect(text()).toContain('running 4 of 20 scheduled reps (16 already done)');
    expect(text()).toContain('[4/4] red/s1-rep4: fail');
    expect(text()).toContain(
      'finished 4 reps: 3 pass, 1 fail, 0 indeterminate in 5s, cost n/a; the directory records 20/20 scheduled reps: 15 pass, 5 fail, 0 indeterminate',
    );
  });

  it('says a fresh run runs its reps, not "N of N", with the noun in the right number', () => {
    for (const [toRun, line] of [
      [20, 'running 20 reps — claude-code backend'],
      [1, 'running 1 rep — claude-code backend'],
    ] as const) {
      const { text, sink } = collect('plain', { heartbeatMs: 0 });
      sink({ ...start, total: toRun, toRun, alreadyDone: 0 });
      expect(text()).toContain(line);
      expect(text()).not.toMatch(/rep\(s\)| of \d/);
    }
  });

  it('prints a heartbeat with the ETA in plain mode, until the run ends', () => {
    const ticks: (() => void)[] = [];
    let stopped = false;
    const { text, sink } = collect('plain', {
      heartbeatMs: 30_000,
      every: (tick, ms) => {
        expect(ms).toBe(30_000);
        ticks.push(tick);
        return () => {
          stopped = true;
        };
      },
    });
    sink(start);
    sink({ type: 'rep-start', id: 'red/s1-rep1', attempt: 1 });
    sink({ type: 'rep-start', id: 'green/s1-rep1', attempt: 1 });
    sink(done('red/s1-rep1', 'pass'));
    expect(ticks).toHaveLength(1);
    ticks[0]?.();
    expect(text()).toMatch(
      /\.\.\. 1\/4 reps done \(1 pass, 0 fail, 0 indeterminate\), 1 running, elapsed \d+s, eta \d+s\n/,
    );
    sink(end);
    expect(stopped).toBe(true);
  });

  it('says when the judge failed a rep on items no check decides, beside its agreement with the checks', () => {
    const { text, sink } = collect('plain');
    sink(start);
    const judged = (overall?: 'pass' | 'fail'): RunEvent => ({
      type: 'rep-judged',
      id: 'old/eval-2-rep1',
      verdict: 'pass',
      checks: 'pass',
      agreement: 'agree',
      costUsd: null,
      ...(overall === undefined ? {} : { overall }),
    });
    sink(judged('fail'));
    sink(judged());
    expect(text()).toContain(
      'old/eval-2-rep1: judge fail (pass on the items a check also decides), checks pass: agree\n',
    );
    expect(text()).toContain('old/eval-2-rep1: judge pass, checks pass: agree\n');
  });

  it('--quiet leaves out per-rep lines but keeps warnings and the end', () => {
    const { text, sink } = collect('plain', { quiet: true, heartbeatMs: 0 });
    sink(start);
    sink(done('red/s1-rep1', 'pass'));
    sink({ type: 'notice', message: 'something to know' });
    sink({ type: 'rep-dropped', id: 'red/s1-rep2', reason: 'harness error: x' });
    sink(end);
    expect(text()).not.toContain('running 4 of 20');
    expect(text()).not.toContain('[1/4]');
    expect(text()).toContain('note: something to know');
    expect(text()).toContain('red/s1-rep2: not recorded');
    expect(text()).toContain('finished 4 reps');
  });

  it('on a terminal, the status line keeps time between reps and shows how many are running', () => {
    const ticks: (() => void)[] = [];
    let stopped = false;
    const { text, sink } = collect('tty', {
      every: (tick, ms) => {
        expect(ms).toBe(1000);
        ticks.push(tick);
        return () => {
          stopped = true;
        };
      },
    });
    sink(start);
    sink({ type: 'rep-start', id: 'red/s1-rep1', attempt: 1 });
    expect(ticks).toHaveLength(1);
    const before = text().length;
    ticks[0]?.();
    ticks[0]?.();
    const redrawn = text().slice(before);
    // Each tick redraws the line (the clock moved), with no rep finished in between.
    const drawn = redrawn
      .split('\r')
      .filter((piece) => /\[\.+\] 0\/4 {2}running 1 {2}pass 0/.test(piece));
    expect(drawn).toHaveLength(2);
    const elapsed = [...redrawn.matchAll(/elapsed (\d+)s/g)].map((m) => Number(m[1]));
    expect(elapsed[1]).toBeGreaterThan(elapsed[0] ?? Number.POSITIVE_INFINITY);
    sink(end);
    expect(stopped).toBe(true);
  });

  it('cuts the status line to the terminal width, and uses plain lines under TERM=dumb', () => {
    const { text, sink } = collect('tty', { columns: () => 40 });
    sink(start);
    sink(done('red/s1-rep1', 'pass'));
    const statuses = lines(text()).filter((piece) => piece.startsWith('['));
    expect(statuses.length).toBeGreaterThan(0);
    for (const status of statuses) expect(status.length).toBeLessThan(40);
    expect(chooseProgressMode({ json: false, isTTY: true, term: 'dumb' })).toBe('plain');
    expect(chooseProgressMode({ json: false, isTTY: true, term: 'xterm' })).toBe('tty');
    expect(chooseProgressMode({ json: true, isTTY: true, term: 'xterm' })).toBe('json');
  });

  it.skipIf(!hasScript)(
    'in a real 40-column terminal no status line is wider than the terminal; under TERM=dumb no escape codes at all',
    () => {
      const run = (extra: string) =>
        `stty cols 40; ${process.execPath} ${cliPath} run ${defaultCampaign} --reps 1 --shard 1/4 --no-report --out ${path.join(makeTempDir(), 'out')} ${extra}`;
      const narrow = inPseudoTerminal(run(''), { TERM: 'xterm-256color', LANG: 'C' });
      const statuses = lines(narrow).filter((piece) => /^\[[#.]/.test(piece));
      expect(statuses.length, narrow).toBeGreaterThan(0);
      for (const status of statuses) expect(status.length, status).toBeLessThan(40);

      const dumb = inPseudoTerminal(run(''), { TERM: 'dumb', LANG: 'C' });
      expect(dumb.includes('\u001b'), JSON.stringify(dumb)).toBe(false);
      expect(dumb).toContain('[1/1] red/s1-rep1');
    },
  );

  it('runs above concurrency 10 without a listener warning', async () => {
    const out = path.join(makeTempDir(), 'out');
    const run = await runCampaignCli([
      defaultCampaign,
      '--reps',
      '3',
      '--concurrency',
      '12',
      '--no-report',
      '--out',
      out,
    ]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stderr).not.toContain('MaxListenersExceededWarning');
  });
});
