/**
 * Full sessions through the CLI: a results directory whose rep holds a
 * recorded full session (tests/report/fixtures/full-session: the messages
 * backend, the scripted full-controller, a controller and five subagent
 * seats, one resumed) in place of the rep a real offline `redgreen run`
 * recorded. `redgreen score` adds the per-seat counts to its meta.json,
 * `redgreen report` prints tool calls by seat (results.md, seats.csv,
 * results.json, report.html), `redgreen export --atif` writes each seat as a
 * sub-trajectory linked from the controller's dispatch and resume results,
 * and `redgreen check` scores the export's seats as it scores the original
 * transcript, including a planted negative (the fix made by another seat)
 * and a missing sub-trajectory (that seat's checks undecided, never a pass).
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AtifTrajectory } from '../../harness/export/atif-document.js';
import { type AtifIndex, atifIndexSchema } from '../../harness/export/atif-index.js';
import { subagentLinkProblems } from '../../harness/export/atif-invariants.js';
import { buildAtifDocuments } from '../../harness/export/build-trajectory.js';
import { loadResults } from '../../harness/report/load-results.js';
import { resultsSchema } from '../../harness/report/results-schema.js';
import { repMetaSchema } from '../../harness/results/rep-meta.js';
import { seatCountsOf } from '../../harness/results/seat-counts.js';
import { cleanEnv, repoRoot, runCli } from '../helpers/cli.js';
import { atifProblems, generateRun, readJson } from './support.js';

const recorded = path.join(repoRoot, 'tests', 'report', 'fixtures', 'full-session');
const transcriptOf = (policy: string) =>
  readFileSync(path.join(recorded, `${policy}.transcript.jsonl`), 'utf8');
const replyOf = (policy: string) => readFileSync(path.join(recorded, `${policy}.reply.md`), 'utf8');

/** The controller's tool_use ids, read straight from the transcript lines. */
function controllerCalls(transcript: string): string[] {
  const ids = new Set<string>();
  for (const line of transcript.split('\n')) {
    if (line.trim() === '') continue;
    const message = JSON.parse(line) as {
      type: string;
      parent_tool_use_id?: string | null;
      message?: { content?: { type: string; id?: string }[] };
    };
    if (message.type !== 'assistant' || message.parent_tool_use_id != null) continue;
    for (const block of message.message?.content ?? []) {
      if (block.type === 'tool_use' && block.id !== undefined) ids.add(block.id);
    }
  }
  return [...ids];
}

let root = '';
let results = '';
let repDir = '';
let scenarioDir = '';

/** Put a recorded full session in place of the rep the run recorded, as a full-session rep without seat counts. */
function plantFullSession(dir: string, policy: string): void {
  const transcript = transcriptOf(policy);
  writeFileSync(path.join(dir, 'transcript.jsonl'), transcript);
  const toolUses = controllerCalls(transcript).length;
  writeFileSync(path.join(dir, 'reply.md'), `${toolUses}\n${replyOf(policy)}`);
  const meta = readJson<Record<string, unknown>>(path.join(dir, 'meta.json'));
  delete meta.seats;
  writeFileSync(
    path.join(dir, 'meta.json'),
    `${JSON.stringify({ ...meta, stop: 'complete', toolUses }, null, 2)}\n`,
  );
}

