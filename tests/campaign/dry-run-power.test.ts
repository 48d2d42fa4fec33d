/**
 * Power and cost up front. The smallest detectable effect and the reps an
 * effect needs are computed from the exact power of a one-sided Fisher test
 * (checked against that power on both sides of each answer, so a hard-coded
 * figure could not pass); `--dry-run` prints them per cell with the cell's
 * estimated tokens and cost: n/a for a scripted run, priced from the stop
 * mode's session profile for a live one.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ModelChoice } from '../../harness/campaign/model-choice.js';
import { estimateCell, PROBE_SESSION, sessionUsage } from '../../harness/estimate/cell-estimate.js';
import { detectableRate, repsToDetect } from '../../harness/report/stats-power.js';
import { fisherPower } from '../../harness/report/stats-rates.js';
import { repoRoot } from '../helpers/cli.js';
import { runCampaignCli } from './support.js';

const live: ModelChoice = { kind: 'live', id: 'claude-sonnet-5-5', baseUrl: undefined };
const scripted: ModelChoice = {
  kind: 'scripted',
  id: 'scripted:skill-reader',
  policy: 'skill-reader',
  reason: 'no-api-key',
};

describe('power, computed', () => {
  it('the detectable rate is where the exact power first reaches 80%, and falls with more reps', () => {
    // The gates need p < .05, not p <= .05.
    const strict = 0.05 * (1 - 1e-6);
    for (const reps of [4, 5, 10, 20]) {
      const rate = detectableRate(reps);
      expect(rate).not.toBeNull();
      const at = (treatment: number) =>
        fisherPower({ trialsPerArm: reps, control: 0, treatment, alpha: strict });
      expect(at(rate ?? 1)).toBeGreaterThanOrEqual(0.8);
      expect(at((rate ?? 1) - 0.01)).toBeLessThan(0.8);
    }
    expect(detectableRate(20) ?? 1).toBeLessThan(detectableRate(5) ?? 1);
    // Three reps an arm can never reach p < .05 (0/3 against 3/3 gives exactly .05): nothing.
    expect(detectableRate(3)).toBeNull();
  });

  it('the reps an effect needs: the fewest with 80% power, one fewer falls short', () => {
    const strict = 0.05 * (1 - 1e-6);
    for (const [red, green] of [
      [0, 1],
      [0, 0.9],
      [0.1, 0.8],
    ] as const) {
      const reps = repsToDetect(red, green) ?? 0;
      expect(reps).toBeGreaterThan(1);
      const power = (n: number) =>
        fisherPower({ trialsPerArm: n, control: red, treatment: green, alpha: strict });
      expect(power(reps)).toBeGreaterThanOrEqual(0.8);
      expect(power(reps - 1)).toBeLessThan(0.8);
    }
    expect(repsToDetect(0, 1)).toBe(4);
    expect(repsToDetect(0.5, 0.5)).toBeNull();
    expect(repsToDetect(0.5, 0.55, 10)).toBeNull();
  });
});

describe('cell estimates', () => {
  it('are n/a for a scripted run and priced by stop mode for a live one', () => {
    expect(estimateCell('first-dispatch', scripted, 5)).toEqual({
      tokensPerRep: null,
      costPerRepUsd: null,
      costUsd: null,
    });
    const probe = estimateCell('first-dispatch', live, 5);
    const report = estimateCell('report', live, 5);
    expect(probe.tokensPerRep).toBeGreaterThan(PROBE_SESSION.turns * PROBE_SESSION.contextTokens);
    expect(probe.costUsd).toBeGreaterThan(0);
    expect(estimateCell('first-dispatch', live, 10).costUsd).toBeCloseTo(
      (probe.costUsd ?? 0) * 2,
      9,
    );
    expect(report.costUsd).not.toBe(probe.costUsd);
    expect(probe.costUsd).toBeCloseTo((probe.costPerRepUsd ?? 0) * 5, 9);
    // An endpoint's own prices, and unpriced.
    const priced = estimateCell('first-dispatch', live, 5, { input: 1, output: 2 });
    expect(priced.costPerRepUsd).not.toBeCloseTo(probe.costPerRepUsd ?? 0, 6);
    expect(estimateCell('first-dispatch', live, 5, 'unpriced').costUsd).toBeNull();
    expect(estimateCell('first-dispatch', { ...live, id: 'unpriced-model' }, 5).costUsd).toBeNull();
  });

  it('a session writes its context on the first turn and reads it back on each later one', () => {
    // A one-turn probe reads nothing from the cache: it cannot read what it is writing.
    expect(sessionUsage({ at: { event: 'skill', form: 'tool', seat: 'any' } })).toEqual({
      input: 200,
      cacheWrite: 20_200,
      cacheRead: 0,
      output: 200,
    });
    expect(sessionUsage('report').cacheRead).toBe(9 * 20_000);
    expect(sessionUsage('first-dispatch').cacheRead).toBe(
      (PROBE_SESSION.turns - 1) * PROBE_SESSION.contextTokens,
    );
  });

  it('--dry-run prints, per cell, reps, tokens, cost and the detectable effect, and where they come from', async () => {
    const campaign = path.join(repoRoot, 'scenarios', 'fix-loop-breaker.campaign.json');
    const offline = await runCampaignCli([campaign, '--dry-run'], {}, 60_000);
    expect(offline.exitCode, offline.stderr).toBe(0);
    const offlineCells = offline.stdout.split('\n').filter((line) => line.startsWith('  cell '));
    expect(offlineCells).toHaveLength(10);
    const effect = `0%→${Math.round((detectableRate(5) ?? 0) * 100)}%`;
    for (const line of offlineCells) {
      expect(line).toContain(
        `5 rep(s), first-dispatch; tokens and cost n/a (scripted); detects ${effect}`,
      );
    }
    expect(offline.stdout).toContain('(tokens: n/a: a scripted policy spends no API tokens');

    const liveRun = await runCampaignCli(
      [campaign, '--dry-run', '--reps', '10'],
      { ANTHROPIC_API_KEY: 'sk-redgreen-dry-run-test' },
      60_000,
    );
    expect(liveRun.exitCode, liveRun.stderr).toBe(0);
    const cell = estimateCell('first-dispatch', live, 10);
    const liveCells = liveRun.stdout.split('\n').filter((line) => line.startsWith('  cell '));
    // Which figure is a rep's and which the cell's, said on the line.
    expect(liveCells[0]).toContain(
      `10 rep(s), first-dispatch; ~${Math.round((cell.tokensPerRep ?? 0) / 1000)}k tokens/rep, $${(cell.costPerRepUsd ?? 0).toFixed(2)}/rep, $${(cell.costUsd ?? 0).toFixed(2)}/cell; detects 0%→${Math.round((detectableRate(10) ?? 0) * 100)}%`,
    );
    expect(liveRun.stdout).toContain(`estimated cost: $${((cell.costUsd ?? 0) * 10).toFixed(2)}`);
    // The footnotes describe the profile the figures used (every cell a probe), not another.
    expect(liveRun.stdout).toMatch(
      /\(tokens: per rep from a profile per stop mode, not a measurement: a decision probe \(first-dispatch\) 14 turns over a mean 22k-token context with 300 output tokens a turn/,
    );
    expect(liveRun.stdout).not.toMatch(/10 turns|20k|400 output tokens|report session/);
    expect(liveRun.stdout).toMatch(
      /\(estimates: cost per session from its stop mode's token profile \(above\) at the model's pricing, prices as of \d{4}-\d{2}; 90 s a session /,
    );
    // A shard's cost is its own reps' at the same profile (it used the report session's before).
    const shard = await runCampaignCli(
      [campaign, '--dry-run', '--reps', '10', '--shard', '1/2'],
      { ANTHROPIC_API_KEY: 'sk-redgreen-dry-run-test' },
      60_000,
    );
    expect(shard.exitCode, shard.stderr).toBe(0);
    const sessions = Number(/sessions: (\d+)/.exec(shard.stdout)?.[1]);
    // Summed session by session, as the run's cost is (a product rounds differently at a half cent).
    const shardCost = Array.from({ length: sessions }).reduce<number>(
      (sum) => sum + (cell.costPerRepUsd ?? 0),
      0,
    );
    expect(shard.stdout).toContain(`estimated cost: $${shardCost.toFixed(2)}`);
    // Each model's line prices its sessions at the same profile as the cells.
    const twoModels = await runCampaignCli(
      [campaign, '--dry-run', '--model', 'claude-sonnet-5-5', '--model', 'claude-opus-5-5'],
      { ANTHROPIC_API_KEY: 'sk-redgreen-dry-run-test' },
      60_000,
    );
    expect(twoModels.exitCode, twoModels.stderr).toBe(0);
    const perRep = estimateCell('first-dispatch', live, 1).costPerRepUsd ?? 0;
    expect(twoModels.stdout).toContain(
      `model claude-sonnet-5-5 (claude-sonnet-5-5): 50 session(s), estimated cost $${Array.from({
        length: 50,
      })
        .reduce<number>((sum) => sum + perRep, 0)
        .toFixed(2)};`,
    );
  });
});
