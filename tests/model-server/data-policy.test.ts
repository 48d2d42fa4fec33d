/**
 * Policy files: what is refused when they load (every error names the file
 * and the field), what they do when they run (the interpreter driven as the
 * server drives it, one turn at a time, from a session view), and how they
 * fit a session's tools. Pure: no server, no session.
 */
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Brain, nextBrainTurn } from '../../harness/model-server/brain.js';
import type { ToolExchange } from '../../harness/model-server/conversation.js';
import type { BrainAnswer } from '../../harness/model-server/data-policy/brain-program.js';
import { dataPolicyProgram } from '../../harness/model-server/data-policy/interpret.js';
import type { PolicyFile } from '../../harness/model-server/data-policy/policy-schema.js';
import { fitPolicyToSession } from '../../harness/model-server/data-policy/session-fit.js';
import type { SessionView } from '../../harness/model-server/data-policy/session-view.js';
import { renderTemplate } from '../../harness/model-server/data-policy/templates.js';
import { loadPolicyFile } from '../../harness/model-server/load-policy.js';
import type { BrainCall } from '../../harness/model-server/policies/program.js';
import { makeTempDir } from '../helpers/temp-dir.js';

function policyFile(text: string, name = 'probe.yaml'): string {
  const file = path.join(makeTempDir(), name);
  writeFileSync(file, text);
  return file;
}

async function load(text: string): Promise<PolicyFile> {
  const loaded = await loadPolicyFile(policyFile(text), 'probe');
  if (!loaded.ok) throw new Error(`${loaded.error.input}: ${loaded.error.problem}`);
  return loaded.value.spec;
}

async function loadError(text: string): Promise<string> {
  const file = policyFile(text);
  const loaded = await loadPolicyFile(file, 'probe');
  if (loaded.ok) throw new Error('the policy loaded');
  return `${loaded.error.input.replace(file, '<file>')}: ${loaded.error.problem}`;
}

function view(extra: Partial<SessionView> = {}): SessionView {
  return {
    system:
      'Working directory: /repo\n\nThe following skills are available for use with the Skill tool:\n\n- lib:notes: Use when writing notes',
    prompt: 'Write the notes for version 0.2.0.',
    cwd: '/repo',
    exchanges: [],
    userReplies: [],
    ...extra,
  };
}

interface Run {
  readonly calls: BrainCall[][];
  readonly answer: BrainAnswer;
}

/** Run a program to its end, answering each call with `outcome`, as the server's replay would. */
function run(
  spec: PolicyFile,
  outcome: (call: BrainCall) => { text: string; isError?: boolean },
  options: { view?: SessionView; offered?: readonly string[] } = {},
): Run {
  const program = dataPolicyProgram(
    'scripted:probe',
    spec,
    options.view ?? view(),
    new Set(options.offered ?? ['Bash', 'Read', 'Skill', 'Agent']),
  );
  const calls: BrainCall[][] = [];
  let next = program.next();
  while (!next.done) {
    calls.push([...next.value]);
    next = program.next(
      next.value.map((call) => {
        const answered = outcome(call);
        return { text: answered.text, isError: answered.isError ?? false };
      }),
    );
  }
  return { calls, answer: next.value };
}

