/**
 * Provisioning benchmark: what a campaign on a provisioned fixture spends on
 * its provisioning steps, against the provisioning time of one build. A
 * campaign builds each fixture variant once (its steps' result cached by the
 * hash of their inputs and shared by the scenario's layouts) and copies it
 * per rep, so 20 reps on two arms with two layouts should pay the steps
 * about once (target: at most 1.2 × one build's provisioning time). Prints
 * figures; asserts nothing.
 *
 *   npm run build && node dist/scripts/bench-provision.js [--runs N]
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import {
  buildFixture,
  checkProvisionTools,
  copyFixture,
  loadRecipe,
  type Recipe,
  type ToolCheck,
} from '../harness/fixture/index.js';
import { packageRoot } from '../harness/lib/package-root.js';
import { installPacks } from '../harness/pack/install-packs.js';
import { detectSandbox } from '../harness/sandbox/sandbox.js';
import { SHIPPED_PACKS } from '../packs/index.js';

installPacks(SHIPPED_PACKS);

const SCENARIO = 'failing-test';
const LAYOUTS = ['default', 'notes'] as const;
const REPS = 20;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

function runsArg(): number {
  const at = process.argv.indexOf('--runs');
  const value = at === -1 ? 3 : Number(process.argv[at + 1]);
  if (!Number.isInteger(value) || value < 1) {
    console.error('bench-provision: --runs: give a positive whole number');
    process.exit(2);
  }
  return value;
}

/** wordfreq with a second layout (an untracked note), as a campaign's second arm would use. */
function benchRecipe(work: string): Recipe {
  const dir = path.join(work, 'recipe');
  cpSync(path.join(packageRoot(), 'fixtures', 'wordfreq'), dir, { recursive: true });
  const file = path.join(dir, 'recipe.json');
  const json = JSON.parse(readFileSync(file, 'utf8'));
  json.scenarios[SCENARIO].layouts.notes = {
    summary: 'an untracked note',
    files: [{ path: 'NOTES.md', source: 'files/scaffold/README.md' }],
  };
  writeFileSync(file, JSON.stringify(json));
  const loaded = loadRecipe(dir);
  if (!loaded.ok) throw new Error(`bench-provision: ${loaded.error.problem}`);
  return loaded.value;
}

async function timedBuild(
  recipe: Recipe,
  layout: string,
  dest: string,
  options: { provision: 'run' | 'skip'; cacheDir: string; tools?: ToolCheck },
): Promise<number> {
  const started = performance.now();
  const { tools } = options;
  const built = await buildFixture({
    recipe,
    scenario: SCENARIO,
    layout,
    dest,
    provision: options.provision,
    provisionCacheDir: options.cacheDir,
    ...(tools === undefined ? {} : { provisionTools: tools }),
  });
  if (!built.ok) {
    throw new Error(
      `bench-provision: ${built.error.kind === 'gate' ? 'the sanity gate failed' : built.error.problem}`,
    );
  }
  return performance.now() - started;
}

async function main(): Promise<void> {
  const sandbox = await detectSandbox();
  if (sandbox.kind !== 'bubblewrap') {
    console.log(`skipped: provisioning needs bubblewrap (${sandbox.description})`);
    return;
  }
  const work = mkdtempSync(path.join(os.tmpdir(), 'redgreen-bench-provision-'));
  try {
    const recipe = benchRecipe(work);
    const steps = recipe.spec.scenarios[SCENARIO]?.provision ?? [];
    const tools = await checkProvisionTools(steps);
    if (!tools.ok) {
      console.log(`skipped: ${tools.problems.join('; ')}`);
      return;
    }
    const runs = runsArg();
    let n = 0;
    const fresh = (): string => {
      n += 1;
      return path.join(work, `b${n}`);
    };
    const oneBuild: number[] = [];
    const campaign: number[] = [];
    const copies: number[] = [];
    for (let run = 0; run < runs; run += 1) {
      // One build's provisioning time: a build on an empty cache (its tools probed, its steps
      // run), less the same build without steps.
      const cold = await timedBuild(recipe, 'default', fresh(), {
        provision: 'run',
        cacheDir: fresh(),
      });
      const bare = await timedBuild(recipe, 'default', fresh(), {
        provision: 'skip',
        cacheDir: fresh(),
      });
      oneBuild.push(cold - bare);
      // A campaign, as prepare-run does it: the tools probed once for the scenario, each
      // variant (two arms, layouts default and notes) built once on an empty cache, then
      // copied for each of its 20 reps.
      const cacheDir = fresh();
      const probeStarted = performance.now();
      const probed = await checkProvisionTools(steps);
      let spent = performance.now() - probeStarted;
      for (const layout of LAYOUTS) {
        const variant = fresh();
        const built = await timedBuild(recipe, layout, variant, {
          provision: 'run',
          cacheDir,
          tools: probed,
        });
        const without = await timedBuild(recipe, layout, fresh(), {
          provision: 'skip',
          cacheDir,
        });
        spent += built - without;
        const copyStarted = performance.now();
        for (let rep = 0; rep < REPS; rep += 1) {
          const copied = await copyFixture(variant, fresh());
          if (!copied.ok) throw new Error(copied.error.problem);
        }
        copies.push((performance.now() - copyStarted) / REPS);
      }
      campaign.push(spent);
    }
    const one = median(oneBuild);
    const spent = median(campaign);
    const load = os.loadavg()[0]?.toFixed(1) ?? '?';
    console.log(
      `provisioned fixture: wordfreq ${SCENARIO} (a virtualenv with the system's pytest)`,
    );
    console.log(`  runs ${runs}, load average ${load} on ${os.cpus().length} cores`);
    console.log(`  one build's provisioning time (median):          ${one.toFixed(0)} ms`);
    console.log(
      `  a ${REPS}-rep campaign on 2 arms x 2 layouts, empty cache: ${spent.toFixed(0)} ms of provisioning`,
    );
    console.log(`  ratio: ${(spent / one).toFixed(2)} (target: at most 1.20)`);
    console.log(
      `  per-rep copy of the provisioned fixture (median): ${median(copies).toFixed(1)} ms`,
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
