/**
 * Every check verb: a planted pass, a planted fail, and undecided (never a
 * pass) when its evidence is missing or its premise is gone; `not` of an
 * unevaluable check stays undecided; the combinators follow strong Kleene
 * logic; a verb that throws is recorded broken and undecided. Each detail
 * starts with the check's id.
 */
import { describe, expect, it } from 'vitest';
import type { CheckNode } from '../../harness/score/check-schema.js';
import { verbNames } from '../../harness/score/check-schema.js';
import { type CheckResult, evaluateCheck } from '../../harness/score/evaluate.js';
import type { CommandOutcome, Evidence } from '../../harness/score/evidence.js';
import { allOf, anyOf, notOf, type Outcome } from '../../harness/score/kleene.js';
import type { ToolCall } from '../../harness/score/tool-call.js';
import type { RecordedQuestion } from '../../harness/score/user-question-record.js';
import { dispatchesWithTasks } from '../../packs/sdd/score/dispatch-tasks.js';
import { check as checkOnce, FACTS, reading, refusal, snapshot } from './verb-support.js';

const before = snapshot({
  'docs/plans/p.md': '## Task 1: x\n',
  '.work/q/log.md': 'q log',
  'src/a.py': 'A',
});
const same: Evidence = {
  before,
  after: structuredClone(before),
  contents: { 'docs/plans/p.md': { text: '## Task 1: x\n' } },
};

/** Every outcome each verb was seen to give in this file, leaves of combinators included. */
const seen = new Map<string, Set<Outcome>>();
function record(result: CheckResult): void {
  if (result.children === undefined) {
    const outcomes = seen.get(result.verb) ?? new Set<Outcome>();
    outcomes.add(result.outcome);
    seen.set(result.verb, outcomes);
  }
  for (const child of result.children ?? []) record(child);
}

/** Compile and evaluate one check (see verb-support.ts), recording what each verb in it gave. */
function check(...args: Parameters<typeof checkOnce>): CheckResult {
  const result = checkOnce(...args);
  record(result);
  return result;
}

function outcome(raw: Record<string, unknown>, evidence: Evidence, sections = {}): Outcome {
  const result = check(raw, evidence, sections);
  expect(result.detail.startsWith('c: ')).toBe(true);
  return result.outcome;
}

describe('Kleene combination', () => {
  const all: Outcome[] = ['pass', 'fail', 'undecided'];
  it('allOf: any fail fails; else any undecided; else pass', () => {
    expect(allOf(['pass', 'pass'])).toBe('pass');
    expect(allOf(['pass', 'undecided'])).toBe('undecided');
    expect(allOf(['undecided', 'fail'])).toBe('fail');
    expect(allOf([])).toBe('pass');
  });
  it('anyOf is the dual, notOf swaps pass and fail and keeps undecided', () => {
    expect(anyOf(['fail', 'pass'])).toBe('pass');
    expect(anyOf(['fail', 'undecided'])).toBe('undecided');
    expect(anyOf(['fail', 'fail'])).toBe('fail');
    expect(all.map(notOf)).toEqual(['fail', 'pass', 'undecided']);
    for (const a of all)
      for (const b of all) expect(notOf(allOf([a, b]))).toBe(anyOf([notOf(a), notOf(b)]));
  });
});