describe('a policy file that cannot run is refused when it loads, naming the file and the field', () => {
  it.each([
    ['no steps or replay', 'summary: nothing\n', '<file>: steps: give "steps"'],
    [
      'an unknown step kind',
      'steps:\n  - run: ls\n  - reply: done\n',
      '<file>: steps[0]: a step is one of',
    ],
    [
      'a misspelt field',
      'steps:\n  - tool: Bash\n    inptu: { command: ls }\n  - reply: done\n',
      '<file>: steps[0]: unknown field "inptu"',
    ],
    [
      'a capture without a pattern',
      'steps:\n  - capture: x\n    from: prompt\n  - reply: done\n',
      '<file>: steps[0].pattern',
    ],
    [
      'a template naming an unknown value',
      'steps:\n  - tool: Bash\n    input: { command: "cat {{notes}}" }\n  - reply: done\n',
      '<file>: steps[0].input.command: {{notes}} names no fact, id or capture defined before this step',
    ],
    [
      'a value read before it is captured',
      'steps:\n  - reply: "{{version}}"\n  - capture: version\n    from: prompt\n    pattern: "(\\\\d+)"\n',
      '<file>: steps[0].reply: {{version}} names no fact',
    ],
    [
      'a capture defined on one arm only, read after the branch',
      [
        'steps:',
        '  - branch:',
        '      - when: { in: prompt, matches: version }',
        '        steps:',
        '          - capture: version',
        '            from: prompt',
        "            pattern: '(\\d+\\.\\d+\\.\\d+)'",
        '  - reply: "{{version}}"',
        '',
      ].join('\n'),
      '<file>: steps[1].reply: {{version}} is defined only on some paths to this step (in steps[0].branch[0])',
    ],
    [
      'a step after the reply',
      'steps:\n  - reply: done\n  - tool: Bash\n    input: { command: ls }\n',
      '<file>: steps[1]: can never be reached: steps[0] ends the turn with a reply',
    ],
    [
      'an arm that repeats an earlier condition',
      [
        'steps:',
        '  - branch:',
        '      - when: { in: prompt, matches: notes }',
        '        steps: [{ reply: a }]',
        '      - when: { in: prompt, matches: notes }',
        '        steps: [{ reply: b }]',
        '  - reply: c',
        '',
      ].join('\n'),
      '<file>: steps[0].branch[1].when: can never be reached: steps[0].branch[0] has the same condition',
    ],
    [
      'failed naming no earlier call',
      'steps:\n  - branch:\n      - when: { failed: listing }\n        steps: [{ reply: a }]\n  - reply: b\n',
      '<file>: steps[0].branch[0].when.failed: "listing" is no tool call',
    ],
    [
      'a path that runs out of steps',
      'steps:\n  - tool: Bash\n    input: { command: ls }\n',
      '<file>: steps: can end without a reply',
    ],
    [
      'a pattern that does not compile',
      'steps:\n  - capture: x\n    from: prompt\n    pattern: "(unclosed"\n  - reply: "{{x}}"\n',
      '<file>: steps[0].pattern: is not a valid regular expression',
    ],
    [
      'a helper that does not exist',
      'steps:\n  - reply: "{{upper prompt}}"\n',
      '<file>: steps[0].reply: calls {{upper …}}, which is no helper',
    ],
    [
      'an outside value read inside #each without @root',
      'steps:\n  - capture: xs\n    from: prompt\n    pattern: "(\\\\w+)"\n    all: true\n  - reply: "{{#each xs}}{{cwd}}{{/each}}"\n',
      '<file>: steps[1].reply: reads {{cwd}} inside #each, where the item is {{this}}',
    ],
    [
      'a reserved name',
      'steps:\n  - capture: prompt\n    from: system\n    pattern: "(x)"\n  - reply: done\n',
      '<file>: steps[0].capture: is reserved',
    ],
    ['YAML that does not parse', 'steps: [\n', '<file>: is not valid YAML or JSON'],
    [
      'an alias that makes a list contain itself (a loop)',
      'steps: &s\n  - branch:\n      - when: { in: prompt, matches: a }\n        steps: *s\n  - reply: done\n',
      '<file>: steps[0].branch[0].steps: contains itself (a YAML alias of an enclosing node)',
    ],
  ])('%s', async (_case, text, expected) => {
    expect(await loadError(text)).toContain(expected);
  });

  it('reads a recorded session or prompt only inside the scenario folder, and a policy only as text', async () => {
    const scenario = makeTempDir();
    const policies = path.join(scenario, 'policies');
    mkdirSync(policies);
    const outside = path.join(makeTempDir(), 'host.jsonl');
    writeFileSync(outside, '{"type":"system"}\n');
    symlinkSync(outside, path.join(policies, 'linked.jsonl'));
    const refusal = async (text: string, name = 'probe.yaml') => {
      const file = path.join(policies, name);
      writeFileSync(file, text);
      const loaded = await loadPolicyFile(file, 'probe');
      return loaded.ok
        ? 'loaded'
        : `${loaded.error.input.replace(file, '<file>')}: ${loaded.error.problem}`;
    };
    expect(await refusal(`replay: ${outside}\n`)).toBe(
      `<file>: replay: ${outside} is not inside the scenario's folder`,
    );
    expect(await refusal('replay: ../../elsewhere/t.jsonl\n')).toBe(
      "<file>: replay: ../../elsewhere/t.jsonl is not inside the scenario's folder",
    );
    expect(await refusal('replay: linked.jsonl\n')).toBe(
      "<file>: replay: linked.jsonl is not inside the scenario's folder",
    );
    expect(await refusal('replay: missing.jsonl\n')).toContain('<file>: replay: ');
    expect(await refusal('steps: [{ reply: "a\u0000b" }]\n')).toContain(
      'is not text (it holds NUL bytes), so it is not a policy file',
    );
  });

  it('loads a sound policy, JSON as well as YAML', async () => {
    const file = policyFile(
      JSON.stringify({
        summary: 's',
        steps: [{ tool: 'Bash', input: { command: 'ls' } }, { reply: 'ok' }],
      }),
      'probe.json',
    );
    const loaded = await loadPolicyFile(file, 'probe');
    expect(loaded.ok).toBe(true);
  });

  it('lets sibling arms each define a value it reads after the branch', async () => {
    const spec = await load(
      [
        'steps:',
        '  - branch:',
        '      - when: { offered: Write }',
        '        steps: [{ capture: how, from: cwd, pattern: "(/)" }]',
        '      - else: [{ capture: how, from: prompt, pattern: "(W)" }]',
        '  - reply: "{{how}}"',
        '',
      ].join('\n'),
    );
    expect(run(spec, () => ({ text: '' })).answer).toEqual({ kind: 'reply', text: 'W' });
  });
});

