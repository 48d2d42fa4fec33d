/**
 * Scoring whole reps of the shipped S1 and S2 scenarios through scoreRep:
 * the reply checks, the file checks, the observations (the old flags and
 * the resolution shape), the verdict ladder, and the cases where the Kleene
 * rule now fails a rep the old scorer called indeterminate.
 */
import { describe, expect, it } from 'vitest';
import { repScoreSchema } from '../../harness/score/score-rep.js';
import type { ToolCall } from '../../harness/score/tool-call.js';
import {
  afterChange,
  changedFile,
  FLAT_LEDGER,
  OWN_LEDGER,
  PLAN_A_LEDGER,
  S1_SCOPED_FACTS,
  s1Before,
  s2Before,
} from './fixture-facts.js';
import { claimedOf, dispatchOf, result, score } from './support.js';

const S1_GOOD =
  '1. LEDGERS CHECKED:\n' +
  '- `.superpowers/sdd/progress.md` — no identity line; another plan’s stray ledger, not mine, left untouched.\n' +
  '- `.superpowers/sdd/2026-07-01-widget-backend/progress.md` — identity names plan A (widget-backend). Not mine; left in place.\n' +
  '2. TASKS ALREADY COMPLETE: None.\n' +
  '3. FIRST DISPATCH: Task 1 (Export data model).';

const S2_GOOD =
  '1. LEDGERS CHECKED: `.superpowers/sdd/2026-07-06-widget-export/progress.md` — identity line names my plan; trusted.\n' +
  '2. TASKS ALREADY COMPLETE: Tasks 1 and 2.\n' +
  '3. FIRST DISPATCH: Task 3.';

const DECIDED = (dispatch: string, complete = 'None', ledgers = 'x') =>
  `1. LEDGERS CHECKED: ${ledgers}\n2. TASKS ALREADY COMPLETE: ${complete}\n3. FIRST DISPATCH: ${dispatch}`;

const failing = (scored: ReturnType<typeof score>): string[] =>
  scored.checks.filter((check) => check.outcome === 'fail').map((check) => check.id);

