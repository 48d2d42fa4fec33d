/**
 * A full session end to end, offline: the greetings fixture, the scenario
 * file tests/session/fixtures/full-greetings (stop: complete, its prompt
 * template, checks by seat), a session on the `messages` backend through the
 * real `@anthropic-ai/sdk` against the local model server (the controller
 * policy and the scripted implementer and reviewer seats), its transcript
 * read back from disk, the work tree snapshotted, and the rep scored by the
 * score engine. The scenario's calibration runs both ways: full-controller
 * passes every check; full-fresh-fixer fails for the right reasons (no
 * resume; the fix commit made by another seat than task 2's implementer).
 */

import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { takeSnapshot } from '../../harness/fixture/index.js';
import {
  policyNames,
  scriptedModelId,
  startModelServer,
} from '../../harness/model-server/index.js';
import { captureFiles } from '../../harness/run/rep-evidence.js';
import { loadPromptTemplate } from '../../harness/scenario/prompt-template.js';
import { filesNeeded } from '../../harness/score/evidence-needs.js';
import { loadScenarioDir } from '../../harness/score/load-scenario.js';
import { scoreRep } from '../../harness/score/score-rep.js';
import { sessionStopOf } from '../../harness/score/stop-mode.js';
import { readSessionTranscript } from '../../harness/score/transcripts/read-transcript.js';
import { greetingsFixture } from './support/greetings-fixture.js';
import {
  type BackendName,
  engineUnavailable,
  planScopedSkill,
  runBackendSession,
} from './support/run-session.js';

const scenarioDir = path.join(import.meta.dirname, 'fixtures', 'full-greetings');

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

function loadScenario() {
  const loaded = loadScenarioDir(scenarioDir, { knownPolicies: policyNames() });
  if (!loaded.ok) throw new Error(`${loaded.error.input}: ${loaded.error.problem}`);
  return loaded.value;
}

/** Run one rep of the scenario with a policy on a backend, and score it. */
async function rep(policy: string, backend: BackendName = 'messages') {
  const scenario = loadScenario();
  const server = await startModelServer({ policy: 'structural' });
  closers.push(() => server.close());
  const repo = greetingsFixture();
  const template = await loadPromptTemplate(path.join(scenarioDir, 'prompt.hbs'), 'full-greetings');
  if (!template.ok) throw new Error(template.error.problem);
  const run = await runBackendSession({
    backend,
    stop: sessionStopOf(scenario.config.stop).mode,
    baseUrl: server.baseUrl,
    model: scriptedModelId(policy),
    prompt: template.value.render({
      fixtureRepo: repo,
      planPath: String(scenario.config.plan ?? ''),
      skillDir: planScopedSkill,
    }),
    fixtureRepo: repo,
    repId: `e2e/${backend}/${policy}`,
  });
  const text = `${run.transcript.map((line) => JSON.stringify(line)).join('\n')}\n`;
  const transcript = readSessionTranscript(text, 'transcript.jsonl');
  if (!transcript.ok) throw new Error(transcript.error.problem);
  const facts = { ownPlan: String(scenario.config.plan ?? '') };
  const captured = await captureFiles(repo, filesNeeded(scenario, 'post', facts));
  const score = scoreRep({
    scenario,
    facts,
    inputs: {
      reply: run.outcome.finalReply ?? '',
      toolCalls: transcript.value.toolCalls,
      sessionModel: transcript.value.model ?? null,
      after: await takeSnapshot(repo),
      filesAfter: captured.files,
    },
    runner:
      run.outcome.status.kind === 'completed'
        ? { kind: 'completed' }
        : {
            kind: 'indeterminate',
            stage: run.outcome.status.stage,
            reason: run.outcome.status.reason,
          },
    assessPre: false,
  });
  return { repo, run, transcript: transcript.value, score };
}

function outcomes(score: { checks: readonly { id: string; outcome: string }[] }) {
  return Object.fromEntries(score.checks.map((check) => [check.id, check.outcome]));
}

