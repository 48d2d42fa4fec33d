/**
 * CLI benchmark: how long `redgreen` takes to start, against a bare Node
 * start, and `redgreen fixture --all` as a whole process against the seed's
 * own generator building the same four fixtures. Prints medians and ratios
 * with their targets; asserts nothing.
 *
 *   npm run build && node dist/scripts/bench-cli.js [--runs N] [--seeds <dir>] [--cli <file>]
 *
 * Targets (issue 13): `--help` and `fixture` start within 1.5x of `node -e 0`;
 * `fixture --all` at least 2x faster than the seed generator. The seed
 * generator lives in seed 000 (Appendix A) in the nearest `shared/seeds` above
 * the package (a worktree finds the checkout's); without it that comparison is
 * skipped, with the reason printed.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { readSeedGenerator, seedFileName, seedsDir } from '../harness/fixture/seed-generator.js';
import { packageRoot } from '../harness/lib/package-root.js';

interface Options {
  readonly runs: number;
  readonly seeds: string;
  /** The CLI to time: this package's build, or another (an older commit's) for a before/after. */
  readonly cli: string;
}

function parseOptions(argv: readonly string[]): Options {
  let runs = 20;
  let seeds = seedsDir();
  let cli = path.join(packageRoot(), 'dist', 'harness', 'cli.js');
  for (let index = 0; index < argv.length; index += 1) {
    const flag = argv[index];
    const value = argv[index + 1];
    if (flag === '--runs' && value !== undefined && /^\d+$/.test(value) && Number(value) > 0) {
      runs = Number(value);
      index += 1;
    } else if (flag === '--seeds' && value !== undefined) {
      seeds = path.resolve(value);
      index += 1;
    } else if (flag === '--cli' && value !== undefined) {
      cli = path.resolve(value);
      index += 1;
    } else {
      throw new Error(
        `bench-cli: unknown or incomplete argument ${flag} (use --runs N, --seeds <dir>, --cli <file>)`,
      );
    }
  }
  return { runs, seeds, cli };
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

const mean = (values: readonly number[]): number =>
  values.reduce((sum, value) => sum + value, 0) / values.length;

/**
 * CPU time (user + system, ms) of this process's waited-for children, from
 * /proc/self/stat (Linux; undefined elsewhere). It ticks at 10 ms, so one run
 * is coarse, but the mean over many runs is not, and unlike wall time it
 * barely moves when other work shares the machine.
 */
function childrenCpuMs(): number | undefined {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // After the command name: field 16 (cutime) and 17 (cstime) are at 13 and 14.
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return undefined;
  }
}

interface Sample {
  readonly wall: number;
  readonly cpu: number;
}