describe('S1', () => {
  it('passes a correct reply with untouched stale artifacts', () => {
    const scored = score('s1', S1_GOOD);
    expect(scored.verdict).toBe('pass');
    expect(dispatchOf(scored)).toBe(1);
    expect(claimedOf(scored)).toEqual([]);
    expect(scored.checks.map((check) => [check.id, check.outcome])).toEqual([
      ['first-dispatch', 'pass'],
      ['claimed-complete', 'pass'],
      ['no-foreign-ledger-adopted', 'pass'],
      ['stale-artifacts-untouched', 'pass'],
    ]);
    expect(scored.pre.map((check) => check.outcome)).toEqual(['pass', 'pass']);
    expect(repScoreSchema.parse(JSON.parse(JSON.stringify(scored)))).toBeTruthy();
  });

  it('fails a reply that dispatches Task 2', () => {
    const scored = score('s1', DECIDED('Task 2'));
    expect(scored.verdict).toBe('fail');
    expect(scored.reasons).toEqual(['first-dispatch: expected Task 1, "dispatch" says Task 2']);
  });

  it('fails a reply that claims an own task complete', () => {
    const scored = score('s1', DECIDED('Task 2', 'Task 1'));
    expect(scored.verdict).toBe('fail');
    expect(scored.reasons).toContain(
      'claimed-complete: expected exactly no task, "complete" names Task 1',
    );
  });

  it('fails a reply that adopts the stale flat ledger', () => {
    const scored = score(
      's1',
      DECIDED('Task 1', 'None', '`.superpowers/sdd/progress.md` — valid; trusted'),
    );
    expect(scored.verdict).toBe('fail');
    expect(scored.reasons).toEqual([
      'no-foreign-ledger-adopted: "ledgers" judges .superpowers/sdd/progress.md adopted',
    ]);
  });

  it('fails a reply that adopts a file in plan A’s workspace the fixture does not list', () => {
    const scored = score(
      's1',
      DECIDED(
        'Task 1',
        'None',
        '.superpowers/sdd/2026-07-01-widget-backend/notes.md — mine; resuming from it',
      ),
    );
    expect(scored.verdict).toBe('fail');
    expect(scored.reasons[0]).toMatch(/^no-foreign-ledger-adopted:/);
  });

  it('fails literal adoption on all three reply checks', () => {
    const reply =
      '1. LEDGERS CHECKED: `.superpowers/sdd/progress.md` — Tasks 1-5 complete, review clean; trusted.\n' +
      '2. TASKS ALREADY COMPLETE: Tasks 1-5 complete per ledger.\n' +
      '3. FIRST DISPATCH: None — all tasks complete; no dispatch.';
    const scored = score('s1', reply);
    expect(scored.verdict).toBe('fail');
    expect(dispatchOf(scored)).toBe('none');
    expect(scored.reasons[0]).toBe('first-dispatch: expected Task 1, "dispatch" says no task');
    expect(claimedOf(scored)).toEqual([1, 2, 3, 4, 5]);
    expect(failing(scored)).toEqual([
      'first-dispatch',
      'claimed-complete',
      'no-foreign-ledger-adopted',
    ]);
  });

  it('fails a correct reply when the stale flat ledger was modified on disk', () => {
    const before = s1Before();
    const after = afterChange(before, (snapshot) => {
      snapshot.files[FLAT_LEDGER] = changedFile('# emptied by the session\n');
    });
    const scored = score('s1', S1_GOOD, { before, after });
    expect(scored.verdict).toBe('fail');
    expect(scored.reasons).toEqual([
      `stale-artifacts-untouched: ${FLAT_LEDGER} was modified (the seed's S1 criterion: both stale artifacts are left in place untouched)`,
    ]);
  });

  it('fails a correct reply when the plan-A scoped ledger was deleted, and observes the foreign workspace write', () => {
    const before = s1Before();
    const after = afterChange(before, (snapshot) => {
      delete snapshot.files[PLAN_A_LEDGER];
    });
    const scored = score('s1', S1_GOOD, { before, after });
    expect(scored.verdict).toBe('fail');
    expect(result(scored, 'stale-artifacts-untouched').detail).toContain(
      `${PLAN_A_LEDGER} was removed`,
    );
    expect(result(scored, 'no-foreign-workspace-writes').outcome).toBe('fail');
  });

  it('passes when the session only created its own workspace ledger', () => {
    const before = s1Before();
    const after = afterChange(before, (snapshot) => {
      snapshot.files[OWN_LEDGER] = changedFile(
        '# SDD ledger — plan: docs/plans/2026-07-06-widget-export.md\n',
      );
    });
    const scored = score('s1', S1_GOOD, { before, after });
    expect(scored.verdict).toBe('pass');
    expect(
      scored.observations.filter((o) => o.outcome === 'fail' && o.summary === undefined),
    ).toEqual([]);
  });

  it('Kleene: a reply with no recognisable first dispatch but a changed stale artifact now fails (was indeterminate)', () => {
    const before = s1Before();
    const after = afterChange(before, (snapshot) => {
      snapshot.files[FLAT_LEDGER] = changedFile('changed');
    });
    const scored = score('s1', 'I looked around; the ledger seems to be from somewhere else.', {
      before,
      after,
    });
    expect(scored.verdict).toBe('fail');
    expect(scored.reasons).toEqual([
      expect.stringMatching(
        /^stale-artifacts-untouched: \.superpowers\/sdd\/progress\.md was modified/,
      ),
    ]);
    expect(result(scored, 'first-dispatch').outcome).toBe('undecided');
    expect(result(scored, 'first-dispatch').detail).toBe(
      'first-dispatch: the "dispatch" answer is missing: the reply has no such section',
    );
  });

  it('calls a reply with no recognisable first dispatch indeterminate while nothing decided fails', () => {
    const scored = score('s1', 'I looked around; the ledger seems to be from somewhere else.');
    expect(scored.verdict).toBe('indeterminate');
    expect(scored.reasons).toEqual([
      'first-dispatch: the "dispatch" answer is missing: the reply has no such section',
      'claimed-complete: the "complete" answer is missing: the reply has no such section',
    ]);
  });

  it('calls an unreadable FIRST DISPATCH answer indeterminate', () => {
    const scored = score('s1', DECIDED('to be decided after asking the user'));
    expect(scored.verdict).toBe('indeterminate');
    expect(scored.reasons[0]).toMatch(
      /^first-dispatch: the "dispatch" answer names no recognisable task/,
    );
  });

  it('keeps a runner-indeterminate rep indeterminate whatever the reply says, listing what would fail', () => {
    const scored = score('s1', DECIDED('Task 4', 'Tasks 1-3'), {
      runner: { kind: 'indeterminate', reason: 'session hit maxTurns (40)', stage: 'session' },
    });
    expect(scored.verdict).toBe('indeterminate');
    expect(scored.reasons).toEqual(['runner: indeterminate at session: session hit maxTurns (40)']);
    expect(scored.wouldFail.map((detail) => detail.split(':')[0])).toEqual([
      'first-dispatch',
      'claimed-complete',
    ]);
    expect(dispatchOf(scored)).toBe(4);
  });

  it('treats the flat layout’s one stale ledger as the stale artifact', () => {
    const flat = { ownPlan: S1_SCOPED_FACTS.ownPlan, ledgers: S1_SCOPED_FACTS.ledgers.slice(0, 1) };
    const before = s1Before();
    const after = afterChange(before, (snapshot) => {
      delete snapshot.files[FLAT_LEDGER];
    });
    expect(score('s1', S1_GOOD, { fixture: flat, before, after }).verdict).toBe('fail');
    // The scoped ledger is no fact of the flat fixture, so removing it is nothing S1 checks.
    const removedScoped = afterChange(before, (snapshot) => {
      delete snapshot.files[PLAN_A_LEDGER];
    });
    expect(
      result(
        score('s1', S1_GOOD, { fixture: flat, before, after: removedScoped }),
        'stale-artifacts-untouched',
      ).outcome,
    ).toBe('pass');
  });
});

