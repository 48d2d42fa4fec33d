/**
 * How good is `redgreen run --dry-run`'s wall-time estimate? For a few
 * offline runs (backend, reps, concurrency) this prints the estimate, the
 * real run's wall time, their ratio, and the run's CPU time (user + sys of
 * the whole process tree, from /usr/bin/time when it is installed), from
 * which the per-rep CPU figure of the model comes. Asserts nothing. A busy
 * machine makes real runs slower than the estimate: the load average is
 * printed with each run.
 *
 *   npm run build && node dist/scripts/bench-estimate.js [--quick]
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { packageRoot } from '../harness/lib/package-root.js';

interface Case {
  readonly backend: 'claude-code' | 'messages';
  readonly reps: number;
  readonly concurrency: number;
}

const CASES: readonly Case[] = [
  { backend: 'claude-code', reps: 5, concurrency: 4 },
  { backend: 'claude-code', reps: 2, concurrency: 1 },
  { backend: 'claude-code', reps: 5, concurrency: 8 },
  { backend: 'messages', reps: 5, concurrency: 4 },
];
const QUICK: readonly Case[] = [{ backend: 'claude-code', reps: 2, concurrency: 4 }];

const TIME = '/usr/bin/time';

function main(): void {
  const cases = process.argv.includes('--quick') ? QUICK : CASES;
  const cli = path.join(packageRoot(), 'dist', 'harness', 'cli.js');
  const work = mkdtempSync(path.join(os.tmpdir(), 'redgreen-bench-estimate-'));
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: work, LANG: 'C' };
  const lines = [
    `dry-run estimate against real offline runs (${os.availableParallelism()} cores, Node ${process.version})`,
    '  backend      reps  conc  sessions  estimate  real     real/est  CPU s   load',
  ];
  try {
    for (const [index, { backend, reps, concurrency }] of cases.entries()) {
      const flags = [
        '--reps',
        String(reps),
        '--concurrency',
        String(concurrency),
        '--backend',
        backend,
      ];
      const dry = spawnSync(process.execPath, [cli, 'run', ...flags, '--dry-run'], {
        env,
        encoding: 'utf8',
      });
      const estimate = Number(/estimated wall time: (\d+) s/.exec(dry.stdout)?.[1] ?? Number.NaN);
      const out = path.join(work, `run-${index}`);
      const cpuFile = path.join(work, `cpu-${index}`);
      const timed = existsSync(TIME);
      const command = timed ? TIME : process.execPath;
      const args = [
        ...(timed ? ['-f', '%U %S', '-o', cpuFile, process.execPath] : []),
        cli,
        'run',
        ...flags,
        '--out',
        out,
      ];
      const load = os.loadavg()[0] ?? 0;
      const start = performance.now();
      const run = spawnSync(command, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
      const real = (performance.now() - start) / 1000;
      if (run.status !== 0)
        throw new Error(`run ${flags.join(' ')} exited ${run.status}: ${String(run.stderr)}`);
      const cpu = timed
        ? readFileSync(cpuFile, 'utf8')
            .trim()
            .split(/\s+/)
            .map(Number)
            .reduce((sum, value) => sum + value, 0)
        : Number.NaN;
      lines.push(
        `  ${backend.padEnd(11)}  ${String(reps).padStart(4)}  ${String(concurrency).padStart(4)}  ${String(reps * 4).padStart(8)}  ${`${estimate} s`.padStart(8)}  ${`${real.toFixed(1)} s`.padStart(7)}  ${`${(real / estimate).toFixed(2)}x`.padStart(8)}  ${cpu.toFixed(1).padStart(6)}  ${load.toFixed(2)}`,
      );
      rmSync(out, { recursive: true, force: true });
    }
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
  process.stdout.write(`${lines.join('\n')}\n`);
}

main();
