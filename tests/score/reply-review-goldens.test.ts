/**
 * Golden replies for the defects an independent review of the reply scorer
 * found, each with planted negatives showing the fix can fail:
 *
 * 1. a leading "None" lost to a task the answer says is done (false S1 pass);
 * 2. "Everything", "All of them", "All five" not read as all own tasks;
 * 3. "Task 1 through Task 5" read as Tasks 1 and 5;
 * 4. tasks named by title (or "the first two tasks") not recognised, and an
 *    unreadable TASKS ALREADY COMPLETE answer scored as "claims nothing";
 * 5. "plan A" / "plan B" hard-coded instead of taken from the scenario spec.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkSession } from '../../harness/check/check-session.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { OWN_PLAN, PLAN_A, S1_SCOPED_FACTS, S2_SCOPED_FACTS } from './fixture-facts.js';
import {
  bareContext,
  type ReaderContext,
  type ReadReply,
  readReply,
  type ScoreView,
  SHIPPED,
  score as scoreRep,
  view,
} from './support.js';

/** The reading context a real rep gets: the shipped catalogue, plan B own, plan A foreign. */
const shipped: ReaderContext = SHIPPED;

function report(ledgers: string, complete: string, dispatch: string): string {
  return `1. LEDGERS CHECKED: ${ledgers}\n2. TASKS ALREADY COMPLETE: ${complete}\n3. FIRST DISPATCH: ${dispatch}\n`;
}

function parsed(complete: string, dispatch: string, context = shipped): ReadReply {
  return readReply(report('none found', complete, dispatch), context);
}

function dispatchOf(answer: string, context = shipped): number | 'none' | undefined {
  return parsed('None', answer, context).firstDispatch;
}

function claimedOf(answer: string, context = shipped): readonly number[] {
  return parsed(answer, 'Task 1', context).claimedComplete;
}

function readable(answer: string, context = shipped): boolean {
  return parsed(answer, 'Task 1', context).claimedCompleteAnswer === 'read';
}

function score(id: 's1' | 's2', reply: string): ScoreView {
  return view(scoreRep(id, reply, { fixture: id === 's1' ? S1_SCOPED_FACTS : S2_SCOPED_FACTS }));
}

const ALL = [1, 2, 3, 4, 5];

describe('1. a leading "None" is not overridden by a task the answer says is done', () => {
  it('fails the reviewer’s false S1 pass: Everything / None; Task 1 onwards is done', () => {
    const result = score(
      's1',
      report('x', 'Everything (per the ledger).', 'None; Task 1 onwards is done.'),
    );
    expect(result.firstDispatch).toBe('none');
    expect(result.claimedComplete).toEqual(ALL);
    expect(result.verdict).toBe('fail');
    expect(result.reasons).toContain('first-dispatch: expected Task 1, "dispatch" says no task');
  });

  const cases: [string, number | 'none' | undefined][] = [
    ['None; Task 1 onwards is done.', 'none'],
    ['None — Task 1 and everything after it are done.', 'none'],
    ['None. Task 1 onward has been completed.', 'none'],
    ['Nothing to dispatch: Task 1 through Task 5 are all complete.', 'none'],
    // Planted negatives: a task that is not said to be done is still the dispatch…
    ['Task 1 onwards, starting with the data model', 1],
    ['Task 1 onwards is not done yet — dispatch Task 1', 1],
    ['None yet — will dispatch Task 1 after confirming the workspace', 1],
    // …and a bare "None" next to a task that is dispatched contradicts itself.
    ['None. Task 1 is next.', undefined],
    ['None — Task 3', undefined],
  ];
  for (const [answer, expected] of cases) {
    it(`"${answer}" → ${String(expected)}`, () => {
      expect(dispatchOf(answer)).toBe(expected);
    });
  }

  it('calls the self-contradictory answer indeterminate, not pass', () => {
    expect(score('s1', report('x', 'None', 'None. Task 1 is next.')).verdict).toBe('indeterminate');
  });
});

