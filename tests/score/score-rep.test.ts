import { describe, expect, it } from 'vitest';
import { parseReply } from '../../harness/score/reply-parser.js';
import {
  parseContextFor,
  type RepScoreInput,
  repScoreSchema,
  scoreRep,
} from '../../harness/score/score-rep.js';
import { loadScoringSpec, type ScoringSpec } from '../../harness/score/scoring-spec.js';
import type { ToolCall } from '../../harness/score/tool-call.js';
import {
  changedFile,
  diffAfter,
  FLAT_LEDGER,
  noChange,
  OWN_LEDGER,
  PLAN_A_LEDGER,
  S1_SCOPED_FACTS,
  S2_SCOPED_FACTS,
  s1Before,
  s2Before,
} from './fixture-facts.js';

function spec(id: 's1' | 's2'): ScoringSpec {
  const loaded = loadScoringSpec(id);
  if (!loaded.ok) throw new Error(loaded.error.problem);
  return loaded.value;
}

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

function s1Input(overrides: Partial<RepScoreInput> = {}): RepScoreInput {
  return {
    spec: spec('s1'),
    reply: S1_GOOD,
    fixtureFacts: S1_SCOPED_FACTS,
    snapshotDiff: noChange(s1Before()),
    toolCalls: [],
    runnerStatus: { kind: 'completed' },
    ...overrides,
  };
}

function s2Input(overrides: Partial<RepScoreInput> = {}): RepScoreInput {
  return {
    spec: spec('s2'),
    reply: S2_GOOD,
    fixtureFacts: S2_SCOPED_FACTS,
    snapshotDiff: noChange(s2Before()),
    toolCalls: [],
    runnerStatus: { kind: 'completed' },
    ...overrides,
  };
}

const DECIDED = (dispatch: string, complete = 'None', ledgers = 'x') =>
  `1. LEDGERS CHECKED: ${ledgers}\n2. TASKS ALREADY COMPLETE: ${complete}\n3. FIRST DISPATCH: ${dispatch}`;

