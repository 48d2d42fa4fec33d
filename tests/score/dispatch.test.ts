/**
 * Dispatches: derived from the controller's tool calls (Agent/Task fresh,
 * SendMessage resume; a subagent's own calls are no dispatch), each one's
 * plan task read from its description, a brief file it names, or its
 * prompt; and the `dispatch` verb's selectors (first, last, nth, any; by
 * subagent_type) and matchers (prompt after markdown is removed, model tier,
 * fresh or resume, task). Planted passes, fails, and undecided.
 */
import { describe, expect, it } from 'vitest';
import type { Evidence } from '../../harness/score/evidence.js';
import { tierOf } from '../../harness/score/model-tiers.js';
import type { ToolCall } from '../../harness/score/tool-call.js';
import { dispatchesWithTasks, tasksOf } from '../../packs/sdd/score/dispatch-tasks.js';
import type { PlanCatalogue } from '../../packs/sdd/score/plan-context.js';
import { check, refusal } from './verb-support.js';

const PLAN = 'docs/plans/p.md';
const OTHER = 'docs/plans/q.md';
const catalogue: PlanCatalogue = {
  [PLAN]: {
    aliases: ['plan P'],
    tasks: { '1': 'Data model', '2': 'CSV writer', '3': 'JSON writer', '4': 'CLI flag' },
    none: ['\\bwhole[-\\s]branch\\s+review\\b'],
    // The scenario's conventions: plan P's briefs live in .briefs/ (or .work/p/, or
    // .superpowers/sdd/p/), and a reviewer of the whole branch addresses none of its tasks.
    taskFiles: [
      '(?:^|[\\s/`])\\.(?:briefs|work/p|superpowers/sdd/p)/task-(\\d+)-brief\\.md\\b',
      '(?:^|[\\s`])task_(\\d+)\\.md\\b',
    ],
    noTaskDispatches: [
      { subagentType: 'review', description: '\\b(?:final|whole[-\\s]branch)\\b' },
      { prompt: '\\breview\\s+the\\s+(?:entire|whole)\\b' },
    ],
  },
  [OTHER]: {
    aliases: ['plan Q'],
    tasks: { '1': 'Storage schema', '2': 'Lint gate' },
    taskFiles: ['(?:^|/)\\.work/q/task-(\\d+)-brief\\.md\\b'],
  },
};

let next = 0;
function call(
  name: string,
  input: Record<string, unknown>,
  parent: string | null = null,
): ToolCall {
  next++;
  return { id: `toolu_${next}`, name, input, parentToolUseId: parent };
}

function evidenceOf(calls: ToolCall[], model: string | null = null): Evidence {
  return {
    transcript: {
      calls,
      dispatches: dispatchesWithTasks(calls, catalogue, [PLAN, OTHER], [OTHER]),
      model,
    },
  };
}

const facts = { ownPlan: PLAN, foreignPlans: [OTHER] };
const run = (raw: Record<string, unknown>, evidence: Evidence) =>
  check({ verb: 'dispatch', ...raw }, evidence, {}, facts);

function taskOf(input: Record<string, unknown>, name = 'Agent'): number | 'none' | undefined {
  const [found] = dispatchesWithTasks([call(name, input)], catalogue, [PLAN], [OTHER]);
  const reading = found === undefined ? undefined : tasksOf(found)[PLAN];
  return reading?.ok === true ? reading.value : undefined;
}

