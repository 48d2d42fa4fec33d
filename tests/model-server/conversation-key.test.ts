/**
 * One rule keys a conversation's tool_use ids, for the built-in policies'
 * seats (policies/next-turn.ts) and a policy file's (brain.ts): the session,
 * the seat's part, and the compaction count. After the engine compacts a
 * conversation its calls get new ids, seat or not.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type Brain, nextBrainTurn } from '../../harness/model-server/brain.js';
import { conversationKey } from '../../harness/model-server/conversation-key.js';
import { loadPolicyFile } from '../../harness/model-server/load-policy.js';
import { nextPolicyTurn } from '../../harness/model-server/policies/next-turn.js';
import { defaultExtraCallOptions } from '../../harness/model-server/policies/policy.js';
import { call } from '../../harness/model-server/policies/program.js';
import { registerScriptedBrains } from '../../harness/model-server/policies/registry.js';
import { bash } from '../../harness/model-server/policies/tools.js';
import { makeTempDir } from '../helpers/temp-dir.js';

const SUMMARY =
  'This session is being continued from a previous conversation that ran out of context.';

describe('the conversation key', () => {
  it("is the same for a seat's compacted conversation whichever way its user texts are joined", () => {
    // brain.ts joins the user messages with one newline, the server's prompt text with two.
    const messages = [[SUMMARY, 'Seat work: count the words.'], ['Resume.']];
    const fromBrain = conversationKey({
      sessionKey: 'green/s1-rep1',
      seat: 'seat-part',
      userText: messages.flat().join('\n'),
    });
    const fromServer = conversationKey({
      sessionKey: 'green/s1-rep1',
      seat: 'seat-part',
      userText: messages.flat().join('\n\n'),
    });
    expect(fromBrain).toBe(fromServer);
    expect(fromBrain).toBe('green/s1-rep1\u0000seat-part\u0000compacted-1');
    expect(
      conversationKey({ sessionKey: 'green/s1-rep1', seat: 'seat-part', userText: 'Seat work.' }),
    ).toBe('green/s1-rep1\u0000seat-part');
    expect(conversationKey({ sessionKey: 'green/s1-rep1', userText: SUMMARY })).toBe(
      'green/s1-rep1\u0000compacted-1',
    );
  });
});

describe("a seat's call ids after the engine compacts its conversation", () => {
  it('are new for a built-in seat (planted: the same conversation uncompacted keeps them)', () => {
    registerScriptedBrains({
      policies: [],
      seats: [
        {
          name: 'compaction-probe-seat',
          summary: 'test: a subagent whose prompt holds a line "Compaction probe."',
          take: (request) =>
            /^Compaction probe\./m.test(request.promptText)
              ? {
                  key: 'probe',
                  program: (function* () {
                    yield* call(bash('true', 'Probe'));
                    return 'probed';
                  })(),
                }
              : undefined,
        },
      ],
    });
    const idOf = (promptText: string): string => {
      const turn = nextPolicyTurn({
        policy: 'literal',
        sessionKey: 'green/s1-rep1',
        promptText,
        offeredTools: new Set(['Bash']),
        exchanges: [],
        seed: undefined,
        extras: defaultExtraCallOptions,
      });
      if (!turn.ok || turn.value.kind !== 'tool_use') throw new Error('no call');
      return turn.value.calls[0]?.id ?? '';
    };
    const first = idOf('Compaction probe.');
    expect(idOf('Compaction probe.\n\nMore, please.')).toBe(first);
    expect(idOf(`${SUMMARY}\n\nCompaction probe.`)).not.toBe(first);
  });

  it("are new for a policy file's seat (planted: the same conversation uncompacted keeps them)", async () => {
    const file = path.join(makeTempDir(), 'seat.yaml');
    writeFileSync(
      file,
      [
        'steps:',
        '  - reply: done',
        'seats:',
        '  - prompt: "^Seat work"',
        '    steps:',
        '      - tool: Bash',
        '        input: { command: "true", description: Count }',
        '      - reply: counted',
        '',
      ].join('\n'),
    );
    const loaded = await loadPolicyFile(file, 'probe');
    if (!loaded.ok) throw new Error(loaded.error.problem);
    const brain: Brain = { kind: 'policy-file', name: 'probe', file: loaded.value.spec };
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
    const first = idOf([['Seat work: count the words.']]);
    expect(idOf([['Seat work: count the words.'], ['More, please.']])).toBe(first);
    expect(idOf([[`${SUMMARY}\nSeat work: count the words.`], ['Resume.']])).not.toBe(first);
  });
});
