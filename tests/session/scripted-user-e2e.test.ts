/**
 * The scripted user end to end, offline: `stop: complete` sessions of the
 * asking policies (harness/model-server/policies/asks-user.ts) on both
 * backends, through the real `@anthropic-ai/sdk` and the real Claude Code
 * engine against the local model server. A question asked with
 * AskUserQuestion and a reply that ends on a question are answered by the
 * scenario's `user` block: a matching rule's answer, else the default; past
 * maxAnswers the session ends with the question unanswered. Each question
 * and answer is recorded in the transcript and read back, and the
 * `user-answered` check scores them (its planted failure included).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { takeSnapshot } from '../../harness/fixture/index.js';
import {
  policyNames,
  scriptedModelId,
  startModelServer,
} from '../../harness/model-server/index.js';
import { GREETING_QUESTION, STYLE_FILE } from '../../harness/model-server/policies/asks-user.js';
import { captureFiles } from '../../harness/run/rep-evidence.js';
import { loadPromptTemplate } from '../../harness/scenario/prompt-template.js';
import { filesNeeded } from '../../harness/score/evidence-needs.js';
import { loadScenarioDir } from '../../harness/score/load-scenario.js';
import { scoreRep } from '../../harness/score/score-rep.js';
import { type ScriptedUser, scriptedUserSchema } from '../../harness/score/scripted-user.js';
import { readSessionTranscript } from '../../harness/score/transcripts/read-transcript.js';
import { questionToolResult } from '../../harness/session/scripted-user-session.js';
import { greetingsFixture } from './support/greetings-fixture.js';
import {
  type BackendName,
  engineUnavailable,
  runBackendSession,
  sessionApiKey,
  toolResults,
} from './support/run-session.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

const fancy: ScriptedUser = scriptedUserSchema.parse({
  answers: [{ id: 'style', pattern: 'greeting style', answer: 'Use the fancy-greeting, please.' }],
});
const unmatched: ScriptedUser = scriptedUserSchema.parse({
  answers: [{ id: 'deploy', pattern: 'deploy', answer: 'Deploy to staging.' }],
});

const scenarioDir = path.join(import.meta.dirname, 'fixtures', 'scripted-user');

function loadScenario() {
  const loaded = loadScenarioDir(scenarioDir, { knownPolicies: policyNames() });
  if (!loaded.ok) throw new Error(`${loaded.error.input}: ${loaded.error.problem}`);
  return loaded.value;
}

async function session(
  policy: string,
  backend: BackendName,
  user: ScriptedUser | undefined,
  prompt?: (repo: string) => Promise<string>,
) {
  const server = await startModelServer({ policy: 'structural' });
  closers.push(() => server.close());
  const repo = greetingsFixture();
  const run = await runBackendSession({
    backend,
    stop: 'complete',
    baseUrl: server.baseUrl,
    model: scriptedModelId(policy),
    prompt:
      prompt === undefined
        ? `Repository: ${repo}\nWrite the greeting style file the user chooses.`
        : await prompt(repo),
    fixtureRepo: repo,
    repId: `user/${backend}/${policy}`,
    ...(user === undefined ? {} : { user }),
  });
  const text = `${run.transcript.map((line) => JSON.stringify(line)).join('\n')}\n`;
  const read = readSessionTranscript(text, 'transcript.jsonl');
  if (!read.ok) throw new Error(read.error.problem);
  let written: string | undefined;
  try {
    written = readFileSync(path.join(repo, STYLE_FILE), 'utf8').trim();
  } catch {
    written = undefined;
  }
  return { repo, run, text, transcript: read.value, written };
}

/** One rep of the scripted-user scenario, scored by its checks. */
async function scoredRep(policy: string, backend: BackendName, user?: ScriptedUser) {
  const scenario = loadScenario();
  const template = await loadPromptTemplate(path.join(scenarioDir, 'prompt.hbs'), 'scripted-user');
  if (!template.ok) throw new Error(template.error.problem);
  const { repo, run, transcript } = await session(
    policy,
    backend,
    user ?? scenario.config.user,
    async (fixtureRepo) =>
      template.value.render({
        fixtureRepo,
        planPath: String(scenario.config.plan ?? ''),
        skillDir: '/skill',
      }),
  );
  const facts = { ownPlan: String(scenario.config.plan ?? '') };
  const captured = await captureFiles(repo, filesNeeded(scenario, 'post', facts));
  const score = scoreRep({
    scenario,
    facts,
    inputs: {
      reply: run.outcome.finalReply ?? '',
      toolCalls: transcript.toolCalls,
      questions: transcript.questions,
      after: await takeSnapshot(repo),
      filesAfter: captured.files,
    },
    runner: { kind: 'completed' },
    assessPre: false,
  });
  return Object.fromEntries(score.checks.map((check) => [check.id, check.outcome]));
}

const backends: BackendName[] = ['messages', 'claude-code'];

