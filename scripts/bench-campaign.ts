/**
 * Benchmark the runner. Prints figures; asserts nothing.
 *
 *   node dist/scripts/bench-campaign.js [--backend messages|claude-code|codex] [--latency-ms 1000] [--overhead-only <reps a cell>]
 *
 * 1. Scheduling efficiency: a 40-rep campaign (10 reps per cell) at concurrency
 *    8, the scripted model server adding a fixed latency to every turn. Ideal =
 *    ceil(reps / concurrency) x turns x latency (turns: the mean per rep), and
 *    also a list-schedule of the reps' own turn counts; efficiency = ideal / wall.
 * 2. The harness's own overhead per rep (fixture and skill copy, snapshots,
 *    writing the record; excluding the session), as a median.
 * 3. Peak RSS of the harness process at 40 and at 200 reps (sampled every
 *    50 ms); the engine processes are separate and not counted.
 * 4. Full sessions (`stop: complete`): the sdd-full-runs campaign (three
 *    scenarios, two arms, `scripted:full-skill-reader`, no added latency), five
 *    or six subagent seats a rep. Per seat: the session's wall time and the
 *    harness's own overhead outside the session (copy, snapshots, rep-time
 *    commands such as `npm test`, the record), each divided by the rep's seats
 *    (its subagents plus the controller); and the harness's peak RSS, in a
 *    fresh process (on the messages backend every seat's loop runs in it).
 *    `--full-session-only` runs just this case.
 * 5. Skills libraries (`--skills-only` runs just this case): (a) the harness's
 *    overhead per rep of a library arm (the devflow library installed as a
 *    plugin, its SessionStart hook run confined) against a one-folder arm, on
 *    the same scenario, as medians, and their difference; (b) the estimated
 *    input tokens (the local server's estimate: input plus cache) of a
 *    stop-at-first-skill probe against the same feature request run to
 *    completion, as medians, and their ratio; (c) the same two as --dry-run
 *    prices them for a live model (its session profiles), and their ratio.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';
import { defaultCampaignFile, loadCampaign } from '../harness/campaign/load-campaign.js';
import { singleModelAxis } from '../harness/campaign/model-axis.js';
import { chooseModel } from '../harness/campaign/model-choice.js';
import { sessionUsage } from '../harness/estimate/cell-estimate.js';
import type { FaultRuleInput } from '../harness/model-server/faults.js';
import { policyNames } from '../harness/model-server/index.js';
import { installPacks } from '../harness/pack/install-packs.js';
import { type RepMeta, repMetaSchema } from '../harness/results/rep-meta.js';
import { runCampaign } from '../harness/run/run-campaign.js';
import { RunControl } from '../harness/run/run-control.js';
import type { RunEvent } from '../harness/run/run-events.js';
import type { StopSpec } from '../harness/score/stop-mode.js';
import type { BackendName } from '../harness/session/session-tool-table.js';
import { SHIPPED_PACKS } from '../packs/index.js';

function flag(name: string, fallback: string): string {
  const index = process.argv.indexOf(name);
  return index === -1 ? fallback : (process.argv[index + 1] ?? fallback);
}

const backend = flag('--backend', 'messages') as BackendName;
const latencyMs = Number(flag('--latency-ms', '1000'));

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[mid] ?? 0)
    : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/** Greedy list scheduling in dispatch order: the best a pool of `slots` can do with these durations. */
function listSchedule(durations: readonly number[], slots: number): number {
  const free = new Array<number>(slots).fill(0);
  for (const duration of durations) {
    const earliest = Math.min(...free);
    free[free.indexOf(earliest)] = earliest + duration;
  }
  return Math.max(...free);
}

interface Measured {
  readonly wallMs: number;
  readonly turns: number[];
  readonly overheadMs: number[];
  readonly peakRssMb: number;
  readonly reps: number;
}

interface BenchRun {
  readonly metas: readonly RepMeta[];
  readonly wallMs: number;
  readonly peakRssMb: number;
}

/**
 * Run one campaign offline in this process with a scripted policy, sampling
 * the harness's RSS every 50 ms, and return every rep's meta.json, the run's
 * wall time and the peak RSS. The temp results are removed afterwards.
 */