/** A scenario with full-greetings' checks by seat on a fixture `redgreen check` can build. */
function seatScenario(dir: string): void {
  const full = readJson<Record<string, unknown> & { checks: { post: { verb: string }[] } }>(
    path.join(repoRoot, 'tests/session/fixtures/full-greetings/scenario.json'),
  );
  const s1 = readJson<Record<string, unknown>>(path.join(repoRoot, 'scenarios/s1/scenario.json'));
  mkdirSync(dir, { recursive: true });
  cpSync(
    path.join(repoRoot, 'tests/session/fixtures/full-greetings/prompt.hbs'),
    path.join(dir, 'prompt.hbs'),
  );
  const skill = path.relative(dir, path.join(repoRoot, 'skills-under-test/sdd-plan-scoped'));
  writeFileSync(
    path.join(dir, 'scenario.json'),
    JSON.stringify({
      ...full,
      id: 'seat-checks',
      fixture: s1.fixture,
      plan: s1.plan,
      checks: { post: full.checks.post.filter((check) => check.verb !== 'file-contains') },
      calibration: {
        mustPass: [{ policy: 'full-controller', skill, layout: 'scoped' }],
        mustFail: [
          {
            policy: 'full-fresh-fixer',
            skill,
            failing: ['fix-resumes-implementer', 'fix-made-by-task-implementer'],
            layout: 'scoped',
          },
        ],
      },
    }),
  );
}

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'redgreen-subagents-'));
  results = path.join(root, 'run');
  await generateRun(results, 'messages');
  repDir = path.join(results, 'reps', 'red', 's1-rep1');
  plantFullSession(repDir, 'full-controller');
  scenarioDir = path.join(root, 'seat-checks');
  seatScenario(scenarioDir);
}, 240_000);

afterAll(() => {
  if (root !== '') rmSync(root, { recursive: true, force: true });
});

interface CheckJson {
  score: { verdict: string; checks: { id: string; outcome: string }[] };
}

async function checkOutcomes(transcript: string): Promise<Record<string, string>> {
  const result = await runCli(['check', scenarioDir, '--transcript', transcript, '--json'], {
    env: cleanEnv(),
  });
  expect(result.stderr).toBe('');
  expect(result.exitCode).toBe(0);
  const report = JSON.parse(result.stdout) as CheckJson;
  return Object.fromEntries(report.score.checks.map((check) => [check.id, check.outcome]));
}

