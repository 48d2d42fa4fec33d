/**
 * The scripted-policy registry: what a pack brings is what the server knows.
 * The shipped packs are installed by the test setup, as the CLI installs
 * them; this file registers one more pack's brains of its own and asks the
 * server's turn logic for answers.
 */
import { describe, expect, it } from 'vitest';
import { nextPolicyTurn } from '../../harness/model-server/policies/next-turn.js';
import { defaultExtraCallOptions } from '../../harness/model-server/policies/policy.js';
import { call, type PolicyProgram } from '../../harness/model-server/policies/program.js';
import {
  isPolicyName,
  policyNames,
  registerScriptedBrains,
} from '../../harness/model-server/policies/registry.js';
import { bash } from '../../harness/model-server/policies/tools.js';

function turn(policy: string, promptText: string) {
  return nextPolicyTurn({
    policy,
    sessionKey: 'registry/s/rep1',
    promptText,
    offeredTools: new Set(['Bash']),
    exchanges: [],
    seed: undefined,
    extras: defaultExtraCallOptions,
  });
}

function* saysDone(): PolicyProgram {
  yield* call(bash('true', 'Do nothing'));
  return 'done';
}

describe('the scripted-policy registry', () => {
  it("lists each installed pack's policies in installation order, then the core's", () => {
    const names = policyNames();
    expect(names[0]).toBe('literal');
    expect(names.slice(-5)).toEqual([
      'asks-user-tool',
      'asks-user-reply',
      'follows-turns',
      'plays-user',
      'full-env-dump',
    ]);
    expect(names.indexOf('echoes-template')).toBeLessThan(names.indexOf('skill-trigger'));
    expect(names.indexOf('task-follower')).toBe(names.length - 6);
    expect(new Set(names).size).toBe(names.length);
  });

  it('knows no name that neither the core nor a pack brought', () => {
    expect(isPolicyName('psychic')).toBe(false);
    expect(policyNames()).not.toContain('registry-probe');
  });

  it("answers with a pack's policy once registered, and a seat's program under any policy", () => {
    registerScriptedBrains({
      policies: [
        {
          name: 'registry-probe',
          summary: 'test: says hello with Bash',
          *program(request) {
            yield* call(bash('echo hello', `Say hello as ${request.label}`));
            return 'said hello';
          },
        },
      ],
      seats: [
        {
          name: 'probe-seat',
          summary: 'test: a subagent whose prompt opens "Probe seat."',
          take: (request) =>
            request.promptText.startsWith('Probe seat.')
              ? {
                  key: 'probe',
                  // biome-ignore lint/correctness/useYield: a seat that answers at once
                  program: (function* () {
                    return `the probe seat, under ${request.policy}`;
                  })(),
                }
              : undefined,
        },
      ],
    });
    expect(isPolicyName('registry-probe')).toBe(true);
    const first = turn('registry-probe', 'Say hello.');
    expect(first.ok && first.value.kind === 'tool_use' && first.value.calls[0]?.input).toEqual({
      command: 'echo hello',
      description: 'Say hello as scripted:registry-probe',
    });
    expect(turn('asks-user-reply', 'Probe seat. Report.')).toEqual({
      ok: true,
      value: { kind: 'text', step: 0, text: 'the probe seat, under asks-user-reply' },
    });
    // Without the seat's opening the session's own policy answers.
    const asked = turn('asks-user-reply', 'Repository: /r\nGreet.');
    expect(asked.ok && asked.value.kind === 'text' && asked.value.text).toMatch(/^Before I start/);
  });

  it('refuses a second policy of a name the server knows, and registers nothing of it', () => {
    const before = policyNames();
    expect(() =>
      registerScriptedBrains({
        policies: [
          { name: 'fresh-name', summary: 'x', program: () => saysDone() },
          { name: 'literal', summary: 'x', program: () => saysDone() },
        ],
      }),
    ).toThrow('two scripted policies are named literal');
    expect(policyNames()).toEqual(before);
  });
});
