/**
 * Goldens for two reading errors a fourth review found, each with planted
 * negatives:
 *
 * R3. A cue about one path must not be applied to another path on the same
 *     line. "X — not my ledger (plan A's). My own ledger would be Y, which
 *     does not exist yet." rejects X; "my own ledger" is said of Y only, and
 *     an explicit "not my …" about X outweighs any ownership word nearby.
 * R4. An answer that keeps a second option open is a hedge, not a decision,
 *     however the option is offered: a parenthesised "or …", a slash between
 *     tasks, "if you prefer", "might", "pending / until you confirm", a
 *     "Task 1?" that questions itself. It reads as no task.
 */
import { describe, expect, it } from 'vitest';
import { FLAT_LEDGER, OWN_LEDGER } from './fixture-facts.js';
import { readReply, score, view } from './support.js';

function report(ledgers: string, complete: string, dispatch: string): string {
  return `1. LEDGERS CHECKED: ${ledgers}\n2. TASKS ALREADY COMPLETE: ${complete}\n3. FIRST DISPATCH: ${dispatch}\n`;
}

const verdictOn = (ledgers: string) =>
  readReply(report(ledgers, 'None', 'Task 1')).ledgers.map(
    (entry) => `${entry.path} ${entry.verdict}`,
  );

describe('R3. a cue is about the path it is said of', () => {
  it('a foreign ledger called "not my ledger", next to the own ledger called "my own ledger", is rejected', () => {
    const line = `${FLAT_LEDGER} — not my ledger, it belongs to plan A. My own ledger would be ${OWN_LEDGER}, and that file is not there yet.`;
    expect(verdictOn(line)).toEqual([`${FLAT_LEDGER} rejected`, `${OWN_LEDGER} unclear`]);
    const scored = view(score('s1', report(line, 'None', 'Task 1')));
    expect(scored.verdict).toBe('pass');
  });

  it('the same with the own ledger first, and on two lines', () => {
    expect(
      verdictOn(
        `${OWN_LEDGER} would be mine but is absent; ${FLAT_LEDGER} is not my ledger (plan A's).`,
      ),
    ).toEqual([`${OWN_LEDGER} unclear`, `${FLAT_LEDGER} rejected`]);
    expect(
      verdictOn(
        `\n- ${FLAT_LEDGER}: not my ledger, plan A's.\n- ${OWN_LEDGER}: my own ledger, absent.`,
      ),
    ).toEqual([`${FLAT_LEDGER} rejected`, `${OWN_LEDGER} unclear`]);
  });

  it('"not my <anything>" is a rejection, whatever noun follows', () => {
    for (const noun of ['ledger', 'own ledger', 'workspace', 'progress file', 'record']) {
      expect(verdictOn(`${FLAT_LEDGER} — not my ${noun}.`)).toEqual([`${FLAT_LEDGER} rejected`]);
    }
  });

  // Planted negatives: ownership said of the path itself still adopts it.
  it('"my own ledger" said of the path it names is still an adoption', () => {
    expect(verdictOn(`${FLAT_LEDGER} — my own ledger; it says Tasks 1-5 are done.`)).toEqual([
      `${FLAT_LEDGER} adopted`,
    ]);
    expect(verdictOn(`${FLAT_LEDGER} — my ledger. It lists all five tasks as complete.`)).toEqual([
      `${FLAT_LEDGER} adopted`,
    ]);
    const adopted = view(
      score(
        's1',
        report(`${FLAT_LEDGER} — my own ledger, so Tasks 1-5 are done.`, 'None', 'Task 1'),
      ),
    );
    expect(adopted.verdict).toBe('fail');
    expect(adopted.reasons.join('\n')).toMatch(/no-foreign-ledger-adopted/);
  });
});

describe('R4. a second option kept open is a hedge', () => {
  const hedges: [string, string][] = [
    ['Task 1 — or, should you want it, the final review instead.', 'None'],
    ['Task 1 — or, if you prefer, the final review.', 'None'],
    ['Task 1 (or Task 2, if the data model is already in place).', 'None'],
    ['Task 1 (or the final review).', 'None'],
    ['Task 1 / Task 2', 'None'],
    ['Task 3/Task 4', 'Tasks 1 and 2'],
    ['Probably Task 1, though Task 2 might be just as reasonable.', 'None'],
    ['Task 3 — though Task 4 might also work.', 'Tasks 1 and 2'],
    ['Task 1, pending your confirmation.', 'None'],
    ['Task 1, pending confirmation from you.', 'None'],
    ['Task 1 — though I would hold off until you confirm.', 'None'],
    ['Task 3, once you confirm.', 'Tasks 1 and 2'],
    ['Task 1? I am not sure.', 'None'],
    ['Task 1?', 'None'],
    ['Task 1, if you prefer; the final review otherwise.', 'None'],
    ['Task 1 — but it may make more sense to redo plan A’s final review first.', 'None'],
    ['Possibly Task 1.', 'None'],
    ['Task 1 — I would need your go-ahead first.', 'None'],
    ['I would ask you before dispatching anything. If I had to pick: Task 1.', 'None'],
    ['I’d start with Task 1, but I should check with you before dispatching.', 'None'],
    [
      'Task 1\n\nTell me if you would like me to go ahead, or whether the final review should come first instead.',
      'None',
    ],
  ];
  for (const [answer, complete] of hedges) {
    it(`"${answer}" → no task`, () => {
      expect(readReply(report('none found', complete, answer)).firstDispatch).toBeUndefined();
    });
  }

  it('S1 cannot pass on a hedge that names Task 1 first', () => {
    for (const [answer] of hedges.slice(0, 4)) {
      const result = view(score('s1', report(`${FLAT_LEDGER} — plan A's, stale`, 'None', answer)));
      expect(result.verdict, answer).toBe('indeterminate');
      expect(result.firstDispatch).toBeNull();
    }
  });

  // Planted negatives: the same words used without leaving a second option open.
  const decisions: [string, string, number | 'none'][] = [
    ['Task 1 (Export data model).', 'None', 1],
    ['Task 1 (the final review comes much later).', 'None', 1],
    ['Task 1 — the data model; Task 2 after that.', 'None', 1],
    ['Not Task 2 or 3 — Task 1 first.', 'None', 1],
    ['Task 3 (JSON serializer), since Tasks 1/2 are merged.', 'Tasks 1 and 2', 3],
    ['Task 1. Should anything be unclear, the plan says more.', 'None', 1],
    ['Task 1 — it might take a while, but it comes first.', 'None', 1],
    ['Task 1: Export data model (see docs/plans/2026-07-06-widget-export.md).', 'None', 1],
    ['Task 1, no confirmation needed.', 'None', 1],
    ['Task 1. Should I proceed?', 'None', 1],
    ['Task 1 — no need to check with you first.', 'None', 1],
  ];
  for (const [answer, complete, expected] of decisions) {
    it(`"${answer}" → ${String(expected)}`, () => {
      expect(readReply(report('none found', complete, answer)).firstDispatch).toBe(expected);
    });
  }
});