describe('dispatches come from the controller’s subagent calls', () => {
  it('Agent and Task are fresh, SendMessage a resume; a subagent’s calls and other tools are none', () => {
    const agent = call('Agent', {
      description: 'Implement Task 3',
      prompt: 'x',
      subagent_type: 'implementer',
      model: 'sonnet',
    });
    const calls = [
      call('Bash', { command: 'ls' }),
      agent,
      call(
        'Task',
        { description: 'Review Task 3', prompt: 'y', subagent_type: 'reviewer' },
        agent.id,
      ),
      call('SendMessage', { to: 'implementer', message: 'Fix the review findings of Task 3' }),
      call('Task', { description: 'Review Task 3', prompt: 'z', subagent_type: 'reviewer' }),
    ];
    const dispatches = dispatchesWithTasks(calls, catalogue, [PLAN], [OTHER]);
    expect(dispatches.map((d) => [d.index, d.tool, d.kind, d.subagentType, d.model])).toEqual([
      [1, 'Agent', 'fresh', 'implementer', 'sonnet'],
      [2, 'SendMessage', 'resume', null, null],
      [3, 'Task', 'fresh', 'reviewer', null],
    ]);
    expect(dispatches[1]?.prompt).toBe('Fix the review findings of Task 3');
  });
});

describe('the task a dispatch addresses', () => {
  const cases: [Record<string, unknown>, number | 'none' | undefined][] = [
    [{ description: 'Implement Task 3: JSON writer', prompt: 'You are the implementer.' }, 3],
    [
      {
        description: 'Implementer',
        prompt: 'Read /tmp/x/.briefs/task-3-brief.md and implement it.',
      },
      3,
    ],
    [{ description: 'Implementer', prompt: 'Brief: `task_2.md`' }, 2],
    [{ description: 'JSON writer', prompt: '...' }, 3],
    [{ description: 'Implement **Task 1**', prompt: '...' }, 1],
    [
      {
        description: 'Review',
        prompt:
          'Review Task 3 (JSON writer). When every task passes, the controller runs the whole-branch review.',
      },
      3,
    ],
    [{ description: 'Review', prompt: 'Tasks 1 and 2 are merged. Now implement Task 3.' }, 3],
    [
      {
        description: 'Final review',
        prompt: 'Do the whole-branch review of the plan before merge.',
      },
      'none',
    ],
    // A whole-branch reviewer, recognised by the scenario's rules, addresses no task.
    [
      {
        description: 'Final code review',
        prompt:
          'All four tasks are complete per the ledger. Review the entire branch against the plan.',
        subagent_type: 'code-reviewer',
      },
      'none',
    ],
    [{ description: 'Whole-branch pass', prompt: '...', subagent_type: 'reviewer' }, 'none'],
    // A brief of another plan's workspace is not this plan's task: the prompt's own task decides.
    [
      {
        description: 'Implement next task',
        prompt:
          'Look at .work/q/task-2-brief.md to copy how plan Q wrote its briefs, then implement Task 1 (Data model).',
      },
      1,
    ],
    [{ description: 'Implementer', prompt: 'Read .work/p/task-4-brief.md first.' }, 4],
    // Real dispatch prompts: markdown, the brief file only, the title only.
    [
      {
        description: 'Implementer',
        prompt:
          '## Your task\n\nRead **`/repo/.superpowers/sdd/p/task-3-brief.md`** first: it is your requirements.\n\n- Report to `/repo/.superpowers/sdd/p/task-3-report.md`\n- Earlier work: see `task-2-report.md`',
      },
      3,
    ],
    [{ description: 'Implementer', prompt: '### **JSON writer**\n\nBuild it from the brief.' }, 3],
    // Files naming different tasks, none of them a brief, decide nothing on their own.
    [
      {
        description: 'Helper',
        prompt: 'Compare task-1-report.md with task-2-report.md and summarise.',
      },
      undefined,
    ],
    // A whole-branch review that quotes the ledger's task lines is still the review.
    [
      {
        description: 'Review the branch',
        prompt:
          'You are doing the **whole-branch review** of plan P.\n\nLedger lines to triage:\n- Task 2: parked — the CSV quoting — ruling: cosmetic\n- Task 3: minor (deferred): long function',
      },
      'none',
    ],
    // A task reviewer that says which review it is not.
    [
      {
        description: 'Reviewer',
        prompt: 'This is not the whole-branch review: review the fix for Task 2 only.',
      },
      2,
    ],
    [
      {
        description: 'Task review, not the whole-branch review',
        prompt: 'Review /repo/.superpowers/sdd/p/task-2-brief.md against the package.',
      },
      2,
    ],
    // Planted negatives: another plan's task, a prompt naming no task, a task the plan does
    // not have, a reviewer of one task, a brief file outside any plan's workspace.
    [{ description: 'Implement plan Q Task 1 (Storage schema)', prompt: '...' }, undefined],
    [{ description: 'Helper', prompt: 'Summarise the repository layout.' }, undefined],
    [{ description: 'Implement Task 6', prompt: '...' }, undefined],
    [{ description: 'Implement Task 6', prompt: 'Then Task 2 (CSV writer).' }, 2],
    [{ description: 'Review Task 3', prompt: 'Review it.', subagent_type: 'reviewer' }, 3],
    [{ description: 'Implementer', prompt: 'Read /tmp/notes/task-3-brief.md.' }, undefined],
    [{ description: 'Implementer', prompt: 'Read .briefs/task-9-brief.md.' }, undefined],
  ];
  for (const [input, expected] of cases) {
    it(`${JSON.stringify(input)} → ${String(expected)}`, () => {
      expect(taskOf(input)).toBe(expected);
    });
  }
});

