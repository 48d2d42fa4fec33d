/**
 * The skill invocations derived from a session's calls (one derivation for
 * skill-read, skill-invoked and `redgreen transcript`): a Skill tool call
 * (named as invoked, failed when its result is an error), a Read of a
 * SKILL.md, a shell command that reads one (each SKILL.md it reads, with the
 * simple command's index), each with its seat and its position among the
 * calls; anything else is
 * none (planted: a SKILL.md written, listed or named in prose is no read).
 */
import { describe, expect, it } from 'vitest';
import { skillInvocations } from '../../harness/score/skill-invocations.js';
import type { ToolCall } from '../../harness/score/tool-call.js';

const call = (
  id: string,
  name: string,
  input: unknown,
  extra: Partial<ToolCall> = {},
): ToolCall => ({
  id,
  name,
  input,
  parentToolUseId: null,
  ...extra,
});

describe('skillInvocations', () => {
  it('reads the three forms, with seat, position and success', () => {
    const calls = [
      call(
        'a',
        'Skill',
        { skill: 'superpowers:brainstorming' },
        { loadedFrom: '/s/brainstorming' },
      ),
      call('b', 'Skill', { skill: 'writing-plans' }, { isError: true, output: 'Unknown skill' }),
      call('c', 'Read', { file_path: '/s/tdd/SKILL.md' }, { parentToolUseId: 'd1' }),
      call('d', 'Bash', {
        command: "cat /s/a/SKILL.md && sed -n '1,9p' /s/b/SKILL.md; cat /s/a/SKILL.md",
      }),
    ];
    expect(
      skillInvocations(calls).map((one) => [
        one.bare,
        one.name,
        one.form,
        one.seat,
        one.dispatch,
        [one.position, one.part],
        one.path,
        one.succeeded,
      ]),
    ).toEqual([
      [
        'brainstorming',
        'superpowers:brainstorming',
        'tool',
        'controller',
        null,
        [0, 0],
        '/s/brainstorming',
        true,
      ],
      ['writing-plans', 'writing-plans', 'tool', 'controller', null, [1, 0], null, false],
      ['tdd', 'tdd', 'read', 'subagent', 'd1', [2, 0], '/s/tdd/SKILL.md', true],
      ['a', 'a', 'shell', 'controller', null, [3, 0], '/s/a/SKILL.md', true],
      ['b', 'b', 'shell', 'controller', null, [3, 1], '/s/b/SKILL.md', true],
      ['a', 'a', 'shell', 'controller', null, [3, 2], '/s/a/SKILL.md', true],
    ]);
    expect(skillInvocations(calls)[0]?.plugin).toBe('superpowers');
  });

  it('a SKILL.md written, listed by a non-reading program or only named is no invocation', () => {
    expect(
      skillInvocations([
        call('w', 'Write', { file_path: '/s/a/SKILL.md', content: '# a' }),
        call('e', 'Bash', { command: 'echo see /s/a/SKILL.md; cp /s/a/SKILL.md /tmp/' }),
        call('k', 'Skill', { skill: '  ' }),
      ]),
    ).toEqual([]);
  });
});