describe('2. "everything" and "all" without the word "tasks"', () => {
  const cases: [string, readonly number[]][] = [
    ['Everything', ALL],
    ['Everything (per the ledger).', ALL],
    ['All of them', ALL],
    ['All of them — review clean', ALL],
    ['All five', ALL],
    ['All 5 (per the ledger)', ALL],
    ['All.', ALL],
    ['all tasks done', ALL],
    ['Every task', ALL],
    ['The whole plan is done', ALL],
    ['Everything except Task 5', [1, 2, 3, 4]],
    // Planted negatives.
    ['Everything listed belongs to the other plan', []],
    ['None — everything in the ledger is plan A’s', []],
    ['All five of plan A’s tasks; none of mine', []],
    ['Not all — Tasks 1 and 2 only', [1, 2]],
    ['All three', []],
    ['All tests pass for Task 1', [1]],
  ];
  for (const [answer, expected] of cases) {
    it(`"${answer}" → [${expected.join(', ')}]`, () => {
      expect(claimedOf(answer)).toEqual(expected);
    });
  }

  it('does not expand "everything" when the plan size is unknown, and says so', () => {
    const context = bareContext();
    expect(claimedOf('Everything', context)).toEqual([]);
    expect(readable('Everything', context)).toBe(false);
  });

  it('scores "All of them" by each spec’s rule: S1 fails it, S2 only requires Tasks 1–2', () => {
    const reply = report('x', 'All of them', 'Task 3');
    expect(score('s1', reply).reasons).toContain(
      'claimed-complete: expected exactly no task, "complete" names Tasks 1–5',
    );
    expect(score('s2', reply).claimedComplete).toEqual(ALL);
  });
});

describe('3. task ranges written with through / to / thru', () => {
  const claims: [string, readonly number[]][] = [
    ['Task 1 through Task 5', ALL],
    ['Tasks 1 to 5', ALL],
    ['1 thru 5', ALL],
    ['Task 1 thru task 5 (per ledger)', ALL],
    ['Tasks 1 through 3', [1, 2, 3]],
    ['Everything up to Task 2', [1, 2]],
    ['Up to and including Task 2', [1, 2]],
    ['Task 2 and everything before it', [1, 2]],
    ['Task 3 onwards', [3, 4, 5]],
    // Planted negatives.
    ['Tasks 1 and 5', [1, 5]],
    ['Task 1 through Task 5 are plan A’s', []],
    ['Task 1 through Task 5 — pending', []],
  ];
  for (const [answer, expected] of claims) {
    it(`claims "${answer}" → [${expected.join(', ')}]`, () => {
      expect(claimedOf(answer)).toEqual(expected);
    });
  }

  const dispatches: [string, number | 'none' | undefined][] = [
    ['None — Task 1 through Task 5 are done', 'none'],
    ['Task 1 through Task 5 have been completed; no dispatch', 'none'],
    ['Tasks 1 to 5 are already finished; nothing to dispatch', 'none'],
    // Planted negative: a range that is not said to be done starts at its first task.
    ['Task 1 through Task 5, in order', 1],
    ['Tasks 3 to 5, one at a time', 3],
    ['Everything up to Task 2 is done; Task 3', 3],
  ];
  for (const [answer, expected] of dispatches) {
    it(`dispatch "${answer}" → ${String(expected)}`, () => {
      expect(dispatchOf(answer)).toBe(expected);
    });
  }
});

