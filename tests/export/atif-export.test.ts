import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AtifTrajectory } from '../../harness/export/atif-document.js';
import type { AtifIndex } from '../../harness/export/atif-index.js';
import { exportAtif } from '../../harness/export/export-atif.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import {
  atifProblems,
  generateRun,
  jsonFilesUnder,
  readJson,
  repDirs,
  roundTripProblems,
  schemaErrors,
} from './support.js';

/**
 * Real offline runs of both session backends, exported, then checked against
 * the JSON Schema (ajv, draft 2020-12) and against the rep directories they
 * came from.
 */
const backends = ['claude-code', 'messages'] as const;
type Backend = (typeof backends)[number];

// Results directories live for the whole file (makeTempDir removes its dirs after each test).
const runs = new Map<Backend, string>();
let root = '';

beforeAll(async () => {
  root = mkdtempSync(path.join(os.tmpdir(), 'redgreen-export-runs-'));
  await Promise.all(
    backends.map(async (backend) => {
      const dir = path.join(root, backend);
      await generateRun(dir, backend);
      runs.set(backend, dir);
    }),
  );
}, 240_000);

afterAll(() => {
  if (root !== '') rmSync(root, { recursive: true, force: true });
});

function runDir(backend: Backend): string {
  const dir = runs.get(backend);
  if (dir === undefined) throw new Error(`no ${backend} run`);
  return dir;
}

describe.each(backends)('ATIF export of a %s run', (backend) => {
  it('writes one valid ATIF v1.4 file per rep, listed in index.json', async () => {
    const results = runDir(backend);
    const out = makeTempDir('redgreen-atif-');
    const exported = await exportAtif(results, { outDir: out });
    if (!exported.ok) throw new Error(exported.error.problem);

    const reps = repDirs(results);
    expect(reps.length).toBeGreaterThan(0);
    const index = readJson<AtifIndex>(path.join(out, 'index.json'));
    expect(index.trajectories.map((entry) => entry.rep_id).sort()).toEqual(
      reps.map((dir) => `${path.basename(path.dirname(dir))}/${path.basename(dir)}`).sort(),
    );
    const files = jsonFilesUnder(out).filter((file) => path.basename(file) !== 'index.json');
    expect(files.map((file) => path.relative(out, file)).sort()).toEqual(
      index.trajectories.map((entry) => entry.file).sort(),
    );
    for (const file of files) {
      const trajectory = readJson<AtifTrajectory>(file);
      expect(atifProblems(trajectory), file).toEqual([]);
      expect(trajectory.schema_version).toBe('ATIF-v1.4');
      expect(trajectory.agent.name).toBe(`redgreen/${backend}`);
    }
  });

  it('keeps the facts of each rep: prompt, tool calls, final reply, observations, totals', async () => {
    const results = runDir(backend);
    const out = makeTempDir('redgreen-atif-');
    const exported = await exportAtif(results, { outDir: out });
    if (!exported.ok) throw new Error(exported.error.problem);
    for (const repDir of repDirs(results)) {
      const arm = path.basename(path.dirname(repDir));
      const trajectory = readJson<AtifTrajectory>(
        path.join(out, arm, `${path.basename(repDir)}.json`),
      );
      expect(roundTripProblems(trajectory, repDir), repDir).toEqual([]);
      const meta = readJson<{ toolUses: number; model: { scripted: boolean } }>(
        path.join(repDir, 'meta.json'),
      );
      // The offline runs use a scripted policy: unpriced, estimated tokens, said so.
      expect(meta.model.scripted).toBe(true);
      expect(meta.toolUses).toBeGreaterThan(0);
      expect(trajectory.final_metrics?.total_cost_usd).toBeNull();
      for (const step of trajectory.steps) {
        if (step.metrics !== undefined) expect(step.metrics.cost_usd).toBeNull();
      }
      expect(trajectory.extra?.scripted_model).toBe(true);
      expect(trajectory.extra?.tokens_estimated).toBe(true);
      expect(trajectory.notes).toContain('scripted policy');
      const score = readJson<{ verdict: string }>(path.join(repDir, 'score.json'));
      expect(trajectory.extra?.verdict).toBe(score.verdict);
    }
  });

  it('writes the same bytes when exported again (stable session ids, no export time)', async () => {
    const results = runDir(backend);
    const first = makeTempDir('redgreen-atif-');
    const second = makeTempDir('redgreen-atif-');
    for (const out of [first, second]) {
      const exported = await exportAtif(results, { outDir: out });
      if (!exported.ok) throw new Error(exported.error.problem);
    }
    const files = jsonFilesUnder(first).map((file) => path.relative(first, file));
    expect(files.length).toBeGreaterThan(1);
    for (const file of files) {
      expect(readFileSync(path.join(second, file), 'utf8')).toBe(
        readFileSync(path.join(first, file), 'utf8'),
      );
    }
  });
});

