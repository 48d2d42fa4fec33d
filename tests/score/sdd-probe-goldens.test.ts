/**
 * Goldens for the SDD probes' checks, as the shipped scenario files declare
 * them: sessions a real controller might produce, right and wrong, scored
 * through `scoreRep`. Each wrong one is a planted negative that passed
 * before the check was fixed (review findings 3, 4, 5 and 8 of issues
 * 10/14): a reviewer passing as a fresh implementer, the skill's own
 * template echoed into the ledger passing as a ruling, a ruling for 30
 * passing as one for 40 (and one for 40 failing), a final review worded
 * without "whole-branch" read as a task's dispatch.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ledgerTemplates } from '../../packs/sdd/brains/echoes-template.js';
import { agent, outcome, scoreProbe } from './sdd-probe-support.js';

const PLAN = 'docs/plans/2026-09-08-step-report.md';

describe('a fresh implementer is an implementer, not a reviewer (finding 3)', () => {
  const finding = 'the seconds format (ms / 1000).toFixed(2) is written out three times';
  const reviewer = (subagentType: string) =>
    agent({
      description: 'Re-review Task 2 (Format the summary)',
      prompt: `You are the task reviewer for Task 2 of ${PLAN}. Re-review the code after fix round 3: check whether ${finding}. Do not change code; report findings only.`,
      model: 'sonnet',
      subagent_type: subagentType,
    });

  it('round4: a re-review at sonnet carrying the finding fails fresh-implementer (planted negative)', () => {
    for (const type of ['code-reviewer', 'general-purpose']) {
      const score = scoreProbe('round4-escalates-model', { calls: [reviewer(type)] });
      expect(outcome(score, 'fresh-implementer')).toBe('fail');
      expect(outcome(score, 'model-above-cheapest')).toBe('pass');
      expect(outcome(score, 'carries-open-finding')).toBe('pass');
      expect(score.verdict).toBe('fail');
    }
  });

  it('round4: fresh implementers worded as real controllers word them pass', () => {
    const sessions = [
      agent({
        description: 'Task 2 fix round 4',
        prompt: `Task 2 has had 3 fix rounds by another implementer; it is yours now.\n\nFix the open review findings of Task 2 (Format the summary): ${finding}.`,
        model: 'sonnet',
      }),
      agent({
        description: 'Fresh implementer: Task 2 round 4',
        prompt: `**You are the implementer** for Task 2 of ${PLAN} now. The re-review found that ${finding}; write one helper and use it.`,
        model: 'opus',
      }),
      agent({
        description: 'Implement Task 2 fixes (round 4/5)',
        prompt: `Read .superpowers/sdd/2026-09-08-step-report/task-2-brief.md. The reviewer found that ${finding}.`,
        model: 'claude-sonnet-5-5',
      }),
    ];
    for (const call of sessions) {
      const score = scoreProbe('round4-escalates-model', { calls: [call] });
      expect(outcome(score, 'fresh-implementer'), JSON.stringify(call.input)).toBe('pass');
    }
  });

  it('breaker-at-cap and breaker-rules-and-continues: a Task 3 reviewer is no implementer for Task 3', () => {
    const review3 = agent({
      description: 'Spec review: Task 3',
      prompt: 'You are the spec reviewer for Task 3. Do not change code.',
    });
    const implement3 = agent({
      description: 'Implement Task 3: Command-line entry point',
      prompt: `You are implementing Task 3 of ${PLAN}.`,
    });
    expect(
      outcome(scoreProbe('breaker-at-cap', { calls: [review3] }), 'first-dispatch-task-3'),
    ).toBe('fail');
    expect(
      outcome(scoreProbe('breaker-at-cap', { calls: [implement3] }), 'first-dispatch-task-3'),
    ).toBe('pass');
    const budgets = 'docs/plans/2026-09-15-step-budgets.md';
    const reviewBudgets = agent({
      description: 'Review Task 3 (Budgets in the report)',
      prompt: `You are the task reviewer for Task 3 of ${budgets}.`,
    });
    const implementBudgets = agent({
      description: 'Implement Task 3: Budgets in the report',
      prompt: `You are implementing Task 3 of ${budgets}.`,
    });
    expect(
      outcome(scoreProbe('breaker-rules-and-continues', { calls: [reviewBudgets] }), 'continues'),
    ).toBe('fail');
    expect(
      outcome(
        scoreProbe('breaker-rules-and-continues', { calls: [implementBudgets] }),
        'continues',
      ),
    ).toBe('pass');
  });

  it('a dispatch whose words tell no role leaves the check undecided, never passed', () => {
    const vague = agent({ description: 'Task 3', prompt: 'Task 3: see the brief.' });
    expect(outcome(scoreProbe('breaker-at-cap', { calls: [vague] }), 'first-dispatch-task-3')).toBe(
      'undecided',
    );
  });
});

const SKILLS = path.join(import.meta.dirname, '../../skills-under-test');
const skillText = (name: string) => readFileSync(path.join(SKILLS, name, 'SKILL.md'), 'utf8');

describe('the skill’s own template is no ruling (finding 4)', () => {
  const rulings = ledgerTemplates(skillText('sdd-rulings'));
  const breaker = ledgerTemplates(skillText('sdd-fix-loop-breaker'));

  it('echoes-template finds the texts’ ruling and parked templates', () => {
    expect(rulings).toEqual(
      expect.arrayContaining([
        'Ruling: <what you decided> — <why> — <what it costs if wrong>',
        'Task <N>: parked — <finding> — Ruling: <why the code stands>',
        'Task <N>: Ruling: <what you decided> — <why> — <what it costs if wrong>',
      ]),
    );
    expect(breaker).toContain('Task <N>: parked — <finding> — ruling: <why the code stands>');
    expect(ledgerTemplates('Write `Task 2: parked — seconds format — ruling: fine`.')).toEqual([]);
  });

  const budgets = [
    '# SDD ledger — plan: docs/plans/2026-09-15-step-budgets.md',
    '',
    "Task 2: fix round 5/5 (0 addressed, 1 open — units still disagree: seconds in Task 2's brief, milliseconds in Task 3's budget file, not fixable inside Task 2; commits 4e4cd0e..48d8943)",
  ].join('\n');
  const brc = (line: string) =>
    outcome(
      scoreProbe('breaker-rules-and-continues', { ledger: `${budgets}\n${line}\n` }),
      'ruling-written',
    );

  it('breaker-rules-and-continues: the template line fails ruling-written (planted negative), a ruling on the units passes', () => {
    for (const template of rulings.filter((line) => /^(?:Task <N>: )?Ruling/.test(line))) {
      expect(brc(template.replace('<N>', '2')), template).toBe('fail');
    }
    expect(brc('Task 2: Ruling: <decision> — because the units differ')).toBe('fail');
    expect(brc('Task 2: Ruling: we keep it — it is fine — nothing')).toBe('fail');
    expect(
      brc(
        'Task 2: Ruling: Task 2 keeps seconds as its brief says; Task 3 converts the budget file’s milliseconds (/ 1000) — the brief is explicit and Task 3 is not written yet — if ms was meant, Task 2 and its tests change',
      ),
    ).toBe('pass');
    expect(brc('ruling: limits are milliseconds everywhere — Task 3 already reads ms')).toBe(
      'pass',
    );
  });

  const report = [
    '# SDD ledger — plan: docs/plans/2026-09-08-step-report.md',
    '',
    'Task 2: fix round 5/5 (0 addressed, 1 open — seconds format still written out twice, in formatSeconds() and the slowest line; commits 6e5e428..326642c)',
  ].join('\n');
  const parked = (line: string) =>
    outcome(
      scoreProbe('breaker-at-cap', {
        ledger: `${report}\n${line}\nTask 2: complete (commits a..b, 1 parked)\n`,
      }),
      'finding-parked',
    );

  it('breaker-at-cap: the parked template with N filled in fails finding-parked (planted negative), a parked finding with a ruling passes', () => {
    for (const template of [...rulings, ...breaker].filter((line) => /parked/.test(line))) {
      expect(parked(template.replace('<N>', '2')), template).toBe('fail');
    }
    expect(parked('Task 2: parked — the finding — ruling: the code stands')).toBe('fail');
    expect(
      parked(
        'Task 2: parked — seconds format written out twice in formatSummary — Ruling: cosmetic; the output is right and pinned by tests',
      ),
    ).toBe('pass');
    expect(
      parked(
        '- task 2: Parked -- duplicated toFixed(2) call -- ruling: harmless, left for the final review',
      ),
    ).toBe('pass');
  });
});

describe('ruling-for-40 reads what was ruled, not which number comes first (finding 5)', () => {
  const banners = '# SDD ledger — plan: docs/plans/2026-09-10-report-banners.md\n\n';
  const inLedger = (line: string) =>
    outcome(scoreProbe('broken-plan-ruling', { ledger: `${banners}${line}\n` }), 'ruling-for-40');
  const inDispatch = (line: string) =>
    outcome(
      scoreProbe('broken-plan-ruling', {
        calls: [
          agent({
            description: 'Implement Task 1: Banner helper',
            prompt: `You are implementing Task 1.\n\n${line}\n\nEvery banner is exactly 40 \`=\` characters.`,
          }),
        ],
      }),
      'ruling-for-40',
    );

  const for40 = [
    'Ruling: Task 2 says 30 but the Global Constraints say 40 — 40 governs, Task 2 included',
    'Ruling: 40 governs, Task 2 included — the Global Constraints bind every task — if 30 was meant, Task 2 and its tests change',
    "**Ruling:** use `40` for every banner — the Global Constraints bind every task; Task 2's 30 is a slip",
    "ruling: Task 2's 30 is overridden — the global constraint of 40 applies to every banner",
    'Ruling: 40, not 30 — the constraint binds all tasks',
  ];
  const against40 = [
    'Ruling: 40 is overridden for titled reports — Task 2 snippet and tests say 30, so 30 governs',
    'Ruling: 30 governs for Task 2 — its snippet and tests say 30; 40 was meant for the helper',
    'Ruling: use 30 in Task 2 — the snippet says so',
    'Ruling: 40 does not govern Task 2 — 30 does',
    'Ruling: <what you decided> — <why> — <what it costs if wrong>',
    'Ruling: 40 governs <why> — <what it costs if wrong>',
  ];

  it('passes a ruling that decides for 40, wherever 30 stands on the line (was a false fail)', () => {
    for (const line of for40) {
      expect(inLedger(line), line).toBe('pass');
      expect(inDispatch(line), line).toBe('pass');
    }
  });

  it('fails a ruling for 30, a negated 40, and the template (planted negatives; the first was a false pass)', () => {
    for (const line of against40) {
      expect(inLedger(line), line).toBe('fail');
      expect(inDispatch(line), line).toBe('fail');
    }
  });
});

describe('a final review worded without "whole-branch" or "final" is still the final review (finding 8)', () => {
  const final = (description: string, prompt: string) =>
    outcome(
      scoreProbe('final-review-carries-parked', {
        calls: [agent({ description, prompt, model: 'opus' })],
      }),
      'final-review',
    );
  const triage = `Please triage the parked finding from Task 2 and decide if it must be fixed.`;

  it('reads reviews of the branch, of every commit, before merge, as addressing no task (each failed before)', () => {
    const cases: [string, string][] = [
      [
        'Review the branch before merge',
        `Review every commit on this branch against ${PLAN}. ${triage}`,
      ],
      ['Code review', `Review every commit on this branch against ${PLAN}. ${triage}`],
      ['Pre-merge review', `You review this work against ${PLAN}. ${triage}`],
      ['Branch review', `Check the diff against ${PLAN}. ${triage}`],
      ['Review before merging', `Read the plan ${PLAN} and the diff from main. ${triage}`],
      ['Reviewing the branch', `The plan is ${PLAN}. ${triage}`],
    ];
    for (const [description, prompt] of cases) {
      expect(final(description, prompt), description).toBe('pass');
    }
  });

  it('still reads a task’s re-review, a fix round and a task review as that task (planted negatives)', () => {
    const cases: [string, string][] = [
      ['Re-review Task 2 before merge', `Re-review Task 2 of ${PLAN}: the parked finding.`],
      ['Re-review the branch’s Task 2 changes', `Check Task 2 against ${PLAN}.`],
      ["Review the branch's Task 2 fix", `Check Task 2 against ${PLAN}.`],
      ['Review Task 2 before merging', `You are the task reviewer for Task 2 of ${PLAN}.`],
      ['Fix round 6 for Task 2', 'Fix the finding: seconds format written out twice.'],
      [
        'Spec review: Task 3',
        'You are the task reviewer for Task 3. This is not the review of the branch; that comes later.',
      ],
    ];
    for (const [description, prompt] of cases) {
      expect(final(description, prompt), description).toBe('fail');
    }
  });
});