describe('file and git verbs', () => {
  it('file-exists: present passes, absent fails (absence is what it tests), no snapshot is not assessed', () => {
    expect(outcome({ verb: 'file-exists', path: 'src/a.py' }, same)).toBe('pass');
    expect(outcome({ verb: 'file-exists', path: 'src/b.py' }, same)).toBe('fail');
    const missing = check({ verb: 'file-exists', path: 'src/a.py' }, {});
    expect(missing).toMatchObject({ outcome: 'undecided', notAssessed: true });
    expect(missing.detail).toBe('c: not assessed: no after evidence');
  });

  it('file-contains: match passes, no match fails, a gone or uncaptured file is undecided, not of it never passes', () => {
    const raw = {
      verb: 'file-contains',
      path: 'docs/plans/p.md',
      pattern: '^## task 1',
      caseSensitive: false,
    };
    expect(outcome(raw, same)).toBe('pass');
    expect(outcome({ ...raw, caseSensitive: true }, same)).toBe('fail');
    const gone: Evidence = { ...same, after: snapshot({}) };
    expect(outcome(raw, gone)).toBe('undecided');
    expect(check({ not: raw }, gone).outcome).toBe('undecided');
    expect(outcome(raw, { ...same, contents: {} })).toBe('undecided');
    expect(outcome(raw, { ...same, contents: { 'docs/plans/p.md': { omitted: 'binary' } } })).toBe(
      'undecided',
    );
    expect(check({ not: raw }, { before, after: before }).outcome).toBe('undecided');
  });

  it('file-unchanged: identical passes, modified or removed fails, a file new since before is undecided', () => {
    expect(outcome({ verb: 'file-unchanged', paths: ['.work/q/log.md'] }, same)).toBe('pass');
    const edited = { ...same, after: snapshot({ '.work/q/log.md': 'edited' }) };
    expect(outcome({ verb: 'file-unchanged', paths: ['.work/q/log.md'] }, edited)).toBe('fail');
    expect(check({ verb: 'file-unchanged', paths: ['src/a.py'] }, edited).detail).toBe(
      'c: src/a.py was removed',
    );
    expect(outcome({ verb: 'file-unchanged', paths: ['src/new.py'] }, same)).toBe('undecided');
    expect(outcome({ verb: 'file-unchanged', paths: ['{{foreignLedgers}}'] }, same)).toBe('pass');
  });

  it('file verbs read only the files a repository holds: a path named like an object property is no file', () => {
    // A plain object answers `constructor`, `toString` and `__proto__` without holding them.
    for (const name of ['constructor', 'toString', '__proto__', 'hasOwnProperty']) {
      expect(outcome({ verb: 'file-exists', path: name }, same), name).toBe('fail');
      expect(outcome({ verb: 'file-unchanged', paths: [name] }, same), name).toBe('undecided');
      expect(
        outcome({ verb: 'file-contains', path: name, pattern: '.', caseSensitive: true }, same),
        name,
      ).toBe('undecided');
    }
    // A repository may hold a file of that name, and then it is read as any other.
    const held = {
      before: snapshot({ ['__proto__']: 'x', constructor: 'y' }),
      after: snapshot({ ['__proto__']: 'x', constructor: 'changed' }),
      contents: Object.fromEntries([['__proto__', { text: 'x' }]]),
    };
    expect(outcome({ verb: 'file-exists', path: '__proto__' }, held)).toBe('pass');
    expect(outcome({ verb: 'file-unchanged', paths: ['__proto__'] }, held)).toBe('pass');
    expect(outcome({ verb: 'file-unchanged', paths: ['constructor'] }, held)).toBe('fail');
    expect(
      outcome(
        { verb: 'file-contains', path: '__proto__', pattern: '^x$', caseSensitive: true },
        held,
      ),
    ).toBe('pass');
  });

  it('file-unchanged with a list placeholder that holds nothing for this fixture is undecided', () => {
    const result = check(
      { verb: 'file-unchanged', paths: ['{{foreignLedgers}}'] },
      same,
      {},
      { ...FACTS, foreignLedgers: [] },
    );
    expect(result.outcome).toBe('undecided');
    expect(result.detail).toBe(
      'c: {{foreignLedgers}} holds no value for this fixture, so there is nothing to check',
    );
  });

  it('files-matching: counts globs or a pattern among present or changed files, within min/max', () => {
    const changed = {
      ...same,
      after: snapshot({
        ...{ 'docs/plans/p.md': '## Task 1: x\n', 'src/a.py': 'A2' },
        '.work/q/new.md': 'n',
      }),
    };
    expect(outcome({ verb: 'files-matching', globs: ['src/**'], min: 1 }, same)).toBe('pass');
    expect(outcome({ verb: 'files-matching', pattern: '\\.py$', max: 0 }, same)).toBe('fail');
    expect(
      outcome({ verb: 'files-matching', globs: ['.work/q/**'], among: 'changed', max: 0 }, changed),
    ).toBe('fail');
    expect(
      outcome({ verb: 'files-matching', globs: ['.work/q/**'], among: 'changed', max: 0 }, same),
    ).toBe('pass');
    expect(
      check(
        { verb: 'files-matching', globs: ['src/**'], among: 'added', max: 0 },
        { after: before },
      ).notAssessed,
    ).toBe(true);
  });

  it('git-head-unchanged, git-clean, git-branch', () => {
    const moved = {
      ...same,
      after: snapshot(
        { 'docs/plans/p.md': '## Task 1: x\n', '.work/q/log.md': 'q log', 'src/a.py': 'A' },
        { head: 'b'.repeat(40), refs: { 'refs/heads/main': 'b'.repeat(40) } },
      ),
    };
    expect(outcome({ verb: 'git-head-unchanged' }, same)).toBe('pass');
    expect(outcome({ verb: 'git-head-unchanged' }, moved)).toBe('fail');
    expect(outcome({ verb: 'git-head-unchanged' }, { after: before })).toBe('undecided');

    const tracked = structuredClone(before);
    const trackedFile = tracked.files['src/a.py'];
    if (trackedFile !== undefined) tracked.files['src/a.py'] = { ...trackedFile, tracked: true };
    const editedTracked = structuredClone(tracked);
    editedTracked.files['src/a.py'] = { sha256: 'f'.repeat(64), size: 2, tracked: true };
    expect(outcome({ verb: 'git-clean' }, { before: tracked, after: tracked })).toBe('pass');
    expect(outcome({ verb: 'git-clean' }, { before: tracked, after: editedTracked })).toBe('fail');
    const untrackedAdded = {
      before,
      after: snapshot({
        ...{ 'docs/plans/p.md': '## Task 1: x\n', '.work/q/log.md': 'q log', 'src/a.py': 'A' },
        scratch: 's',
      }),
    };
    expect(outcome({ verb: 'git-clean' }, untrackedAdded)).toBe('pass');
    expect(outcome({ verb: 'git-clean', untracked: true }, untrackedAdded)).toBe('fail');
    expect(outcome({ verb: 'git-clean' }, { after: before })).toBe('undecided');

    expect(outcome({ verb: 'git-branch', name: '{{branch}}' }, same)).toBe('pass');
    expect(outcome({ verb: 'git-branch', name: 'release' }, same)).toBe('fail');
    expect(
      outcome({ verb: 'git-branch', name: 'main' }, { after: { ...before, branch: null } }),
    ).toBe('fail');
    const { branch: _none, ...older } = before;
    expect(outcome({ verb: 'git-branch', name: 'main' }, { after: older })).toBe('undecided');
  });

  it('command-succeeds reads the outcome recorded at rep time; not run or not started is undecided', () => {
    const ran = (fields: Partial<CommandOutcome>): Evidence => ({
      commands: [
        {
          phase: 'post',
          command: 'make test',
          started: true,
          exitCode: 0,
          timedOut: false,
          durationMs: 5,
          output: '',
          ...fields,
        },
      ],
    });
    const raw = { verb: 'command-succeeds', command: 'make test' };
    expect(outcome(raw, ran({}))).toBe('pass');
    expect(outcome(raw, ran({ exitCode: 1, output: 'FAILED 2 tests' }))).toBe('fail');
    expect(check(raw, ran({ exitCode: 1, output: 'FAILED 2 tests' })).detail).toBe(
      'c: `make test` exited 1: FAILED 2 tests',
    );
    expect(outcome(raw, ran({ timedOut: true, exitCode: null }))).toBe('fail');
    expect(outcome(raw, ran({ started: false, exitCode: 127 }))).toBe('undecided');
    expect(outcome(raw, ran({ exitCode: 127 }))).toBe('undecided');
    expect(check({ not: raw }, ran({ exitCode: 127 })).outcome).toBe('undecided');
    expect(outcome({ ...raw, command: 'make lint' }, ran({}))).toBe('undecided');
    expect(check(raw, {}).notAssessed).toBe(true);
  });
});