/** Wall and CPU time of one whole process, in ms; throws when it exits other than expected. */
function timeProcess(
  command: string,
  args: readonly string[],
  env: NodeJS.ProcessEnv,
  expectedExit = 0,
): Sample {
  const cpuBefore = childrenCpuMs();
  const start = performance.now();
  const result = spawnSync(command, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
  const wall = performance.now() - start;
  const cpuAfter = childrenCpuMs();
  if (result.status !== expectedExit) {
    throw new Error(
      `${command} ${args.join(' ')} exited ${result.status} (expected ${expectedExit}): ${String(result.stderr)}`,
    );
  }
  const cpu = cpuBefore === undefined || cpuAfter === undefined ? Number.NaN : cpuAfter - cpuBefore;
  return { wall, cpu };
}

const ms = (value: number): string => `${value.toFixed(1)} ms`.padStart(9);
const ratio = (value: number): string => `${value.toFixed(2)}x`;

function main(): void {
  const options = parseOptions(process.argv.slice(2));
  const work = mkdtempSync(path.join(os.tmpdir(), 'redgreen-bench-cli-'));
  try {
    const { cli } = options;
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: work, LANG: 'C' };
    const seedEnv = {
      PATH: env.PATH,
      HOME: work,
      TZ: 'UTC',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_CONFIG_NOSYSTEM: '1',
    };
    const script = readSeedGenerator(options.seeds);
    const scriptPath = path.join(work, 'make-fixture.sh');
    if (script !== undefined) writeFileSync(scriptPath, script);
    const variants = ['s1 flat', 's1 scoped', 's2 flat', 's2 scoped'];
    let counter = 0;
    const fresh = (): string => {
      counter += 1;
      return path.join(work, `d${counter}`);
    };

    const node = process.execPath;
    const measures = {
      bare: () => timeProcess(node, ['-e', '0'], env),
      help: () => timeProcess(node, [cli, '--help'], env),
      fixtureHelp: () => timeProcess(node, [cli, 'fixture', '--help'], env),
      fixtureUsage: () => timeProcess(node, [cli, 'fixture'], env, 2),
      fixtureAll: () => timeProcess(node, [cli, 'fixture', '--all', fresh()], env),
      seedAll: () => {
        const base = fresh();
        mkdirSync(base);
        const loop = variants
          .map((variant) => {
            const [scenario, layout] = variant.split(' ');
            return `bash "$0" ${scenario} ${layout} "$1/${scenario}-${layout}"`;
          })
          .join(' && ');
        return timeProcess('bash', ['-c', loop, scriptPath, base], seedEnv);
      },
    } as const;
    type Measure = keyof typeof measures;
    const names = (Object.keys(measures) as Measure[]).filter(
      (name) => name !== 'seedAll' || script !== undefined,
    );
    const samples = Object.fromEntries(names.map((name) => [name, [] as Sample[]])) as Record<
      Measure,
      Sample[]
    >;

    for (const name of names) measures[name](); // warm the file system cache
    const loadBefore = os.loadavg()[0] ?? 0;
    // Rounds interleave every measure, so a busy machine slows them alike.
    for (let round = 0; round < options.runs; round += 1) {
      for (const name of names) samples[name].push(measures[name]());
    }
    const loadAfter = os.loadavg()[0] ?? 0;
    const wall = (name: Measure): number => median(samples[name].map((sample) => sample.wall));
    const cpu = (name: Measure): number => mean(samples[name].map((sample) => sample.cpu));
    const row = (label: string, name: Measure, target?: string): string =>
      `  ${label.padEnd(40)} ${ms(wall(name))} ${ms(cpu(name))}` +
      (target === undefined
        ? ''
        : `   ${ratio(wall(name) / wall('bare'))}  ${ratio(cpu(name) / cpu('bare'))}  (target <= ${target})`);
    const lines = [
      `redgreen CLI benchmark: ${options.runs} interleaved rounds, Node ${process.version}`,
      `  CLI: ${cli}`,
      `  (1-minute load average ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after, on ${os.cpus().length} CPUs;`,
      '   wall: median; CPU: mean user+sys, which other work on the machine disturbs far less)',
      `  ${''.padEnd(40)}      wall       CPU   vs bare: wall   CPU`,
      row('node -e 0 (bare start)', 'bare'),
      row('redgreen --help', 'help', '1.5x'),
      row('redgreen fixture --help', 'fixtureHelp', '1.5x'),
      row('redgreen fixture (usage error, exit 2)', 'fixtureUsage', '1.5x'),
      row('redgreen fixture --all (4 variants)', 'fixtureAll'),
    ];
    if (script === undefined) {
      lines.push(
        `  seed generator: comparison skipped: ${path.join(options.seeds, seedFileName)} not found (pass --seeds <dir>)`,
      );
    } else {
      lines.push(
        row('seed generator, 4 variants (bash + git)', 'seedAll'),
        `  ${'fixture --all speed-up over the seed'.padEnd(40)} ${ratio(wall('seedAll') / wall('fixtureAll')).padStart(9)} ${ratio(cpu('seedAll') / cpu('fixtureAll')).padStart(9)}  (target >= 2x, whole process)`,
      );
    }
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

main();
