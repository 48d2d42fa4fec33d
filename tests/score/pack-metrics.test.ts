/**
 * Pack metrics: the registry (a pack's metrics join the core's names, a
 * misspelt one is refused in one line listing them all, a pack metric gated
 * over a scenario without its pack is refused in one line), what a rep
 * records (only for the packs its scenario names; a bad value is a bug), the
 * SDD pack's dispatches-per-task with its n/a (no task: null, never 0), and
 * how n/a reaches the cell summaries, the cost table and the gates.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { gateSchema } from '../../harness/campaign/config-schema.js';
import { knownMetricNames } from '../../harness/campaign/metric-gates-config.js';
import { gateDecision } from '../../harness/report/gates.js';
import { metricCellText } from '../../harness/report/metrics-markdown.js';
import { cellMetrics, type MetricRow } from '../../harness/report/rep-metrics.js';
import type { CellSummary } from '../../harness/report/results-schema.js';
import type { Dispatch, Evidence } from '../../harness/score/evidence.js';
import {
  packMetricValues,
  registeredPackMetrics,
} from '../../harness/score/pack-metric-registry.js';
import {
  registerScoreContribution,
  removeScoreContribution,
} from '../../harness/score/score-registry.js';
import { dispatchesPerTask } from '../../packs/sdd/score/dispatches-per-task.js';
import { repoRoot, runCli } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';

const PLAN = 'docs/plans/p.md';

function dispatch(kind: 'fresh' | 'resume', task: number | 'none' | undefined): Dispatch {
  return {
    index: 1,
    callId: 'c',
    tool: kind === 'fresh' ? 'Agent' : 'SendMessage',
    kind,
    subagentType: null,
    model: null,
    description: null,
    prompt: null,
    readings: {
      sdd: {
        [PLAN]:
          task === undefined
            ? { ok: false, why: 'names no task of the plan' }
            : { ok: true, value: task, quote: '' },
      },
    },
  };
}

function evidence(dispatches: readonly Dispatch[] | undefined): Evidence {
  return (dispatches === undefined
    ? {}
    : { transcript: { calls: [], dispatches } }) as unknown as Evidence;
}

const owned = { ownPlan: PLAN };

afterEach(() => {
  removeScoreContribution('test-metrics');
});

describe('the SDD pack metric dispatches-per-task', () => {
  it('is fresh dispatches over the distinct tasks of the own plan they were for', () => {
    const normal = [
      dispatch('fresh', 1),
      dispatch('fresh', 1),
      dispatch('fresh', 2),
      dispatch('fresh', 2),
      dispatch('resume', 2),
      dispatch('fresh', 2),
    ];
    expect(dispatchesPerTask(evidence(normal), owned)).toBe(2.5);
    // A dispatch for no task (a final review) counts above the line only.
    expect(dispatchesPerTask(evidence([...normal, dispatch('fresh', 'none')]), owned)).toBe(3);
  });

  it('has no value with no task (n/a: null, never 0), and is not recorded without a transcript', () => {
    expect(dispatchesPerTask(evidence([]), owned)).toBeNull();
    expect(dispatchesPerTask(evidence([dispatch('fresh', undefined)]), owned)).toBeNull();
    expect(dispatchesPerTask(evidence([dispatch('fresh', 'none')]), owned)).toBeNull();
    expect(dispatchesPerTask(evidence([dispatch('fresh', 1)]), {})).toBeNull();
    expect(dispatchesPerTask(evidence(undefined), owned)).toBeUndefined();
  });
});

describe('the pack metric registry', () => {
  it("lists the shipped pack's metric after the core's, in the one-line refusal of an unknown one", async () => {
    expect(knownMetricNames().at(-1)).toBe('dispatches-per-task');
    expect(registeredPackMetrics().map((entry) => `${entry.owner}:${entry.name}`)).toEqual([
      'sdd:dispatches-per-task',
    ]);
    const dir = makeTempDir('redgreen-pack-metric-');
    const file = path.join(dir, 'c.campaign.json');
    const campaign = (gate: Record<string, unknown>, scenario: string, layout: string) =>
      JSON.stringify({
        id: 'c',
        title: 'c',
        arms: [{ name: 'red', role: 'red', label: 'r', skill: null, layout }],
        scenarios: [path.join(repoRoot, 'scenarios', scenario)],
        reps: 1,
        model: 'claude-sonnet-4-5',
        offlineModel: 'scripted:literal',
        backend: 'messages',
        gates: [gate],
      });
    writeFileSync(
      file,
      campaign({ kind: 'metric-cap', metric: 'dispatches-per-tsk', max: 3 }, 's1', 'flat'),
    );
    const misspelt = await runCli(['campaign', 'lint', file]);
    expect(misspelt.exitCode).toBe(2);
    expect(misspelt.stderr.trim()).toMatch(
      /gates\[0\]\.metric: unknown metric "dispatches-per-tsk": did you mean "dispatches-per-task"\? use one of input-tokens, .*, tool-calls-per-seat, dispatches-per-task; fix the value$/,
    );
    expect(misspelt.stderr.trim()).not.toContain('\n');

    // Planted: a pack metric over a scenario that does not name the pack is refused, in one line.
    writeFileSync(
      file,
      campaign(
        { kind: 'metric-cap', metric: 'dispatches-per-task', max: 3 },
        'skill-triggering-feature',
        'default',
      ),
    );
    const withoutPack = await runCli(['campaign', 'lint', file]);
    expect(withoutPack.exitCode).toBe(2);
    expect(withoutPack.stderr.trim()).toMatch(
      /gates\[0\]: metric dispatches-per-task is the sdd pack's, and scenario "skill-triggering-feature" does not name that pack, so none of its reps would record it; give the gate "scenario" of one whose "packs" list sdd, or add "sdd" to skill-triggering-feature's "packs"$/,
    );
    expect(withoutPack.stderr.trim()).not.toContain('\n');
  });

  it("computes a rep's metrics for the packs its scenario names only; a bad value or name is a bug", () => {
    let value: number | null = 4;
    registerScoreContribution('test-metrics', {
      metrics: {
        'calls-seen': { description: 'd', unit: 'calls', compute: () => value },
      },
    });
    expect(knownMetricNames()).toContain('calls-seen');
    expect(packMetricValues(['test-metrics'], evidence([]), {})).toEqual({ 'calls-seen': 4 });
    expect(packMetricValues(['sdd'], evidence([]), {})).toEqual({ 'dispatches-per-task': null });
    expect(packMetricValues([], evidence([]), {})).toEqual({});
    value = null;
    expect(packMetricValues(['test-metrics'], evidence([]), {})).toEqual({ 'calls-seen': null });
    value = Number.NaN;
    expect(() => packMetricValues(['test-metrics'], evidence([]), {})).toThrow(
      "pack test-metrics's metric calls-seen computed NaN, not a number of 0 or more",
    );
    removeScoreContribution('test-metrics');
    registerScoreContribution('test-metrics', {
      metrics: { dispatches: { description: 'd', unit: 'u', compute: () => 1 } },
    });
    expect(() => knownMetricNames()).toThrow(
      "pack test-metrics's metric dispatches is a core metric",
    );
    removeScoreContribution('test-metrics');
    registerScoreContribution('test-metrics', {
      metrics: { Bad_Name: { description: 'd', unit: 'u', compute: () => 1 } },
    });
    expect(() => registeredPackMetrics()).toThrow('is not lower-case words joined by dashes');
  });
});

type Row = MetricRow & { verdict: 'pass' | 'fail' | 'indeterminate' };

function row(perTask: number | null | undefined): Row {
  return {
    verdict: 'pass',
    tool_uses: 5,
    subagent_tool_uses: 2,
    input_tokens: 100,
    output_tokens: 10,
    cache_write_tokens: 0,
    cache_read_tokens: 0,
    cost_usd: null,
    dispatches: 1,
    files_written: 1,
    bytes_written: 120,
    ...(perTask === undefined ? {} : { pack_metrics: { 'dispatches-per-task': perTask } }),
  };
}

function cell(rows: readonly Row[]): CellSummary {
  return {
    arm: 'green',
    role: 'green',
    label: 'g',
    layout: 'flat',
    scenario: 's1',
    planned: rows.length,
    recorded: rows.length,
    pass: rows.length,
    fail: 0,
    indeterminate: 0,
    decided: rows.length,
    passRate: 1,
    wilson95: null,
    toolUses: { values: [], median: null, mean: null, bootstrap95Mean: null },
    metrics: cellMetrics(rows, ['dispatches-per-task']),
    observations: [],
    overrides: 0,
  };
}

describe('n/a in the summaries and gates', () => {
  const cap = { kind: 'metric-cap', metric: 'dispatches-per-task', max: 3 } as const;

  it('is left out of the values and the median, counted apart, shown as n/a, never 0', () => {
    const summary = cell([row(2), row(null), row(4)]).metrics?.['dispatches-per-task'];
    expect(summary).toMatchObject({ values: [2, 4], notANumber: 1, unrecorded: 0, median: 3 });
    expect(metricCellText(summary, 'dispatches-per-task')).toBe('3 (2–4); 1 n/a');
    const none = cell([row(null), row(null)]).metrics?.['dispatches-per-task'];
    expect(metricCellText(none, 'dispatches-per-task')).toBe('n/a');
    expect(cell([row(undefined)]).metrics?.['dispatches-per-task']).toMatchObject({
      values: [],
      unrecorded: 1,
    });
  });

  it('a cap holds over the reps with a value, stays undecided when none has one, fails over it', () => {
    const decide = (rows: readonly Row[]) =>
      gateDecision([gateSchema.parse(cap)], [cell(rows)], []).results[0];
    expect(decide([row(2.5), row(null)])).toMatchObject({
      outcome: 'holds',
      figure: '1 decided rep(s), highest 2.50 (cap 3); 1 n/a, left out',
    });
    expect(decide([row(null), row(null)])).toMatchObject({
      outcome: 'undecided',
      figure: 'no decided rep has a value of dispatches-per-task (2 n/a)',
    });
    expect(decide([row(2.5), row(5.5)])).toMatchObject({ outcome: 'fails' });
  });
});
