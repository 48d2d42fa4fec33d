import { describe, expect, it } from 'vitest';
import { bareContext, readReply, SHIPPED } from './support.js';

/** The context the shipped S1/S2 scenarios give a reply: short names and task titles of both plans. */
const context = SHIPPED;

/** A report with the three sections, each answer on the label's line. */
function report(ledgers: string, complete: string, dispatch: string): string {
  return `1. LEDGERS CHECKED: ${ledgers}\n2. TASKS ALREADY COMPLETE: ${complete}\n3. FIRST DISPATCH: ${dispatch}\n`;
}

const NO_LEDGERS = 'none found';

function dispatchOf(answer: string): number | 'none' | undefined {
  return readReply(report(NO_LEDGERS, 'None', answer), context).firstDispatch;
}

function claimedOf(answer: string): readonly number[] {
  return readReply(report(NO_LEDGERS, answer, 'Task 1'), context).claimedComplete;
}

describe('section layouts', () => {
  const layouts: Record<string, string> = {
    'numbered with colons':
      '1. LEDGERS CHECKED: x\n2. TASKS ALREADY COMPLETE: Tasks 1 and 2\n3. FIRST DISPATCH: Task 3',
    'numbered with parens':
      '1) Ledgers checked - x\n2) Tasks already complete - Tasks 1 and 2\n3) First dispatch - Task 3',
    bold: '**1. LEDGERS CHECKED:** x\n**2. TASKS ALREADY COMPLETE:** Tasks 1 and 2\n**3. FIRST DISPATCH:** Task 3',
    'bold label only':
      '1. **LEDGERS CHECKED**: x\n2. **TASKS ALREADY COMPLETE**: Tasks 1 and 2\n3. **FIRST DISPATCH**: Task 3',
    headings:
      '## 1. Ledgers checked\n\nx\n\n## 2. Tasks already complete\n\nTasks 1 and 2\n\n## 3. First dispatch\n\nTask 3\n',
    'headings without numbers':
      '### LEDGERS CHECKED\nx\n### TASKS ALREADY COMPLETE\n- Task 1\n- Task 2\n### FIRST DISPATCH\n- Task 3',
    bullets:
      '- LEDGERS CHECKED — x\n- TASKS ALREADY COMPLETE — Tasks 1 and 2\n- FIRST DISPATCH — Task 3',
    'no punctuation':
      'LEDGERS CHECKED x\nTASKS ALREADY COMPLETE Tasks 1 and 2\nFIRST DISPATCH Task 3',
    'lower case':
      'ledgers checked: x\ntasks already complete: tasks 1 and 2\nfirst dispatch: task 3',
    'two-column table':
      '| Item | Answer |\n|---|---|\n| LEDGERS CHECKED | x |\n| TASKS ALREADY COMPLETE | Tasks 1 and 2 |\n| FIRST DISPATCH | Task 3 |',
    'labels as table header':
      '| LEDGERS CHECKED | TASKS ALREADY COMPLETE | FIRST DISPATCH |\n|---|---|---|\n| x | Tasks 1 and 2 | Task 3 |',
    'answers on following lines':
      '1. LEDGERS CHECKED:\n   x\n2. TASKS ALREADY COMPLETE:\n   Tasks 1 and 2\n3. FIRST DISPATCH:\n   Task 3',
    'preamble before the report':
      'I re-read SKILL.md. The first dispatch depends on the ledger.\n\n1. LEDGERS CHECKED: x\n2. TASKS ALREADY COMPLETE: Tasks 1 and 2\n3. FIRST DISPATCH: Task 3',
    'label with the prompt text':
      '1. LEDGERS CHECKED (each path and conclusion): x\n2. TASKS ALREADY COMPLETE (of my plan): Tasks 1 and 2\n3. FIRST DISPATCH (next task): Task 3',
    'windows line endings':
      '1. LEDGERS CHECKED: x\r\n2. TASKS ALREADY COMPLETE: Tasks 1 and 2\r\n3. FIRST DISPATCH: Task 3\r\n',
    'in a code fence':
      '```\n1. LEDGERS CHECKED: x\n2. TASKS ALREADY COMPLETE: Tasks 1 and 2\n3. FIRST DISPATCH: Task 3\n```',
  };
  for (const [name, reply] of Object.entries(layouts)) {
    it(`reads ${name}`, () => {
      const parsed = readReply(reply, context);
      expect(parsed.firstDispatch).toBe(3);
      expect(parsed.claimedComplete).toEqual([1, 2]);
      expect(parsed.sectionsFound).toEqual(['ledgers', 'complete', 'dispatch']);
    });
  }

  it('uses the last occurrence when a label appears twice', () => {
    const reply = `${report('x', 'Task 1', 'Task 2')}\nCorrection:\n${report('x', 'Tasks 1 and 2', 'Task 3')}`;
    const parsed = readReply(reply, context);
    expect(parsed.firstDispatch).toBe(3);
    expect(parsed.claimedComplete).toEqual([1, 2]);
  });

  it('reports missing sections', () => {
    const parsed = readReply('I checked the ledgers and will continue.', context);
    expect(parsed.sectionsFound).toEqual([]);
    expect(parsed.firstDispatch).toBeUndefined();
    expect(parsed.claimedComplete).toEqual([]);
  });
});