describe('reply verbs', () => {
  const sections = {
    next: 'task',
    done: 'tasks',
    mood: 'choice',
    note: 'text',
    paths: 'path-judgements',
  } as const;
  const reply: Evidence = {
    reply: {
      text: 'NEXT: Task 3\nDONE: 1, 2\nMOOD: confident\nNOTE: **all** good',
      sections: {
        next: 'Task 3',
        done: '1, 2',
        mood: 'confident',
        note: '**all** good',
        paths: '.work/q/log.md stale',
      },
      values: {
        next: reading({ kind: 'task', task: 3 }),
        done: reading({ kind: 'tasks', tasks: [1, 2] }),
        mood: reading({ kind: 'choice', choice: 'confident' }),
        note: reading({ kind: 'text', text: '**all** good' }),
        paths: reading({
          kind: 'path-judgements',
          paths: [{ path: '.work/q/log.md', judgement: 'rejected' }],
        }),
      },
    },
  };
  const unreadable: Evidence = {
    reply: {
      text: '',
      sections: {},
      values: {
        next: { ok: false, why: 'names no recognisable task' },
        done: { ok: false, why: 'is missing' },
      },
    },
  };

  it('reply-is-task', () => {
    expect(outcome({ verb: 'reply-is-task', section: 'next', task: 3 }, reply, sections)).toBe(
      'pass',
    );
    expect(outcome({ verb: 'reply-is-task', section: 'next', task: 'none' }, reply, sections)).toBe(
      'fail',
    );
    expect(outcome({ verb: 'reply-is-task', section: 'next', task: 3 }, unreadable, sections)).toBe(
      'undecided',
    );
    expect(
      check({ not: { verb: 'reply-is-task', section: 'next', task: 3 } }, unreadable, sections)
        .outcome,
    ).toBe('undecided');
    expect(
      check({ verb: 'reply-is-task', section: 'next', task: 3 }, {}, sections).notAssessed,
    ).toBe(true);
  });

  it('reply-tasks', () => {
    expect(
      outcome({ verb: 'reply-tasks', section: 'done', includes: [1, 2] }, reply, sections),
    ).toBe('pass');
    expect(outcome({ verb: 'reply-tasks', section: 'done', exactly: [] }, reply, sections)).toBe(
      'fail',
    );
    expect(outcome({ verb: 'reply-tasks', section: 'done', excludes: [2] }, reply, sections)).toBe(
      'fail',
    );
    expect(
      outcome({ verb: 'reply-tasks', section: 'done', exactly: [2, 1] }, reply, sections),
    ).toBe('pass');
    expect(
      outcome({ verb: 'reply-tasks', section: 'done', includes: [1] }, unreadable, sections),
    ).toBe('undecided');
  });

  it('reply-equals and reply-one-of', () => {
    expect(
      outcome({ verb: 'reply-equals', section: 'mood', value: 'confident' }, reply, sections),
    ).toBe('pass');
    expect(
      outcome({ verb: 'reply-equals', section: 'mood', value: 'unsure' }, reply, sections),
    ).toBe('fail');
    expect(
      outcome({ verb: 'reply-equals', section: 'note', value: '**all**  good' }, reply, sections),
    ).toBe('pass');
    expect(
      outcome({ verb: 'reply-one-of', section: 'next', values: [2, 3] }, reply, sections),
    ).toBe('pass');
    expect(
      outcome(
        { verb: 'reply-one-of', section: 'mood', values: ['unsure', 'lost'] },
        reply,
        sections,
      ),
    ).toBe('fail');
    expect(
      outcome({ verb: 'reply-one-of', section: 'next', values: [1] }, unreadable, sections),
    ).toBe('undecided');
    expect(
      outcome(
        { verb: 'reply-equals', section: 'mood', value: 'x' },
        { reply: { text: '', sections: {}, values: {} } },
        sections,
      ),
    ).toBe('undecided');
  });

  it('reply-contains matches after markdown emphasis is removed, with an explicit case flag', () => {
    expect(
      outcome(
        { verb: 'reply-contains', section: 'note', pattern: 'all good', caseSensitive: true },
        reply,
        sections,
      ),
    ).toBe('pass');
    expect(
      outcome(
        { verb: 'reply-contains', pattern: 'ALL GOOD', caseSensitive: true },
        reply,
        sections,
      ),
    ).toBe('fail');
    expect(
      outcome(
        { verb: 'reply-contains', pattern: 'ALL GOOD', caseSensitive: false },
        reply,
        sections,
      ),
    ).toBe('pass');
    expect(
      outcome(
        { verb: 'reply-contains', section: 'note', pattern: 'x', caseSensitive: true },
        unreadable,
        sections,
      ),
    ).toBe('undecided');
  });

  it('reply-path-judged, and its negation as "no such path adopted"', () => {
    const raw = {
      verb: 'reply-path-judged',
      section: 'paths',
      paths: ['{{foreignLedgers}}'],
      judgement: 'rejected',
    };
    expect(outcome(raw, reply, sections)).toBe('pass');
    expect(outcome({ ...raw, judgement: 'adopted' }, reply, sections)).toBe('fail');
    expect(check({ not: { ...raw, judgement: 'adopted' } }, reply, sections).outcome).toBe('pass');
    expect(
      outcome(
        raw,
        { reply: { text: '', sections: {}, values: { paths: { ok: false, why: 'is missing' } } } },
        sections,
      ),
    ).toBe('undecided');
  });

  it('a reply check on a section the contract lacks, or of another kind, is refused at load', () => {
    expect(refusal({ verb: 'reply-is-task', section: 'later', task: 1 }, sections)).toMatch(
      /names section "later"/,
    );
    expect(refusal({ verb: 'reply-tasks', section: 'next', includes: [1] }, sections)).toMatch(
      /extracts a task value/,
    );
    expect(
      refusal({ verb: 'reply-tasks', section: 'done', includes: [1], excludes: [1] }, sections),
    ).toMatch(/could never pass/);
  });
});

describe('transcript verbs', () => {
  const calls: ToolCall[] = [
    { id: 't1', name: 'Read', input: { file_path: '/skills/sdd/SKILL.md' }, parentToolUseId: null },
    { id: 't2', name: 'Bash', input: { command: 'git show 1234abc' }, parentToolUseId: null },
    {
      id: 't3',
      name: 'Agent',
      input: { description: 'Implement Task 3', prompt: 'Task 3', subagent_type: 'implementer' },
      parentToolUseId: null,
    },
    { id: 't4', name: 'Bash', input: { command: 'pytest' }, parentToolUseId: 't3' },
    { id: 't5', name: 'Bash', input: { command: 'ls .work/p/' }, parentToolUseId: null },
  ];
  const transcript: Evidence = {
    transcript: { calls, dispatches: [], model: null, skillDir: '/skills/sdd' },
  };

  it('tool-called and tool-not-called, by tool, seat, input, runs, reads and readsCommit', () => {
    expect(outcome({ verb: 'tool-called', tool: 'Bash', seat: 'subagent' }, transcript)).toBe(
      'pass',
    );
    expect(outcome({ verb: 'tool-called', tool: 'Read', seat: 'subagent' }, transcript)).toBe(
      'fail',
    );
    expect(outcome({ verb: 'tool-called', input: { command: '^pytest' } }, transcript)).toBe(
      'pass',
    );
    expect(outcome({ verb: 'tool-called', runs: 'pytest', seat: 'controller' }, transcript)).toBe(
      'fail',
    );
    expect(
      outcome({ verb: 'tool-called', reads: '\\.work/{{regex ownPlanSlug}}/' }, transcript),
    ).toBe('pass');
    expect(outcome({ verb: 'tool-called', readsCommit: ['{{citedHashes}}'] }, transcript)).toBe(
      'pass',
    );
    expect(
      outcome({ verb: 'tool-not-called', tool: ['Agent', 'Task'], seat: 'controller' }, transcript),
    ).toBe('fail');
    expect(outcome({ verb: 'tool-not-called', tool: 'Write' }, transcript)).toBe('pass');
    expect(check({ verb: 'tool-called', tool: 'Bash' }, {}).notAssessed).toBe(true);
    expect(check({ not: { verb: 'tool-called', tool: 'Bash' } }, {}).outcome).toBe('undecided');
    expect(outcome({ verb: 'tool-not-called', tool: 'Write' }, {})).toBe('undecided');
  });

  it('dispatch: the first dispatch names the task; none made fails; no transcript is undecided', () => {
    const catalogue = { 'docs/plans/p.md': { tasks: { '1': 'Data model', '3': 'JSON writer' } } };
    const made: Evidence = {
      transcript: {
        calls,
        dispatches: dispatchesWithTasks(calls, catalogue, ['docs/plans/p.md'], ['docs/plans/q.md']),
        model: null,
      },
    };
    expect(outcome({ verb: 'dispatch', kind: 'fresh', task: 3 }, made)).toBe('pass');
    expect(outcome({ verb: 'dispatch', task: 1 }, made)).toBe('fail');
    expect(outcome({ verb: 'dispatch', task: 1 }, transcript)).toBe('fail');
    expect(outcome({ verb: 'dispatch', model: { atLeast: 'sonnet' } }, made)).toBe('undecided');
    expect(outcome({ verb: 'dispatch', task: 3 }, {})).toBe('undecided');
  });

  it('tool-count within min/max; a count that could never fail or never pass is refused', () => {
    expect(outcome({ verb: 'tool-count', tool: 'Bash', min: 2, max: 3 }, transcript)).toBe('pass');
    expect(outcome({ verb: 'tool-count', tool: 'Bash', max: 1 }, transcript)).toBe('fail');
    expect(outcome({ verb: 'tool-count', tool: 'Bash', min: 1 }, {})).toBe('undecided');
    expect(refusal({ verb: 'tool-count', tool: 'Bash' })).toMatch(/could never fail/);
    expect(refusal({ verb: 'tool-count', tool: 'Bash', min: 3, max: 1 })).toMatch(
      /could never pass/,
    );
    expect(refusal({ verb: 'tool-called', tool: 'Read', runs: 'make' })).toMatch(
      /could never match/,
    );
  });

  it('skill-read: a Read or reading program on SKILL.md, by seat', () => {
    expect(outcome({ verb: 'skill-read', seat: 'controller' }, transcript)).toBe('pass');
    expect(outcome({ verb: 'skill-read', seat: 'subagent' }, transcript)).toBe('fail');
    expect(
      outcome(
        { verb: 'skill-read' },
        {
          transcript: {
            calls: [calls[4] as ToolCall],
            dispatches: [],
            model: null,
            skillDir: '/skills/sdd',
          },
        },
      ),
    ).toBe('fail');
    expect(outcome({ verb: 'skill-read' }, {})).toBe('undecided');
  });

  it('a partial transcript (unreadable lines) cannot prove an absence; what it shows still counts', () => {
    const partial: Evidence = {
      transcript: { calls, dispatches: [], model: null, skillDir: '/skills/sdd', partial: true },
    };
    expect(outcome({ verb: 'tool-not-called', tool: 'Write' }, partial)).toBe('undecided');
    expect(outcome({ verb: 'tool-not-called', tool: 'Read' }, partial)).toBe('fail');
    expect(outcome({ verb: 'tool-called', tool: 'Write' }, partial)).toBe('undecided');
    expect(outcome({ verb: 'tool-called', tool: 'Read' }, partial)).toBe('pass');
    expect(outcome({ verb: 'tool-count', tool: 'Bash', max: 1 }, partial)).toBe('fail');
    expect(outcome({ verb: 'tool-count', tool: 'Bash', max: 5 }, partial)).toBe('undecided');
    expect(outcome({ verb: 'tool-count', tool: 'Bash', min: 1 }, partial)).toBe('pass');
    expect(outcome({ verb: 'tool-count', tool: 'Bash', min: 9 }, partial)).toBe('undecided');
    expect(outcome({ verb: 'skill-read', seat: 'subagent' }, partial)).toBe('undecided');
    expect(outcome({ verb: 'skill-read' }, partial)).toBe('pass');
    expect(outcome({ verb: 'dispatch', task: 1 }, partial)).toBe('undecided');
    expect(check({ not: { verb: 'tool-called', tool: 'Write' } }, partial).outcome).toBe(
      'undecided',
    );
  });

  it('skill-read counts only the skill under test: another skill’s SKILL.md is not it', () => {
    const otherSkill: ToolCall[] = [
      { id: 'o1', name: 'Read', input: { file_path: '/home/u/.claude/skills/tdd/SKILL.md' } },
      { id: 'o2', name: 'Bash', input: { command: 'cat /skills/sdd-old/SKILL.md' } },
    ];
    const read = (skillDir: string | null, extra: ToolCall[] = []): Evidence => ({
      transcript: { calls: [...otherSkill, ...extra], dispatches: [], model: null, skillDir },
    });
    expect(outcome({ verb: 'skill-read' }, read('/skills/sdd'))).toBe('fail');
    expect(
      outcome(
        { verb: 'skill-read' },
        read('/skills/sdd/', [
          { id: 'o3', name: 'Bash', input: { command: 'sed -n 1,80p /skills/sdd/SKILL.md' } },
        ]),
      ),
    ).toBe('pass');
    // Which skill is under test is not known: reading some SKILL.md proves nothing.
    const unknown = check({ verb: 'skill-read' }, read(null, [calls[0] as ToolCall]));
    expect(unknown.outcome).toBe('undecided');
    expect(unknown.detail).toMatch(/skill directory .*not known/);
  });
});