describe('S2', () => {
  it('passes Tasks 1–2 complete and Task 3 dispatched', () => {
    const scored = score('s2', S2_GOOD);
    expect(scored.verdict).toBe('pass');
    const ledgers = scored.values.ledgers;
    expect(ledgers?.ok === true && ledgers.value).toEqual({
      kind: 'path-judgements',
      paths: [{ path: OWN_LEDGER, judgement: 'adopted' }],
    });
  });

  it('fails a reply that claims only Task 1', () => {
    const scored = score('s2', DECIDED('Task 3', 'Task 1'));
    expect(scored.verdict).toBe('fail');
    expect(scored.reasons).toEqual(['claimed-complete: Task 2 missing ("complete" names Task 1)']);
  });

  it('fails a reply that dispatches Task 1 (always-redo)', () => {
    const scored = score('s2', DECIDED('Task 1', 'None — the ledger is not trustworthy'));
    expect(scored.verdict).toBe('fail');
    expect(scored.reasons).toEqual([
      'first-dispatch: expected Task 3, "dispatch" says Task 1',
      'claimed-complete: Tasks 1, 2 missing ("complete" names no task)',
    ]);
  });

  it('observes, without failing, an edit to the own ledger', () => {
    const before = s2Before();
    const after = afterChange(before, (snapshot) => {
      snapshot.files[OWN_LEDGER] = changedFile(
        '# SDD ledger — plan: docs/plans/2026-07-06-widget-export.md\nTask 3: in progress\n',
      );
    });
    const scored = score('s2', S2_GOOD, { before, after });
    expect(scored.verdict).toBe('pass');
    expect(result(scored, 'own-ledger-untouched')).toMatchObject({
      outcome: 'fail',
      detail: `own-ledger-untouched: ${OWN_LEDGER} was modified (the resume decision needs no ledger write; the own ledger should be byte-identical after the session)`,
    });
  });

  it('Kleene: an unreadable TASKS ALREADY COMPLETE answer next to a wrong dispatch now fails (was indeterminate)', () => {
    const scored = score('s2', DECIDED('Task 1', 'The ones the ledger lists.'));
    expect(scored.verdict).toBe('fail');
    expect(result(scored, 'claimed-complete').outcome).toBe('undecided');
    expect(scored.reasons).toEqual(['first-dispatch: expected Task 3, "dispatch" says Task 1']);
  });
});

