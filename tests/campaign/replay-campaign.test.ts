/**
 * Sessions that really happened, replayed: `run --record` writes a campaign
 * whose brain is the run's own recorded sessions; running it offline
 * reproduces every rep's verdict, and a planted divergence (a fixture file
 * changed since the recording) makes each affected rep indeterminate at
 * stage brain with the turn named, never a pass or a fail. `scenario
 * calibrate` turns a recorded rep into a replay calibration that lint
 * proves. Through the real CLI; the default campaign on the messages
 * backend, and one rep replayed through the real Claude Code engine.
 */
import {
  chmodSync,
  cpSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calibrateFromRep } from '../../harness/authoring/scenario-calibrate.js';
import { lintScenario } from '../../harness/authoring/scenario-lint.js';
import { campaignSchema } from '../../harness/campaign/config-schema.js';
import { loadCampaign } from '../../harness/campaign/load-campaign.js';
import { loadRunRecordings } from '../../harness/results/run-recordings.js';
import { MAX_TRANSCRIPT_BYTES } from '../../harness/score/transcripts/transcript-input.js';
import { repoRoot, runCli } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { defaultCampaign, readJson, repLines, runCampaignCli } from './support.js';

interface Rep {
  readonly id: string;
  readonly verdict: string;
  readonly status: { kind: string; stage?: string; reason?: string };
  readonly checks: Record<string, string>;
  readonly toolUses: number;
}

function repsOf(out: string): Map<string, Rep> {
  const reps = new Map<string, Rep>();
  for (const line of repLines(out)) {
    const dir = path.join(out, line.dir ?? '');
    const meta = readJson<{ status: Rep['status']; toolUses: number }>(path.join(dir, 'meta.json'));
    const score = readJson<{ verdict: string; checks: { id: string; outcome: string }[] }>(
      path.join(dir, 'score.json'),
    );
    reps.set(line.id ?? '', {
      id: line.id ?? '',
      verdict: score.verdict,
      status: meta.status,
      checks: Object.fromEntries(score.checks.map((check) => [check.id, check.outcome])),
      toolUses: meta.toolUses,
    });
  }
  return reps;
}

/**
 * The recorded run's replay campaign on a copy of S1 whose fixture recipe
 * has one changed file (the plan's first task title): each replayed S1 rep
 * reads a plan its recording never saw.
 */
function plantedCampaign(recorded: string): string {
  const root = makeTempDir();
  cpSync(path.join(repoRoot, 'packs/sdd/fixtures/widget-v3'), path.join(root, 'widget-v3'), {
    recursive: true,
  });
  const plan = path.join(root, 'widget-v3/files/docs/plans/2026-07-06-widget-export.md');
  writeFileSync(
    plan,
    readFileSync(plan, 'utf8').replace('Task 1: Export data model', 'Task 1: Export data schema'),
  );
  cpSync(path.join(repoRoot, 'scenarios/s1'), path.join(root, 'scenarios/s1'), {
    recursive: true,
  });
  const scenarioFile = path.join(root, 'scenarios/s1/scenario.json');
  const scenario = readJson<{ fixture: { recipe: string } }>(scenarioFile);
  scenario.fixture.recipe = '../../widget-v3';
  writeFileSync(scenarioFile, JSON.stringify(scenario));
  const campaign = readJson<Record<string, unknown> & { arms: { skill?: string }[] }>(
    path.join(recorded, 'replay.campaign.json'),
  );
  const file = path.join(root, 'planted.campaign.json');
  writeFileSync(
    file,
    JSON.stringify({
      ...campaign,
      arms: campaign.arms.map((arm) => ({
        ...arm,
        skill: path.resolve(recorded, arm.skill ?? ''),
      })),
      scenarios: ['./scenarios/s1'],
      replay: recorded,
      gates: [],
    }),
  );
  return file;
}

function expectDiverged(reps: Map<string, Rep>): void {
  expect(reps.size).toBeGreaterThan(0);
  for (const rep of reps.values()) {
    expect(rep.verdict, rep.id).toBe('indeterminate');
    expect(rep.status.stage, rep.id).toBe('brain');
    // The first call that reads the plan is where the session stops fitting its recording.
    expect(rep.status.reason, rep.id).toMatch(
      /^replay diverged at turn \d+: Read docs\/plans\/2026-07-06-widget-export\.md returned other output than the recording \(line \d+: recorded '## Task 1: Export data model', now '## Task 1: Export data schema'\)$/,
    );
  }
}