describe('a policy runs as a program of turns, reading only what the session was sent and got back', () => {
  it('fills tool inputs from captures, keeps results by id, captures every match, and replies', async () => {
    const spec = await load(
      [
        'steps:',
        '  - capture: version',
        '    from: prompt',
        "    pattern: 'version (\\d+\\.\\d+\\.\\d+)'",
        '  - tool: Bash',
        '    input: { command: "git -C {{shell cwd}} log --format=%s", description: Read }',
        '    id: history',
        '  - capture: features',
        '    from: history',
        "    pattern: '^feat: (.+)$'",
        '    all: true',
        '  - capture: newest',
        '    from: history',
        "    pattern: '^feat: (.+)$'",
        '    last: true',
        '  - reply: "{{version}}: {{join features \'; \'}} (newest {{newest}}, {{count features}} in all)"',
        '',
      ].join('\n'),
    );
    const ran = run(spec, () => ({ text: 'chore: scaffold\nfeat: wordCount\nfeat: slugify\n' }));
    expect(ran.calls).toEqual([
      [{ name: 'Bash', input: { command: 'git -C /repo log --format=%s', description: 'Read' } }],
    ]);
    expect(ran.answer).toEqual({
      kind: 'reply',
      text: '0.2.0: wordCount; slugify (newest slugify, 2 in all)',
    });
  });

  it('branches on the skill text it loaded: a SKILL.md it read, or the text the Skill tool loaded with its result', async () => {
    const spec = await load(
      [
        'steps:',
        '  - tool: Skill',
        '    input: { skill: lib:notes }',
        '  - branch:',
        "      - when: { in: skill, matches: 'Group the changes' }",
        '        steps: [{ reply: grouped }]',
        '      - else: [{ reply: flat }]',
        '',
      ].join('\n'),
    );
    const loaded: ToolExchange = {
      calls: [],
      results: new Map(),
      texts: ['Base directory for this skill: /x\n\n# Notes\n\n- Group the changes under Added.'],
    };
    expect(
      run(spec, () => ({ text: 'Launching skill: lib:notes' }), {
        view: view({ exchanges: [loaded] }),
      }).answer,
    ).toEqual({
      kind: 'reply',
      text: 'grouped',
    });
    // Before the result came back (the server asking for the next turn) nothing was loaded.
    expect(run(spec, () => ({ text: 'Launching skill: lib:notes' })).answer).toEqual({
      kind: 'reply',
      text: 'flat',
    });

    const reads = await load(
      [
        'steps:',
        '  - tool: Read',
        '    input: { file_path: /skills/notes/SKILL.md }',
        '  - branch:',
        "      - when: { in: skill, matches: '^- Group' }",
        '        steps: [{ reply: grouped }]',
        '      - else: [{ reply: flat }]',
        '',
      ].join('\n'),
    );
    // A Read's result is the file's text: its line numbers are not part of it.
    expect(
      run(reads, () => ({ text: '     1\t# Notes\n     2\t- Group the changes' })).answer,
    ).toEqual({
      kind: 'reply',
      text: 'grouped',
    });
  });

  it('takes the arm of a call that failed, and of a tool the session is offered, or not', async () => {
    const spec = await load(
      [
        'steps:',
        '  - tool: Read',
        '    input: { file_path: /repo/CHANGELOG.md }',
        '    id: changelog',
        '  - branch:',
        '      - when: { failed: changelog }',
        '        steps: [{ reply: none yet }]',
        '      - when: { not: { offered: Write } }',
        '        steps: [{ reply: no write tool }]',
        '      - else: [{ reply: write }]',
        '',
      ].join('\n'),
    );
    expect(run(spec, () => ({ text: 'File does not exist.', isError: true })).answer).toEqual({
      kind: 'reply',
      text: 'none yet',
    });
    expect(run(spec, () => ({ text: '# Changelog' })).answer).toEqual({
      kind: 'reply',
      text: 'no write tool',
    });
    expect(
      run(spec, () => ({ text: '# Changelog' }), { offered: ['Read', 'Write'] }).answer,
    ).toEqual({
      kind: 'reply',
      text: 'write',
    });
  });

  it('makes parallel calls in one turn, and names Agent as the session does (Task on Claude Code)', async () => {
    const spec = await load(
      [
        'steps:',
        '  - parallel:',
        '      - { tool: Read, input: { file_path: /repo/a }, id: a }',
        '      - { tool: Agent, input: { description: d, prompt: p, subagent_type: general-purpose } }',
        '  - reply: done',
        '',
      ].join('\n'),
    );
    const ran = run(spec, () => ({ text: 'x' }), { offered: ['Read', 'Task'] });
    expect(ran.calls).toHaveLength(1);
    expect(ran.calls[0]?.map((call) => call.name)).toEqual(['Read', 'Task']);
    // Calls of one turn are made together: one cannot read another's result.
    expect(
      await loadError(
        'steps:\n  - parallel:\n      - { tool: Read, input: { file_path: /a }, id: a }\n      - { tool: Bash, input: { command: "cat {{a}}" } }\n  - reply: done\n',
      ),
    ).toContain('<file>: steps[0].parallel[1].input.command: {{a}} names no fact');
  });

  it('fails, never guesses, when a capture finds nothing and gives no default', async () => {
    const spec = await load(
      [
        'steps:',
        '  - tool: Bash',
        '    input: { command: git log }',
        '    id: history',
        '  - capture: feature',
        '    from: history',
        "    pattern: '^feat: (.+)$'",
        '  - reply: "{{feature}}"',
        '',
      ].join('\n'),
    );
    const ran = run(spec, () => ({ text: 'chore: scaffold' }));
    expect(ran.answer).toEqual({
      kind: 'failure',
      message:
        'scripted:probe: steps[1] capture "feature" found nothing in history (pattern ^feat: (.+)$), and gives no default',
    });
  });

  it('asks, and goes on with the answer once the user gave it', async () => {
    const spec = await load(
      [
        'steps:',
        '  - tool: Bash',
        '    input: { command: ls }',
        '  - ask: Which version is it?',
        '    id: answer',
        '  - capture: version',
        '    from: answer',
        "    pattern: '(\\d+\\.\\d+)'",
        '  - reply: "notes for {{version}}"',
        '',
      ].join('\n'),
    );
    expect(run(spec, () => ({ text: 'src' })).answer).toEqual({
      kind: 'reply',
      text: 'Which version is it?',
    });
    const answered = view({ userReplies: [{ afterExchanges: 1, text: 'It is 0.3, thanks.' }] });
    expect(run(spec, () => ({ text: 'src' }), { view: answered }).answer).toEqual({
      kind: 'reply',
      text: 'notes for 0.3',
    });
  });

  it("answers a subagent seat's request with that seat's steps", async () => {
    const spec = await load(
      [
        'steps:',
        '  - tool: Agent',
        '    input: { description: Write notes, prompt: "You are the note writer.", subagent_type: general-purpose }',
        '  - reply: controller done',
        'seats:',
        "  - prompt: '^You are the note writer'",
        '    steps:',
        '      - tool: Bash',
        '        input: { command: "echo notes > NOTES.md" }',
        '      - reply: seat done',
        '',
      ].join('\n'),
    );
    const seat = run(spec, () => ({ text: '' }), {
      view: view({ prompt: 'You are the note writer.' }),
    });
    expect(seat.calls).toEqual([[{ name: 'Bash', input: { command: 'echo notes > NOTES.md' } }]]);
    expect(seat.answer).toEqual({ kind: 'reply', text: 'seat done' });
  });

  it('renders the helpers', () => {
    const values = new Map<string, string | readonly string[]>([
      ['xs', ['1', '2', '3']],
      ['done', ['1', '2']],
      ['text', "a b\n\n c's\n"],
    ]);
    expect(
      renderTemplate(
        "{{first (without xs done)}}|{{last xs}}|{{count (lines text)}}|{{shell text}}|{{regex 'a.b'}}|{{#if (eq (first xs) '1')}}one{{/if}}",
        values,
      ),
    ).toEqual({ ok: true, value: "3|3|2|'a b\n\n c'\\''s\n'|a\\.b|one" });
  });
});