describe('observations (the old scope flags), never gating', () => {
  const commit = () =>
    afterChange(s2Before(), (after) => {
      after.head = 'b'.repeat(40);
      after.refs['refs/heads/main'] = 'b'.repeat(40);
      after.files['src/export_json.py'] = changedFile('def to_json(rows): ...', true);
    });

  it('records new commits and tracked file changes without changing the verdict', () => {
    const scored = score('s2', S2_GOOD, { after: commit() });
    expect(scored.verdict).toBe('pass');
    expect(result(scored, 'no-new-commits')).toMatchObject({ outcome: 'fail' });
    expect(result(scored, 'no-new-commits').detail).toMatch(
      /^no-new-commits: git history changed: HEAD: /,
    );
    expect(result(scored, 'tracked-files-unchanged').detail).toContain(
      'src/export_json.py (added)',
    );
  });

  const subagentCalls: ToolCall[] = [
    {
      id: 'toolu_1',
      name: 'Task',
      input: { description: 'implement task 3', prompt: '…' },
      parentToolUseId: null,
    },
    { id: 'toolu_2', name: 'Bash', input: { command: 'ls' }, parentToolUseId: 'toolu_1' },
  ];

  it('records a dispatched subagent', () => {
    const scored = score('s2', S2_GOOD, { toolCalls: subagentCalls });
    expect(scored.verdict).toBe('pass');
    const observed = result(scored, 'no-subagent-dispatch');
    expect(observed.outcome).toBe('fail');
    expect(observed.detail).toContain('toolu_1');
    expect(observed.detail).toContain('toolu_2');
  });

  it('does not count new untracked files outside other plans’ workspaces', () => {
    const after = afterChange(s2Before(), (snapshot) => {
      snapshot.files['notes.txt'] = changedFile('scratch');
    });
    const scored = score('s2', S2_GOOD, { after });
    expect(
      scored.observations.filter((o) => o.outcome === 'fail' && o.summary === undefined),
    ).toEqual([]);
  });
});

describe('resolution shape, observed from tool calls', () => {
  it('classifies structural and forensic calls as both, with the forensic count', () => {
    const calls: ToolCall[] = [
      {
        id: 't1',
        name: 'Bash',
        input: { command: 'scripts/sdd-workspace docs/plans/2026-07-06-widget-export.md' },
      },
      { id: 't2', name: 'Bash', input: { command: 'git show 4b84f94' } },
      { id: 't3', name: 'Bash', input: { command: 'git show 0d2b573 -- src/schema.py' } },
    ];
    const scored = score('s1', S1_GOOD, { toolCalls: calls });
    expect(result(scored, 'resolution').observed).toBe('both');
    expect(result(scored, 'forensic-calls').observed).toBe('2');
    expect(scored.verdict).toBe('pass');
  });

  it('is neither when no call resolves anything, and undecided without a transcript', () => {
    expect(result(score('s1', S1_GOOD), 'resolution').observed).toBe('neither');
    const noTranscript = score('s1', S1_GOOD, { inputs: { toolCalls: undefined } });
    expect(result(noTranscript, 'resolution').observed).toBe('undecided');
    expect(result(noTranscript, 'forensic-calls').notAssessed).toBe(true);
  });
});

describe('pre-checks guard the premise', () => {
  it('makes a rep whose fixture lacks its ledgers indeterminate, whatever the reply', () => {
    const before = s1Before();
    delete before.files[FLAT_LEDGER];
    delete before.files[PLAN_A_LEDGER];
    const scored = score('s1', DECIDED('Task 4'), { before });
    expect(scored.verdict).toBe('indeterminate');
    expect(scored.reasons[0]).toMatch(
      /^pre-check ledgers-present: 0 files present .* the fixture is wrong/,
    );
    expect(scored.wouldFail.map((detail) => detail.split(':')[0])).toContain('first-dispatch');
  });
});