describe('question-asked: a question to the human, by tool or by the reply’s last words', () => {
  const ask: ToolCall = {
    id: 'q1',
    name: 'AskUserQuestion',
    input: { questions: [{ question: 'Which governs?' }] },
    parentToolUseId: null,
  };
  const dispatch: ToolCall = {
    id: 'd1',
    name: 'Agent',
    input: { description: 'Implement Task 1', prompt: 'Task 1' },
    parentToolUseId: null,
  };
  const withCalls = (calls: ToolCall[], reply?: string): Evidence => ({
    transcript: { calls, dispatches: [], model: null },
    ...(reply === undefined ? {} : { reply: { text: reply, sections: {}, values: {} } }),
  });

  it('passes on a question-tool call by the controller, and on a reply that ends on a question', () => {
    expect(outcome({ verb: 'question-asked' }, withCalls([ask]))).toBe('pass');
    expect(
      outcome(
        { verb: 'question-asked' },
        withCalls([], 'The plan says 40 and 30.\n\n**Which should govern: 40 or 30?**'),
      ),
    ).toBe('pass');
    // The options it offers after the question are part of it.
    expect(
      outcome(
        { verb: 'question-asked' },
        withCalls([], 'Which governs?\n\n1. 40 (Global Constraints)\n2. 30 (Task 2)'),
      ),
    ).toBe('pass');
  });

  it('planted negatives: a dispatch without text, a reply that asks mid-way then decides, a subagent’s question', () => {
    expect(outcome({ verb: 'question-asked' }, withCalls([dispatch]))).toBe('fail');
    expect(
      outcome(
        { verb: 'question-asked' },
        withCalls(
          [dispatch],
          'Which governs, 40 or 30? The constraints do: 40. Dispatching Task 1.',
        ),
      ),
    ).toBe('fail');
    expect(
      outcome({ verb: 'question-asked' }, withCalls([{ ...ask, parentToolUseId: 'd1' }])),
    ).toBe('fail');
    expect(outcome({ verb: 'question-asked', via: ['reply'] }, withCalls([ask], 'Done.'))).toBe(
      'fail',
    );
    expect(outcome({ verb: 'question-asked', via: ['tool'] }, withCalls([], 'Which?'))).toBe(
      'fail',
    );
    expect(check({ not: { verb: 'question-asked' } }, withCalls([dispatch])).outcome).toBe('pass');
  });

  it('is undecided without its evidence, and so is its negation', () => {
    expect(check({ verb: 'question-asked' }, {}).notAssessed).toBe(true);
    expect(check({ not: { verb: 'question-asked' } }, {}).outcome).toBe('undecided');
    expect(check({ verb: 'question-asked', via: ['reply'] }, {}).outcome).toBe('undecided');
    expect(check({ not: { verb: 'question-asked', via: ['reply'] } }, {}).outcome).toBe(
      'undecided',
    );
    // A transcript without reply text: the session replied nothing, so it asked nothing.
    expect(
      check(
        { verb: 'question-asked', via: ['reply'] },
        { transcript: { calls: [], dispatches: [], model: null } },
      ).outcome,
    ).toBe('fail');
    expect(refusal({ verb: 'question-asked', via: [] })).toMatch(/via/);
  });
});