async function benchRun(options: {
  readonly campaignFile: string;
  readonly policy: string;
  readonly repsPerCell: number;
  readonly concurrency: number;
  readonly faults: readonly FaultRuleInput[];
}): Promise<BenchRun> {
  const out = mkdtempSync(path.join(os.tmpdir(), 'redgreen-bench-'));
  const campaign = await loadCampaign(options.campaignFile, {
    cwd: process.cwd(),
    reps: options.repsPerCell,
    concurrency: options.concurrency,
    backend,
  });
  if (!campaign.ok) throw new Error(campaign.error.problem);
  const model = chooseModel({
    requested: `scripted:${options.policy}`,
    campaignModel: campaign.value.config.model ?? '',
    offlineModel: campaign.value.config.offlineModel ?? '',
    env: {},
    knownPolicies: policyNames(),
    campaignFile: campaign.value.file,
  });
  if (!model.ok) throw new Error(model.error.problem);
  let peak = process.memoryUsage().rss;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 50);
  let wallMs = 0;
  try {
    const summary = await runCampaign({
      campaign: campaign.value,
      models: singleModelAxis(model.value),
      invocation: {
        campaignFile: campaign.value.file,
        arms: [],
        reps: options.repsPerCell,
        model: model.value.id,
        backend,
        seed: 1,
        maxTurns: campaign.value.config.limits.maxTurns,
        sessionTimeoutSeconds: campaign.value.config.limits.sessionTimeoutSeconds,
        shard: null,
        only: null,
      },
      outDir: path.join(out, 'results'),
      resume: false,
      shard: null,
      retryIndeterminate: 0,
      keepWorkDirs: false,
      unsafeNoSandbox: false,
      faults: options.faults,
      control: new RunControl(),
      events: (event: RunEvent): void => {
        if (event.type === 'run-end') wallMs = event.elapsedMs;
      },
      env: {},
    });
    if (!summary.ok) throw new Error(summary.error.problem);
    return {
      metas: summary.value.results.map((result) => repMetaSchema.parse(result.meta)),
      wallMs,
      peakRssMb: peak / 1024 / 1024,
    };
  } finally {
    clearInterval(sampler);
    rmSync(out, { recursive: true, force: true });
  }
}

/** The campaign the installed packs name as the default (the packs are installed first). */
function defaultCampaign(): string {
  const file = defaultCampaignFile();
  if (file === undefined) throw new Error('no installed pack names a default campaign');
  return file;
}

async function measure(
  repsPerCell: number,
  concurrency: number,
  latency: number,
): Promise<Measured> {
  const run = await benchRun({
    campaignFile: defaultCampaign(),
    policy: 'structural',
    repsPerCell,
    concurrency,
    faults: latency > 0 ? [{ kind: 'delay', minMs: latency, maxMs: latency }] : [],
  });
  return {
    wallMs: run.wallMs,
    turns: run.metas.map((meta) => meta.turns),
    overheadMs: run.metas.map((meta) => meta.harnessOverheadMs),
    peakRssMb: run.peakRssMb,
    reps: run.metas.length,
  };
}

interface FullSessionMeasured {
  readonly reps: number;
  readonly wallMs: number;
  readonly seats: number[];
  readonly durationMs: number[];
  readonly overheadMs: number[];
  readonly peakRssMb: number;
}

/** The full-session case: the sdd-full-runs campaign, in this process. */
async function measureFullSessions(
  repsPerCell: number,
  concurrency: number,
): Promise<FullSessionMeasured> {
  const run = await benchRun({
    campaignFile: path.join(process.cwd(), 'scenarios', 'sdd-full-runs.campaign.json'),
    policy: 'full-skill-reader',
    repsPerCell,
    concurrency,
    faults: [],
  });
  return {
    reps: run.metas.length,
    wallMs: run.wallMs,
    seats: run.metas.map((meta) => meta.subagentDispatches + 1),
    durationMs: run.metas.map((meta) => meta.durationMs),
    overheadMs: run.metas.map((meta) => meta.harnessOverheadMs),
    peakRssMb: run.peakRssMb,
  };
}