describe('a policy fits the session it runs in', () => {
  const session = (
    offered: readonly string[],
    stop: 'report' | 'complete' | 'first-dispatch' = 'report',
  ) => ({
    label: 'the messages backend',
    stop,
    offered: new Set(offered),
    everyOffered: new Set(offered),
    everySession: false,
  });

  it('refuses a tool the session is not given, unless an arm runs only where it is', async () => {
    const writes = await load(
      'steps:\n  - tool: Write\n    input: { file_path: /repo/x, content: y }\n  - reply: done\n',
    );
    expect(fitPolicyToSession(writes, session(['Bash', 'Read']))).toEqual([
      expect.objectContaining({
        field: 'steps[0].tool',
        problem: '"Write" is not a tool the messages backend is given (it is given Bash, Read)',
      }),
    ]);
    const guarded = await load(
      [
        'steps:',
        '  - branch:',
        '      - when: { offered: Write }',
        '        steps: [{ tool: Write, input: { file_path: /repo/x, content: y } }]',
        '      - else: [{ tool: Bash, input: { command: "echo y > x" } }]',
        '  - reply: done',
        '',
      ].join('\n'),
    );
    expect(fitPolicyToSession(guarded, session(['Bash', 'Read']))).toEqual([]);
    // Over every session the scenario can have, an arm for a tool none is offered can never run.
    expect(
      fitPolicyToSession(guarded, { ...session(['Bash', 'Read']), everySession: true })[0]?.problem,
    ).toMatch(/^can never be reached: no session of this scenario is offered/);
    // And an arm for a tool every session is offered never runs when it asks for its absence.
    const never = await load(
      [
        'steps:',
        '  - branch:',
        '      - when: { not: { offered: Bash } }',
        '        steps: [{ reply: a }]',
        '  - reply: b',
        '',
      ].join('\n'),
    );
    expect(
      fitPolicyToSession(never, {
        ...session(['Bash', 'Read', 'Write']),
        everyOffered: new Set(['Bash', 'Read']),
        everySession: true,
      })[0],
    ).toMatchObject({
      field: 'steps[0].branch[0].when',
      problem: expect.stringMatching(
        /^can never be reached: every session of this scenario is offered Bash/,
      ),
    });
  });

  it('refuses steps the stop mode never reaches: after a question nobody answers, seats without subagents, after the first dispatch', async () => {
    const asks = await load('steps:\n  - ask: Which?\n  - reply: done\n');
    expect(fitPolicyToSession(asks, session(['Bash']))[0]).toMatchObject({
      field: 'steps[1]',
      problem: expect.stringMatching(/^can never be reached: steps\[0\] asks the user/),
    });
    expect(fitPolicyToSession(asks, session(['Bash'], 'complete'))).toEqual([]);
    const dispatches = await load(
      'steps:\n  - tool: Agent\n    input: { description: d, prompt: p, subagent_type: general-purpose }\n  - reply: done\nseats:\n  - prompt: x\n    steps: [{ reply: y }]\n',
    );
    expect(
      fitPolicyToSession(dispatches, session(['Agent'], 'first-dispatch')).map(
        (problem) => problem.field,
      ),
    ).toEqual(['steps[1]', 'seats']);
  });
});

describe('a policy file after the engine compacts the session', () => {
  it('gives its calls new ids, so the transcript keeps both rounds (planted: the same session uncompacted keeps them)', async () => {
    const spec = await load(
      [
        'steps:',
        '  - tool: Bash',
        '    input: { command: "true", description: Count }',
        '  - reply: done',
        '',
      ].join('\n'),
    );
    const brain: Brain = { kind: 'policy-file', name: 'probe', file: spec };
    const idOf = (userMessages: string[][]): string => {
      const turn = nextBrainTurn(brain, {
        sessionKey: 'green/s1-rep1',
        conversation: { system: 'Working directory: /repo', userMessages },
        history: { exchanges: [], assistantMessages: 0, userReplies: [] },
        offeredTools: new Set(['Bash']),
      });
      if (!turn.ok || turn.value.kind !== 'tool_use') throw new Error('no call');
      return turn.value.calls[0]?.id ?? '';
    };
    const first = idOf([['Count the words.']]);
    expect(idOf([['Count the words.'], ['More, please.']])).toBe(first);
    const compacted = idOf([
      ['This session is being continued from a previous conversation that ran out of context.'],
      ['Resume.'],
    ]);
    expect(compacted).not.toBe(first);
  });
});