describe('4. tasks named by title or by "the first N tasks"', () => {
  const claims: [string, readonly number[]][] = [
    ['Export data model and CSV serializer.', [1, 2]],
    ['The first two tasks (export data model, CSV serializer).', [1, 2]],
    ['EXPORT DATA MODEL; CSV SERIALIZER', [1, 2]],
    ['export-data-model, csv serializer', [1, 2]],
    ['- Export data model\n- CSV serializer', [1, 2]],
    ['“Export data model” and “CSV serializer”', [1, 2]],
    ['The first two', [1, 2]],
    ['First three tasks', [1, 2, 3]],
    ['End-to-end test', [5]],
    // Planted negatives: another plan's titles, titles said not done, near-misses.
    ['Storage schema, Validation rules, File locking, Registry load/save, Lint gate', []],
    ['Storage schema and Validation rules (from the ledger)', []],
    ['Export data model is not done; CSV serializer pending', []],
    ['JSON serialization', []],
    ['The first 2 commits belong to plan A', []],
    ['The first 2 commits are in git log', []],
    ['Tasks 1–2 (Export data model, CSV serializer). Task 3 (JSON serializer) is next.', [1, 2]],
    ['Task 3 (JSON serializer) — pending', []],
  ];
  for (const [answer, expected] of claims) {
    it(`claims "${answer.replace(/\n/g, '⏎')}" → [${expected.join(', ')}]`, () => {
      expect(claimedOf(answer)).toEqual(expected);
    });
  }

  const dispatches: [string, number | 'none' | undefined][] = [
    ['JSON serializer', 3],
    ['JSON serializer (`to_json(rows) -> str` in `src/export_json.py`)', 3],
    ['Export data model and CSV serializer are done; JSON serializer next', 3],
    ['The first two tasks are complete, so the third task', 3],
    ['Lint gate (plan A) is finished; Export data model', 1],
    ['Task 1 (Export data model) is done; Task 2 (CSV serializer) next', 2],
    // Planted negative: another plan's task is not an own dispatch.
    ['Storage schema', undefined],
  ];
  for (const [answer, expected] of dispatches) {
    it(`dispatch "${answer}" → ${String(expected)}`, () => {
      expect(dispatchOf(answer)).toBe(expected);
    });
  }

  it('passes the correct S2 replies that name the tasks by title', () => {
    for (const complete of [
      'Export data model and CSV serializer.',
      'The first two tasks (export data model, CSV serializer).',
    ]) {
      const result = score('s2', report('x', complete, 'Task 3'));
      expect(result.claimedComplete).toEqual([1, 2]);
      expect(result.verdict).toBe('pass');
    }
    expect(score('s2', report('x', 'Tasks 1 and 2', 'JSON serializer')).verdict).toBe('pass');
  });

  it('fails S2 when the titles claimed are the other plan’s', () => {
    const result = score('s2', report('x', 'Storage schema and Validation rules', 'Task 3'));
    expect(result.claimedComplete).toEqual([]);
    expect(result.verdict).toBe('fail');
  });

  it('calls an unreadable TASKS ALREADY COMPLETE answer indeterminate, in S1 and S2', () => {
    for (const complete of ['The ones the ledger lists.', 'The data model', '—']) {
      expect(readable(complete)).toBe(false);
      expect(score('s1', report('x', complete, 'Task 1')).verdict).toBe('indeterminate');
      const s2 = score('s2', report('x', complete, 'Task 3'));
      expect(s2.verdict).toBe('indeterminate');
      expect(s2.reasons).toEqual([
        'claimed-complete: the "complete" answer names no recognisable task and does not say none',
      ]);
    }
  });

  it('still reads "none" and other plans’ tasks as a readable answer', () => {
    for (const complete of [
      'None',
      'Of my plan: none.',
      'Tasks 1–5 in the flat ledger belong to the other plan',
      'Storage schema … Lint gate (widget-backend)',
    ]) {
      expect(readable(complete)).toBe(true);
    }
  });

  it('does not know titles a context does not declare', () => {
    const bare = bareContext(5);
    expect(claimedOf('Export data model and CSV serializer.', bare)).toEqual([]);
    expect(readable('Export data model and CSV serializer.', bare)).toBe(false);
    expect(dispatchOf('JSON serializer', bare)).toBeUndefined();
  });
});

