/**
 * The README's table of the effects quorum measured live is computed, not
 * typed: each row's reps per arm (at the measured rates, and at the edges of
 * their 95% Wilson intervals) and the probes' cost are recomputed here from
 * the counts in the row, so the table cannot drift from the code.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { estimateCell } from '../../harness/estimate/cell-estimate.js';
import { repsToDetect } from '../../harness/report/stats-power.js';
import { wilsonInterval } from '../../harness/report/stats-rates.js';
import { repoRoot } from '../helpers/cli.js';

const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
const table =
  /<!-- quorum-effects -->\n([\s\S]*?)<!-- \/quorum-effects -->/.exec(readme)?.[1] ?? '';
const rows = table
  .split('\n')
  .filter((line) => line.startsWith('| ') && !line.startsWith('| behaviour'))
  .map((line) => line.split('|').map((cell) => cell.trim()));

const perProbe =
  estimateCell('first-dispatch', { kind: 'live', id: 'claude-sonnet-5-5', baseUrl: undefined }, 1)
    .costUsd ?? Number.NaN;

describe("the README's quorum effects table", () => {
  it('has the six effects the issue lists', () => {
    expect(rows).toHaveLength(6);
  });

  for (const row of rows) {
    const [, behaviour, counts, reps, cost, edgeReps, edgeCost] = row;
    it(`${behaviour} (${counts})`, () => {
      const found = /(\d+)\/(\d+) vs (?:\w+ )?(\d+)\/(\d+)/.exec(counts ?? '');
      expect(found).not.toBeNull();
      const [redPass, redRuns, greenPass, greenRuns] = (found ?? []).slice(1).map(Number) as [
        number,
        number,
        number,
        number,
      ];
      const atRates = repsToDetect(redPass / redRuns, greenPass / greenRuns);
      expect(reps).toBe(String(atRates));
      expect(cost).toBe(`$${((atRates ?? 0) * 2 * perProbe).toFixed(2)}`);
      const red = wilsonInterval(redPass, redRuns);
      const green = wilsonInterval(greenPass, greenRuns);
      const atEdges = repsToDetect(red.upper, green.lower, 400);
      if (atEdges === null) {
        expect(edgeReps).toMatch(/^none/);
        expect(edgeCost).toBe('—');
      } else {
        expect(edgeReps).toBe(String(atEdges));
        expect(edgeCost).toBe(`$${(atEdges * 2 * perProbe).toFixed(2)}`);
      }
    });
  }
});