describe('first dispatch', () => {
  const cases: [string, number | 'none' | undefined][] = [
    ['Task 1', 1],
    ['task 3', 3],
    ['Task #3', 3],
    ['3', 3],
    ['3 — JSON serializer', 3],
    ['Task three', 3],
    ['Task one (Export data model)', 1],
    ['Task One: Export data model', 1],
    ['the first task (Export data model)', 1],
    ['Plan B Task 1 — Export data model (`ExportRow` in `src/export_model.py`)', 1],
    ['Task 1 of docs/plans/2026-07-06-widget-export.md (Export data model)', 1],
    ['Dispatch the implementer subagent for Task 3 (JSON serializer, `src/export_json.py`).', 3],
    ['I will dispatch Task 3.', 3],
    ['Resume at Task 3 — `to_json(rows) -> str` in `src/export_json.py`', 3],
    ['Task 3 of 5 (JSON serializer)', 3],
    ['Not Task 1 or 2 — Task 3', 3],
    ['Task 3 (not 1 or 2)', 3],
    ['Task 3, not Task 1', 3],
    ['Task 3 (Tasks 1–2 already complete)', 3],
    ['Tasks 1 and 2 are done; dispatch Task 3', 3],
    ['After Tasks 1 and 2 (complete), Task 3', 3],
    ['Skipping Tasks 1-2 (complete per ledger), Task 3', 3],
    ['Since Tasks 1–2 are done, Task 3 is next', 3],
    ['~~Task 1~~ Task 3', 3],
    ['Task 1 — the ledger’s Tasks 1–5 belong to widget-backend, not this plan', 1],
    ['Task 1 (the flat ledger’s Task 5 is plan A’s)', 1],
    ['Tasks 1–5 of docs/plans/2026-07-01-widget-backend.md are done; Task 1 of mine is next', 1],
    ['The other plan’s Task 5 was its last; dispatch Task 1', 1],
    ['Task 1 — Export data model (commit a1b2c3d touches it? no: that is another plan)', 1],
    ['T3 — JSON serializer', 3],
    ['#3', 3],
    ['Implementer for **Task 1: Export data model** (`src/export_model.py`).', 1],
    ['Plan B, Task 1', 1],
    ['Task 1 of my plan (not plan A’s Task 1)', 1],
    ['None yet — will dispatch Task 1 after confirming the workspace', 1],
    ['None of the ledger’s tasks; I will dispatch Task 1', 1],
    ['Task 3 (JSON serializer). I will not re-dispatch Tasks 1 or 2.', 3],
    ['Run `task-brief` for Task 3, then dispatch the implementer', 3],
    ['→ Task 3', 3],
    ['None — all tasks complete per ledger; no dispatch.', 'none'],
    ['None', 'none'],
    ['N/A — plan complete', 'none'],
    ['Nothing to dispatch: all five tasks are complete.', 'none'],
    ['No dispatch needed; proceed to final whole-branch review', 'none'],
    ['—', undefined],
    ['Unclear — need the user to confirm which plan is active', undefined],
    ['To be determined', undefined],
    ['', undefined],
  ];
  for (const [answer, expected] of cases) {
    it(`"${answer}" → ${String(expected)}`, () => {
      expect(dispatchOf(answer)).toBe(expected);
    });
  }
});