describe('the default campaign offline, recorded and replayed (messages backend)', () => {
  // One recorded run for every test of this block (makeTempDir's are removed after each test).
  const root = mkdtempSync(path.join(os.tmpdir(), 'redgreen-replay-'));
  const recorded = path.join(root, 'recorded');
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  beforeAll(async () => {
    const run = await runCampaignCli([
      defaultCampaign,
      '--backend',
      'messages',
      '--record',
      // Two reps of each (8 sessions, passes and fails of both arms) keep the test short.
      '--reps',
      '2',
      '--out',
      recorded,
      '--quiet',
    ]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(run.stdout).toContain('recording for replay:');
  }, 240_000);

  it('reproduces every rep: verdict, every check and the tool uses', async () => {
    const replayed = path.join(makeTempDir(), 'replayed');
    const run = await runCampaignCli([
      path.join(recorded, 'replay.campaign.json'),
      '--out',
      replayed,
      '--quiet',
    ]);
    expect(run.exitCode, run.stderr).toBe(0);
    const before = repsOf(recorded);
    const after = repsOf(replayed);
    expect(before.size).toBe(8);
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
    for (const [id, rep] of before) {
      const again = after.get(id);
      expect(again?.verdict, id).toBe(rep.verdict);
      expect(again?.checks, id).toEqual(rep.checks);
      expect(again?.toolUses, id).toBe(rep.toolUses);
    }
    expect(
      [...after.values()].filter((rep) => rep.verdict === 'fail').map((rep) => rep.id),
    ).toEqual(expect.arrayContaining(['red/s1-rep1']));
  }, 240_000);

  it('refuses a replay campaign answered by another model, and scripted:replay without recordings', () => {
    const campaign = readJson<Record<string, unknown>>(path.join(recorded, 'replay.campaign.json'));
    expect(campaign).toMatchObject({ replay: '.', model: 'scripted:replay' });
    expect(campaignSchema.safeParse(campaign).success).toBe(true);
    const problem = (config: Record<string, unknown>) =>
      campaignSchema.safeParse(config).error?.issues.map((issue) => issue.message);
    expect(problem({ ...campaign, model: 'scripted:literal' })).toEqual([
      expect.stringContaining("a replay campaign's models are all scripted:replay"),
    ]);
    const { replay: _replay, ...unrecorded } = campaign;
    expect(problem(unrecorded)).toEqual([
      expect.stringContaining('scripted:replay answers from a results directory: give "replay"'),
    ]);
  });

  it("refuses a replay campaign inside its results directory whose arms' texts lie outside it", async () => {
    // The campaign file is part of the results directory, which is untrusted input: an arm
    // naming a host directory would be copied into the new results directory, and into every
    // session (a git source reads any repository of the machine).
    const hostile = path.join(makeTempDir(), 'hostile');
    cpSync(recorded, hostile, { recursive: true });
    const file = path.join(hostile, 'replay.campaign.json');
    const campaign = readJson<{ arms: { skill?: string }[] }>(file);
    const host = makeTempDir();
    writeFileSync(path.join(host, 'SKILL.md'), '# a host directory\n');
    const refusal = async (skill: string) => {
      writeFileSync(
        file,
        JSON.stringify({
          ...campaign,
          arms: campaign.arms.map((arm, index) => (index === 0 ? { ...arm, skill } : arm)),
        }),
      );
      const loaded = await loadCampaign(file, { cwd: hostile });
      return loaded.ok ? 'loaded' : `${loaded.error.input}: ${loaded.error.problem}`;
    };
    expect(await refusal(host)).toBe(
      `${file}: arms[0].skill: ${host} lies outside the results directory this campaign replays, and a replay campaign inside a results directory (untrusted input) reads its arms' texts only from there`,
    );
    expect(await refusal('../../')).toMatch(/arms\[0\]\.skill: \.\.\/\.\.\/ lies outside/);
    expect(await refusal(`git:${repoRoot}@HEAD:skills-under-test/sdd-released`)).toMatch(
      /arms\[0\]\.skill: git:.* lies outside/,
    );
    expect(await refusal('./skills/red')).toBe('loaded');
  });

  it('makes a rep indeterminate, naming the turn, where a fixture file changed since the recording', async () => {
    const out = path.join(makeTempDir(), 'planted');
    const run = await runCampaignCli([
      plantedCampaign(recorded),
      '--reps',
      '1',
      '--out',
      out,
      '--quiet',
    ]);
    expect(run.exitCode, run.stderr).toBe(0);
    expectDiverged(repsOf(out));
  }, 240_000);

  it('scenario calibrate copies a recorded rep into a scenario, and lint replays it as declared', async () => {
    const root = makeTempDir();
    const scenarioDir = path.join(root, 's1');
    cpSync(path.join(repoRoot, 'scenarios/s1'), scenarioDir, { recursive: true });
    // Besides the recorded reps, one data policy of each kind on the shipped texts (by bare name).
    const file = path.join(scenarioDir, 'scenario.json');
    const scenario = readJson<Record<string, unknown>>(file);
    writeFileSync(
      file,
      JSON.stringify(
        {
          ...scenario,
          calibration: {
            mustPass: [{ policy: 'structural-data', skill: 'sdd-plan-scoped', layout: 'scoped' }],
            mustFail: [
              {
                policy: 'literal-data',
                skill: 'sdd-released',
                layout: 'flat',
                failing: ['first-dispatch'],
              },
            ],
          },
        },
        null,
        2,
      ),
    );
    const red = await runCli([
      'scenario',
      'calibrate',
      scenarioDir,
      '--from',
      path.join(recorded, 'reps/red/s1-rep1'),
      '--must',
      'fail',
    ]);
    expect(red.exitCode, red.stderr).toBe(0);
    expect(red.stdout).toContain('added replay-red-s1-rep1 to');
    expect(red.stdout).toContain(
      'must fail: first-dispatch, claimed-complete, no-foreign-ledger-adopted',
    );
    const green = await runCli([
      'scenario',
      'calibrate',
      scenarioDir,
      '--from',
      path.join(recorded, 'reps/green/s1-rep1'),
      '--must',
      'pass',
      '--name',
      'green-resumes',
    ]);
    expect(green.exitCode, green.stderr).toBe(0);
    const policy = readFileSync(path.join(scenarioDir, 'policies/green-resumes.yaml'), 'utf8');
    expect(policy).toContain('replay: green-resumes.transcript.jsonl');
    expect(policy).toContain('backend: messages');
    // Lint the two replays alone (the data policies are linted with S1 itself).
    const calibrated = readJson<{
      calibration: { mustPass: { policy: string }[]; mustFail: { policy: string }[] };
    }>(file);
    const replays = (runs: { policy: string }[]) =>
      runs.filter((run) => !run.policy.endsWith('-data'));
    writeFileSync(
      file,
      JSON.stringify({
        ...calibrated,
        calibration: {
          mustPass: replays(calibrated.calibration.mustPass),
          mustFail: replays(calibrated.calibration.mustFail),
        },
      }),
    );
    const lint = await lintScenario(scenarioDir, { backend: 'messages', scenariosDirs: [] });
    if (!lint.ok) throw new Error(`${lint.error.input}: ${lint.error.problem}`);
    expect(
      lint.value.rows
        .filter((row) => row.kind === 'calibration')
        .map((row) => [row.subject, row.got, row.ok]),
    ).toEqual([
      ['green-resumes on green-resumes.skill/scoped', 'pass', true],
      [
        'replay-red-s1-rep1 on replay-red-s1-rep1.skill/flat',
        'fail (first-dispatch, claimed-complete, no-foreign-ledger-adopted)',
        true,
      ],
    ]);

    // Refusals, with nothing written: a name taken, a passing rep as must-fail without
    // --failing, a rep of another scenario.
    const calibrate = (from: string, must: 'pass' | 'fail', name?: string) =>
      calibrateFromRep({
        scenario: scenarioDir,
        scenariosDirs: [],
        from: path.join(recorded, from),
        must,
        name,
      });
    const problems = await Promise.all([
      calibrate('reps/green/s1-rep1', 'pass', 'green-resumes'),
      calibrate('reps/green/s1-rep2', 'fail'),
      calibrate('reps/red/s2-rep1', 'pass'),
      // An id names the user's own scenario: redgreen's shipped S1 is not written into.
      calibrateFromRep({
        scenario: 's1',
        scenariosDirs: [makeTempDir()],
        from: path.join(recorded, 'reps/red/s1-rep1'),
        must: 'fail',
      }),
    ]);
    expect(problems.map((problem) => (problem.ok ? 'written' : problem.error.problem))).toEqual([
      expect.stringContaining('green-resumes is already a policy'),
      expect.stringContaining('failed no post check (it passed)'),
      expect.stringContaining('is a rep of scenario s2, not of s1'),
      `s1 is one of redgreen's own scenarios (${path.join(repoRoot, 'scenarios/s1')}), which calibrate does not change`,
    ]);

    // A scenario without calibration yet is refused before anything is written: one rep
    // cannot start a calibration, which needs a must-pass and a must-fail run.
    const bare = path.join(makeTempDir(), 's1');
    cpSync(path.join(repoRoot, 'scenarios/s1'), bare, { recursive: true });
    const { calibration: _calibration, ...uncalibrated } = readJson<Record<string, unknown>>(
      path.join(bare, 'scenario.json'),
    );
    writeFileSync(path.join(bare, 'scenario.json'), JSON.stringify(uncalibrated));
    const uncalibratedRefusal = await calibrateFromRep({
      scenario: bare,
      scenariosDirs: [],
      from: path.join(recorded, 'reps/green/s1-rep1'),
      must: 'pass',
    });
    expect(uncalibratedRefusal.ok ? 'written' : uncalibratedRefusal.error.problem).toMatch(
      /^has no calibration yet, and a calibration needs a must-pass and a must-fail run/,
    );
    expect(readdirSync(bare).includes('policies')).toBe(false);

    // A results directory is untrusted input: a symlink in the rep, or in the run's skill
    // copy, is refused (it would become part of the scenario); a replay of it leaves the rep
    // unrecorded rather than read through the link.
    const tampered = path.join(makeTempDir(), 'tampered');
    cpSync(recorded, tampered, { recursive: true });
    const transcript = path.join(tampered, 'reps/red/s1-rep1/transcript.jsonl');
    const host = path.join(makeTempDir(), 'host.txt');
    writeFileSync(host, 'a file of the machine\n');
    rmSync(transcript);
    symlinkSync(host, transcript);
    const skillCopy = path.join(tampered, 'skills/green');
    chmodSync(skillCopy, 0o755);
    symlinkSync(host, path.join(skillCopy, 'notes.md'));
    const fromTampered = (rep: string) =>
      calibrateFromRep({
        scenario: scenarioDir,
        scenariosDirs: [],
        from: path.join(tampered, rep),
        must: 'fail',
        failing: ['first-dispatch'],
      });
    // A transcript larger than the readers read (a sparse file: no disk is used) is neither
    // calibrated (lint could not load it) nor read whole by a replay.
    const huge = path.join(tampered, 'reps/red/s1-rep2/transcript.jsonl');
    truncateSync(huge, MAX_TRANSCRIPT_BYTES + 1);
    const refusals = await Promise.all([
      fromTampered('reps/red/s1-rep1'),
      fromTampered('reps/green/s1-rep1'),
      fromTampered('reps/red/s1-rep2'),
    ]);
    expect(refusals.map((one) => (one.ok ? 'written' : one.error.problem))).toEqual([
      `${transcript} is a symlink, which a results directory redgreen wrote never holds`,
      `${path.join(skillCopy, 'notes.md')} is a symlink, which a results directory redgreen wrote never holds`,
      expect.stringMatching(/^\S+\/reps\/red\/s1-rep2 cannot be replayed: .*(larger|exceeds|over)/),
    ]);
    expect(
      readdirSync(path.join(scenarioDir, 'policies')).filter((one) => one.startsWith('.')),
    ).toEqual([]);
    const recordings = await loadRunRecordings(tampered, 'replay');
    if (!recordings.ok) throw new Error(recordings.error.problem);
    expect(recordings.value.recordings.has('red/s1-rep1')).toBe(false);
    expect(recordings.value.recordings.has('red/s1-rep2')).toBe(false);
    expect(recordings.value.recordings.has('green/s1-rep2')).toBe(true);
    expect(recordings.value.unreadable).toEqual([
      `red/s1-rep1: ${transcript} is a symlink (not followed)`,
      `red/s1-rep2: ${huge} is larger than ${MAX_TRANSCRIPT_BYTES} bytes`,
    ]);
  }, 240_000);
});

describe('a recorded session replayed through the real Claude Code engine', () => {
  // The divergence itself is planted on the messages backend above: the engine's run
  // proves the replay answers a real engine (its tool-use ids remapped, its own tool output).
  it('reproduces the rep: verdict and every check', async () => {
    const recorded = path.join(makeTempDir('redgreen-replay-cc-'), 'recorded');
    const run = await runCampaignCli([
      defaultCampaign,
      '--record',
      '--reps',
      '1',
      '--only',
      'scenario=s1,arm=red',
      '--out',
      recorded,
      '--quiet',
    ]);
    expect(run.exitCode, run.stderr).toBe(0);
    const replayed = path.join(makeTempDir(), 'replayed');
    const replay = await runCampaignCli([
      path.join(recorded, 'replay.campaign.json'),
      '--only',
      'scenario=s1,arm=red',
      '--out',
      replayed,
      '--quiet',
    ]);
    expect(replay.exitCode, replay.stderr).toBe(0);
    const before = repsOf(recorded).get('red/s1-rep1');
    const after = repsOf(replayed).get('red/s1-rep1');
    expect(before?.verdict).toBe('fail');
    expect(after?.verdict).toBe(before?.verdict);
    expect(after?.checks).toEqual(before?.checks);
    expect(after?.toolUses).toBe(before?.toolUses);
  }, 300_000);
});
