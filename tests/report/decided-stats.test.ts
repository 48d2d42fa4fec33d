/**
 * tool_uses statistics count decided reps only: an indeterminate rep was cut
 * short (a timeout, a limit, an API error) or could not be read, so its
 * tool_uses is not a measurement of the text under test. The planted set
 * makes the difference visible: with the two indeterminate reps included the
 * permutation p moves from significant to nowhere near it. The Notes'
 * observation summaries (the resolution tally, "N via forensics") count the
 * same decided reps.
 */
import { describe, expect, it } from 'vitest';
import { resultsMarkdown } from '../../harness/report/markdown.js';
import type { RepRow } from '../../harness/report/results-schema.js';
import { permutationTest } from '../../harness/report/stats.js';
import { REPORT_SEED, summariseCells } from '../../harness/report/summarise.js';
import type { RepScore } from '../../harness/score/score-rep.js';
import { modelWith, type RepSpec, repRow } from '../report-html/model-fixture.js';

const ARMS = [
  { name: 'red', role: 'red', label: 'released', layout: 'flat' },
  { name: 'green', role: 'green', label: 'scoped', layout: 'scoped' },
] as const;

function reps(arm: 'red' | 'green', toolUses: readonly number[], verdict: RepSpec['verdict']) {
  return toolUses.map((count, index) =>
    repRow({ arm, scenario: 's1', rep: index + 1, verdict, tool_uses: count }),
  );
}

/** Five decided reps per arm far apart, plus one indeterminate rep each that pulls them together. */
const RED_DECIDED = [3, 4, 4, 5, 5];
const GREEN_DECIDED = [7, 8, 8, 9, 10];
const RED_CUT_SHORT = 40; // ran until the session timeout
const GREEN_CUT_SHORT = 1; // an API error after the first call
const rows = [
  ...reps('red', RED_DECIDED, 'fail'),
  repRow({
    arm: 'red',
    scenario: 's1',
    rep: 6,
    verdict: 'indeterminate',
    tool_uses: RED_CUT_SHORT,
  }),
  ...reps('green', GREEN_DECIDED, 'pass'),
  repRow({
    arm: 'green',
    scenario: 's1',
    rep: 6,
    verdict: 'indeterminate',
    tool_uses: GREEN_CUT_SHORT,
  }),
];