describe('per-seat tool counts through score and report', () => {
  it('redgreen score adds the seats to a record written without them', async () => {
    const raw = readJson<Record<string, unknown>>(path.join(repDir, 'meta.json'));
    const before = repMetaSchema.parse(raw);
    expect(before.seats).toBeUndefined();
    const result = await runCli(['score', results], { env: cleanEnv() });
    expect(result.exitCode).toBe(0);
    const after = repMetaSchema.parse(readJson(path.join(repDir, 'meta.json')));
    expect(after.seats).toEqual(seatCountsOf(transcriptOf('full-controller')));
    expect(after.seats?.map((seat) => seat.agentId)).toEqual([
      'agent-1',
      'agent-2',
      'agent-3',
      'agent-4',
      'agent-5',
    ]);
    // Nothing else in meta.json changed.
    const { seats: _added, ...rest } = readJson<Record<string, unknown>>(
      path.join(repDir, 'meta.json'),
    );
    expect(rest).toEqual(raw);
  });

  it('redgreen report writes tool calls by seat group in results.md, seats.csv, results.json and report.html', async () => {
    // The planted session answers none of s1's questions, so the rep is indeterminate: left out.
    const first = await runCli(['report', results], { env: cleanEnv() });
    expect(first.exitCode).toBe(0);
    const undecided = resultsSchema.parse(readJson(path.join(results, 'results.json')));
    expect(undecided.reps[0]?.verdict).toBe('indeterminate');
    expect(undecided.seatTools?.cells.map((cell) => [cell.group, cell.values])).toEqual([
      ['controller', []],
      ['Implement Task N · general-purpose', []],
      ['Review Task N · general-purpose', []],
    ]);
    // A hand verdict makes it decided.
    writeFileSync(
      path.join(results, 'overrides.json'),
      JSON.stringify({
        'red/s1-rep1': { verdict: 'pass', reason: 'a full session planted for the test' },
      }),
    );
    const result = await runCli(['report', results, '--json'], { env: cleanEnv() });
    expect(result.exitCode).toBe(0);
    const printed = JSON.parse(result.stdout) as { files: Record<string, string> };
    expect(printed.files.seats).toBe(path.join(results, 'seats.csv'));
    const seats = seatCountsOf(transcriptOf('full-controller')) ?? [];
    const implementers = seats
      .filter((seat) => seat.description?.startsWith('Implement Task'))
      .reduce((sum, seat) => sum + seat.toolCalls, 0);
    const reviewers = seats
      .filter((seat) => seat.description?.startsWith('Review Task'))
      .reduce((sum, seat) => sum + seat.toolCalls, 0);
    const controller = controllerCalls(transcriptOf('full-controller')).length;

    const model = resultsSchema.parse(readJson(path.join(results, 'results.json')));
    expect(model.reps[0]?.verdict).toBe('pass');
    expect(
      model.seatTools?.cells.map((cell) => [cell.group, cell.arm, cell.values, cell.seats]),
    ).toEqual([
      ['controller', 'red', [controller], 1],
      ['Implement Task N · general-purpose', 'red', [implementers], 2],
      ['Review Task N · general-purpose', 'red', [reviewers], 3],
    ]);

    const markdown = readFileSync(path.join(results, 'results.md'), 'utf8');
    expect(markdown).toContain('## Tool calls by seat\n\n### s1\n');
    expect(markdown).toContain(
      `| Implement Task N · general-purpose | RED | 1 | 2 | 1 | ${implementers} | ${implementers.toFixed(1)} | ${implementers.toFixed(1)} | ${implementers}–${implementers} |`,
    );

    const csv = readFileSync(path.join(results, 'seats.csv'), 'utf8').trim().split('\n');
    expect(csv[0]).toBe('rep_id,arm,scenario,model,verdict,group,seats,resumes,tool_calls');
    expect(csv.slice(1).map((line) => line.split(',').slice(5).join(','))).toEqual([
      `controller,1,0,${controller}`,
      `Implement Task N · general-purpose,2,1,${implementers}`,
      `Review Task N · general-purpose,3,0,${reviewers}`,
    ]);

    const page = readFileSync(path.join(results, 'report.html'), 'utf8');
    expect(page).toContain('<h2 id="seat-tools-title">Tool calls by seat</h2>');
    expect(page).toContain('<td>Review Task N · general-purpose</td><td>RED</td>');
  });
});