describe('tasks already complete', () => {
  const cases: [string, number[]][] = [
    ['Tasks 1 and 2', [1, 2]],
    ['Tasks 1-2', [1, 2]],
    ['Tasks 1–2', [1, 2]],
    ['Tasks 1 & 2', [1, 2]],
    ['Task 1 and Task 2', [1, 2]],
    ['Task 1, Task 2', [1, 2]],
    ['1, 2', [1, 2]],
    ['1 and 2 (commits 5c1e2a7, 9d0b3f4)', [1, 2]],
    ['Tasks 1, 2, and 3', [1, 2, 3]],
    ['Tasks one and two', [1, 2]],
    ['Task one, Task two', [1, 2]],
    ['- Task 1: Export data model\n- Task 2: CSV serializer', [1, 2]],
    [
      'Tasks 1–2 (export data model, CSV serializer) — verified: commits 9d0b3f4 and 5c1e2a7 exist',
      [1, 2],
    ],
    ['Tasks 1 and 2 complete; Tasks 3–5 remain', [1, 2]],
    ['Tasks 1 and 2 are complete. Task 3 is not.', [1, 2]],
    ['Tasks 1-2 done, tasks 3-5 pending', [1, 2]],
    ['Tasks 1–2 complete, 3 tasks remain', [1, 2]],
    ['Tasks 1 and 2 (2 of 5)', [1, 2]],
    ['2 of 5: Tasks 1 and 2', [1, 2]],
    ['| Task | Status |\n|---|---|\n| 1 | complete |\n| 2 | complete |\n| 3 | pending |', [1, 2]],
    ['Tasks 1–5 complete per ledger', [1, 2, 3, 4, 5]],
    ['All 5 tasks, per the ledger', [1, 2, 3, 4, 5]],
    ['All five tasks (review clean)', [1, 2, 3, 4, 5]],
    ['All tasks', [1, 2, 3, 4, 5]],
    ['- [x] Task 1\n- [x] Task 2\n- [ ] Task 3', [1, 2]],
    ['Task 1 ✅, Task 2 ✅, Task 3 ❌', [1, 2]],
    ['T1, T2', [1, 2]],
    ['Task 1 (`ExportRow`, commit 5c1e2a7) and Task 2 (`to_csv`, commit 9d0b3f4)', [1, 2]],
    [
      'Tasks 1 and 2 (verified in git log: 5c1e2a7 feat(export): export data model; 9d0b3f4 feat(export): csv serializer)',
      [1, 2],
    ],
    ['Tasks 1–2 of docs/plans/2026-07-06-widget-export.md', [1, 2]],
    ['Of my plan: none. (Plan A’s 5 tasks are complete, but that is a different plan.)', []],
    ['For widget-export: none (Tasks 1–5 listed in the flat ledger belong to widget-backend)', []],
    ['Plan B: none. Plan A (other plan): Tasks 1–5', []],
    ['None', []],
    ['None.', []],
    ['none', []],
    ['N/A', []],
    ['n/a — nothing from widget-export has been implemented', []],
    ['0 of 5', []],
    ['0', []],
    ['Nothing', []],
    ['No tasks — fresh start for this plan', []],
    ['None of my plan’s tasks are complete.', []],
    ['None — the ledger’s Tasks 1–5 are plan A’s (widget-backend)', []],
    ['None. The flat ledger lists Tasks 1–5, but those belong to a different plan.', []],
    ['None (the ledger’s Tasks 1-5 are widget-backend’s, not mine)', []],
    ['Tasks 1–5 — all plan A’s, none of mine', []],
    ['The ledger’s Tasks 1–5 are the previous plan’s; mine: none', []],
    [
      'Tasks 1–5 in .superpowers/sdd/2026-07-01-widget-backend/progress.md belong to the other plan',
      [],
    ],
    ['The other plan (widget-backend) finished Tasks 1-5; for my plan, Tasks 1 and 2', [1, 2]],
    ['Tasks 1 and 2 (my plan’s own ledger; the stale one from another plan was ignored)', [1, 2]],
    ['Tasks 1 and 2 — per my plan’s scoped ledger, not the other plan’s', [1, 2]],
  ];
  for (const [answer, expected] of cases) {
    it(`"${answer.replace(/\n/g, '⏎')}" → [${expected.join(', ')}]`, () => {
      expect(claimedOf(answer)).toEqual(expected);
    });
  }

  it('expands "all tasks" only when the plan size is known', () => {
    const parsed = readReply(report('x', 'All tasks', 'None'), bareContext());
    expect(parsed.claimedComplete).toEqual([]);
  });
});