async function reportFullSessions(): Promise<void> {
  const repsPerCell = 4;
  const concurrency = 4;
  // In a fresh process, so the earlier cases' heap does not count against it.
  const child = await execa(
    process.execPath,
    [
      fileURLToPath(import.meta.url),
      '--full-session-json',
      String(repsPerCell),
      String(concurrency),
      '--backend',
      backend,
    ],
    { reject: true },
  );
  const measured = JSON.parse(
    String(child.stdout).trim().split('\n').at(-1) ?? '{}',
  ) as FullSessionMeasured;
  const perSeat = (values: readonly number[]): number[] =>
    values.map((value, index) => value / (measured.seats[index] ?? 1));
  const seatsTotal = measured.seats.reduce((sum, seats) => sum + seats, 0);
  console.log(
    `\n4. full sessions (sdd-full-runs, scripted:full-skill-reader, no added latency): ${measured.reps} reps at concurrency ${concurrency}, ${seatsTotal} seats (controller + subagents: ${Math.min(...measured.seats)}-${Math.max(...measured.seats)} a rep), wall ${(measured.wallMs / 1000).toFixed(1)} s`,
  );
  console.log(
    `   session wall time per seat: median ${median(perSeat(measured.durationMs)).toFixed(0)} ms (a rep: median ${median(measured.durationMs).toFixed(0)} ms)`,
  );
  console.log(
    `   harness overhead per seat (outside the session: copy, snapshots, rep-time commands, record): median ${median(perSeat(measured.overheadMs)).toFixed(0)} ms (a rep: median ${median(measured.overheadMs).toFixed(0)} ms, min ${Math.min(...measured.overheadMs)}, max ${Math.max(...measured.overheadMs)})`,
  );
  console.log(
    `   peak RSS of the harness process: ${measured.peakRssMb.toFixed(0)} MB (${concurrency} reps at a time, each with its seats)`,
  );
}

/** Input-side tokens of a rep as the local server estimates them (input, cache writes and reads). */
function inputTokens(meta: RepMeta): number {
  const tokens = meta.tokens;
  return tokens === null ? 0 : tokens.input + tokens.cacheWrite + tokens.cacheRead;
}