describe('user-answered: what the scripted user said to the session’s questions', () => {
  const asked = (
    id: string,
    via: 'tool' | 'reply',
    text: string,
    source: 'rule' | 'default' | 'unanswered',
    rule: string | null = null,
  ): RecordedQuestion => ({
    id,
    via,
    text,
    seat: 'controller',
    toolUseId: via === 'tool' ? `toolu_${id}` : null,
    answer: source === 'unanswered' ? null : source === 'rule' ? 'Use X.' : 'Your call.',
    source,
    rule,
  });
  const withQuestions = (
    questions: RecordedQuestion[] | undefined,
    partial = false,
    reply?: string,
  ): Evidence => ({
    transcript: { calls: [], dispatches: [], model: null, questions, partial },
    ...(reply === undefined ? {} : { reply: { text: reply, sections: {}, values: {} } }),
  });
  const session = withQuestions([
    asked('q-1', 'tool', 'Which greeting style?', 'rule', 'style'),
    asked('q-2', 'reply', 'Shall I deploy?', 'default'),
    asked('q-3', 'reply', 'Shall I deploy now?', 'unanswered'),
  ]);

  it('passes on the answer rule, the default, an unanswered question, or any answer', () => {
    expect(outcome({ verb: 'user-answered', answer: 'style' }, session)).toBe('pass');
    expect(outcome({ verb: 'user-answered', default: true, via: ['reply'] }, session)).toBe('pass');
    expect(outcome({ verb: 'user-answered', unanswered: true }, session)).toBe('pass');
    expect(outcome({ verb: 'user-answered', question: 'greeting' }, session)).toBe('pass');
    expect(check({ verb: 'user-answered', answer: 'style' }, session).observed).toBe(
      'answer style',
    );
  });

  it('planted negatives: another rule, the wrong way of asking, no question at all', () => {
    expect(outcome({ verb: 'user-answered', answer: 'deploy' }, session)).toBe('fail');
    expect(outcome({ verb: 'user-answered', answer: 'style', via: ['reply'] }, session)).toBe(
      'fail',
    );
    expect(outcome({ verb: 'user-answered', default: true, question: 'greeting' }, session)).toBe(
      'fail',
    );
    expect(outcome({ verb: 'user-answered' }, withQuestions([]))).toBe('fail');
    expect(
      outcome(
        { verb: 'user-answered' },
        withQuestions([asked('q-1', 'tool', 'Which?', 'unanswered')]),
      ),
    ).toBe('fail');
    expect(check({ not: { verb: 'user-answered', answer: 'deploy' } }, session).outcome).toBe(
      'pass',
    );
  });

  it('is undecided without a transcript, without scripted-user records, or on a partial one', () => {
    expect(check({ verb: 'user-answered' }, {}).notAssessed).toBe(true);
    expect(outcome({ verb: 'user-answered' }, withQuestions(undefined))).toBe('undecided');
    expect(check({ not: { verb: 'user-answered' } }, withQuestions(undefined)).outcome).toBe(
      'undecided',
    );
    expect(outcome({ verb: 'user-answered', answer: 'deploy' }, withQuestions([], true))).toBe(
      'undecided',
    );
  });

  it('refuses params that cannot all hold, and a bad pattern, at load', () => {
    expect(refusal({ verb: 'user-answered', answer: 'style', default: true })).toMatch(
      /more than one of answer, default and unanswered/,
    );
    expect(refusal({ verb: 'user-answered', question: '(' })).toMatch(/regular expression/);
    expect(refusal({ verb: 'user-answered', default: false })).toMatch(/default/);
  });

  it('question-asked counts a reply the scripted user answered, which is not the final reply', () => {
    const answeredReply = withQuestions(
      [asked('q-1', 'reply', 'Shall I deploy?', 'default')],
      false,
      'Deployed.',
    );
    expect(outcome({ verb: 'question-asked', via: ['reply'] }, answeredReply)).toBe('pass');
    expect(
      outcome({ verb: 'question-asked', via: ['reply'] }, withQuestions([], false, 'Deployed.')),
    ).toBe('fail');
  });
});