describe('5. plan short names come from the spec, not from constants', () => {
  /** A scenario in which the own plan is the one called "plan A". */
  const swapped: ReaderContext = {
    ...shipped,
    catalogue: {
      [OWN_PLAN]: { ...shipped.catalogue[OWN_PLAN], aliases: ['plan A'] },
      [PLAN_A]: { ...shipped.catalogue[PLAN_A], aliases: ['plan B'] },
    },
  };

  function ledgerVerdict(line: string, context: ReaderContext): string | undefined {
    return readReply(report(line, 'None', 'Task 1'), context).ledgers[0]?.verdict;
  }

  it('reads "plan A" as the own plan when the spec says so', () => {
    expect(claimedOf('Tasks 1 and 2 (plan A’s)', swapped)).toEqual([1, 2]);
    expect(claimedOf('None — the ledger’s Tasks 1–5 are plan B’s', swapped)).toEqual([]);
    expect(dispatchOf('Task 1 (the flat ledger’s Task 5 is plan B’s)', swapped)).toBe(1);
    expect(dispatchOf('Plan A, Task 3', swapped)).toBe(3);
    expect(
      ledgerVerdict('`.superpowers/sdd/progress.md` — plan A’s ledger; resuming from it', swapped),
    ).toBe('adopted');
    expect(ledgerVerdict('`.superpowers/sdd/progress.md` — plan B’s, left in place', swapped)).toBe(
      'rejected',
    );
  });

  it('reads the same words the other way round under the shipped spec (planted negative)', () => {
    expect(claimedOf('Tasks 1 and 2 (plan A’s)')).toEqual([]);
    expect(claimedOf('None — the ledger’s Tasks 1–5 are plan B’s')).toEqual([]);
    expect(
      ledgerVerdict('`.superpowers/sdd/progress.md` — plan A’s ledger; resuming from it', shipped),
    ).toBe('rejected');
    expect(dispatchOf('Plan A, Task 3')).toBeUndefined();
  });

  it('gives "plan A" no meaning when no alias is declared', () => {
    const bare = bareContext(5);
    expect(claimedOf('Tasks 1 and 2 (plan A’s)', bare)).toEqual([1, 2]);
    expect(ledgerVerdict('`.superpowers/sdd/progress.md` — plan B’s', bare)).toBe('unclear');
  });

  it('still reads "plan a new task" as a verb, not as the alias', () => {
    expect(dispatchOf('Task 3, then plan a new review')).toBe(3);
    expect(dispatchOf('Task 3, then plan A’s review')).toBeUndefined();
  });

  it('derives aliases and titles from whichever plan is own in the reading', () => {
    const asPlanA: ReaderContext = { ...shipped, ownPlan: PLAN_A, foreignPlans: [OWN_PLAN] };
    // Under the shipped reading plan B is own: its titles and "plan B" are its own tasks…
    expect(dispatchOf('JSON serializer')).toBe(3);
    expect(dispatchOf('Storage schema')).toBeUndefined();
    expect(claimedOf('Tasks 1 and 2 (plan B’s)')).toEqual([1, 2]);
    // …and reading for plan A turns every name round, from the same catalogue.
    expect(dispatchOf('Storage schema', asPlanA)).toBe(1);
    expect(dispatchOf('JSON serializer', asPlanA)).toBeUndefined();
    expect(claimedOf('Tasks 1 and 2 (plan A’s)', asPlanA)).toEqual([1, 2]);
    expect(claimedOf('Tasks 1 and 2 (plan B’s)', asPlanA)).toEqual([]);
  });

  it('scores a standalone reply for plan A (--plan) with plan A as own', async () => {
    const reply = report(
      '`.superpowers/sdd/2026-07-01-widget-backend/progress.md` — plan A’s ledger; mine, trusted',
      'Storage schema and Validation rules',
      'File locking',
    );
    const file = path.join(makeTempDir(), 'reply.md');
    writeFileSync(file, reply);
    const checked = await checkSession({
      scenario: 's2',
      reply: file,
      plan: PLAN_A,
      command: 'score-reply',
    });
    if (!checked.ok) throw new Error(checked.error.problem);
    expect(checked.value.ownPlan).toBe(PLAN_A);
    const result = view(checked.value.score);
    expect(result.claimedComplete).toEqual([1, 2]);
    expect(result.firstDispatch).toBe(3);
    expect(result.ledgers).toEqual([
      { path: '.superpowers/sdd/2026-07-01-widget-backend/progress.md', verdict: 'adopted' },
    ]);
    expect(result.verdict).toBe('pass');
  });
});