describe('the dispatch verb', () => {
  const implement3 = call('Agent', {
    description: 'Implement Task 3',
    prompt: 'Implement **Task 3** (`JSON writer`) from the brief.',
    subagent_type: 'implementer',
    model: 'claude-opus-5-5',
  });
  const review3 = call('Agent', {
    description: 'Review Task 3',
    prompt: 'Review the change.',
    subagent_type: 'reviewer',
    model: 'haiku',
  });
  const resume = call('SendMessage', { to: 'implementer', message: 'Fix Task 3' });
  const evidence = evidenceOf([implement3, review3, resume]);

  it('selects first, last, nth and any, and by subagent_type', () => {
    expect(run({ task: 3 }, evidence).outcome).toBe('pass');
    expect(run({ select: { which: 'last' }, kind: 'resume' }, evidence).outcome).toBe('pass');
    expect(run({ select: { which: 'last' }, kind: 'fresh' }, evidence).outcome).toBe('fail');
    expect(run({ select: { which: 'nth', n: 2 }, prompt: 'review' }, evidence).outcome).toBe(
      'pass',
    );
    expect(
      run(
        { select: { which: 'any', subagentType: 'reviewer' }, model: { atMost: 'sonnet' } },
        evidence,
      ).outcome,
    ).toBe('pass');
    expect(run({ select: { which: 'any' }, kind: 'resume', task: 4 }, evidence).outcome).toBe(
      'fail',
    );
    expect(run({ select: { which: 'nth', n: 9 } }, evidence)).toMatchObject({
      outcome: 'fail',
      detail: 'c: no dispatch 9 (3 dispatch(es) in all)',
    });
  });

  it('matches the prompt after markdown emphasis and code spans are removed', () => {
    expect(run({ prompt: 'Implement Task 3 \\(JSON writer\\)' }, evidence).outcome).toBe('pass');
    expect(run({ prompt: 'implement task 3', caseSensitive: true }, evidence).outcome).toBe('fail');
  });

  it('places models on the tier ladder: at least / at most, full ids, inherited models', () => {
    expect(tierOf('claude-sonnet-5-5')).toBe('sonnet');
    expect(tierOf('claude-3-5-sonnet-latest')).toBe('sonnet');
    expect(tierOf('gpt-x')).toBeUndefined();
    expect(run({ model: { atLeast: 'sonnet' } }, evidence).outcome).toBe('pass');
    expect(
      run({ select: { which: 'nth', n: 2 }, model: { atLeast: 'sonnet' } }, evidence).outcome,
    ).toBe('fail');
    const inherited = [call('Agent', { description: 'Implement Task 3', prompt: 'x' })];
    expect(
      run({ model: { atLeast: 'opus' } }, evidenceOf(inherited, 'claude-opus-5-5')).outcome,
    ).toBe('pass');
    expect(run({ model: { atLeast: 'opus' } }, evidenceOf(inherited))).toMatchObject({
      outcome: 'undecided',
    });
    expect(
      run(
        { model: { atLeast: 'opus' } },
        evidenceOf([call('Agent', { prompt: 'x', model: 'mystery-1' })]),
      ).outcome,
    ).toBe('undecided');
  });

  it('places fable (an Agent model value of the engine) above opus, with its full ids', () => {
    expect(tierOf('fable')).toBe('fable');
    expect(tierOf('claude-fable-5')).toBe('fable');
    expect(tierOf('claude-fable-5-1')).toBe('fable');
    expect(tierOf('claude-mythos-5')).toBe('fable');
    const fable = evidenceOf([
      call('Agent', { description: 'Implement Task 3', prompt: 'x', model: 'fable' }),
    ]);
    expect(run({ model: { atLeast: 'opus' } }, fable).outcome).toBe('pass');
    expect(run({ model: { atMost: 'opus' } }, fable).outcome).toBe('fail');
    expect(
      run(
        { model: { atLeast: 'fable' } },
        evidenceOf([call('Agent', { prompt: 'x', model: 'opus' })]),
      ).outcome,
    ).toBe('fail');
  });

  it('inherit: false needs the dispatch to name its model; an inherited one fails', () => {
    const inherited = [call('Agent', { description: 'Implement Task 3', prompt: 'x' })];
    expect(
      run(
        { model: { atLeast: 'sonnet', inherit: false } },
        evidenceOf(inherited, 'claude-opus-5-5'),
      ),
    ).toMatchObject({ outcome: 'fail', observed: 'names no model' });
    expect(run({ model: { atLeast: 'sonnet', inherit: false } }, evidence).outcome).toBe('pass');
    const haiku = [call('Agent', { description: 'Fix Task 3', prompt: 'x', model: 'haiku' })];
    expect(run({ model: { atLeast: 'sonnet', inherit: false } }, evidenceOf(haiku)).outcome).toBe(
      'fail',
    );
  });

  it('compares the task, undecided when the dispatch names none it can read', () => {
    expect(run({ task: 1 }, evidence).outcome).toBe('fail');
    const vague = evidenceOf([call('Agent', { description: 'Helper', prompt: 'Look around.' })]);
    expect(run({ task: 3 }, vague).outcome).toBe('undecided');
    const forQ = evidenceOf([
      call('Agent', { description: 'Implement plan Q Task 1 (Storage schema)', prompt: '...' }),
    ]);
    expect(run({ task: 1, plan: OTHER }, forQ).outcome).toBe('pass');
    expect(run({ task: 1 }, forQ).outcome).toBe('undecided');
  });

  it('fails when no dispatch was made, and is not assessed without a transcript', () => {
    expect(run({ task: 1 }, evidenceOf([call('Bash', { command: 'ls' })])).outcome).toBe('fail');
    expect(run({ task: 1 }, {})).toMatchObject({ outcome: 'undecided', notAssessed: true });
    expect(check({ not: { verb: 'dispatch', task: 1 } }, {}, {}, facts).outcome).toBe('undecided');
  });

  it('refuses selectors that can never match at load', () => {
    expect(refusal({ verb: 'dispatch', select: { which: 'first', n: 2 } })).toMatch(
      /n goes with which: "nth"/,
    );
    expect(refusal({ verb: 'dispatch', select: { kind: 'fresh' }, kind: 'resume' })).toMatch(
      /could never pass/,
    );
    expect(refusal({ verb: 'dispatch', model: { atLeast: 'gpt' } })).toMatch(
      /use a tier of haiku < sonnet < opus < fable/,
    );
  });
});
