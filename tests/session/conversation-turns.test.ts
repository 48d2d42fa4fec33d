/**
 * The scripted user's declared turns as pure rules and records: which turn
 * follows a reply, answers that change with how often a rule answered, the
 * one-line refusals of bad turns, of turns on codex and of a compaction turn
 * on the messages backend, and `turn` selectors left undecided where the
 * transcript records no turns.
 */
import { describe, expect, it } from 'vitest';
import { scoreRep } from '../../harness/score/score-rep.js';
import { scriptedUserSchema } from '../../harness/score/scripted-user.js';
import { readQuestions } from '../../harness/score/user-question-record.js';
import { conversationProblem } from '../../harness/session/conversation-support.js';
import { ScriptedUserSession } from '../../harness/session/scripted-user-session.js';
import { compileChecks } from './support/conversation-checks.js';

const controller = { kind: 'controller' } as const;

async function recorded(user: unknown, replies: readonly string[]) {
  const lines: string[] = [];
  const session = new ScriptedUserSession(
    scriptedUserSchema.parse(user),
    { write: (line: unknown) => lines.push(JSON.stringify(line)) } as never,
    () => 's',
  );
  session.start();
  const sent: (string | null)[] = [];
  for (const reply of replies) {
    sent.push((await session.answerReply(reply, controller))?.text ?? null);
  }
  return { sent, text: lines.join('\n') };
}

describe('declared turns', () => {
  it('a matching conditional turn first, else the answer to a question, else the next unconditional; none after the last', async () => {
    const { sent, text } = await recorded(
      {
        answers: [{ id: 'go', pattern: 'proceed', answer: ['Not yet.', 'Yes, go.'] }],
        turns: [
          { id: 'one', say: 'First follow-up.' },
          { id: 'fix', after: 'tests fail', say: 'Fix the tests.' },
          { id: 'end', say: 'Thanks, that is all.', last: true },
        ],
      },
      [
        'Done.',
        'Shall I proceed?',
        'Shall I proceed?',
        'The tests fail. Shall I proceed?',
        'Done.',
        'Done.',
      ],
    );
    expect(sent).toEqual([
      'First follow-up.',
      'Not yet.',
      'Yes, go.',
      'Fix the tests.',
      'Thanks, that is all.',
      null,
    ]);
    const read = readQuestions(text);
    expect(read.malformed).toEqual([]);
    expect(read.turns?.map((turn) => [turn.turn, turn.id, turn.questionId])).toEqual([
      [2, 'one', null],
      [3, null, 'q-1'],
      [4, null, 'q-2'],
      [5, 'fix', null],
      [6, 'end', null],
    ]);
  });

  it('bad turns get one-line errors', () => {
    const problem = (turns: unknown) => {
      const parsed = scriptedUserSchema.safeParse({ turns });
      return parsed.success ? undefined : parsed.error.issues[0]?.message;
    };
    expect(
      problem([
        { id: 'a', say: 'x', last: true },
        { id: 'b', say: 'y' },
      ]),
    ).toBe('turn "b" comes after "a", the last turn: move it before, or drop "last" there');
    expect(problem([{ id: 'a', say: 'x', after: '(unclosed' }])).toMatch(/regular expression/);
    expect(problem([{ id: 'a', say: 'x', compact: true }])).toMatch(/say .* or compact/);
    expect(problem([{ id: 'prompt', say: 'x' }])).toMatch(/reserved/);
  });

  it('codex refuses turns; messages refuses a compaction turn; claude-code takes both', () => {
    const user = scriptedUserSchema.parse({
      turns: [
        { id: 'a', say: 'x' },
        { id: 'b', compact: true },
      ],
    });
    expect(conversationProblem('codex', user)?.problem).toMatch(/one prompt per session/);
    expect(conversationProblem('messages', user)).toMatchObject({ field: 'user.turns[1]' });
    expect(conversationProblem('claude-code', user)).toBeUndefined();
    expect(conversationProblem('codex', scriptedUserSchema.parse({}))).toBeUndefined();
  });
});

describe('turn selectors without recorded turns', () => {
  it('stay undecided (never pass) and a turn the scenario does not declare is refused at load', () => {
    const scenario = compileChecks([
      { id: 'called', verb: 'tool-called', tool: 'Bash', turn: 2 },
      { id: 'not-called', verb: 'tool-not-called', tool: 'Bash', turn: 'plain' },
      { id: 'reply', verb: 'reply-contains', pattern: 'x', caseSensitive: true, turn: 1 },
      {
        id: 'order',
        verb: 'order',
        first: { event: 'tool', turn: 1 },
        then: { event: 'tool', turn: 2 },
        ifThenAbsent: 'fail',
      },
    ]);
    const score = scoreRep({
      scenario,
      facts: {},
      inputs: { reply: 'x', toolCalls: [] },
      runner: { kind: 'completed' },
      assessPre: false,
    });
    expect(Object.fromEntries(score.checks.map((check) => [check.id, check.outcome]))).toEqual({
      called: 'undecided',
      'not-called': 'undecided',
      reply: 'undecided',
      order: 'undecided',
    });
    expect(() =>
      compileChecks([{ id: 'x', verb: 'tool-called', tool: 'Bash', turn: 'nope' }]),
    ).toThrow(/names turn "nope", which the scenario's user does not declare/);
  });
});
