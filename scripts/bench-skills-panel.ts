/**
 * The skills panel, whole: `redgreen run scenarios/skills-panel.campaign.json`
 * offline (the campaign's 3 reps a cell unless --reps says otherwise) as a
 * user runs it, its wall time and the load average, every rep's verdict
 * against what its scenario's calibration expects of its arm, and the gates.
 * With `--superpowers <git dir>` (or SUPERPOWERS_REPO) it runs the panel
 * again with obra/superpowers at v6.1.1 (RED) and v6.2.0 (GREEN) and compares
 * the verdicts with scenarios/skills-panel/superpowers-verdicts.json; without
 * one it says that part is skipped, and why. Besides the wall time it prints
 * the CPU seconds the run's processes spent (user + system, from
 * /proc/self/stat's waited-for children; other work on a shared machine is
 * not in them) and each scenario's session seconds summed over its reps
 * (results.json `duration_ms`), largest first. Prints figures; exits 1 when a
 * verdict differs from the calibration, else 0 (no time is asserted).
 *
 *   npm run build && node dist/scripts/bench-skills-panel.js [--reps N] [--superpowers <git dir>]
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { z } from 'zod';
import { packageRoot } from '../harness/lib/package-root.js';
import { expectedPanelVerdicts, SKILLS_PANEL_CAMPAIGN } from './skills-panel-verdicts.js';

const root = packageRoot();
const cli = path.join(root, 'dist', 'harness', 'cli.js');

function flag(name: string): string | undefined {
  const at = process.argv.indexOf(name);
  return at === -1 ? undefined : process.argv[at + 1];
}

const repsFlag = flag('--reps');
const reps = repsFlag === undefined ? 3 : Number(repsFlag);
if (!Number.isInteger(reps) || reps < 1) {
  console.error('bench-skills-panel: --reps: give a positive whole number');
  process.exit(2);
}
const superpowers = flag('--superpowers') ?? process.env.SUPERPOWERS_REPO;

const ledgerLine = z.object({
  type: z.string(),
  id: z.string().optional(),
  verdict: z.string().optional(),
});

function verdictsOf(outDir: string): Record<string, string> {
  const verdicts: Record<string, string> = {};
  for (const line of readFileSync(path.join(outDir, 'ledger.jsonl'), 'utf8').trim().split('\n')) {
    const parsed = ledgerLine.parse(JSON.parse(line));
    if (parsed.type === 'rep' && parsed.id !== undefined)
      verdicts[parsed.id] = parsed.verdict ?? '';
  }
  return verdicts;
}

const CLOCK_TICKS_PER_SECOND = 100;

/** CPU seconds (user + system) of this process's waited-for children so far; undefined off Linux. */
function childCpuSeconds(): number | undefined {
  if (!existsSync('/proc/self/stat')) return undefined;
  // The fields after the command's closing parenthesis; cutime and cstime are the 14th and 15th.
  const after = readFileSync('/proc/self/stat', 'utf8').split(') ').pop()?.split(' ') ?? [];
  const cutime = Number(after[13]);
  const cstime = Number(after[14]);
  return Number.isFinite(cutime) && Number.isFinite(cstime)
    ? (cutime + cstime) / CLOCK_TICKS_PER_SECOND
    : undefined;
}

const resultsReps = z.object({
  reps: z.array(z.object({ rep_id: z.string(), duration_ms: z.number().nullable().optional() })),
});