for (const backend of backends) {
  describe.skipIf(backend === 'claude-code' && engineUnavailable() !== undefined)(
    `the scripted user on the ${backend} backend`,
    () => {
      it('AskUserQuestion: the matching rule answers, the session acts on that answer', async () => {
        const { run, text, transcript, written } = await session('asks-user-tool', backend, fancy);
        expect(run.outcome.status).toEqual({ kind: 'completed' });
        expect(written).toBe('fancy-greeting');
        expect(transcript.malformed).toEqual([]);
        expect(transcript.questions).toEqual([
          expect.objectContaining({
            via: 'tool',
            text: GREETING_QUESTION,
            seat: 'controller',
            answer: 'Use the fancy-greeting, please.',
            source: 'rule',
            rule: 'style',
          }),
        ]);
        const call = transcript.toolCalls.find((c) => c.name === 'AskUserQuestion');
        const result = toolResults(run.transcript).get(call?.id ?? '');
        // Both backends give the model the engine's text for answered questions.
        expect(result?.text).toBe(
          questionToolResult({ [GREETING_QUESTION]: 'Use the fancy-greeting, please.' }),
        );
        expect(text).not.toContain(sessionApiKey);
      });

      it('AskUserQuestion: no rule matches, the default answer is given and the session makes its own call', async () => {
        const { run, transcript, written } = await session('asks-user-tool', backend, unmatched);
        expect(run.outcome.status).toEqual({ kind: 'completed' });
        expect(written).toBe('own-call');
        expect(transcript.questions).toEqual([
          expect.objectContaining({
            via: 'tool',
            answer: 'Your call: follow your skill.',
            source: 'default',
            rule: null,
          }),
        ]);
      });

      it('a reply ending on a question: the answer comes as the next user message, the session goes on', async () => {
        const { run, transcript, written } = await session('asks-user-reply', backend, fancy);
        expect(run.outcome.status).toEqual({ kind: 'completed' });
        expect(written).toBe('fancy-greeting');
        expect(run.outcome.finalReply).toBe(`Wrote ${STYLE_FILE}: fancy-greeting.`);
        expect(transcript.reply).toBe(`Wrote ${STYLE_FILE}: fancy-greeting.`);
        expect(transcript.malformed).toEqual([]);
        expect(transcript.ending).toEqual({ kind: 'completed' });
        expect(transcript.questions).toEqual([
          expect.objectContaining({
            via: 'reply',
            text: `Before I start: ${GREETING_QUESTION}`,
            answer: 'Use the fancy-greeting, please.',
            source: 'rule',
            rule: 'style',
          }),
        ]);
        // The answer is in the transcript as the user's message, in the controller's seat.
        const answers = run.transcript.filter(
          (line) =>
            line.type === 'user' &&
            JSON.stringify(line.message).includes('Use the fancy-greeting, please.'),
        );
        expect(answers).toHaveLength(1);
        expect(answers[0]?.answers_question).toBe('q-1');
        // The answer is not taken for the session's prompt.
        expect(transcript.prompt ?? '').not.toContain('fancy-greeting');
      });

      it('maxAnswers reached: the session ends completed on its question, recorded unanswered', async () => {
        const { run, transcript, written } = await session(
          'asks-user-reply',
          backend,
          scriptedUserSchema.parse({ maxAnswers: 2 }),
        );
        expect(run.outcome.status).toEqual({ kind: 'completed' });
        expect(written).toBeUndefined();
        expect(run.outcome.finalReply).toBe(`Before I start: ${GREETING_QUESTION}`);
        expect(transcript.questions?.map((q) => [q.via, q.source, q.answer])).toEqual([
          ['reply', 'default', 'Your call: follow your skill.'],
          ['reply', 'default', 'Your call: follow your skill.'],
          ['reply', 'unanswered', null],
        ]);
      });

      it('a user who never answers (maxAnswers 0): the question call is refused, the session goes on without', async () => {
        const { run, transcript, written } = await session(
          'asks-user-tool',
          backend,
          scriptedUserSchema.parse({ maxAnswers: 0 }),
        );
        expect(run.outcome.status).toEqual({ kind: 'completed' });
        expect(written).toBe('no-answer');
        expect(transcript.questions?.map((q) => [q.via, q.source, q.answer])).toEqual([
          ['tool', 'unanswered', null],
        ]);
        const call = transcript.toolCalls.find((c) => c.name === 'AskUserQuestion');
        const result = toolResults(run.transcript).get(call?.id ?? '');
        // The engine prefixes a hook's refusal with its own `PreToolUse:AskUserQuestion hook error: `.
        expect(result?.isError).toBe(true);
        expect(result?.text).toMatch(
          backend === 'messages'
            ? /^The user did not answer\.$/
            : /^PreToolUse:AskUserQuestion hook error: The user did not answer\.$/,
        );
      });

      it('the turn limit counts the turns after each user message, as the engine does', async () => {
        const server = await startModelServer({ policy: 'structural' });
        closers.push(() => server.close());
        const repo = greetingsFixture();
        const run = await runBackendSession({
          backend,
          stop: 'complete',
          baseUrl: server.baseUrl,
          model: scriptedModelId('asks-user-reply'),
          prompt: `Repository: ${repo}\nWrite the greeting style file the user chooses.`,
          fixtureRepo: repo,
          limits: { maxTurns: 2 },
          user: fancy,
        });
        // One turn asks; after the answer, two more (the write, the report) fit in a fresh budget.
        expect(run.outcome.status).toEqual({ kind: 'completed' });
        expect(run.outcome.turns).toBe(3);
        expect(run.outcome.finalReply).toBe(`Wrote ${STYLE_FILE}: fancy-greeting.`);
      });

      it('the scenario’s checks pass for both ways of asking, and fail when no rule answers', async () => {
        const passing = {
          'asked-the-user': 'pass',
          'style-rule-answered': 'pass',
          'acted-on-the-answer': 'pass',
        };
        expect(await scoredRep('asks-user-tool', backend)).toEqual(passing);
        expect(await scoredRep('asks-user-reply', backend)).toEqual(passing);
        // Planted negative: the same session with a user whose rule never matches.
        expect(await scoredRep('asks-user-tool', backend, unmatched)).toEqual({
          'asked-the-user': 'pass',
          'style-rule-answered': 'fail',
          'acted-on-the-answer': 'fail',
        });
      });
    },
  );
}