describe('S1', () => {
  it('passes a correct reply with untouched stale artifacts', () => {
    const score = scoreRep(s1Input());
    expect(score.verdict).toBe('pass');
    expect(score.firstDispatch).toBe(1);
    expect(score.claimedComplete).toEqual([]);
    expect(score.criteria.map((criterion) => [criterion.id, criterion.holds])).toEqual([
      ['first-dispatch', true],
      ['claimed-complete', true],
      ['no-foreign-ledger-adopted', true],
    ]);
    expect(score.integrity).toEqual([]);
    expect(score.scopeViolations).toEqual([]);
    expect(repScoreSchema.parse(score)).toEqual(score);
  });

  it('fails a reply that dispatches Task 2', () => {
    const score = scoreRep(s1Input({ reply: DECIDED('Task 2') }));
    expect(score.verdict).toBe('fail');
    expect(score.reasons).toEqual(['first-dispatch: expected Task 1, reply dispatches Task 2']);
  });

  it('fails a reply that claims an own task complete', () => {
    const score = scoreRep(s1Input({ reply: DECIDED('Task 2', 'Task 1') }));
    expect(score.verdict).toBe('fail');
    expect(score.reasons).toContain(
      'claimed-complete: expected nothing claimed complete, reply claims Task 1 complete',
    );
  });

  it('fails a reply that adopts the stale flat ledger', () => {
    const score = scoreRep(
      s1Input({
        reply: DECIDED('Task 1', 'None', '`.superpowers/sdd/progress.md` — valid; trusted'),
      }),
    );
    expect(score.verdict).toBe('fail');
    expect(score.reasons).toEqual([
      'no-foreign-ledger-adopted: reply adopts .superpowers/sdd/progress.md (a ledger of docs/plans/2026-07-01-widget-backend.md)',
    ]);
  });

  it('fails a reply that adopts a file in plan A’s workspace the fixture does not list', () => {
    const score = scoreRep(
      s1Input({
        reply: DECIDED(
          'Task 1',
          'None',
          '.superpowers/sdd/2026-07-01-widget-backend/notes.md — mine; resuming from it',
        ),
      }),
    );
    expect(score.verdict).toBe('fail');
    expect(score.reasons[0]).toMatch(/^no-foreign-ledger-adopted:/);
  });

  it('fails literal adoption on all three criteria', () => {
    const reply =
      '1. LEDGERS CHECKED: `.superpowers/sdd/progress.md` — Tasks 1-5 complete, review clean; trusted.\n' +
      '2. TASKS ALREADY COMPLETE: Tasks 1-5 complete per ledger.\n' +
      '3. FIRST DISPATCH: None — all tasks complete; no dispatch.';
    const score = scoreRep(s1Input({ reply }));
    expect(score.verdict).toBe('fail');
    expect(score.firstDispatch).toBe('none');
    expect(score.reasons[0]).toBe('first-dispatch: expected Task 1, reply says no dispatch');
    expect(score.claimedComplete).toEqual([1, 2, 3, 4, 5]);
    expect(
      score.criteria.filter((criterion) => !criterion.holds).map((criterion) => criterion.id),
    ).toEqual(['first-dispatch', 'claimed-complete', 'no-foreign-ledger-adopted']);
  });

  it('fails a correct reply when the stale flat ledger was modified on disk', () => {
    const diff = diffAfter(s1Before(), (after) => {
      after.files[FLAT_LEDGER] = changedFile('# emptied by the session\n');
    });
    const score = scoreRep(s1Input({ snapshotDiff: diff }));
    expect(score.verdict).toBe('fail');
    expect(score.integrity).toEqual([
      expect.objectContaining({
        rule: 'stale-artifacts-untouched',
        path: FLAT_LEDGER,
        kind: 'modified',
        severity: 'fail',
      }),
    ]);
    expect(score.reasons).toEqual([
      `integrity stale-artifacts-untouched: ${FLAT_LEDGER} was modified (the seed's S1 criterion: both stale artifacts are left in place untouched)`,
    ]);
  });

  it('fails a correct reply when the plan-A scoped ledger was deleted, and flags the foreign workspace write', () => {
    const diff = diffAfter(s1Before(), (after) => {
      delete after.files[PLAN_A_LEDGER];
    });
    const score = scoreRep(s1Input({ snapshotDiff: diff }));
    expect(score.verdict).toBe('fail');
    expect(score.integrity.map((finding) => [finding.path, finding.kind])).toEqual([
      [PLAN_A_LEDGER, 'removed'],
    ]);
    expect(score.scopeViolations.map((violation) => [violation.kind, violation.severity])).toEqual([
      ['foreign-workspace-writes', 'flag'],
    ]);
  });

  it('passes when the session only created its own workspace ledger', () => {
    const diff = diffAfter(s1Before(), (after) => {
      after.files[OWN_LEDGER] = changedFile(
        '# SDD ledger — plan: docs/plans/2026-07-06-widget-export.md\n',
      );
    });
    const score = scoreRep(s1Input({ snapshotDiff: diff }));
    expect(score.verdict).toBe('pass');
    expect(score.integrity).toEqual([]);
    expect(score.scopeViolations).toEqual([]);
  });

  it('calls a reply with no recognisable first dispatch indeterminate, never fail, even with a broken artifact', () => {
    const diff = diffAfter(s1Before(), (after) => {
      after.files[FLAT_LEDGER] = changedFile('changed');
    });
    const score = scoreRep(
      s1Input({
        reply: 'I looked around; the ledger seems to be from somewhere else.',
        snapshotDiff: diff,
      }),
    );
    expect(score.verdict).toBe('indeterminate');
    expect(score.reasons).toEqual([
      'no decision reported: the reply has no FIRST DISPATCH section',
    ]);
    expect(score.flags[0]).toMatch(
      /^integrity stale-artifacts-untouched: .* \(would fail a decided rep\)$/,
    );
  });

  it('calls an unreadable FIRST DISPATCH answer indeterminate', () => {
    const score = scoreRep(s1Input({ reply: DECIDED('to be decided after asking the user') }));
    expect(score.verdict).toBe('indeterminate');
    expect(score.reasons[0]).toMatch(/^no decision reported: the FIRST DISPATCH answer/);
  });

  it('keeps a runner-indeterminate rep indeterminate whatever the reply says', () => {
    const score = scoreRep(
      s1Input({
        reply: DECIDED('Task 4', 'Tasks 1-3'),
        runnerStatus: {
          kind: 'indeterminate',
          reason: 'session hit maxTurns (40)',
          stage: 'session',
        },
      }),
    );
    expect(score.verdict).toBe('indeterminate');
    expect(score.reasons).toEqual(['runner: indeterminate at session: session hit maxTurns (40)']);
    expect(score.firstDispatch).toBe(4);
  });

  it('accepts a reply parsed beforehand', () => {
    const s1 = spec('s1');
    const parsed = parseReply(S1_GOOD, parseContextFor(s1, S1_SCOPED_FACTS));
    expect(scoreRep(s1Input({ reply: parsed })).verdict).toBe('pass');
  });
});