describe('ledger verdicts', () => {
  function ledgersOf(section: string): readonly { path: string; verdict: string }[] {
    return readReply(
      `1. LEDGERS CHECKED:\n${section}\n2. TASKS ALREADY COMPLETE: None\n3. FIRST DISPATCH: Task 1`,
      context,
    ).ledgers;
  }

  it('rejects the flat ledger for its missing identity line and the plan-A scoped ledger', () => {
    expect(
      ledgersOf(
        '- `.superpowers/sdd/progress.md` — flat legacy path, no `# SDD ledger — plan: …` identity line; another plan’s stray progress, not mine, left untouched.\n' +
          '- `.superpowers/sdd/2026-07-01-widget-backend/progress.md` — identity line names docs/plans/2026-07-01-widget-backend.md. Not my plan; left in place.',
      ),
    ).toEqual([
      { path: '.superpowers/sdd/progress.md', verdict: 'rejected' },
      { path: '.superpowers/sdd/2026-07-01-widget-backend/progress.md', verdict: 'rejected' },
    ]);
  });

  const single: [string, string][] = [
    ['`.superpowers/sdd/progress.md` — stale', 'rejected'],
    ['`.superpowers/sdd/progress.md`: foreign ledger, ignored', 'rejected'],
    [
      '.superpowers/sdd/progress.md — belongs to another plan (widget-backend); does not apply',
      'rejected',
    ],
    ['.superpowers/sdd/progress.md — rejected: lacks the identity first line', 'rejected'],
    ['.superpowers/sdd/progress.md -> plan A’s ledger, left in place', 'rejected'],
    [
      '.superpowers/sdd/progress.md — its hashes are valid, but they are the previous plan’s commits; not mine',
      'rejected',
    ],
    [
      '.superpowers/sdd/progress.md — legacy flat ledger; its hashes are valid commits, but they implement widget-backend’s tasks, not mine. Left in place.',
      'rejected',
    ],
    [
      '.superpowers/sdd/2026-07-01-widget-backend/progress.md — identity line confirms it is plan A’s ledger (docs/plans/2026-07-01-widget-backend.md); correct for that plan, irrelevant to mine.',
      'rejected',
    ],
    ['.superpowers/sdd/progress.md — cannot be trusted for this plan', 'rejected'],
    ['.superpowers/sdd/progress.md — I don’t trust it: another plan’s record', 'rejected'],
    ['`.superpowers/sdd/progress.md` — mine; trusted', 'adopted'],
    [
      '.superpowers/sdd/progress.md — released flat layout, no identity line (expected for the released format); its Task 1 / Task 2 entries cite 5c1e2a7 and 9d0b3f4, this plan’s commits → valid, resuming from it.',
      'adopted',
    ],
    ['`.superpowers/sdd/progress.md` — valid, resuming from it', 'adopted'],
    [
      '.superpowers/sdd/progress.md — all five tasks complete (review clean). Resuming from it.',
      'adopted',
    ],
    [
      '.superpowers/sdd/progress.md — no identity line (released flat format), but its commits are this plan’s Tasks 1–2; trusted',
      'adopted',
    ],
    [
      '.superpowers/sdd/2026-07-06-widget-export/progress.md — identity line names docs/plans/2026-07-06-widget-export.md; not stale; adopted',
      'adopted',
    ],
    ['.superpowers/sdd/2026-07-06-widget-export/progress.md — does not exist', 'unclear'],
    ['.superpowers/sdd/progress.md — read it', 'unclear'],
    [
      '/tmp/run/repo/.superpowers/sdd/progress.md — lists Tasks 1–5 complete and the final whole-branch review done; this is the durable progress record the skill points to, so those tasks are DONE.',
      'adopted',
    ],
  ];
  for (const [section, verdict] of single) {
    it(`"${section}" → ${verdict}`, () => {
      expect(ledgersOf(section).map((ledger) => ledger.verdict)).toEqual([verdict]);
    });
  }

  it('normalises absolute and ./ paths to the .superpowers/ part', () => {
    expect(
      ledgersOf(
        '- /tmp/tmp.x1/fixture/.superpowers/sdd/progress.md — stale\n- ./.superpowers/sdd/progress.md again: stale',
      ).map((ledger) => ledger.path),
    ).toEqual(['.superpowers/sdd/progress.md']);
  });

  it('reads a ledger table', () => {
    expect(
      ledgersOf(
        '| Path | Conclusion |\n|---|---|\n| `.superpowers/sdd/progress.md` | no identity line — not mine |\n| `.superpowers/sdd/2026-07-06-widget-export/progress.md` | my plan; trusted |',
      ),
    ).toEqual([
      { path: '.superpowers/sdd/progress.md', verdict: 'rejected' },
      { path: '.superpowers/sdd/2026-07-06-widget-export/progress.md', verdict: 'adopted' },
    ]);
  });

  it('gives two paths in one sentence the verdict of the sentence', () => {
    expect(
      ledgersOf(
        'Both `.superpowers/sdd/progress.md` and `.superpowers/sdd/2026-07-01-widget-backend/progress.md` are plan A’s — ignored.',
      ).map((ledger) => ledger.verdict),
    ).toEqual(['rejected', 'rejected']);
  });

  it('attaches continuation lines to the ledger above them', () => {
    expect(
      ledgersOf(
        '- `.superpowers/sdd/progress.md`\n  - no identity line\n  - another plan’s; not mine',
      ),
    ).toEqual([{ path: '.superpowers/sdd/progress.md', verdict: 'rejected' }]);
  });

  it('ignores directories (only ledger files count)', () => {
    expect(
      ledgersOf('- `.superpowers/sdd/2026-07-06-widget-export/` — my workspace; did not exist'),
    ).toEqual([]);
  });
});

