import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { sessionIdentity } from '../../harness/campaign/identity.js';
import type { ResolvedCampaign } from '../../harness/campaign/load-campaign.js';
import { singleModelAxis } from '../../harness/campaign/model-axis.js';
import type { FixtureFingerprint } from '../../harness/fixture/index.js';
import { type CliResult, cleanEnv, repoRoot, runCli } from '../helpers/cli.js';
import { sharedRun } from '../helpers/shared-runs.js';
import { makeTempDir } from '../helpers/temp-dir.js';

export const defaultCampaign = 'scenarios/plan-scoped-workspace.campaign.json';

/** Run `redgreen run` offline with a clean environment (no API key). */
export function runCampaignCli(
  args: readonly string[],
  env: Record<string, string> = {},
  timeoutMs = 240_000,
): Promise<CliResult> {
  return runCli(['run', ...args], { env: cleanEnv(env), timeoutMs });
}

export interface LedgerLine {
  type: string;
  id?: string;
  verdict?: string;
  status?: string;
  attempt?: number;
  dir?: string;
}

export function readLedgerLines(outDir: string): LedgerLine[] {
  return readFileSync(path.join(outDir, 'ledger.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as LedgerLine);
}

export function repLines(outDir: string): LedgerLine[] {
  return readLedgerLines(outDir).filter((line) => line.type === 'rep');
}

/** The pid a live run's lock (`.redgreen.lock`) names: the process doing the run's work. */
export function lockHolderPid(outDir: string): number {
  return readJson<{ pid: number }>(path.join(outDir, '.redgreen.lock')).pid;
}

export function readJson<T = Record<string, unknown>>(file: string): T {
  return JSON.parse(readFileSync(file, 'utf8')) as T;
}

/** Every regular file under a directory, recursively. */
export function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    const full = path.join(dir, entry);
    if (statSync(full).isDirectory()) out.push(...filesUnder(full));
    else out.push(full);
  }
  return out;
}

/**
 * A copy of the plan-scoped reference skill whose `sdd-workspace` script first
 * runs `line` (bash): a planted behaviour for tests that need a session to do
 * something a policy would not (dump its environment, touch a ledger...).
 */
export function plantedSkill(line: string): string {
  const dir = path.join(makeTempDir(), 'skill');
  cpSync(path.join(repoRoot, 'skills-under-test/sdd-plan-scoped'), dir, { recursive: true });
  const script = path.join(dir, 'scripts/sdd-workspace');
  writeFileSync(script, readFileSync(script, 'utf8').replace('\n', `\n${line}\n`));
  return dir;
}

/**
 * One rep through the real CLI, offline: the campaign at one rep per cell,
 * sliced to a single rep by `--shard k/4` (1/4: red/s1, 2/4: green/s1,
 * 3/4: red/s2, 4/4: green/s2).
 */
export async function runOneRep(
  shard: Shard,
  extra: readonly string[] = [],
  env: Record<string, string> = {},
): Promise<{ out: string; run: CliResult }> {
  const out = path.join(makeTempDir(), 'out');
  const run = await runCampaignCli(oneRepArgs(shard, out, extra), env);
  return { out, run };
}

type Shard = '1/4' | '2/4' | '3/4' | '4/4';

/**
 * runOneRep's run (of flags that change no environment), shared (tests/helpers/shared-runs.ts):
 * a fresh copy of it for this test, and what the run printed.
 */
export function sharedOneRep(
  shard: Shard,
  extra: readonly string[] = [],
): Promise<{ out: string; run: CliResult }> {
  return sharedRun([defaultCampaign, '--reps', '1', '--shard', shard, ...extra]);
}

/** The default campaign at one rep a cell, unsharded (four reps), shared like sharedOneRep. */
export function sharedWholeRun(name = 'out'): Promise<{ out: string; run: CliResult }> {
  return sharedRun([defaultCampaign, '--reps', '1'], name);
}

/** `run`'s arguments for that one rep into `out` (for a test that runs it its own way). */
export function oneRepArgs(shard: Shard, out: string, extra: readonly string[] = []): string[] {
  return [defaultCampaign, '--reps', '1', '--shard', shard, '--out', out, ...extra];
}

/**
 * A campaign file in a temp dir: one arm, one rep of one scenario `s1fd`, a
 * copy of the repository's `scenarios/s1-probe` (S1 with the continue prompt
 * and `stop: first-dispatch`, judged by its first dispatch). The arm is the
 * plan-scoped text on the scoped layout (scripted:skill-reader then
 * dispatches Task 1), or with `arm: 'released'` the released text on the
 * flat layout.
 */