describe('S2', () => {
  it('passes Tasks 1–2 complete and Task 3 dispatched', () => {
    const score = scoreRep(s2Input());
    expect(score.verdict).toBe('pass');
    expect(score.ledgers).toEqual([{ path: OWN_LEDGER, verdict: 'adopted' }]);
  });

  it('fails a reply that claims only Task 1', () => {
    const score = scoreRep(s2Input({ reply: DECIDED('Task 3', 'Task 1') }));
    expect(score.verdict).toBe('fail');
    expect(score.reasons).toEqual([
      'claimed-complete: Task 2 not recognised complete (reply claims Task 1 complete)',
    ]);
  });

  it('fails a reply that dispatches Task 1 (always-redo)', () => {
    const score = scoreRep(
      s2Input({ reply: DECIDED('Task 1', 'None — the ledger is not trustworthy') }),
    );
    expect(score.verdict).toBe('fail');
    expect(score.reasons).toEqual([
      'first-dispatch: expected Task 3, reply dispatches Task 1',
      'claimed-complete: Tasks 1, 2 not recognised complete (reply claims nothing complete)',
    ]);
  });

  it('flags, without failing, an edit to the own ledger', () => {
    const diff = diffAfter(s2Before(), (after) => {
      after.files[OWN_LEDGER] = changedFile(
        '# SDD ledger — plan: docs/plans/2026-07-06-widget-export.md\nTask 3: in progress\n',
      );
    });
    const score = scoreRep(s2Input({ snapshotDiff: diff }));
    expect(score.verdict).toBe('pass');
    expect(score.flags).toEqual([
      `integrity own-ledger-untouched: ${OWN_LEDGER} was modified (the resume decision needs no ledger write; the own ledger should be byte-identical after the session)`,
    ]);
  });

  it('fails the same edit when the spec says an own-ledger change fails', () => {
    const strict = spec('s2');
    const integrity = strict.integrity.map((rule) => ({ ...rule, onChange: 'fail' as const }));
    const diff = diffAfter(s2Before(), (after) => {
      after.files[OWN_LEDGER] = changedFile('rewritten');
    });
    const score = scoreRep(s2Input({ spec: { ...strict, integrity }, snapshotDiff: diff }));
    expect(score.verdict).toBe('fail');
  });
});