describe('ATIF export of a full session: one sub-trajectory per seat', () => {
  let out = '';
  let index: AtifIndex;
  let main: AtifTrajectory;

  beforeAll(async () => {
    out = path.join(root, 'atif');
    const result = await runCli(['export', '--atif', results, '--out', out], { env: cleanEnv() });
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    index = atifIndexSchema.parse(readJson(path.join(out, 'index.json')));
    main = readJson<AtifTrajectory>(path.join(out, 'red', 's1-rep1.json'));
  }, 60_000);

  it('writes each seat beside the rep, listed in index.json, every file valid ATIF v1.4', () => {
    const entry = index.trajectories[0];
    expect(entry?.subagents?.map((sub) => [sub.file, sub.agent_id, sub.description])).toEqual([
      ['red/s1-rep1/agent-1.json', 'agent-1', 'Implement Task 1: Greeting function'],
      ['red/s1-rep1/agent-2.json', 'agent-2', 'Review Task 1: Greeting function'],
      ['red/s1-rep1/agent-3.json', 'agent-3', 'Implement Task 2: Farewell function'],
      ['red/s1-rep1/agent-4.json', 'agent-4', 'Review Task 2: Farewell function'],
      ['red/s1-rep1/agent-5.json', 'agent-5', 'Review Task 2: Farewell function'],
    ]);
    expect(atifProblems(main)).toEqual([]);
    const subs = new Map<string, AtifTrajectory>();
    for (const sub of entry?.subagents ?? []) {
      const document = readJson<AtifTrajectory>(path.join(out, sub.file));
      expect(atifProblems(document)).toEqual([]);
      subs.set(path.posix.relative('red', sub.file), document);
    }
    expect(subagentLinkProblems(main, subs)).toEqual([]);
    // Each seat's tool calls are its own, as the transcript's seats count them.
    for (const [index_, seat] of (seatCountsOf(transcriptOf('full-controller')) ?? []).entries()) {
      expect(entry?.subagents?.[index_]?.tool_calls).toBe(seat.toolCalls);
    }
    expect(entry?.tool_calls).toBe(controllerCalls(transcriptOf('full-controller')).length);
  });

  it('links the dispatch and the resume from the controller, and tells the resume in the seat', () => {
    const results_ = main.steps.flatMap((step) => step.observation?.results ?? []);
    const linked = results_.filter((result) => result.subagent_trajectory_ref !== undefined);
    const agent3 = readJson<AtifTrajectory>(path.join(out, 'red', 's1-rep1', 'agent-3.json'));
    const links = linked.flatMap((result) =>
      (result.subagent_trajectory_ref ?? []).map((ref) => [
        ref.trajectory_path,
        ref.extra?.event,
        ref.session_id === `${main.session_id}/${String(ref.extra?.agent_id)}`,
      ]),
    );
    expect(links).toEqual([
      ['s1-rep1/agent-1.json', 'dispatch', true],
      ['s1-rep1/agent-2.json', 'dispatch', true],
      ['s1-rep1/agent-3.json', 'dispatch', true],
      ['s1-rep1/agent-4.json', 'dispatch', true],
      ['s1-rep1/agent-3.json', 'resume', true],
      ['s1-rep1/agent-5.json', 'dispatch', true],
    ]);
    expect(agent3.session_id).toBe(`${main.session_id}/agent-3`);
    expect(agent3.steps[0]?.source).toBe('user');
    expect(agent3.steps[0]?.extra?.dispatch).toMatchObject({
      description: 'Implement Task 2: Farewell function',
    });
    const resume = agent3.steps.filter((step) => step.extra?.resume !== undefined);
    expect(resume).toHaveLength(1);
    expect(resume[0]?.source).toBe('user');
    const resumeLink = linked.find((result) =>
      result.subagent_trajectory_ref?.some((ref) => ref.extra?.event === 'resume'),
    );
    expect(resume[0]?.extra?.resume).toMatchObject({
      via: resumeLink?.source_call_id,
      agent_id: 'agent-3',
    });
    // The fix commit comes after the resume, in the same seat.
    const after = agent3.steps.filter((step) => step.step_id > (resume[0]?.step_id ?? 0));
    expect(
      after.some((step) =>
        step.tool_calls?.some((call) => /fix review findings/.test(String(call.arguments.command))),
      ),
    ).toBe(true);
  });

  it('redgreen check scores the export’s seats as it scores the original transcript', async () => {
    const original = await checkOutcomes(path.join(repDir, 'transcript.jsonl'));
    const exported = await checkOutcomes(path.join(out, 'red', 's1-rep1.json'));
    expect(original).toEqual({
      'implementers-commit': 'pass',
      'reviewer-reads-diff': 'pass',
      'reviewers-never-commit': 'pass',
      'controller-writes-no-code': 'pass',
      'fix-resumes-implementer': 'pass',
      'fix-made-by-task-implementer': 'pass',
    });
    expect(exported).toEqual(original);
  }, 60_000);

  it('a missing sub-trajectory leaves the checks of that seat undecided, never passed, and the others decided', async () => {
    const copy = path.join(root, 'atif-missing');
    cpSync(out, copy, { recursive: true });
    rmSync(path.join(copy, 'red', 's1-rep1', 'agent-3.json'));
    const outcomes = await checkOutcomes(path.join(copy, 'red', 's1-rep1.json'));
    // Task 2's implementer made the fix; without its trajectory nobody can say it did.
    expect(outcomes['fix-made-by-task-implementer']).toBe('undecided');
    // The reviewers' own trajectories are all there: an absence in their seats is still read
    // (it was undecided when any missing trajectory made the whole session partial).
    expect(outcomes['reviewers-never-commit']).toBe('pass');
    expect(outcomes['fix-resumes-implementer']).toBe('pass');
  }, 60_000);
});