export function firstDispatchCampaign(
  options: { readonly arm?: 'plan-scoped' | 'released' } = {},
): string {
  const dir = makeTempDir('redgreen-fd-campaign-');
  mkdirSync(path.join(dir, 's1fd'));
  mkdirSync(path.join(dir, 'prompts'));
  cpSync(
    path.join(repoRoot, 'scenarios/prompts/compaction-resume-continue.hbs'),
    path.join(dir, 'prompts/compaction-resume-continue.hbs'),
  );
  const probeDir = path.join(repoRoot, 'scenarios/s1-probe');
  const probe = readJson<{
    calibration: Record<string, { skill: string }[]>;
  }>(path.join(probeDir, 'scenario.json'));
  // The calibration's skill paths are relative to the scenario's folder: keep them pointing at the repository's.
  const calibration = Object.fromEntries(
    Object.entries(probe.calibration).map(([kind, runs]) => [
      kind,
      runs.map((run) => ({ ...run, skill: path.resolve(probeDir, run.skill) })),
    ]),
  );
  writeFileSync(
    path.join(dir, 's1fd/scenario.json'),
    JSON.stringify({ ...probe, id: 's1fd', calibration }),
  );
  const released = options.arm === 'released';
  const file = path.join(dir, 'fd.campaign.json');
  writeFileSync(
    file,
    JSON.stringify({
      id: 'first-dispatch-probe',
      title: 'S1 as a first-dispatch probe',
      arms: [
        released
          ? {
              name: 'red',
              role: 'red',
              label: 'released (flat ledger)',
              skill: path.join(repoRoot, 'skills-under-test/sdd-released'),
              layout: 'flat',
            }
          : {
              name: 'green',
              role: 'green',
              label: 'plan-scoped workspace',
              skill: path.join(repoRoot, 'skills-under-test/sdd-plan-scoped'),
              layout: 'scoped',
            },
      ],
      scenarios: ['s1fd'],
      reps: 1,
      model: 'claude-sonnet-5-5',
      offlineModel: 'scripted:skill-reader',
      concurrency: 1,
    }),
  );
  return file;
}

/**
 * A copy of the default campaign (with its scenario folders) in a temp dir,
 * changed by `changes`: for tests that need other reps, gates or scenario
 * lists. Arms keep pointing at the reference skill texts.
 */
export function writeCampaign(
  changes: Record<string, unknown> = {},
  /** Where to put it (default: a temp dir removed after the current test). */
  under: string = makeTempDir(),
): string {
  const dir = path.join(under, 'scenarios');
  cpSync(path.join(repoRoot, 'scenarios'), dir, { recursive: true });
  const file = path.join(dir, 'test.campaign.json');
  const campaign = readJson<Record<string, unknown>>(path.join(repoRoot, defaultCampaign));
  campaign.arms = (campaign.arms as { skill: string }[]).map((arm) => ({
    ...arm,
    skill: path.resolve(repoRoot, 'scenarios', arm.skill),
  }));
  writeFileSync(file, `${JSON.stringify({ ...campaign, ...changes }, null, 2)}\n`);
  return file;
}

/** Two reps per cell, gated so a clean offline run passes (exit 0) and any indeterminate rep does not. */
export function twoRepCampaign(): string {
  return writeCampaign({
    reps: 2,
    gates: [
      { kind: 'min-pass-rate', arm: 'green', scenario: 's1', passes: 2, of: 2 },
      { kind: 'min-pass-rate', arm: 'red', scenario: 's2', passes: 2, of: 2 },
      { kind: 'min-pass-rate', arm: 'green', scenario: 's2', passes: 2, of: 2 },
      { kind: 'max-indeterminate-share', share: 0 },
    ],
  });
}

/** The session identity of a hand-built campaign whose one arm, `red`, runs a scripted policy. */
export function scriptedSessionIdentity(campaign: ResolvedCampaign, policy: string): string {
  return sessionIdentity({
    campaign,
    models: singleModelAxis({
      kind: 'scripted',
      id: `scripted:${policy}`,
      policy,
      reason: 'no-api-key',
    }),
    engine: 'redgreen-messages',
    sandbox: 'bubblewrap',
    harness: '0.1.0',
    trees: new Map([['red', 'a'.repeat(40)]]),
    fixtures: new Map<string, FixtureFingerprint>(),
  });
}