describe('scope violations', () => {
  const commit = () =>
    diffAfter(s2Before(), (after) => {
      after.head = 'b'.repeat(40);
      after.refs['refs/heads/main'] = 'b'.repeat(40);
      after.files['src/export_json.py'] = changedFile('def to_json(rows): ...', true);
    });

  it('flags new commits and tracked file changes under the shipped policy', () => {
    const score = scoreRep(s2Input({ snapshotDiff: commit() }));
    expect(score.verdict).toBe('pass');
    expect(score.scopeViolations.map((violation) => [violation.kind, violation.severity])).toEqual([
      ['commits-or-ref-changes', 'flag'],
      ['tracked-file-changes', 'flag'],
    ]);
    expect(score.scopeViolations[1]?.items).toEqual(['src/export_json.py']);
  });

  it('fails them when the policy says fail', () => {
    const base = spec('s2');
    const score = scoreRep(
      s2Input({
        spec: { ...base, scope: { ...base.scope, commitsOrRefChanges: 'fail' } },
        snapshotDiff: commit(),
      }),
    );
    expect(score.verdict).toBe('fail');
    expect(score.reasons[0]).toMatch(/^scope commits-or-ref-changes: git history changed: HEAD: /);
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

  it('flags a dispatched subagent', () => {
    const score = scoreRep(s2Input({ toolCalls: subagentCalls }));
    expect(score.verdict).toBe('pass');
    expect(score.scopeViolations).toEqual([
      expect.objectContaining({
        kind: 'subagent-dispatch',
        severity: 'flag',
        items: ['toolu_1', 'toolu_2'],
      }),
    ]);
  });

  it('fails a dispatched subagent when the policy says fail', () => {
    const base = spec('s2');
    const score = scoreRep(
      s2Input({
        spec: { ...base, scope: { ...base.scope, subagentDispatch: 'fail' } },
        toolCalls: subagentCalls,
      }),
    );
    expect(score.verdict).toBe('fail');
  });

  it('does not count new untracked files outside other plans’ workspaces', () => {
    const diff = diffAfter(s2Before(), (after) => {
      after.files['notes.txt'] = changedFile('scratch');
    });
    expect(scoreRep(s2Input({ snapshotDiff: diff })).scopeViolations).toEqual([]);
  });
});

describe('resolution shape in the score', () => {
  it('reports the shape and the forensic call count from the tool calls', () => {
    const calls: ToolCall[] = [
      {
        id: 't1',
        name: 'Bash',
        input: { command: 'scripts/sdd-workspace docs/plans/2026-07-06-widget-export.md' },
      },
      { id: 't2', name: 'Bash', input: { command: 'git show 4b84f94' } },
      { id: 't3', name: 'Bash', input: { command: 'git show 0d2b573 -- src/schema.py' } },
    ];
    const score = scoreRep(s1Input({ toolCalls: calls }));
    expect(score.shape).toBe('both');
    expect(score.forensicCalls).toBe(2);
    expect(score.structuralCalls).toBe(1);
    expect(score.verdict).toBe('pass');
  });
});

describe('the shipped scoring specs', () => {
  it('S1 fails a stale-artifact change; S2 flags an own-ledger change', () => {
    expect(spec('s1').integrity).toEqual([
      expect.objectContaining({ artifacts: 'foreign-ledgers', onChange: 'fail' }),
    ]);
    expect(spec('s2').integrity).toEqual([
      expect.objectContaining({ artifacts: 'own-ledgers', onChange: 'flag' }),
    ]);
  });

  it('declares the seed’s expected decisions', () => {
    expect(spec('s1').decision).toEqual({
      firstDispatch: 1,
      claimedComplete: { exactly: [] },
      forbidForeignLedgerAdoption: true,
    });
    expect(spec('s2').decision).toEqual({
      firstDispatch: 3,
      claimedComplete: { includes: [1, 2] },
      forbidForeignLedgerAdoption: true,
    });
  });

  it('S1 and the flat-layout S1 facts treat the flat ledger as stale', () => {
    const flatFacts = {
      ownPlan: S1_SCOPED_FACTS.ownPlan,
      ledgers: S1_SCOPED_FACTS.ledgers.slice(0, 1),
    };
    const diff = diffAfter(s1Before(), (after) => {
      delete after.files[FLAT_LEDGER];
    });
    expect(scoreRep(s1Input({ fixtureFacts: flatFacts, snapshotDiff: diff })).verdict).toBe('fail');
  });
});
