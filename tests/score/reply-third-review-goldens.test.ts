/**
 * Goldens for the two reading errors issue 9 names, which are one mistake at
 * two depths, each with planted negatives:
 *
 * 1. An answer that offers alternatives is a hedge, not a decision, also
 *    when an alternative names no task ("…; otherwise the final review",
 *    "…, or ask you first"). It reads as no task, so the rep cannot pass on it.
 * 2. An answer that names no task ("—", "n/a", nothing) after the reply has
 *    already said every task of the plan is done reads as "none": the reply
 *    decided, and what it decided is scored (an S1 reply claiming plan B done
 *    fails), instead of the whole reply being thrown away as indeterminate.
 */
import { describe, expect, it } from 'vitest';
import { readReply, score, view } from './support.js';

function report(complete: string, dispatch: string, ledgers = 'none found'): string {
  return `1. LEDGERS CHECKED: ${ledgers}\n2. TASKS ALREADY COMPLETE: ${complete}\n3. FIRST DISPATCH: ${dispatch}\n`;
}

const dispatchOf = (answer: string, complete = 'None'): number | 'none' | undefined =>
  readReply(report(complete, answer)).firstDispatch;

describe('1. an answer with alternatives is a hedge, whatever the alternatives name', () => {
  const hedges: [string, string][] = [
    [
      'Task 1 if the ledger in the flat path turns out to be stale; otherwise the final review.',
      'None',
    ],
    ['Task 1, or ask you first whether that old ledger should count.', 'None'],
    ['Task 3 — or wait for your go-ahead before touching the serializer.', 'Tasks 1 and 2'],
    ['Probably Task 3, unless you would rather I re-check the CSV work.', 'Tasks 1 and 2'],
    ['Task 3; alternatively I could start the whole-branch review now.', 'Tasks 1 and 2'],
    ['Task 1, or else a fresh look at the plan.', 'None'],
    ['Task 3 if the tests pass, else another review round.', 'Tasks 1 and 2'],
    ['Either the final review or nothing at all.', 'Tasks 1 and 2'],
  ];
  for (const [answer, complete] of hedges) {
    it(`"${answer}" → no task`, () => {
      expect(dispatchOf(answer, complete)).toBeUndefined();
    });
  }

  it('cannot pass S1 on a hedge that would have read as Task 1', () => {
    for (const [answer] of hedges.slice(0, 2)) {
      const result = view(
        score('s1', report('None', answer, '`.superpowers/sdd/progress.md` — stale')),
      );
      expect(result.firstDispatch).toBeNull();
      expect(result.verdict).toBe('indeterminate');
      expect(result.reasons[0]).toMatch(
        /^first-dispatch: the "dispatch" answer names no recognisable task/,
      );
    }
  });

  const decisions: [string, string, number | 'none'][] = [
    // Planted negatives: words of the same family that offer no other outcome.
    ['Task 1 (the final review comes much later).', 'None', 1],
    ['Task 1 — no need to ask you first; the ledger is plainly plan A’s.', 'None', 1],
    ['Task 3. Nothing else is pending before it.', 'Tasks 1 and 2', 3],
    ['Task 3 (JSON serializer); if it fails review, fix it before Task 4', 'Tasks 1 and 2', 3],
    ['Task 1 if the workspace is clean', 'None', 1],
    ['None — proceed to the final whole-branch review.', 'All five tasks', 'none'],
  ];
  for (const [answer, complete, expected] of decisions) {
    it(`"${answer}" → ${String(expected)}`, () => {
      expect(dispatchOf(answer, complete)).toBe(expected);
    });
  }
});

describe('2. naming no task after claiming the plan done is a decision: none', () => {
  const planDone = ['All five tasks are done (commits in the ledger).', 'Tasks 1–5', 'Everything'];
  const blanks = ['—', '-', 'n/a', 'N/A.', '–', ''];
  for (const complete of planDone) {
    for (const answer of blanks) {
      it(`"${complete}" then "${answer}" → none`, () => {
        expect(dispatchOf(answer, complete)).toBe('none');
      });
    }
  }

  it('scores what the reply decided: S1 fails on its claims and its empty dispatch, not indeterminate', () => {
    const result = view(
      score(
        's1',
        report('All five tasks are done.', '—', '`.superpowers/sdd/progress.md` — trusted'),
      ),
    );
    expect(result.firstDispatch).toBe('none');
    expect(result.verdict).toBe('fail');
    expect(result.reasons.map((reason) => reason.split(':')[0])).toEqual([
      'first-dispatch',
      'claimed-complete',
      'no-foreign-ledger-adopted',
    ]);
  });

  it('fails S2 when a reply claims the whole plan done and dispatches nothing', () => {
    const result = view(score('s2', report('Tasks 1-5 complete', '—')));
    expect(result.verdict).toBe('fail');
    expect(result.reasons).toEqual(['first-dispatch: expected Task 3, "dispatch" says no task']);
  });

  const stillUnread: [string, string][] = [
    // Planted negatives: no plan-done claim, or claims that cannot be read.
    ['Tasks 1 and 2', '—'],
    ['None', '—'],
    ['The ones the ledger lists.', '—'],
    ['Tasks 1-5 of plan A (not mine)', '—'],
  ];
  for (const [complete, answer] of stillUnread) {
    it(`"${complete}" then "${answer}" → no task`, () => {
      expect(dispatchOf(answer, complete)).toBeUndefined();
    });
  }

  it('keeps S2 indeterminate when a correct claim is followed by an empty dispatch', () => {
    expect(score('s2', report('Tasks 1 and 2', '—')).verdict).toBe('indeterminate');
  });
});