/** Each scenario's session seconds, summed over its reps and arms, largest first. */
function secondsByScenario(outDir: string): [string, number][] {
  const file = path.join(outDir, 'results.json');
  if (!existsSync(file)) return [];
  const sums = new Map<string, number>();
  for (const rep of resultsReps.parse(JSON.parse(readFileSync(file, 'utf8'))).reps) {
    const scenario = rep.rep_id.replace(/^[^/]+\//, '').replace(/-rep\d+$/, '');
    sums.set(scenario, (sums.get(scenario) ?? 0) + (rep.duration_ms ?? 0) / 1000);
  }
  return [...sums].sort((a, b) => b[1] - a[1]);
}

function runPanel(
  label: string,
  extra: readonly string[],
): { seconds: number; verdicts: Record<string, string> } {
  const out = path.join(mkdtempSync(path.join(os.tmpdir(), 'redgreen-bench-panel-')), 'out');
  const load = os.loadavg()[0] ?? 0;
  const started = performance.now();
  const cpuBefore = childCpuSeconds();
  const run = spawnSync(
    process.execPath,
    [cli, 'run', SKILLS_PANEL_CAMPAIGN, '--reps', String(reps), '--out', out, '--quiet', ...extra],
    {
      cwd: root,
      encoding: 'utf8',
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: process.env.HOME ?? '/root',
        LANG: 'C',
      },
    },
  );
  const seconds = (performance.now() - started) / 1000;
  const cpuAfter = childCpuSeconds();
  const cpu =
    cpuBefore === undefined || cpuAfter === undefined
      ? 'CPU n/a'
      : `CPU ${(cpuAfter - cpuBefore).toFixed(1)} s`;
  const gate = spawnSync(process.execPath, [cli, 'gate', out], { cwd: root, encoding: 'utf8' });
  console.log(
    `${label}: ${reps} rep(s) a cell, wall ${seconds.toFixed(1)} s, ${cpu} (load average ${load.toFixed(1)} at the start, ${os.cpus().length} cores), run exit ${run.status}, gate exit ${gate.status}`,
  );
  for (const line of gate.stdout
    .split('\n')
    .filter((text) => /^\s+(?:HOLDS|FAILS|UNDECIDED)/.test(text))) {
    console.log(`  ${line.trim()}`);
  }
  if (run.status !== 0 && run.status !== 2) console.log(run.stderr.trim());
  const byScenario = secondsByScenario(out);
  if (byScenario.length > 0) {
    console.log(
      `  session seconds by scenario: ${byScenario.map(([id, s]) => `${id} ${s.toFixed(1)}`).join(', ')}`,
    );
  }
  const verdicts = existsSync(path.join(out, 'ledger.jsonl')) ? verdictsOf(out) : {};
  rmSync(path.dirname(out), { recursive: true, force: true });
  return { seconds, verdicts };
}

function compare(
  label: string,
  got: Record<string, string>,
  expected: Record<string, string>,
): number {
  const wrong = Object.entries(expected).filter(([id, verdict]) => got[id] !== verdict);
  console.log(
    `${label}: ${Object.keys(expected).length - wrong.length}/${Object.keys(expected).length} reps as calibrated`,
  );
  for (const [id, verdict] of wrong)
    console.log(`  ${id}: expected ${verdict}, got ${got[id] ?? 'nothing'}`);
  return wrong.length;
}

let wrong = 0;
const shipped = runPanel('workbench (shipped)', []);
wrong += compare('workbench (shipped)', shipped.verdicts, expectedPanelVerdicts(root, { reps }));

if (superpowers === undefined || !existsSync(superpowers)) {
  console.log(
    'obra/superpowers: skipped: no git dir given (--superpowers <git dir> or SUPERPOWERS_REPO)',
  );
} else {
  const measured = z
    .object({ verdicts: z.record(z.string(), z.record(z.string(), z.string())) })
    .parse(
      JSON.parse(
        readFileSync(
          path.join(root, 'scenarios', 'skills-panel', 'superpowers-verdicts.json'),
          'utf8',
        ),
      ),
    );
  const expected: Record<string, string> = {};
  for (const [arm, byScenario] of Object.entries(measured.verdicts)) {
    for (const [scenario, verdict] of Object.entries(byScenario)) {
      for (let rep = 1; rep <= reps; rep += 1) expected[`${arm}/${scenario}-rep${rep}`] = verdict;
    }
  }
  const run = runPanel('obra/superpowers v6.1.1 vs v6.2.0', [
    '--arm',
    `red=git:${superpowers}@v6.1.1`,
    '--arm',
    `green=git:${superpowers}@v6.2.0`,
  ]);
  wrong += compare('obra/superpowers v6.1.1 vs v6.2.0', run.verdicts, expected);
}
process.exit(wrong === 0 ? 0 : 1);