async function reportSkills(): Promise<void> {
  const root = process.cwd();
  const work = mkdtempSync(path.join(os.tmpdir(), 'redgreen-bench-skills-'));
  try {
    // (a) The same scenario for a library arm and a one-folder arm (whose prompt must name its folder).
    const scenarioDir = path.join(work, 'bench-overhead');
    cpSync(path.join(root, 'scenarios', 'skill-triggering-unrelated'), scenarioDir, {
      recursive: true,
    });
    const scenario = JSON.parse(
      readFileSync(path.join(scenarioDir, 'scenario.json'), 'utf8'),
    ) as Record<string, unknown>;
    writeFileSync(
      path.join(scenarioDir, 'scenario.json'),
      JSON.stringify({
        ...scenario,
        id: 'bench-overhead',
        fixture: { recipe: path.join(root, 'fixtures', 'textkit'), scenario: 'start' },
      }),
    );
    writeFileSync(
      path.join(scenarioDir, 'prompt.hbs'),
      `${readFileSync(path.join(scenarioDir, 'prompt.hbs'), 'utf8').trim()} (Skills, if any: {{skillDir}}.)\n`,
    );
    const base = {
      title: 'bench',
      scenarios: ['./bench-overhead'],
      reps: 10,
      model: 'claude-sonnet-5-5',
      offlineModel: 'scripted:skill-trigger',
      backend,
    };
    const overheadFile = path.join(work, 'overhead.campaign.json');
    writeFileSync(
      overheadFile,
      JSON.stringify({
        ...base,
        id: 'bench-overhead',
        arms: [
          {
            name: 'library',
            role: 'red',
            label: 'library',
            library: { source: path.join(root, 'skills-under-test', 'devflow') },
            layout: 'default',
          },
          {
            name: 'folder',
            role: 'green',
            label: 'one folder',
            skill: path.join(root, 'skills-under-test', 'devflow-test-first-v2'),
            layout: 'default',
          },
        ],
      }),
    );
    const overhead = await benchRun({
      campaignFile: overheadFile,
      policy: 'skill-trigger',
      repsPerCell: 10,
      concurrency: 1,
      faults: [],
    });
    const byArm = (arm: string): number[] =>
      overhead.metas.filter((meta) => meta.arm === arm).map((meta) => meta.harnessOverheadMs);
    const library = median(byArm('library'));
    const folder = median(byArm('folder'));
    console.log(
      `\n5. skills libraries (scripted:skill-trigger; (a) at concurrency 1, load average ${os.loadavg()[0]?.toFixed(1)})\n   (a) harness overhead per rep: library arm (install + SessionStart hook) median ${library.toFixed(0)} ms, one-folder arm median ${folder.toFixed(0)} ms; the library adds ${(library - folder).toFixed(0)} ms (${byArm('library').length} + ${byArm('folder').length} reps)`,
    );
    // (b) A stop-at-first-skill probe against the same request run to completion (GREEN's text),
    // from a campaign in the work directory (never written into the checkout), paths absolute.
    const tokensFile = path.join(work, 'bench-skill-tokens.campaign.json');
    const campaign = JSON.parse(
      readFileSync(path.join(root, 'scenarios', 'skill-triggering.campaign.json'), 'utf8'),
    ) as { arms: { library: { source: string; overrides?: Record<string, string> } }[] };
    const fromScenarios = (source: string): string => path.resolve(root, 'scenarios', source);
    writeFileSync(
      tokensFile,
      JSON.stringify({
        ...campaign,
        id: 'bench-skill-tokens',
        arms: campaign.arms.slice(1).map((arm) => ({
          ...arm,
          library: {
            source: fromScenarios(arm.library.source),
            overrides: Object.fromEntries(
              Object.entries(arm.library.overrides ?? {}).map(([skill, source]) => [
                skill,
                fromScenarios(source),
              ]),
            ),
          },
        })),
        scenarios: ['skill-triggering-probe', 'skill-triggering-feature'].map((id) =>
          path.join(root, 'scenarios', id),
        ),
        gates: [],
      }),
    );
    const tokens = await benchRun({
      campaignFile: tokensFile,
      policy: 'skill-trigger',
      repsPerCell: 3,
      concurrency: 3,
      faults: [],
    });
    const of = (id: string): number[] =>
      tokens.metas.filter((meta) => meta.scenario === id).map(inputTokens);
    const probe = median(of('skill-triggering-probe'));
    const whole = median(of('skill-triggering-feature'));
    const turns = (id: string): number =>
      median(tokens.metas.filter((meta) => meta.scenario === id).map((meta) => meta.turns));
    console.log(
      `   (b) estimated input tokens a rep: stop-at-first-skill probe median ${probe} (${turns('skill-triggering-probe')} turn(s)), the same request run to completion median ${whole} (${turns('skill-triggering-feature')} turns): ratio ${(probe / whole).toFixed(3)}`,
    );
    // (c) What --dry-run prices for a live model: the event probe's profile against the report one's.
    const profileInput = (stop: StopSpec): number => {
      const usage = sessionUsage(stop);
      return usage.input + usage.cacheWrite + usage.cacheRead;
    };
    const probeProfile = profileInput({ at: { event: 'skill', form: 'tool', seat: 'any' } });
    const wholeProfile = profileInput('report');
    console.log(
      `   (c) --dry-run's profiles, input tokens a rep: an event probe ${probeProfile}, the same scenario run to completion ${wholeProfile}: ratio ${(probeProfile / wholeProfile).toFixed(3)}`,
    );
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  installPacks(SHIPPED_PACKS);
  if (process.argv.includes('--skills-only')) {
    console.log(
      `redgreen bench-campaign (skills libraries): backend ${backend}, ${os.cpus().length} cores, node ${process.version}`,
    );
    await reportSkills();
    return;
  }
  const fullJson = process.argv.indexOf('--full-session-json');
  if (fullJson !== -1) {
    const measured = await measureFullSessions(
      Number(process.argv[fullJson + 1]),
      Number(process.argv[fullJson + 2]),
    );
    console.log(JSON.stringify(measured));
    return;
  }
  if (process.argv.includes('--full-session-only')) {
    console.log(
      `redgreen bench-campaign (full sessions): backend ${backend}, ${os.cpus().length} cores, node ${process.version}`,
    );
    await reportFullSessions();
    return;
  }
  const overheadOnly = process.argv.indexOf('--overhead-only');
  if (overheadOnly !== -1) {
    await reportOverhead(Number(process.argv[overheadOnly + 1] ?? '2'));
    return;
  }
  const rssOnly = process.argv.indexOf('--rss-only');
  if (rssOnly !== -1) {
    const measured = await measure(Number(process.argv[rssOnly + 1]), 8, 20);
    console.log(JSON.stringify({ reps: measured.reps, peakRssMb: measured.peakRssMb }));
    return;
  }
  console.log(
    `redgreen bench-campaign: backend ${backend}, ${os.cpus().length} cores, node ${process.version}`,
  );
  const concurrency = 8;
  const efficiency = await measure(10, concurrency, latencyMs);
  const meanTurns =
    efficiency.turns.reduce((sum, turns) => sum + turns, 0) / efficiency.turns.length;
  const idealFormula = Math.ceil(efficiency.reps / concurrency) * meanTurns * latencyMs;
  const idealScheduled = listSchedule(
    efficiency.turns.map((turns) => turns * latencyMs),
    concurrency,
  );
  console.log(
    `\n1. ${efficiency.reps} reps at concurrency ${concurrency}, ${latencyMs} ms per turn`,
  );
  console.log(
    `   wall ${(efficiency.wallMs / 1000).toFixed(1)} s; turns per rep mean ${meanTurns.toFixed(1)} (min ${Math.min(...efficiency.turns)}, max ${Math.max(...efficiency.turns)})`,
  );
  console.log(
    `   ideal ceil(reps/concurrency) x turns x latency = ${(idealFormula / 1000).toFixed(1)} s -> efficiency ${(idealFormula / efficiency.wallMs).toFixed(3)}`,
  );
  console.log(
    `   ideal list schedule of the reps' own turns     = ${(idealScheduled / 1000).toFixed(1)} s -> efficiency ${(idealScheduled / efficiency.wallMs).toFixed(3)}`,
  );
  console.log(
    `\n2. harness overhead per rep (copy, snapshots, record; excluding the session): median ${median(efficiency.overheadMs).toFixed(0)} ms (min ${Math.min(...efficiency.overheadMs)}, max ${Math.max(...efficiency.overheadMs)})`,
  );
  // Each size in a fresh process, so one run's heap does not count against the next.
  const sizes = [10, 50, 100];
  const peaks: { reps: number; peakRssMb: number }[] = [];
  for (const repsPerCell of sizes) {
    const child = await execa(
      process.execPath,
      [fileURLToPath(import.meta.url), '--rss-only', String(repsPerCell), '--backend', backend],
      {
        reject: true,
      },
    );
    peaks.push(
      JSON.parse(String(child.stdout).trim().split('\n').at(-1) ?? '{}') as {
        reps: number;
        peakRssMb: number;
      },
    );
  }
  console.log(
    `\n3. peak RSS of the harness process, each size in a fresh process (20 ms per turn): ${peaks
      .map((peak) => `${peak.reps} reps ${peak.peakRssMb.toFixed(0)} MB`)
      .join('; ')}`,
  );
  await reportFullSessions();
  await reportSkills();
  const pkg = JSON.parse(readFileSync(path.join(process.cwd(), 'package.json'), 'utf8')) as {
    version: string;
  };
  console.log(`\nredgreen ${pkg.version}`);
}

/**
 * `--overhead-only <n>`: what one rep costs beyond its model's answers on this
 * backend: the default campaign at n reps a cell, concurrency 1, no model
 * latency (the structural policy), so the session's wall time is the
 * engine's own (its start, its tool round trips, on codex the CODEX_HOME, the
 * bridge and the rollouts' transcript) and the harness overhead is the rest
 * (copy, snapshots, record). Compare backends by running it once on each.
 */
async function reportOverhead(repsPerCell: number): Promise<void> {
  const measured = await benchRun({
    campaignFile: defaultCampaign(),
    policy: 'structural',
    repsPerCell,
    concurrency: 1,
    faults: [],
  });
  const session = measured.metas.map((meta) => meta.durationMs);
  const harness = measured.metas.map((meta) => meta.harnessOverheadMs);
  const whole = measured.metas.map((meta) => meta.durationMs + meta.harnessOverheadMs);
  console.log(
    `redgreen bench-campaign (overhead): backend ${backend}, ${measured.metas.length} reps at concurrency 1, no model latency, load average ${os.loadavg()[0]?.toFixed(1)}, ${os.cpus().length} cores`,
  );
  console.log(
    `   session (engine and tool round trips): median ${median(session).toFixed(0)} ms (min ${Math.min(...session).toFixed(0)}, max ${Math.max(...session).toFixed(0)})`,
  );
  console.log(
    `   harness overhead outside the session: median ${median(harness).toFixed(0)} ms (min ${Math.min(...harness)}, max ${Math.max(...harness)})`,
  );
  console.log(
    `   a rep in all: median ${median(whole).toFixed(0)} ms; run wall ${(measured.wallMs / 1000).toFixed(1)} s; turns per rep ${median(measured.metas.map((meta) => meta.turns))}`,
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