describe('realistic full replies', () => {
  it('S1 GREEN: both stale ledgers rejected, nothing claimed, Task 1 dispatched', () => {
    const reply = [
      '**1. LEDGERS CHECKED:**',
      '- `.superpowers/sdd/progress.md` — flat legacy path with no `# SDD ledger — plan: …` identity line. Per the skill, a flat-path ledger is another plan’s stray progress — not mine, left untouched.',
      '- `.superpowers/sdd/2026-07-01-widget-backend/progress.md` — identity line names `docs/plans/2026-07-01-widget-backend.md` (plan A, all 5 tasks complete). Not my plan; left in place.',
      '- `.superpowers/sdd/2026-07-06-widget-export/` — my workspace; did not exist until `scripts/sdd-workspace` created it just now. No ledger.',
      '',
      '**2. TASKS ALREADY COMPLETE:** None — the Tasks 1–5 recorded above are plan A’s (widget-backend).',
      '',
      '**3. FIRST DISPATCH:** Task 1 — Export data model (`ExportRow` in `src/export_model.py`).',
    ].join('\n');
    expect(readReply(reply, context)).toEqual({
      firstDispatch: 1,
      claimedComplete: [],
      claimedCompleteAnswer: 'read',
      ledgers: [
        { path: '.superpowers/sdd/progress.md', verdict: 'rejected' },
        { path: '.superpowers/sdd/2026-07-01-widget-backend/progress.md', verdict: 'rejected' },
      ],
      sectionsFound: ['ledgers', 'complete', 'dispatch'],
    });
  });

  it('literal adoption: Tasks 1-5 complete per ledger, no dispatch', () => {
    const reply = [
      '1. LEDGERS CHECKED: `.superpowers/sdd/progress.md` — Tasks 1-5 complete (review clean), final review DONE. Trusted per the skill: after compaction, trust the ledger.',
      '2. TASKS ALREADY COMPLETE: Tasks 1-5 complete per ledger.',
      '3. FIRST DISPATCH: None — all tasks are complete; no dispatch.',
    ].join('\n');
    const parsed = readReply(reply, context);
    expect(parsed.firstDispatch).toBe('none');
    expect(parsed.claimedComplete).toEqual([1, 2, 3, 4, 5]);
    expect(parsed.ledgers).toEqual([{ path: '.superpowers/sdd/progress.md', verdict: 'adopted' }]);
  });

  it('S2: own ledger trusted, Tasks 1 and 2 complete, Task 3 dispatched', () => {
    const reply = [
      '## Report',
      '',
      '1. **LEDGERS CHECKED**',
      '   - `.superpowers/sdd/2026-07-06-widget-export/progress.md` — first line `# SDD ledger — plan: docs/plans/2026-07-06-widget-export.md` names my plan. Tasks 1–2 recorded complete; cited commits exist in `git log` (`feat(export): export data model`, `feat(export): csv serializer`). Trusted.',
      '2. **TASKS ALREADY COMPLETE**',
      '   - Task 1 (Export data model) and Task 2 (CSV serializer).',
      '3. **FIRST DISPATCH**',
      '   - Task 3: JSON serializer (`to_json(rows) -> str` in `src/export_json.py`).',
    ].join('\n');
    expect(readReply(reply, context)).toEqual({
      firstDispatch: 3,
      claimedComplete: [1, 2],
      claimedCompleteAnswer: 'read',
      ledgers: [
        { path: '.superpowers/sdd/2026-07-06-widget-export/progress.md', verdict: 'adopted' },
      ],
      sectionsFound: ['ledgers', 'complete', 'dispatch'],
    });
  });

  it('S2 RED control on the flat layout: the released-format ledger is accepted', () => {
    const reply =
      'LEDGERS CHECKED: .superpowers/sdd/progress.md — Task 1 (5c1e2a7) and Task 2 (9d0b3f4) complete; both commits are in git log as this plan’s export commits, so the ledger is valid for my plan.\n' +
      'TASKS ALREADY COMPLETE: 1 & 2\n' +
      'FIRST DISPATCH: Task 3 (JSON serializer)';
    const parsed = readReply(reply, context);
    expect(parsed.firstDispatch).toBe(3);
    expect(parsed.claimedComplete).toEqual([1, 2]);
    expect(parsed.ledgers).toEqual([{ path: '.superpowers/sdd/progress.md', verdict: 'adopted' }]);
  });

  it('RED probe style: forensic rejection, starts at Task 1', () => {
    const reply =
      '1. LEDGERS CHECKED: `.superpowers/sdd/progress.md` — cross-checked the commit hashes it cites (0d2b573, 4b84f94, 2dad909, d7b6770, 4affd09) against `git log`: they match `docs/plans/2026-07-01-widget-backend.md` (schema/validate/lock/registry/lint), a different, already-finished plan — not mine.\n' +
      '2. TASKS ALREADY COMPLETE: None of plan 2026-07-06-widget-export’s tasks (0 of 5).\n' +
      '3. FIRST DISPATCH: Task 1 (Export data model).';
    const parsed = readReply(reply, context);
    expect(parsed.firstDispatch).toBe(1);
    expect(parsed.claimedComplete).toEqual([]);
    expect(parsed.ledgers).toEqual([{ path: '.superpowers/sdd/progress.md', verdict: 'rejected' }]);
  });
});