describe('a verb that throws is a bug: undecided, marked broken, never a pass', () => {
  it('records the broken check and its negation as undecided', () => {
    const leaf: CheckNode = {
      kind: 'leaf',
      id: 'c',
      why: undefined,
      verb: 'reply-is-task',
      params: { section: 'done', task: 1 },
    };
    const evidence: Evidence = {
      reply: { text: '', sections: {}, values: { done: reading({ kind: 'tasks', tasks: [1] }) } },
    };
    const result = evaluateCheck(leaf, evidence, FACTS);
    expect(result).toMatchObject({ outcome: 'undecided', broken: true });
    expect(result.detail).toMatch(/^c: broken: the reply-is-task verb threw \(a bug in redgreen/);
    const negated = evaluateCheck(
      { kind: 'not', id: 'n', why: undefined, child: leaf },
      evidence,
      FACTS,
    );
    expect(negated).toMatchObject({ outcome: 'undecided', broken: true });
  });
});

describe('skill-invoked / skill-not-invoked: the Skill tool, a read, a shell read, by seat', () => {
  const repo = '/work/repo';
  const calls: ToolCall[] = [
    { id: 't1', name: 'Skill', input: { skill: 'superpowers:test-driven-development' } },
    { id: 't2', name: 'Read', input: { file_path: '/lib/skills/brainstorming/SKILL.md' } },
    { id: 't3', name: 'Bash', input: { command: 'cat /lib/skills/writing-plans/SKILL.md | head' } },
    { id: 't4', name: 'Skill', input: { skill: 'debugging' }, parentToolUseId: 'agent-1' },
  ];
  const evidence: Evidence = {
    transcript: { calls, dispatches: [], model: null, repoDir: repo },
  };
  it('passes on a Skill call by bare or qualified name, and records the forms seen', () => {
    const qualified = check(
      { verb: 'skill-invoked', skill: 'superpowers:test-driven-development' },
      evidence,
    );
    expect(qualified.outcome).toBe('pass');
    expect(qualified.observed).toBe('tool');
    expect(outcome({ verb: 'skill-invoked', skill: 'test-driven-development' }, evidence)).toBe(
      'pass',
    );
    expect(outcome({ verb: 'skill-invoked', pattern: '^test-' }, evidence)).toBe('pass');
    expect(outcome({ verb: 'skill-invoked', skill: 'brainstorming', form: 'read' }, evidence)).toBe(
      'pass',
    );
    expect(
      outcome({ verb: 'skill-invoked', skill: 'writing-plans', form: 'shell' }, evidence),
    ).toBe('pass');
    expect(outcome({ verb: 'skill-invoked', skill: 'debugging', seat: 'subagent' }, evidence)).toBe(
      'pass',
    );
  });
  it('planted negatives: a read is no tool invocation, another plugin, another seat', () => {
    const read = check({ verb: 'skill-invoked', skill: 'brainstorming' }, evidence);
    expect(read.outcome).toBe('fail');
    expect(read.observed).toBe('read');
    expect(read.detail).toContain('only in another form');
    expect(
      outcome({ verb: 'skill-invoked', skill: 'other:test-driven-development' }, evidence),
    ).toBe('fail');
    expect(
      outcome({ verb: 'skill-invoked', skill: 'debugging', seat: 'controller' }, evidence),
    ).toBe('fail');
    expect(outcome({ verb: 'skill-not-invoked', skill: 'test-driven-development' }, evidence)).toBe(
      'fail',
    );
    expect(outcome({ verb: 'skill-not-invoked' }, evidence)).toBe('fail');
  });
  it('a Skill call or Read that failed loaded nothing: no invocation, said in the detail', () => {
    const failed: Evidence = {
      transcript: {
        calls: [
          { id: 'u1', name: 'Skill', input: { skill: 'test-driven-development' }, isError: true },
          { id: 'u2', name: 'Read', input: { file_path: '/x/tdd/SKILL.md' }, isError: true },
          {
            id: 'u3',
            name: 'Bash',
            input: { command: 'cat /x/tdd/SKILL.md && false' },
            isError: true,
          },
        ],
        dispatches: [],
        model: null,
      },
    };
    const tool = check({ verb: 'skill-invoked', skill: 'test-driven-development' }, failed);
    expect(tool.outcome).toBe('fail');
    expect(tool.detail).toContain(
      'a call that failed loaded nothing: Skill test-driven-development (u1)',
    );
    expect(outcome({ verb: 'skill-not-invoked', skill: 'test-driven-development' }, failed)).toBe(
      'pass',
    );
    expect(outcome({ verb: 'skill-invoked', skill: 'tdd', form: 'read' }, failed)).toBe('fail');
    // A shell read printed the text whatever the command's exit.
    expect(outcome({ verb: 'skill-invoked', skill: 'tdd', form: 'shell' }, failed)).toBe('pass');
    // The call a stop captured is refused by redgreen, not the engine: it is the probe's decision.
    const captured: Evidence = {
      transcript: {
        calls: [
          {
            id: 'c1',
            name: 'Skill',
            input: { skill: 'test-driven-development' },
            isError: true,
            output: 'PreToolUse:Skill hook error: Skill is not available in this session.',
          },
        ],
        dispatches: [],
        model: null,
      },
    };
    expect(outcome({ verb: 'skill-invoked', skill: 'test-driven-development' }, captured)).toBe(
      'pass',
    );
  });
  it('skill-not-invoked passes when the skill is absent in the form and seat asked', () => {
    expect(outcome({ verb: 'skill-not-invoked', skill: 'brainstorming' }, evidence)).toBe('pass');
    expect(
      outcome({ verb: 'skill-not-invoked', skill: 'debugging', seat: 'controller' }, evidence),
    ).toBe('pass');
    const none: Evidence = { transcript: { calls: [], dispatches: [], model: null } };
    expect(outcome({ verb: 'skill-not-invoked' }, none)).toBe('pass');
  });
  it('is undecided without a transcript, and on a partial one that does not show the skill', () => {
    expect(outcome({ verb: 'skill-invoked', skill: 'x' }, {})).toBe('undecided');
    expect(outcome({ verb: 'skill-not-invoked', skill: 'x' }, {})).toBe('undecided');
    const partial: Evidence = {
      transcript: { calls, dispatches: [], model: null, partial: true },
    };
    expect(outcome({ verb: 'skill-invoked', skill: 'absent' }, partial)).toBe('undecided');
    expect(outcome({ verb: 'skill-not-invoked', skill: 'absent' }, partial)).toBe('undecided');
  });
  it('refuses a skill named twice, and an unknown form, at load', () => {
    expect(refusal({ verb: 'skill-invoked', skill: 'a', pattern: 'b' })).toContain('pattern');
    expect(refusal({ verb: 'skill-invoked', form: 'glance' })).toContain('form');
  });
});

describe('order: the first event of one kind before the first of another, never vacuous', () => {
  const repo = '/work/repo';
  const implementation = { event: 'write', paths: ['src/**'], except: ['**/*.test.*'] };
  const tdd = { event: 'skill', skill: 'test-driven-development' };
  const session = (...calls: ToolCall[]): Evidence => ({
    transcript: { calls, dispatches: [], model: null, repoDir: repo },
  });
  const skill: ToolCall = {
    id: 's',
    name: 'Skill',
    input: { skill: 'lib:test-driven-development' },
  };
  const writeImpl: ToolCall = {
    id: 'w',
    name: 'Write',
    input: { file_path: `${repo}/src/add.js`, content: 'x' },
  };
  const writeTest: ToolCall = {
    id: 'v',
    name: 'Write',
    input: { file_path: `${repo}/src/add.test.js`, content: 'x' },
  };
  const bashImpl: ToolCall = {
    id: 'b',
    name: 'Bash',
    input: { command: `cd ${repo} && cat > src/add.js <<'EOF'\nexport const add = 1;\nEOF` },
  };
  it('passes when the skill is invoked before the first implementation write', () => {
    const result = check(
      { verb: 'order', first: tdd, then: implementation, ifThenAbsent: 'fail' },
      session(skill, writeTest, writeImpl),
    );
    expect(result.outcome).toBe('pass');
    expect(result.observed).toBe('first before then');
  });
  it('planted negatives: the write first (also through Bash), or the skill never invoked', () => {
    expect(
      outcome(
        { verb: 'order', first: tdd, then: implementation, ifThenAbsent: 'pass' },
        session(writeImpl, skill),
      ),
    ).toBe('fail');
    const shell = check(
      { verb: 'order', first: tdd, then: implementation, ifThenAbsent: 'pass' },
      session(bashImpl, skill),
    );
    expect(shell.outcome).toBe('fail');
    expect(shell.detail).toContain('> src/add.js');
    const never = check(
      { verb: 'order', first: tdd, then: implementation, ifThenAbsent: 'pass' },
      session(writeImpl),
    );
    expect(never.outcome).toBe('fail');
    expect(never.observed).toBe('then only');
  });
  it('a Skill call that failed is no "first": the implementation written after it comes first', () => {
    const unknown: ToolCall = { ...skill, isError: true };
    const result = check(
      { verb: 'order', first: tdd, then: implementation, ifThenAbsent: 'pass' },
      session(unknown, writeImpl, skill),
    );
    expect(result.outcome).toBe('fail');
    expect(result.observed).toBe('then before first');
  });
  it('a test file is not implementation: only the except-filtered write counts', () => {
    expect(
      outcome(
        { verb: 'order', first: tdd, then: implementation, ifThenAbsent: 'fail' },
        session(writeTest, skill, writeImpl),
      ),
    ).toBe('pass');
  });
  it('when "then" never happens, says what ifThenAbsent says, and nothing else', () => {
    const onlySkill = session(skill);
    expect(
      outcome({ verb: 'order', first: tdd, then: implementation, ifThenAbsent: 'pass' }, onlySkill),
    ).toBe('pass');
    expect(
      outcome({ verb: 'order', first: tdd, then: implementation, ifThenAbsent: 'fail' }, onlySkill),
    ).toBe('fail');
    expect(
      outcome(
        { verb: 'order', first: tdd, then: implementation, ifThenAbsent: 'undecided' },
        onlySkill,
      ),
    ).toBe('undecided');
  });
  it('orders the parts of one compound command left to right; one part is no order', () => {
    const tests = { event: 'tool', tool: 'Bash', input: { command: 'pytest' } };
    const testsFirst = session({
      id: 'c',
      name: 'Bash',
      input: { command: 'pytest -q && git commit -am done' },
    });
    const commit = { event: 'write', paths: ['**'] };
    const runThenCommit = {
      verb: 'order',
      first: { event: 'skill', form: 'shell' },
      then: commit,
      ifThenAbsent: 'fail',
    };
    expect(
      outcome(
        {
          verb: 'order',
          first: tests,
          then: { event: 'tool', tool: 'Bash', input: { command: 'git commit' } },
          ifThenAbsent: 'fail',
        },
        testsFirst,
      ),
    ).toBe('pass');
    expect(
      outcome(
        {
          verb: 'order',
          first: { event: 'tool', tool: 'Bash', input: { command: 'git commit' } },
          then: tests,
          ifThenAbsent: 'fail',
        },
        testsFirst,
      ),
    ).toBe('fail');
    // A read and a write in one simple command: neither comes first.
    const cp = session({ id: 'd', name: 'Bash', input: { command: 'cat a/SKILL.md > src/x.js' } });
    const same = check({ ...runThenCommit, then: { event: 'write', paths: ['src/**'] } }, cp);
    expect(same.outcome).toBe('fail');
    expect(same.observed).toBe('same command');
    const split = session({
      id: 'e',
      name: 'Bash',
      input: { command: 'cat a/SKILL.md; echo 1 > src/x.js' },
    });
    expect(outcome({ ...runThenCommit, then: { event: 'write', paths: ['src/**'] } }, split)).toBe(
      'pass',
    );
  });
  it('reads questions and the scripted user’s answers in place', () => {
    const asked: RecordedQuestion = {
      id: 'q-1',
      via: 'reply',
      text: 'Shall I skip the tests?',
      seat: 'controller',
      toolUseId: null,
      afterCall: 's',
      answer: 'Yes',
      source: 'rule',
      rule: 'skip',
    };
    const evidence: Evidence = {
      transcript: {
        calls: [skill, writeImpl],
        dispatches: [],
        model: null,
        repoDir: repo,
        questions: [asked],
      },
    };
    expect(
      outcome(
        {
          verb: 'order',
          first: { event: 'answer', answer: 'skip' },
          then: implementation,
          ifThenAbsent: 'fail',
        },
        evidence,
      ),
    ).toBe('pass');
    expect(
      outcome(
        { verb: 'order', first: implementation, then: { event: 'question' }, ifThenAbsent: 'fail' },
        evidence,
      ),
    ).toBe('fail');
  });
  it('a write the event list cannot place makes undecided what it could overturn, nothing else', () => {
    // The snapshots show src/util.js written, by no call the event list reads (a script, a patch file).
    const hidden = (...calls: ToolCall[]): Evidence => ({
      ...session(...calls),
      before: snapshot({ 'README.md': 'r' }),
      after: snapshot({ 'README.md': 'r', 'src/util.js': 'u', 'src/add.js': 'x' }),
    });
    const script: ToolCall = { id: 'p', name: 'Bash', input: { command: 'python3 gen.py' } };
    const skillThenWrite = check(
      { verb: 'order', first: tdd, then: implementation, ifThenAbsent: 'fail' },
      hidden(script, skill, writeImpl),
    );
    expect(skillThenWrite.outcome).toBe('undecided');
    expect(skillThenWrite.detail).toContain('src/util.js changed, written by no call');
    // Written before the skill as far as anyone can see: a fail no hidden write can overturn.
    expect(
      outcome(
        { verb: 'order', first: tdd, then: implementation, ifThenAbsent: 'pass' },
        hidden(writeImpl, skill),
      ),
    ).toBe('fail');
    // "then" happened unseen and "first" never did: a fail, whatever ifThenAbsent says.
    const noSkill = check(
      { verb: 'order', first: tdd, then: implementation, ifThenAbsent: 'pass' },
      hidden(script),
    );
    expect(noSkill.outcome).toBe('fail');
    expect(noSkill.observed).toBe('then only');
    // An unseen write that "first" selects may come before the "then" seen.
    expect(
      outcome(
        {
          verb: 'order',
          first: { event: 'write', paths: ['src/util.js'] },
          then: { event: 'skill', skill: 'test-driven-development' },
          ifThenAbsent: 'fail',
        },
        hidden(script, skill),
      ),
    ).toBe('undecided');
    // Every changed file named by an event: the order stands as read.
    const seen: Evidence = {
      ...session(skill, writeImpl),
      before: snapshot({}),
      after: snapshot({ 'src/add.js': 'x' }),
    };
    expect(
      outcome({ verb: 'order', first: tdd, then: implementation, ifThenAbsent: 'fail' }, seen),
    ).toBe('pass');
  });
  it('is undecided without a transcript, or on a partial one', () => {
    expect(
      outcome({ verb: 'order', first: tdd, then: implementation, ifThenAbsent: 'pass' }, {}),
    ).toBe('undecided');
    const partial: Evidence = {
      transcript: {
        calls: [skill, writeImpl],
        dispatches: [],
        model: null,
        repoDir: repo,
        partial: true,
      },
    };
    expect(
      outcome({ verb: 'order', first: tdd, then: implementation, ifThenAbsent: 'pass' }, partial),
    ).toBe('undecided');
  });
  describe('which: the last occurrence of either side instead of the first', () => {
    const edit = { event: 'write', paths: ['wordfreq/**'], except: ['**/__pycache__/**'] };
    const pytest = { event: 'tool', tool: 'Bash', input: { command: 'pytest' } };
    const lastBeforeLast = {
      verb: 'order',
      first: edit,
      then: pytest,
      which: { first: 'last', then: 'last' },
      ifThenAbsent: 'fail',
    };
    let n = 0;
    const run = (): ToolCall => {
      n += 1;
      return { id: `t${n}`, name: 'Bash', input: { command: '.venv/bin/python -m pytest -q' } };
    };
    const editFix = (): ToolCall => {
      n += 1;
      return {
        id: `e${n}`,
        name: 'Edit',
        input: { file_path: `${repo}/wordfreq/count.py`, old_string: 'a', new_string: 'b' },
      };
    };
    it('passes when pytest ran before the edit (a reproduction) and again after it', () => {
      const result = check(lastBeforeLast, session(run(), editFix(), run()));
      expect(result.outcome).toBe('pass');
      expect(result.detail).toContain('last first: Edit');
      // The default compares first events: the reproduction run comes before the edit.
      expect(
        outcome({ ...lastBeforeLast, which: undefined }, session(run(), editFix(), run())),
      ).toBe('fail');
    });
    it('planted negatives: pytest only before the edit; an edit after the last run', () => {
      const before = check(lastBeforeLast, session(run(), editFix()));
      expect(before.outcome).toBe('fail');
      expect(before.observed).toBe('then before first');
      const editedAgain = check(lastBeforeLast, session(editFix(), run(), editFix()));
      expect(editedAgain.outcome).toBe('fail');
      expect(editedAgain.observed).toBe('then before first');
      // The default passes that one: the first edit came before the first run.
      expect(
        outcome({ ...lastBeforeLast, which: undefined }, session(editFix(), run(), editFix())),
      ).toBe('pass');
      expect(outcome(lastBeforeLast, session(editFix()))).toBe('fail');
    });
    it('mixes sides: the last skill load before the first write says no load came after it', () => {
      const lastSkillFirstWrite = {
        verb: 'order',
        first: tdd,
        then: implementation,
        which: { first: 'last' },
        ifThenAbsent: 'fail',
      };
      expect(outcome(lastSkillFirstWrite, session(skill, writeImpl))).toBe('pass');
      expect(outcome(lastSkillFirstWrite, session(skill, writeImpl, skill))).toBe('fail');
    });
    it('an unplaced write is undecided only where a later last occurrence could overturn it', () => {
      const hidden = (...calls: ToolCall[]): Evidence => ({
        ...session(...calls),
        before: snapshot({ 'README.md': 'r' }),
        after: snapshot({ 'README.md': 'r', 'wordfreq/gen.py': 'g', 'wordfreq/count.py': 'b' }),
      });
      const script: ToolCall = { id: 'p', name: 'Bash', input: { command: 'python3 gen.py' } };
      // The script may have written wordfreq/gen.py after the last run.
      const pass = check(lastBeforeLast, hidden(editFix(), run(), script));
      expect(pass.outcome).toBe('undecided');
      expect(pass.detail).toContain('a later "first" event');
      // A fail a later hidden "first" cannot overturn stands.
      expect(outcome(lastBeforeLast, hidden(run(), script, editFix()))).toBe('fail');
      // A hidden last "then" may come after the last "first": a fail it could overturn.
      const writesLast = {
        verb: 'order',
        first: pytest,
        then: edit,
        which: { then: 'last' },
        ifThenAbsent: 'fail',
      };
      expect(outcome(writesLast, hidden(editFix(), script, run()))).toBe('undecided');
      expect(outcome(writesLast, hidden(run(), editFix(), script))).toBe('pass');
    });
    it('refuses an unknown occurrence or field in one line naming it', () => {
      const final = refusal({ ...lastBeforeLast, which: { then: 'final' } });
      expect(final).toContain('which.then');
      expect(final).not.toContain('\n');
      expect(refusal({ ...lastBeforeLast, which: { last: 'then' } })).toContain('which');
    });
  });
  it('refuses a missing ifThenAbsent, an unknown event and a bad glob at load', () => {
    expect(refusal({ verb: 'order', first: tdd, then: implementation })).toContain('ifThenAbsent');
    expect(
      refusal({
        verb: 'order',
        first: { event: 'nap' },
        then: implementation,
        ifThenAbsent: 'fail',
      }),
    ).toContain('first');
    expect(
      refusal({
        verb: 'order',
        first: tdd,
        then: { event: 'write', paths: ['src/[x'] },
        ifThenAbsent: 'fail',
      }),
    ).toContain('paths');
  });
});

describe('output-contains and judged: what an imported eval expectation reads', () => {
  const tool = (command: string): ToolCall => ({
    id: `t-${command}`,
    name: 'Bash',
    input: { command },
  });
  const made = snapshot({
    'docs/plans/p.md': '## Task 1: x\n',
    'notes/todo.txt': 'buy milk\n',
    'img.png': 'PNG',
  });
  const output: Evidence = {
    reply: {
      text: 'Saved `notes/todo.txt`:\n```mermaid\ngraph\n```\n**Total** 3',
      sections: {},
      values: {},
    },
    before,
    after: made,
    contents: { 'notes/todo.txt': { text: 'buy milk\n' }, 'img.png': { omitted: 'binary' } },
    transcript: {
      calls: [tool('python3 scripts/probe.py --json x.mp4')],
      dispatches: [],
      model: null,
    },
  };
  const allRead: Evidence = {
    ...output,
    contents: { 'notes/todo.txt': { text: 'buy milk\n' }, 'img.png': { text: 'PNG' } },
  };

  it('output-contains finds the reply (as written and without emphasis), a written file, or a command', () => {
    expect(
      outcome(
        { verb: 'output-contains', pattern: '```mermaid', caseSensitive: true, in: ['reply'] },
        output,
      ),
    ).toBe('pass');
    expect(
      outcome(
        { verb: 'output-contains', pattern: 'Total 3', caseSensitive: true, in: ['reply'] },
        output,
      ),
    ).toBe('pass');
    expect(
      outcome({ verb: 'output-contains', pattern: 'buy milk', caseSensitive: true }, output),
    ).toBe('pass');
    expect(
      outcome(
        {
          verb: 'output-contains',
          pattern: 'probe\\.py\\s+--json',
          caseSensitive: true,
          in: ['commands'],
        },
        output,
      ),
    ).toBe('pass');
    // A file that did not change is no output of the session's.
    expect(
      outcome(
        { verb: 'output-contains', pattern: 'Task 1', caseSensitive: true, in: ['files'] },
        allRead,
      ),
    ).toBe('fail');
  });

  it('output-contains fails only when everything it looked in was read; not of it never passes on the unread', () => {
    expect(
      outcome({ verb: 'output-contains', pattern: 'BUY MILK', caseSensitive: true }, allRead),
    ).toBe('fail');
    expect(
      outcome({ verb: 'output-contains', pattern: 'BUY MILK', caseSensitive: false }, allRead),
    ).toBe('pass');
    // img.png's text was not captured: no match among the rest cannot say it is absent.
    expect(
      outcome({ verb: 'output-contains', pattern: 'zebra', caseSensitive: true }, output),
    ).toBe('undecided');
    expect(
      outcome({ not: { verb: 'output-contains', pattern: 'zebra', caseSensitive: true } }, output),
    ).toBe('undecided');
    expect(
      outcome({ not: { verb: 'output-contains', pattern: 'zebra', caseSensitive: true } }, allRead),
    ).toBe('pass');
    expect(
      outcome(
        { verb: 'output-contains', pattern: 'x', caseSensitive: true, in: ['commands'] },
        { reply: output.reply },
      ),
    ).toBe('undecided');
    expect(
      refusal({
        verb: 'output-contains',
        pattern: 'x',
        caseSensitive: true,
        in: ['reply', 'reply'],
      }),
    ).toMatch(/once/);
  });

  it("judged reads the judge's answer on its item: pass, fail; unsure, another item or no judgement is undecided", () => {
    const judgement = (verdict: 'pass' | 'fail' | 'unsure'): Evidence => ({
      judgement: {
        model: 'scripted:judge-keywords',
        items: { e2: { verdict, quote: 'filed away in the notes folder' } },
      },
    });
    const passed = check({ verb: 'judged', item: 'e2' }, judgement('pass'));
    expect(passed.outcome).toBe('pass');
    expect(passed.detail).toContain('filed away');
    expect(outcome({ verb: 'judged', item: 'e2' }, judgement('fail'))).toBe('fail');
    expect(outcome({ verb: 'judged', item: 'e2' }, judgement('unsure'))).toBe('undecided');
    expect(outcome({ verb: 'judged', item: 'e3' }, judgement('pass'))).toBe('undecided');
    const unjudged = check({ verb: 'judged', item: 'e2' }, {});
    expect(unjudged.outcome).toBe('undecided');
    expect(unjudged.notAssessed).toBe(true);
    expect(outcome({ not: { verb: 'judged', item: 'e2' } }, {})).toBe('undecided');
  });
});

describe('combinators in a scenario', () => {
  it('all-of / any-of / not combine by Kleene logic and explain themselves', () => {
    const pass = { verb: 'file-exists', path: 'src/a.py' };
    const fail = { verb: 'file-exists', path: 'src/zz.py' };
    const undecided = { verb: 'file-unchanged', paths: ['src/new.py'] };
    expect(check({ 'all-of': [pass, fail, undecided] }, same).outcome).toBe('fail');
    expect(check({ 'all-of': [pass, undecided] }, same).outcome).toBe('undecided');
    expect(check({ 'any-of': [fail, undecided] }, same).outcome).toBe('undecided');
    const any = check({ 'any-of': [fail, pass] }, same);
    expect(any.outcome).toBe('pass');
    expect(any.detail).toBe('c: src/a.py exists');
    expect(check({ not: fail }, same).detail).toBe('c: src/zz.py does not exist');
    expect(refusal({ 'all-of': [] })).toMatch(/non-empty list/);
    expect(refusal({ verb: 'file-exists', path: 'a', not: pass })).toMatch(/mixes verb and not/);
  });

  it('covers every verb of the table with a planted pass, a planted fail and an undecided case', () => {
    const short = verbNames().flatMap((verb) => {
      const outcomes = seen.get(verb) ?? new Set<Outcome>();
      const lacking = (['pass', 'fail', 'undecided'] as const).filter((o) => !outcomes.has(o));
      return lacking.length === 0 ? [] : [`${verb} never gave ${lacking.join(', ')}`];
    });
    expect(short).toEqual([]);
  });
});