describe('the checks can fail (planted negatives)', () => {
  async function exportedTrajectory(): Promise<{ trajectory: AtifTrajectory; repDir: string }> {
    const results = runDir('messages');
    const out = makeTempDir('redgreen-atif-');
    const exported = await exportAtif(results, { outDir: out });
    if (!exported.ok) throw new Error(exported.error.problem);
    const entry = exported.value.index.trajectories[0];
    if (entry === undefined) throw new Error('nothing exported');
    const repDir = path.join(results, 'reps', entry.arm, `${entry.scenario}-rep${entry.rep}`);
    return { trajectory: readJson<AtifTrajectory>(path.join(out, entry.file)), repDir };
  }

  it('the JSON Schema rejects broken trajectories', async () => {
    const { trajectory } = await exportedTrajectory();
    expect(schemaErrors(trajectory)).toEqual([]);
    const broken: [string, (doc: Record<string, unknown>) => void][] = [
      ['no schema_version', (doc) => delete doc.schema_version],
      ['another version', (doc) => (doc.schema_version = 'ATIF-v1.3')],
      ['no session_id', (doc) => delete doc.session_id],
      ['a step without source', (doc) => delete stepsOf(doc)[1]?.source],
      ['an unknown source', (doc) => setStep(doc, 1, 'source', 'tool')],
      ['step_id 0', (doc) => setStep(doc, 0, 'step_id', 0)],
      ['a message that is not a string', (doc) => setStep(doc, 1, 'message', null)],
      ['tool_calls on a user step', (doc) => setStep(doc, 0, 'tool_calls', [])],
      ['metrics on a user step', (doc) => setStep(doc, 0, 'metrics', {})],
      ['arguments as a string', (doc) => setCall(doc, 'arguments', '{"file_path": "x"}')],
      ['a call without function_name', (doc) => setCall(doc, 'function_name', undefined)],
      ['cost as a string', (doc) => setStep(doc, 1, 'metrics', { cost_usd: '0.01' })],
      ['negative tokens', (doc) => setStep(doc, 1, 'metrics', { prompt_tokens: -1 })],
      ['an unknown step field', (doc) => setStep(doc, 1, 'tokens', 3)],
      ['an unknown root field', (doc) => (doc.trajectory = [])],
      ['a timestamp without a zone', (doc) => setStep(doc, 0, 'timestamp', '2026-11-30 10:00')],
      ['observation without results', (doc) => setStep(doc, 1, 'observation', {})],
      ['no agent version', (doc) => delete (doc.agent as Record<string, unknown>).version],
      ['no steps', (doc) => (doc.steps = [])],
    ];
    for (const [what, breakIt] of broken) {
      const doc = structuredClone(trajectory) as unknown as Record<string, unknown>;
      breakIt(doc);
      expect(schemaErrors(doc).length, what).toBeGreaterThan(0);
    }
  });

  it('the cross-field rules reject renumbered steps and results that answer no call', async () => {
    const { trajectory } = await exportedTrajectory();
    expect(atifProblems(trajectory)).toEqual([]);

    const renumbered = structuredClone(trajectory);
    const second = renumbered.steps[1];
    if (second !== undefined) second.step_id = 7;
    expect(atifProblems(renumbered).join('\n')).toContain('step_id is 7, expected 2');

    const misattached = structuredClone(trajectory);
    const result = misattached.steps.find((step) => step.observation !== undefined)?.observation
      ?.results[0];
    if (result === undefined) throw new Error('no observation to break');
    result.source_call_id = 'toolu_not_a_call';
    expect(atifProblems(misattached).join('\n')).toContain('names no tool call of this step');

    const miscounted = structuredClone(trajectory);
    if (miscounted.final_metrics !== undefined) miscounted.final_metrics.total_steps = 1;
    expect(atifProblems(miscounted).join('\n')).toContain('final_metrics.total_steps');
  });

  it('the round-trip check notices a lost tool call or result, a changed reply and a changed total', async () => {
    const { trajectory, repDir } = await exportedTrajectory();
    expect(roundTripProblems(trajectory, repDir)).toEqual([]);

    const lostCall = structuredClone(trajectory);
    const withCalls = lostCall.steps.find((step) => (step.tool_calls?.length ?? 0) > 0);
    withCalls?.tool_calls?.pop();
    expect(roundTripProblems(lostCall, repDir).join('\n')).toContain('tool calls exported');

    const changedReply = structuredClone(trajectory);
    const last = changedReply.steps.at(-1);
    if (last !== undefined) last.message = `${last.message}!`;
    expect(roundTripProblems(changedReply, repDir).join('\n')).toContain('reply in reply.md');

    const lostResult = structuredClone(trajectory);
    const observed = lostResult.steps.find((step) => step.observation !== undefined);
    if (observed !== undefined) delete observed.observation;
    expect(roundTripProblems(lostResult, repDir).join('\n')).toContain("step's observation");

    const changedTotal = structuredClone(trajectory);
    if (changedTotal.final_metrics !== undefined) changedTotal.final_metrics.total_cost_usd = 0;
    expect(roundTripProblems(changedTotal, repDir).join('\n')).toContain('total_cost_usd');
  });
});

function stepsOf(doc: Record<string, unknown>): Record<string, unknown>[] {
  return doc.steps as Record<string, unknown>[];
}

function setStep(doc: Record<string, unknown>, index: number, field: string, value: unknown): void {
  const step = stepsOf(doc)[index];
  if (step === undefined) throw new Error(`no step ${index}`);
  step[field] = value;
}

function setCall(doc: Record<string, unknown>, field: string, value: unknown): void {
  const step = stepsOf(doc).find((candidate) => Array.isArray(candidate.tool_calls));
  const call = (step?.tool_calls as Record<string, unknown>[] | undefined)?.[0];
  if (call === undefined) throw new Error('no tool call to break');
  if (value === undefined) delete call[field];
  else call[field] = value;
}