/** Export a recorded transcript as ATIF (main and seats, as the export lays them out), and check both. */
async function exportAndCheck(
  file: string,
  reply: string,
  name: string,
): Promise<{
  original: Record<string, string>;
  exported: Record<string, string>;
  subagents: readonly { path: string; trajectory: AtifTrajectory }[];
}> {
  const loaded = await loadResults(results);
  if (!loaded.ok) throw new Error(loaded.error.problem);
  const rep = loaded.value.reps[0];
  if (rep === undefined) throw new Error('no rep');
  const transcript = readFileSync(path.join(recorded, file), 'utf8');
  const documents = buildAtifDocuments({
    record: loaded.value.record,
    rep: { ...rep, reply: `0\n${reply}` },
    override: undefined,
    prompt: 'Execute the plan with subagents.',
    transcript,
  });
  const dir = path.join(root, name);
  mkdirSync(dir, { recursive: true });
  const originalFile = path.join(dir, 'transcript.jsonl');
  writeFileSync(originalFile, transcript);
  expect(atifProblems(documents.main)).toEqual([]);
  writeFileSync(path.join(dir, 's1-rep1.json'), JSON.stringify(documents.main));
  for (const sub of documents.subagents) {
    expect(atifProblems(sub.trajectory)).toEqual([]);
    mkdirSync(path.dirname(path.join(dir, sub.path)), { recursive: true });
    writeFileSync(path.join(dir, sub.path), JSON.stringify(sub.trajectory));
  }
  return {
    original: await checkOutcomes(originalFile),
    exported: await checkOutcomes(path.join(dir, 's1-rep1.json')),
    subagents: documents.subagents,
  };
}

describe('planted negative: the fix made by another seat, in the original and in its export', () => {
  it('fails fix-made-by-task-implementer on both, and scores the rest alike (messages backend)', async () => {
    const { original, exported } = await exportAndCheck(
      'full-fresh-fixer.transcript.jsonl',
      replyOf('full-fresh-fixer'),
      'fresh-fixer',
    );
    expect(original['fix-made-by-task-implementer']).toBe('fail');
    expect(original['fix-resumes-implementer']).toBe('fail');
    expect(exported).toEqual(original);
  }, 60_000);
});

describe('a Claude Code stream-json full session (seats derived) and its ATIF export score alike', () => {
  it('full-controller: every seat check passes on both', async () => {
    const { original, exported, subagents } = await exportAndCheck(
      'full-controller.claude-code.jsonl',
      replyOf('full-controller'),
      'cc-controller',
    );
    expect(Object.values(original)).toEqual(Array(6).fill('pass'));
    expect(exported).toEqual(original);
    // The engine's echo of the dispatch prompt is not a second step; the resume is one.
    expect(subagents).toHaveLength(5);
    for (const { trajectory } of subagents) expect(trajectory.steps[1]?.source).toBe('agent');
    expect(
      subagents.flatMap(({ trajectory }) =>
        trajectory.steps.filter((step) => step.extra?.resume !== undefined),
      ),
    ).toHaveLength(1);
  }, 60_000);

  it('full-fresh-fixer: the fix by another seat fails on both', async () => {
    const { original, exported } = await exportAndCheck(
      'full-fresh-fixer.claude-code.jsonl',
      replyOf('full-fresh-fixer'),
      'cc-fresh-fixer',
    );
    expect(original['fix-made-by-task-implementer']).toBe('fail');
    expect(exported).toEqual(original);
  }, 60_000);
});
