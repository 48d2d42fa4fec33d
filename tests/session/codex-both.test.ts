/**
 * The SDD panel on `--backend codex` at one rep a cell, through the real
 * Codex CLI binary inside redgreen's bubblewrap, offline. One run of its 20
 * reps (every SDD decision scenario, probes and reports), shared by the
 * assertions:
 *
 * - the verdicts are the panel's calibration (README, "The panel"; the same
 *   cells tests/campaign/sdd-campaigns.test.ts holds on the messages
 *   backend): every scenario passes on both texts except broken-plan-ruling
 *   and breaker-rules-and-continues, which the breaker-that-asks text (RED)
 *   fails: planted negatives, so the run can fail a rep;
 * - a first-dispatch probe's dispatch is captured from what the engine did
 *   and recorded where the claude-code capture records it: meta.json
 *   (`dispatchCaptured`, stop reason `first-dispatch`), reply.md's trailer,
 *   and the transcript, where the spawn carries the capture's refusal and
 *   the spawned thread ran nothing; a dispatch asking for a tier names it.
 *
 * Skipped, with the reason printed, where the binary or a working
 * bubblewrap is absent.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DISPATCH_REFUSAL } from '../../harness/score/refusals.js';
import { readJson, repLines, runCampaignCli } from '../campaign/support.js';
import type { CliResult } from '../helpers/cli.js';
import { codexSkipReason } from '../helpers/codex-skip.js';

const skip = await codexSkipReason('codex SDD panel test');

const PANEL = 'scenarios/sdd-panel.campaign.json';
/** The panel's calibration for its default arms: the cells RED fails; every other cell passes. */
const RED_FAILS = ['broken-plan-ruling', 'breaker-rules-and-continues'];

let root: string | undefined;
let out = '';
let run: CliResult | undefined;

beforeAll(async () => {
  if (skip !== undefined) return;
  root = mkdtempSync(path.join(os.tmpdir(), 'redgreen-codex-panel-'));
  chmodSync(root, 0o711);
  out = path.join(root, 'out');
  run = await runCampaignCli([PANEL, '--reps', '1', '--backend', 'codex', '--out', out]);
}, 600_000);

afterAll(() => {
  if (root !== undefined) rmSync(root, { recursive: true, force: true });
});

interface TranscriptLine {
  type: string;
  parent_tool_use_id?: string | null;
  message?: {
    content?: {
      type: string;
      name?: string;
      id?: string;
      input?: Record<string, unknown>;
      content?: unknown;
      is_error?: boolean;
      recorded_as?: string;
    }[];
  };
}

function transcriptOf(rep: string): TranscriptLine[] {
  return readFileSync(path.join(out, 'reps', rep, 'transcript.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as TranscriptLine);
}

describe.skipIf(skip !== undefined)('the SDD panel on the codex backend', () => {
  it('gives the verdicts of its calibration, RED failing the two rulings scenarios', () => {
    expect(run?.stderr).not.toMatch(/Error:|at .*\.js:\d+/);
    const lines = repLines(out);
    const panel = readJson<{ scenarios: string[] }>(PANEL);
    expect(lines).toHaveLength(panel.scenarios.length * 2);
    const verdicts = Object.fromEntries(lines.map((line) => [line.id, line.verdict]));
    const expected = Object.fromEntries(
      panel.scenarios.flatMap((scenario) => [
        [`red/${scenario}-rep1`, RED_FAILS.includes(scenario) ? 'fail' : 'pass'],
        [`green/${scenario}-rep1`, 'pass'],
      ]),
    );
    expect(verdicts).toEqual(expected);
  });

  it('records a probe’s captured dispatch where the claude-code capture does, the spawned thread unserved', () => {
    const rep = 'green/s1-probe-rep1';
    const meta = readJson<{ backend: string; stopReason: string; dispatchCaptured: boolean }>(
      path.join(out, 'reps', rep, 'meta.json'),
    );
    expect(meta).toMatchObject({
      backend: 'codex',
      stopReason: 'first-dispatch',
      dispatchCaptured: true,
    });
    const reply = readFileSync(path.join(out, 'reps', rep, 'reply.md'), 'utf8');
    const trailer = /<!-- redgreen:captured-dispatch -->\s*```json\n(.*)\n```/s.exec(reply);
    const captured = JSON.parse(trailer?.[1] ?? '{}') as {
      tool?: string;
      toolUseId?: string;
      input?: { prompt?: string };
    };
    expect(captured.tool).toBe('Agent');
    expect(captured.input?.prompt).toMatch(/Task 1/);
    const lines = transcriptOf(rep);
    const blocks = lines.flatMap((line) => line.message?.content ?? []);
    const spawn = blocks.find((block) => block.id === captured.toolUseId);
    expect(spawn).toMatchObject({ name: 'Agent', recorded_as: 'multi_agent_v1.spawn_agent' });
    expect(
      blocks.find((block) => block.type === 'tool_result' && block.content === DISPATCH_REFUSAL),
    ).toMatchObject({ is_error: true });
    // The spawned thread was never served: no call was made inside it.
    expect(lines.filter((line) => (line.parent_tool_use_id ?? null) !== null)).toEqual([]);
  });

  it('a dispatch asking for a tier names it (the scripted id at that tier)', () => {
    const reply = readFileSync(
      path.join(out, 'reps/green/round4-escalates-model-rep1/reply.md'),
      'utf8',
    );
    expect(reply).toMatch(/"model":"scripted:[^"@]+@(?:sonnet|opus|fable)"/);
  });
});
