/**
 * Conversations end to end, offline: a scripted user's declared turns
 * (harness/score/user-turns.ts) on both backends, through the real
 * `@anthropic-ai/sdk` and the real Claude Code engine against the local
 * model server, with the `follows-turns` policy: the prompt names no style,
 * turn "plain" (unconditional) names one, turn "fancy" (after a reply
 * matching "plain-greeting", last) names the other. (Declared in that order:
 * a turn after a last one is refused.) Every turn is recorded
 * and read back, and checks selecting a turn score each turn's calls and
 * reply (their planted failures included). On Claude Code a `/compact` turn
 * is the engine's own compaction: the model server sees the engine's
 * compaction request, logs it, answers it with a summary, and the session
 * goes on from that summary alone.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { scriptedModelId, startModelServer } from '../../harness/model-server/index.js';
import { STYLE_FILE } from '../../harness/model-server/policies/asks-user.js';
import { scoreRep } from '../../harness/score/score-rep.js';
import { type ScriptedUser, scriptedUserSchema } from '../../harness/score/scripted-user.js';
import { readSessionTranscript } from '../../harness/score/transcripts/read-transcript.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { compileChecks } from './support/conversation-checks.js';
import { greetingsFixture } from './support/greetings-fixture.js';
import { type BackendName, engineUnavailable, runBackendSession } from './support/run-session.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

const conversation: ScriptedUser = scriptedUserSchema.parse({
  turns: [
    { id: 'plain', say: 'Write the plain-greeting, please.' },
    { id: 'fancy', after: 'plain-greeting', say: 'Now make it fancy-greeting.', last: true },
  ],
});

async function session(backend: BackendName, user: ScriptedUser) {
  const logFile = path.join(makeTempDir('conversation-log-'), 'requests.jsonl');
  const server = await startModelServer({ policy: 'structural', logFile });
  closers.push(() => server.close());
  const repo = greetingsFixture();
  const run = await runBackendSession({
    backend,
    stop: 'complete',
    baseUrl: server.baseUrl,
    model: scriptedModelId('follows-turns'),
    prompt: `Repository: ${repo}\nWait for the user's instructions about the greeting.`,
    fixtureRepo: repo,
    repId: `conversation/${backend}`,
    user,
  });
  const text = `${run.transcript.map((line) => JSON.stringify(line)).join('\n')}\n`;
  const read = readSessionTranscript(text, 'transcript.jsonl');
  if (!read.ok) throw new Error(read.error.problem);
  const written = readFileSync(path.join(repo, STYLE_FILE), 'utf8').trim();
  const requests = readFileSync(logFile, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { requestKind?: string; policy?: string });
  return { run, transcript: read.value, written, requests };
}

function outcomes(
  transcript: Awaited<ReturnType<typeof session>>['transcript'],
  reply: string,
  checks: readonly Record<string, unknown>[],
) {
  const score = scoreRep({
    scenario: compileChecks(checks),
    facts: {},
    inputs: {
      reply,
      toolCalls: transcript.toolCalls,
      turns: transcript.turns,
      questions: transcript.questions,
    },
    runner: { kind: 'completed' },
    assessPre: false,
  });
  return Object.fromEntries(score.checks.map((check) => [check.id, check.outcome]));
}

const turnChecks = [
  { id: 'prompt-wrote-nothing', verb: 'tool-not-called', tool: 'Bash', turn: 'prompt' },
  {
    id: 'plain-in-turn-2',
    verb: 'tool-called',
    tool: 'Bash',
    input: { command: 'plain-greeting' },
    turn: 2,
  },
  {
    id: 'fancy-in-last',
    verb: 'tool-count',
    tool: 'Bash',
    input: { command: 'fancy-greeting' },
    turn: 'fancy',
    min: 1,
    max: 1,
  },
  {
    id: 'plain-reply',
    verb: 'reply-contains',
    pattern: 'Wrote greeting-style\\.txt: plain-greeting',
    caseSensitive: true,
    turn: 'plain',
  },
  {
    id: 'last-reply',
    verb: 'reply-contains',
    pattern: 'fancy-greeting',
    caseSensitive: true,
    turn: 3,
  },
  // Planted failures: the same calls and replies looked for in the wrong turn.
  {
    id: 'planted-fancy-in-2',
    verb: 'tool-called',
    tool: 'Bash',
    input: { command: 'fancy-greeting' },
    turn: 'plain',
  },
  {
    id: 'planted-prompt-reply',
    verb: 'reply-contains',
    pattern: 'Wrote',
    caseSensitive: true,
    turn: 1,
  },
  {
    id: 'planted-order',
    verb: 'order',
    first: { event: 'tool', tool: 'Bash', turn: 'fancy' },
    then: { event: 'tool', tool: 'Bash', turn: 'plain' },
    ifThenAbsent: 'fail',
  },
];

for (const backend of ['messages', 'claude-code'] as const) {
  describe.skipIf(backend === 'claude-code' && engineUnavailable() !== undefined)(
    `a conversation on the ${backend} backend`,
    () => {
      it('sends each turn once, in the order its rules pick, ends after the last, and scores each turn', async () => {
        const { run, transcript, written } = await session(backend, conversation);
        expect(run.outcome.status).toEqual({ kind: 'completed' });
        expect(written).toBe('fancy-greeting');
        expect(transcript.malformed).toEqual([]);
        expect(transcript.turns?.map((turn) => [turn.turn, turn.id, turn.reply])).toEqual([
          [2, 'plain', 'Nothing to change.'],
          [3, 'fancy', 'Wrote greeting-style.txt: plain-greeting.'],
        ]);
        expect(outcomes(transcript, run.outcome.finalReply ?? '', turnChecks)).toEqual({
          'prompt-wrote-nothing': 'pass',
          'plain-in-turn-2': 'pass',
          'fancy-in-last': 'pass',
          'plain-reply': 'pass',
          'last-reply': 'pass',
          'planted-fancy-in-2': 'fail',
          'planted-prompt-reply': 'fail',
          'planted-order': 'fail',
        });
      });
    },
  );
}

describe.skipIf(engineUnavailable() !== undefined)('a /compact turn on Claude Code', () => {
  it('is the engine’s own compaction: logged, summarised, and the session goes on from the summary', async () => {
    const user = scriptedUserSchema.parse({
      turns: [
        { id: 'plain', say: 'Write the plain-greeting, please.' },
        { id: 'squeeze', compact: true },
        { id: 'after', say: 'Carry on.', last: true },
      ],
    });
    const { run, transcript, requests } = await session('claude-code', user);
    expect(run.outcome.status).toEqual({ kind: 'completed' });
    const boundary = run.transcript.filter(
      (line) => (line as { subtype?: string }).subtype === 'compact_boundary',
    );
    expect(boundary).toHaveLength(1);
    expect(
      requests.filter((entry) => entry.requestKind === 'compaction').length,
    ).toBeGreaterThanOrEqual(1);
    expect(transcript.turns?.map((turn) => turn.id)).toEqual(['plain', 'squeeze', 'after']);
    // The policy kept no memory but the summary, which quotes the user's messages: it writes again.
    expect(
      outcomes(transcript, run.outcome.finalReply ?? '', [
        {
          id: 'rewrote-after',
          verb: 'tool-called',
          tool: 'Bash',
          input: { command: 'plain-greeting' },
          turn: 'after',
        },
        { id: 'none-in-compaction', verb: 'tool-not-called', tool: 'Bash', turn: 'squeeze' },
        { id: 'planted-none-after', verb: 'tool-not-called', tool: 'Bash', turn: 'after' },
      ]),
    ).toEqual({
      'rewrote-after': 'pass',
      'none-in-compaction': 'pass',
      'planted-none-after': 'fail',
    });
  });
});