describe('a full session with subagents, end to end on the messages backend', () => {
  it('full-controller: five subagent seats besides the controller, every check by seat passes', async () => {
    const { run, transcript, score } = await rep('full-controller');
    expect(run.outcome.status).toEqual({ kind: 'completed' });
    expect(transcript.format).toBe('redgreen');
    expect(transcript.malformed).toEqual([]);
    expect(
      transcript.seats.map((seat) => [seat.agentId, seat.description, seat.resumes.length]),
    ).toEqual([
      ['agent-1', 'Implement Task 1: Greeting function', 0],
      ['agent-2', 'Review Task 1: Greeting function', 0],
      ['agent-3', 'Implement Task 2: Farewell function', 1],
      ['agent-4', 'Review Task 2: Farewell function', 0],
      ['agent-5', 'Review Task 2: Farewell function', 0],
    ]);
    // Every seat made calls of its own; the controller's are apart from theirs.
    for (const seat of transcript.seats) expect(seat.toolCalls).toBeGreaterThan(0);
    expect(score.verdict).toBe('pass');
    expect(outcomes(score)).toEqual({
      'implementers-commit': 'pass',
      'reviewer-reads-diff': 'pass',
      'reviewers-never-commit': 'pass',
      'controller-writes-no-code': 'pass',
      'fix-resumes-implementer': 'pass',
      'fix-made-by-task-implementer': 'pass',
      'planted-finding-fixed': 'pass',
    });
  });

  it('full-fresh-fixer (calibration): fails for the right reasons, the other checks still pass', async () => {
    const { run, transcript, score } = await rep('full-fresh-fixer');
    expect(run.outcome.status).toEqual({ kind: 'completed' });
    expect(transcript.seats.map((seat) => seat.description)).toContain(
      'Fix Task 2: Farewell function',
    );
    expect(score.verdict).toBe('fail');
    const failing = score.checks.filter((check) => check.outcome === 'fail').map((c) => c.id);
    const scenario = loadScenario();
    expect(failing).toEqual(scenario.calibration[1]?.failing);
    // The fix was made, by the wrong seat: the planted negative by seat.
    expect(outcomes(score)['planted-finding-fixed']).toBe('pass');
    // The fresh fixer is a seat of its own: a fixer prompt, and it only applies the findings.
    const fixer = transcript.seats.find((seat) => seat.description?.startsWith('Fix Task 2'));
    const fixerCalls = transcript.toolCalls.filter((c) => c.parentToolUseId === fixer?.dispatch);
    const dispatchCall = transcript.toolCalls.find((c) => c.id === fixer?.dispatch);
    expect(String(((dispatchCall?.input ?? {}) as { prompt?: unknown }).prompt)).toMatch(
      /^You are the fixer of Task 2 \(Farewell function\)\.\n[\s\S]*\nFix round: 1\n/,
    );
    expect(
      fixerCalls.map((c) => [c.name, (c.input as { description?: string }).description]),
    ).toEqual([
      ['Read', undefined],
      ['Bash', 'Apply the review findings'],
      ['Bash', 'Commit the work'],
    ]);
  });

  it('a session stopped by the seat limit scores indeterminate, with the runner’s reason', async () => {
    const scenario = loadScenario();
    const server = await startModelServer({ policy: 'structural' });
    closers.push(() => server.close());
    const repo = greetingsFixture();
    const run = await runBackendSession({
      backend: 'messages',
      stop: 'complete',
      baseUrl: server.baseUrl,
      model: scriptedModelId('full-controller'),
      prompt: `Plan: ${repo}/docs/plan.md\nRepository: ${repo}`,
      fixtureRepo: repo,
      repId: 'e2e/limit',
      limits: { maxSeats: 2 },
    });
    expect(run.outcome.status).toEqual({
      kind: 'indeterminate',
      stage: 'limit',
      reason: 'the controller started more subagents than the per-rep seat limit allows (2)',
    });
    const read = readSessionTranscript(run.transcript.map((l) => JSON.stringify(l)).join('\n'));
    if (!read.ok) throw new Error(read.error.problem);
    expect(read.value.seats).toHaveLength(2);
    const score = scoreRep({
      scenario,
      facts: { ownPlan: String(scenario.config.plan ?? '') },
      inputs: { toolCalls: read.value.toolCalls },
      runner: { kind: 'indeterminate', stage: 'limit', reason: 'seat limit' },
      assessPre: false,
    });
    expect(score.verdict).toBe('indeterminate');
    expect(score.reasons[0]).toBe('runner: indeterminate at limit: seat limit');
  });
});

describe.skipIf(engineUnavailable() !== undefined)(
  'a full session with subagents, end to end on the claude-code backend',
  () => {
    it('the engine’s own Agent and SendMessage run the seats; every check by seat passes', async () => {
      const { repo, run, transcript, score } = await rep('full-controller', 'claude-code');
      // The engine keeps its session transcripts in the private HOME, never in the work tree.
      expect(execFileSync('git', ['status', '--porcelain'], { cwd: repo, encoding: 'utf8' })).toBe(
        '',
      );
      expect(run.outcome.status).toEqual({ kind: 'completed' });
      expect(run.outcome.finalReply).toBe(
        [
          'Plan executed with subagents.',
          'Task 1 (Greeting function): approved after 1 review round(s).',
          'Task 2 (Farewell function): approved after 2 review round(s).',
        ].join('\n'),
      );
      expect(transcript.format).toBe('claude-code-stream-json');
      // Seats derived from the engine's parent_tool_use_id; the resumed implementer keeps its seat.
      expect(transcript.seats.map((seat) => [seat.description, seat.resumes.length])).toEqual([
        ['Implement Task 1: Greeting function', 0],
        ['Review Task 1: Greeting function', 0],
        ['Implement Task 2: Farewell function', 1],
        ['Review Task 2: Farewell function', 0],
        ['Review Task 2: Farewell function', 0],
      ]);
      expect(score.verdict).toBe('pass');
      expect(Object.values(outcomes(score)).every((outcome) => outcome === 'pass')).toBe(true);
    });

    it('full-fresh-fixer on the engine fails for the same reasons', async () => {
      const { score } = await rep('full-fresh-fixer', 'claude-code');
      expect(score.verdict).toBe('fail');
      expect(score.checks.filter((check) => check.outcome === 'fail').map((c) => c.id)).toEqual(
        loadScenario().calibration[1]?.failing,
      );
    });
  },
);
