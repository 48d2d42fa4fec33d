/**
 * Golden replies for the defects a second adversarial review of the reply
 * scorer found, each with planted negatives showing the fix can fail:
 *
 * 1. a FIRST DISPATCH answer that names a finished task before the next one
 *    ("With Task 2 merged, Task 3.") was read as dispatching the finished one
 *    (false S2 fail);
 * 2. an answer that contradicts itself ("Task 1 — Storage schema": the own
 *    plan's number, the other plan's title) or is conditional ("Task 1 if the
 *    ledger is stale, otherwise Task 4") was read as a decision (false S1
 *    pass) instead of indeterminate;
 * 3. long tokens and runs made parsing quadratic: a hostile 200 KB reply must
 *    still be read, and read right.
 */
import { describe, expect, it } from 'vitest';
import { FLAT_LEDGER, S1_SCOPED_FACTS, S2_SCOPED_FACTS } from './fixture-facts.js';
import {
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

function parsed(complete: string, dispatch: string): ReadReply {
  return readReply(report('none found', complete, dispatch), shipped);
}

function dispatchOf(answer: string, complete = 'None'): number | 'none' | undefined {
  return parsed(complete, answer).firstDispatch;
}

function score(id: 's1' | 's2', reply: string): ScoreView {
  return view(scoreRep(id, reply, { fixture: id === 's1' ? S1_SCOPED_FACTS : S2_SCOPED_FACTS }));
}

const S2_LEDGER = '`.superpowers/sdd/2026-07-06-widget-export/progress.md` — my plan; trusted';

describe('1. a finished task named before the next one is not the dispatch', () => {
  const reviewerCases = [
    'With Task 2 merged, Task 3.',
    'Task 2 landed in e4f5a6b, so Task 3 next.',
    'Task 2 verified → Task 3',
    'Having finished Task 2, Task 3.',
    'Building on Task 2, Task 3',
    'Tasks 1–2: complete. Task 3: dispatch now.',
  ];
  for (const answer of reviewerCases) {
    it(`"${answer}" with Tasks 1–2 claimed → 3, and S2 passes`, () => {
      expect(dispatchOf(answer, 'Tasks 1 and 2')).toBe(3);
      const result = score('s2', report(S2_LEDGER, 'Tasks 1 and 2', answer));
      expect(result.firstDispatch).toBe(3);
      expect(result.verdict).toBe('pass');
    });
    it(`"${answer}" → 3 from its own words, when the claims cannot be read`, () => {
      expect(dispatchOf(answer, 'The ones the ledger lists.')).toBe(3);
    });
  }

  const more: [string, string, number | 'none' | undefined][] = [
    // The claim alone settles a task the answer names only in passing.
    ['Task 2 → Task 3', 'Tasks 1 and 2', 3],
    ['Task 3 (JSON serializer). Tasks 1–2 stay as they are.', 'Tasks 1 and 2', 3],
    ['Tasks 1–2 (merged) → Task 3', 'Tasks 1 and 2', 3],
    ['With Tasks 1 and 2 merged, Task 3, then Task 4', 'Tasks 1 and 2', 3],
    // Planted negatives: nothing says the first task is done, so it stays the dispatch…
    ['Task 2 → Task 3', 'Task 1', 2],
    ['Task 3, then Task 4', 'Tasks 1 and 2', 3],
    ['Start with Task 1, then Task 2', 'None', 1],
    ['Task 2 is not merged yet, so Task 2 before Task 3', 'Task 1', 2],
    // …and an answer that re-dispatches a task it claims complete, or names
    // only tasks it claims complete, contradicts itself: no guess.
    ['Task 2 needs a fix first, then Task 3', 'Tasks 1 and 2', undefined],
    ['Task 2, then Task 3', 'Tasks 1 and 2', undefined],
    ['Task 2 (fix the review findings), then Task 3', 'Tasks 1 and 2', undefined],
    ['Task 2 → Task 3', 'Tasks 1, 2 and 3', undefined],
    ['Task 2 merged, Task 3 merged', 'Tasks 1 and 2', undefined],
  ];
  for (const [answer, complete, expected] of more) {
    it(`"${answer}" with "${complete}" claimed → ${String(expected)}`, () => {
      expect(dispatchOf(answer, complete)).toBe(expected);
    });
  }

  it('fails S2 when the answer really dispatches the finished task first', () => {
    const result = score('s2', report(S2_LEDGER, 'Task 1', 'Task 2 → Task 3'));
    expect(result.firstDispatch).toBe(2);
    expect(result.verdict).toBe('fail');
    expect(result.reasons).toContain('first-dispatch: expected Task 3, "dispatch" says Task 2');
  });

  it('calls a re-dispatch of a task claimed complete indeterminate, not pass', () => {
    const reply = report(S2_LEDGER, 'Tasks 1 and 2', 'Task 2 needs a fix first, then Task 3');
    expect(score('s2', reply).verdict).toBe('indeterminate');
  });
});

describe('2. contradictory and conditional dispatch answers are indeterminate', () => {
  const contradictory: [string, string][] = [
    ['Task 1 — Storage schema', 'None'],
    ['Task 1: Storage schema', 'None'],
    ['Task 1 (Storage schema)', 'None'],
    ['Storage schema (Task 1)', 'None'],
    ['Task 1 — Storage schema (plan A)', 'None'],
    ['Task 1 — Storage schema of plan A', 'None'],
    ['Task 1 — JSON serializer is next', 'None'],
    ['Task 1 — JSON serializer', 'Tasks 1 and 2'],
    ['JSON serializer (Task 1)', 'Tasks 1 and 2'],
  ];
  for (const [answer, complete] of contradictory) {
    it(`"${answer}" names one task by number and another by title → undefined`, () => {
      expect(dispatchOf(answer, complete)).toBeUndefined();
    });
  }

  const conditional = [
    'Task 1 if the ledger is stale, otherwise Task 4.',
    'If the ledger is stale, Task 1; if not, Task 4.',
    'Either Task 1 or Task 4, depending on the ledger',
    'Task 3 or 4',
    'Task 1 if the ledger is stale, otherwise none.',
    'Task 1 unless the ledger is current, in which case nothing to dispatch',
  ];
  for (const answer of conditional) {
    it(`"${answer}" is conditional → undefined`, () => {
      expect(dispatchOf(answer)).toBeUndefined();
    });
  }

  it('scores the reviewer’s false S1 passes indeterminate', () => {
    for (const answer of [
      'Task 1 — Storage schema',
      'Task 1 if the ledger is stale, otherwise Task 4.',
    ]) {
      const result = score('s1', report('`.superpowers/sdd/progress.md` — stale', 'None', answer));
      expect(result.firstDispatch).toBeNull();
      expect(result.verdict).toBe('indeterminate');
    }
  });

  const decided: [string, string, number | 'none' | undefined][] = [
    // Planted negatives: a title that agrees with the number, a foreign title
    // that is only mentioned, and a condition with one outcome still decide.
    ['Task 1 — Export data model', 'None', 1],
    ['Task 1 — not plan A’s Storage schema', 'None', 1],
    ['Task 1 — Export data model (Storage schema is plan A’s)', 'None', 1],
    ['Task 1 — Storage schema is plan A’s, not mine', 'None', 1],
    ['Task 1 — Lint gate was plan A’s last task', 'None', 1],
    ['Task 3 (JSON serializer)', 'Tasks 1 and 2', 3],
    [
      'Tasks 1–2 (Export data model, CSV serializer) are done; Task 3 (JSON serializer)',
      'Tasks 1 and 2',
      3,
    ],
    ['Task 3 (JSON serializer); if it fails review, fix it before Task 4', 'Tasks 1 and 2', 3],
    ['Task 1 if the workspace is clean', 'None', 1],
    ['Not Task 1 or 2 — Task 3', 'Tasks 1 and 2', 3],
  ];
  for (const [answer, complete, expected] of decided) {
    it(`"${answer}" → ${String(expected)}`, () => {
      expect(dispatchOf(answer, complete)).toBe(expected);
    });
  }

  it('still passes S1 when the answer names the own Task 1 by its own title', () => {
    const result = score(
      's1',
      report('`.superpowers/sdd/progress.md` — stale', 'None', 'Task 1 — Export data model'),
    );
    expect(result.verdict).toBe('pass');
  });
});

describe('3. a hostile 200 KB reply is read, and read right', () => {
  // The markup and white space handling was rewritten to run in linear time;
  // it must still read ordinary replies the same way.
  const markup: [string, number | 'none' | undefined][] = [
    ['<del>Task 2</del> Task 3', 3],
    ['<DEL>Task 1</DEL> <del>Task 2</del> Task 3', 3],
    ['<del>Task 2 <del>Task 4</del> Task 3', 3],
    ['<del>Task 4 Task 3', 4],
    ['[Task 3](docs/plans/2026-07-06-widget-export.md#task-3)', 3],
    ['~~Task 1~~ Task 3', 3],
    ['Task\t\t 3   (JSON    serializer)', 3],
    ['Not   Task 1 or 2 \t—\t Task 3', 3],
  ];
  for (const [answer, expected] of markup) {
    it(`still reads "${answer}" → ${String(expected)}`, () => {
      expect(dispatchOf(answer, 'Tasks 1 and 2')).toBe(expected);
    });
  }

  it('still reads a ledger line padded with white space', () => {
    const reply = report(`\t${FLAT_LEDGER}     —\t\tstale`, 'None', 'Task 1');
    expect(readReply(reply, shipped).ledgers).toEqual([{ path: FLAT_LEDGER, verdict: 'rejected' }]);
  });

  /** Runs that made the old parser quadratic, each on its own line after the real answer. */
  function hostileLines(size: number): string {
    const runs = [
      'a'.repeat(size),
      '-'.repeat(size),
      '1'.repeat(size),
      'Task '.repeat(size / 5),
      'a-'.repeat(size / 2),
      '1a'.repeat(size / 2),
      `a${' '.repeat(size)}b`,
      '<'.repeat(size),
      '['.repeat(size),
      '<del>'.repeat(size / 5),
      'a.'.repeat(size / 2),
      'T1 '.repeat(size / 3),
      'task 1 x '.repeat(size / 9),
      'a/'.repeat(size / 2),
    ];
    return runs.join('\n');
  }

  function hostileReply(size: number): string {
    const noise = hostileLines(size);
    return [
      '1. LEDGERS CHECKED:',
      `- ${FLAT_LEDGER} — stale; another plan’s ledger, not mine.`,
      '',
      noise,
      '',
      '2. TASKS ALREADY COMPLETE: None.',
      '',
      noise,
      '',
      '3. FIRST DISPATCH: Task 1 (Export data model).',
      '',
      noise,
    ].join('\n');
  }

  it('parses a 200 KB reply of long tokens and runs to the right decision', () => {
    const reply = hostileReply(5_000);
    expect(reply.length).toBeGreaterThan(200_000);
    const result = readReply(reply, shipped);
    expect(result.sectionsFound).toEqual(['ledgers', 'complete', 'dispatch']);
    expect(result.claimedCompleteAnswer).toBe('read');
    expect(result.claimedComplete).toEqual([]);
    expect(result.firstDispatch).toBe(1);
    expect(result.ledgers[0]).toEqual({ path: FLAT_LEDGER, verdict: 'rejected' });
  });

  it('parses single 70 KB tokens and runs inside the answers', () => {
    const long = 70_000;
    const reply = report(
      `${FLAT_LEDGER} — stale ${'x'.repeat(long)}`,
      `None ${'-'.repeat(long)}`,
      `Task 1 ${'9'.repeat(long)}`,
    );
    const result = readReply(reply, shipped);
    expect(result.claimedComplete).toEqual([]);
    expect(result.claimedCompleteAnswer).toBe('read');
    expect(result.firstDispatch).toBe(1);
  });
});
