/**
 * Fixture builder benchmark: how long our builder takes against the seed's
 * own generator. Prints figures and ratios; asserts nothing.
 *
 *   npx tsc -p tsconfig.build.json && node dist/scripts/bench-fixtures.js [--runs N]
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { draftRepository } from '../harness/fixture/blueprint.js';
import {
  buildFixture,
  copyFixture,
  defaultRecipeDir,
  listVariants,
  loadRecipe,
  type Recipe,
  takeSnapshot,
  type Variant,
} from '../harness/fixture/index.js';
import { repositoryLayout } from '../harness/fixture/repository-files.js';
import { readSeedGenerator, runSeedGenerator } from '../harness/fixture/seed-generator.js';
import { parseUtcOffset } from '../harness/fixture/wall-time.js';
import { writeRepository } from '../harness/fixture/write-repository.js';
import { packageRoot } from '../harness/lib/package-root.js';
import { installPacks } from '../harness/pack/install-packs.js';
import { SHIPPED_PACKS } from '../packs/index.js';

installPacks(SHIPPED_PACKS);

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** Milliseconds one call takes. */
async function timed(once: () => Promise<void>): Promise<number> {
  const start = performance.now();
  await once();
  return performance.now() - start;
}

function runProcess(command: string, args: readonly string[], env: NodeJS.ProcessEnv) {
  return new Promise<void>((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString('utf8');
    });
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} exited ${code}: ${stderr}`)),
    );
  });
}

function parseRuns(argv: readonly string[]): number {
  const index = argv.indexOf('--runs');
  const value = index === -1 ? 15 : Number(argv[index + 1]);
  if (!Number.isInteger(value) || value < 1) throw new Error('--runs needs a positive integer');
  return value;
}

const ms = (value: number): string => `${value.toFixed(1)} ms`;
const times = (value: number): string => `${value.toFixed(1)}x`;

type Metric =
  | 'buildOnly'
  | 'withGate'
  | 'copy'
  | 'snapshot'
  | 'cliAll'
  | 'seedPerFixture'
  | 'seedAll';

async function main(): Promise<void> {
  const runs = parseRuns(process.argv.slice(2));
  const work = mkdtempSync(path.join(os.tmpdir(), 'redgreen-bench-'));
  try {
    const recipeDir = defaultRecipeDir();
    if (!recipeDir.ok) throw new Error(`recipe: ${recipeDir.error.problem}`);
    const loaded = loadRecipe(recipeDir.value);
    if (!loaded.ok) throw new Error(`recipe: ${loaded.error.problem}`);
    const recipe: Recipe = loaded.value;
    const variants = listVariants(recipe);
    const offset = parseUtcOffset('+00:00');
    if (!offset.ok) throw new Error('offset');
    let counter = 0;
    const freshDir = (): string => {
      counter += 1;
      return path.join(work, `d${counter}`);
    };
    const cli = path.join(packageRoot(), 'dist', 'harness', 'cli.js');
    const cliEnv = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: work, LANG: 'C' };
    const script = readSeedGenerator();
    const scriptPath = path.join(work, 'make-fixture.sh');
    if (script !== undefined) writeFileSync(scriptPath, script);
    const seedEnv = {
      PATH: process.env.PATH ?? '/usr/bin:/bin',
      HOME: work,
      TZ: 'UTC',
      GIT_CONFIG_GLOBAL: '/dev/null',
      GIT_CONFIG_NOSYSTEM: '1',
    };

    const buildOnly = async (variant: Variant): Promise<void> => {
      const blueprint = draftRepository(recipe, variant, {
        offset: offset.value,
        realisticGitignore: false,
      });
      if (!blueprint.ok) throw new Error(blueprint.error.problem);
      const dir = freshDir();
      mkdirSync(dir);
      await writeRepository(dir, repositoryLayout(blueprint.value));
    };
    const withGate = async (variant: Variant): Promise<void> => {
      const built = await buildFixture({ recipe, ...variant, dest: freshDir() });
      if (!built.ok) throw new Error(`build failed: ${JSON.stringify(built.error)}`);
    };
    const seedOne = async (variant: Variant): Promise<void> => {
      const result = await runSeedGenerator({
        script: scriptPath,
        ...variant,
        dest: freshDir(),
        home: work,
        tz: 'UTC',
      });
      if (result.exitCode !== 0) throw new Error(`seed generator failed: ${result.stderr}`);
    };
    const seedAllVariants = async (): Promise<void> => {
      const base = freshDir();
      mkdirSync(base);
      const loop = variants
        .map((v) => `bash "$0" ${v.scenario} ${v.layout} "$1/${v.scenario}-${v.layout}"`)
        .join(' && ');
      await runProcess('bash', ['-c', loop, scriptPath, base], seedEnv);
    };

    // Warm up module loading and the file system cache.
    await withGate(variants[0] as Variant);
    const source = freshDir();
    await buildFixture({ recipe, scenario: 's1', layout: 'scoped', dest: source });

    // Rounds interleave ours and the seed's, so a busy machine slows both alike.
    const samples: Record<Metric, number[]> = {
      buildOnly: [],
      withGate: [],
      copy: [],
      snapshot: [],
      cliAll: [],
      seedPerFixture: [],
      seedAll: [],
    };
    const loadBefore = os.loadavg()[0] ?? 0;
    for (let round = 0; round < runs; round += 1) {
      for (const variant of variants) {
        samples.buildOnly.push(await timed(() => buildOnly(variant)));
        samples.withGate.push(await timed(() => withGate(variant)));
        if (script !== undefined) samples.seedPerFixture.push(await timed(() => seedOne(variant)));
      }
      samples.copy.push(
        await timed(async () => {
          const copied = await copyFixture(source, freshDir());
          if (!copied.ok) throw new Error(copied.error.problem);
        }),
      );
      samples.snapshot.push(await timed(() => takeSnapshot(source).then(() => undefined)));
      samples.cliAll.push(
        await timed(() =>
          runProcess(process.execPath, [cli, 'fixture', '--all', freshDir()], cliEnv),
        ),
      );
      if (script !== undefined) samples.seedAll.push(await timed(seedAllVariants));
    }
    const loadAfter = os.loadavg()[0] ?? 0;
    const m = (metric: Metric): number => median(samples[metric]);

    const lines = [
      `redgreen fixture benchmark: ${runs} rounds, each building all ${variants.length} variants; medians`,
      `  (1-minute load average ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after, on ${os.cpus().length} CPUs)`,
      `  ours, per fixture, in-process, build only:        ${ms(m('buildOnly'))}`,
      `  ours, per fixture, in-process, incl. gate:        ${ms(m('withGate'))}`,
      `  ours, copyFixture of a built fixture:             ${ms(m('copy'))}`,
      `  ours, takeSnapshot of a built fixture:            ${ms(m('snapshot'))}`,
      `  ours, four variants via CLI, whole process:       ${ms(m('cliAll'))}`,
    ];
    if (script === undefined) {
      lines.push('  seed generator: not measured (seed 000 not found under ../shared/seeds)');
    } else {
      lines.push(
        `  seed generator, per fixture (one bash process):   ${ms(m('seedPerFixture'))}`,
        `  seed generator, four variants, whole process:     ${ms(m('seedAll'))}`,
        `  ratio per fixture, seed / ours (build only):      ${times(m('seedPerFixture') / m('buildOnly'))}  (target >= 5x)`,
        `  ratio per fixture, seed / ours (incl. gate):      ${times(m('seedPerFixture') / m('withGate'))}`,
        `  ratio four variants, seed / ours CLI:             ${times(m('seedAll') / m('cliAll'))}  (target >= 1x)`,
      );
    }
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