describe('tool_uses statistics use decided reps only', () => {
  const { cells, comparisons } = summariseCells(ARMS, ['s1'], rows, 6);
  const red = cells.find((cell) => cell.arm === 'red');
  const green = cells.find((cell) => cell.arm === 'green');
  const comparison = comparisons[0];

  it('the planted set is one where the indeterminate reps would move the permutation p', () => {
    const decided = permutationTest(GREEN_DECIDED, RED_DECIDED, { seed: REPORT_SEED });
    const all = permutationTest(
      [...GREEN_DECIDED, GREEN_CUT_SHORT],
      [...RED_DECIDED, RED_CUT_SHORT],
      {
        seed: REPORT_SEED,
      },
    );
    expect(decided.pValue).toBeLessThan(0.05);
    expect(all.pValue).toBeGreaterThan(0.3);
  });

  it('the permutation test compares decided reps', () => {
    const expected = permutationTest(GREEN_DECIDED, RED_DECIDED, { seed: REPORT_SEED });
    expect(comparison?.toolUses?.pValue).toBe(expected.pValue);
    expect(comparison?.toolUses?.meanDifference).toBeCloseTo(8.4 - 4.2, 10);
  });

  it('median, mean, bootstrap interval and the listed values are of decided reps', () => {
    expect(red?.toolUses.values).toEqual(RED_DECIDED);
    expect(green?.toolUses.values).toEqual(GREEN_DECIDED);
    expect(red?.toolUses.median).toBe(4);
    expect(red?.toolUses.mean).toBeCloseTo(4.2, 10);
    expect(green?.toolUses.mean).toBeCloseTo(8.4, 10);
    expect(red?.toolUses.bootstrap95Mean?.upper ?? Number.NaN).toBeLessThanOrEqual(5);
    expect(green?.toolUses.bootstrap95Mean?.lower ?? Number.NaN).toBeGreaterThanOrEqual(7);
    expect(red?.indeterminate).toBe(1);
  });

  it('a cell with no decided reps has no tool_uses figures and no comparison', () => {
    const onlyIndeterminate = [
      ...reps('red', RED_DECIDED, 'fail'),
      ...reps('green', [2, 3], 'indeterminate'),
    ];
    const summary = summariseCells(ARMS, ['s1'], onlyIndeterminate, 5);
    const cell = summary.cells.find((candidate) => candidate.arm === 'green');
    expect(cell?.toolUses).toEqual({ values: [], median: null, mean: null, bootstrap95Mean: null });
    expect(summary.comparisons[0]?.toolUses).toBeNull();
  });

  it('results.md says the tool_uses figures count decided reps only', () => {
    const markdown = resultsMarkdown(modelWith(rows.map((row) => ({ ...row }))));
    expect(markdown).toMatch(/tool_uses figures count decided reps only/);
    expect(markdown).toMatch(/as do the Notes' observation summaries/);
    expect(markdown).toContain('tool_uses per decided rep');
  });
});

/** A score holding only the two observations the Notes summarise. */
function scoreOf(row: RepRow, resolution: string, forensic: boolean): RepScore {
  return {
    schemaVersion: 2,
    scenario: row.scenario,
    verdict: row.verdict,
    reasons: [],
    wouldFail: [],
    runner: { kind: 'completed' },
    values: {},
    pre: [],
    checks: [],
    observations: [
      {
        id: 'resolution',
        verb: 'classify',
        params: {},
        outcome: 'pass',
        observed: resolution,
        detail: `resolution: ${resolution}`,
        summary: { tally: 'resolution' },
      },
      {
        id: 'forensic-calls',
        verb: 'tool-count',
        params: {},
        outcome: forensic ? 'pass' : 'fail',
        detail: 'forensic-calls',
        summary: { passes: 'via commit-content forensics' },
      },
    ],
    notAssessed: [],
  };
}

describe('the Notes summarise the observations of decided reps only, as tool_uses does', () => {
  // The indeterminate rep of each arm observed something else: it must not show in the tallies.
  const scores = new Map(
    rows.map((row) => {
      const cutShort = row.verdict === 'indeterminate';
      const resolution = cutShort ? 'neither' : row.arm === 'green' ? 'structural' : 'textual';
      return [row.rep_id, scoreOf(row, resolution, cutShort)] as const;
    }),
  );
  const { cells } = summariseCells(ARMS, ['s1'], rows, 6, scores);

  it('the resolution tally and the passes count leave the indeterminate reps out', () => {
    const green = cells.find((cell) => cell.arm === 'green');
    expect(green?.indeterminate).toBe(1);
    expect(green?.observations).toEqual([
      { kind: 'tally', id: 'resolution', title: 'resolution', counts: { structural: 5 } },
      {
        kind: 'passes',
        id: 'forensic-calls',
        phrase: 'via commit-content forensics',
        passes: 0,
      },
    ]);
    const red = cells.find((cell) => cell.arm === 'red');
    expect(red?.observations[0]).toMatchObject({ counts: { textual: 5 } });
  });

  it('a cell whose reps are all indeterminate summarises no observation', () => {
    const cutShort = reps('green', [2, 3], 'indeterminate');
    const summary = summariseCells(
      ARMS,
      ['s1'],
      cutShort,
      2,
      new Map(cutShort.map((row) => [row.rep_id, scoreOf(row, 'neither', true)] as const)),
    );
    expect(summary.cells.find((cell) => cell.arm === 'green')?.observations).toEqual([]);
  });
});
