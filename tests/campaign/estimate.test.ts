/**
 * The dry-run wall-time estimate models the machine: a scripted session is
 * CPU work (the engine process, the tools, the harness's snapshots), so
 * concurrency beyond the cores buys nothing, and the estimate must not
 * shrink as if it did. The measured per-rep figures behind the model are
 * printed by scripts/bench-estimate.ts against real offline runs.
 */
import { describe, expect, it } from 'vitest';
import type { ModelChoice } from '../../harness/campaign/model-choice.js';
import { estimateRun } from '../../harness/estimate/estimate.js';

const scripted: ModelChoice = {
  kind: 'scripted',
  id: 'scripted:skill-reader',
  policy: 'skill-reader',
  reason: 'no-api-key',
};
const live: ModelChoice = { kind: 'live', id: 'claude-sonnet-5-5', baseUrl: undefined };

const wall = (
  backend: 'claude-code' | 'messages',
  concurrency: number,
  cores: number,
  sessions = 20,
  model: ModelChoice = scripted,
): number => estimateRun({ backend, concurrency }, model, sessions, cores).wallSeconds;

describe('dry-run wall-time estimate', () => {
  it('does not get faster with concurrency once the cores are busy (scripted claude-code sessions)', () => {
    expect(wall('claude-code', 8, 2)).toBeCloseTo(wall('claude-code', 4, 2), 6);
    expect(wall('claude-code', 64, 2)).toBeCloseTo(wall('claude-code', 4, 2), 6);
    // Up to there, overlapping the reps' waiting still helps a little.
    expect(wall('claude-code', 4, 2)).toBeLessThanOrEqual(wall('claude-code', 2, 2));
  });

  it("gets faster with more cores until the reps' own latency bounds it", () => {
    expect(wall('claude-code', 4, 4)).toBeLessThan(wall('claude-code', 4, 2));
    expect(wall('claude-code', 4, 128)).toBeCloseTo(wall('claude-code', 4, 64), 6);
    expect(wall('claude-code', 4, 64)).toBeLessThan(wall('claude-code', 4, 4));
  });

  it('the default campaign offline on 2 cores (20 sessions, concurrency 4) is CPU-bound', () => {
    const estimate = estimateRun({ backend: 'claude-code', concurrency: 4 }, scripted, 20, 2);
    // 20 sessions of most of a CPU second each on two cores, plus the run's own set-up.
    expect(estimate.wallSeconds).toBeGreaterThan((20 * 0.8) / 2);
    expect(estimate.assumptions).toContain('2 CPU cores');
  });

  it('a live run is bound by the model, not the CPU: concurrency still helps', () => {
    expect(wall('claude-code', 4, 2, 20, live)).toBeLessThan(wall('claude-code', 2, 2, 20, live));
  });

  it('one session alone takes about a session, whatever the concurrency', () => {
    expect(wall('claude-code', 4, 2, 1)).toBeCloseTo(wall('claude-code', 1, 2, 1), 6);
  });
});
