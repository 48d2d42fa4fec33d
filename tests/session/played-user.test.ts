/**
 * A model playing the scenario's user (`user.played`,
 * harness/session/played-user.ts), offline: the session's brain is a
 * scripted policy on the local model server, and so is the user's
 * (`scripted:plays-user`, behind a recording proxy that keeps every request
 * body the user's model got on the wire). Only the brains are scripted: the
 * SDK client and the backends are real. Proves what the playing model is
 * given (the story and the session's replies, never the checks, the rubric,
 * the skill text or the prompt, with a planted leak the detector catches),
 * that its answers are recorded as played, and that without a user model
 * (an offline run) the scripted user plays exactly as before.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  policyNames,
  scriptedModelId,
  startModelServer,
} from '../../harness/model-server/index.js';
import { GREETING_QUESTION, STYLE_FILE } from '../../harness/model-server/policies/asks-user.js';
import { storyLineFor } from '../../harness/model-server/policies/plays-user.js';
import { loadPromptTemplate } from '../../harness/scenario/prompt-template.js';
import { loadScenarioDir } from '../../harness/score/load-scenario.js';
import { scriptedUserSchema } from '../../harness/score/scripted-user.js';
import { readSessionTranscript } from '../../harness/score/transcripts/read-transcript.js';
import { userAnswered } from '../../harness/score/verbs/user-answered.js';
import {
  type UserModelEndpoint,
  userModelFor,
  userRequest,
} from '../../harness/session/played-user.js';
import type { ModelEndpoint } from '../../harness/session/session-types.js';
import { greetingsFixture } from './support/greetings-fixture.js';
import {
  type BackendName,
  engineUnavailable,
  planScopedSkill,
  runBackendSession,
  sessionApiKey,
} from './support/run-session.js';
import { startWireRecorder, type WireRecorder } from './support/wire-recorder.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

const scenarioDir = path.join(import.meta.dirname, 'fixtures', 'played-user');
const loaded = loadScenarioDir(scenarioDir, { knownPolicies: policyNames() });
if (!loaded.ok) throw new Error(`${loaded.error.input}: ${loaded.error.problem}`);
const scenario = loaded.value;
const user = scenario.config.user;
if (user?.played === undefined) throw new Error('the played-user scenario declares no story');
const story = user.played.story;
/** The scenario file as written: its checks and rubric are what the playing model must never see. */
const scenarioFile = JSON.parse(readFileSync(path.join(scenarioDir, 'scenario.json'), 'utf8')) as {
  checks: { post: { id: string; why: string; pattern?: string }[] };
  judge: { rubric: Record<string, string> };
};
const skillText = readFileSync(path.join(planScopedSkill, 'SKILL.md'), 'utf8');

/** What no request to the playing model may carry, by name: each a text of the scenario or skill. */
function forbidden(prompt: string): Record<string, string> {
  const entries: [string, string][] = [];
  for (const check of scenarioFile.checks.post) {
    entries.push([`check id ${check.id}`, check.id]);
    entries.push([`check why of ${check.id}`, check.why]);
    if (check.pattern !== undefined) entries.push([`check pattern of ${check.id}`, check.pattern]);
  }
  for (const [id, item] of Object.entries(scenarioFile.judge.rubric)) {
    entries.push([`rubric item ${id}`, item]);
  }
  // Every SKILL.md line long enough to be its own words.
  for (const [index, line] of skillText.split('\n').entries()) {
    if (line.trim().length >= 30) entries.push([`SKILL.md line ${index + 1}`, line.trim()]);
  }
  for (const line of prompt.split('\n')) {
    if (line.trim() !== '') entries.push([`prompt line "${line.slice(0, 30)}"`, line.trim()]);
  }
  entries.push(['the skill directory', planScopedSkill]);
  return Object.fromEntries(entries);
}

/** The names of the forbidden texts a request body holds. */
function leaks(body: unknown, prompt: string): string[] {
  const wire = JSON.stringify(body);
  return Object.entries(forbidden(prompt))
    .filter(([, text]) => wire.includes(JSON.stringify(text).slice(1, -1)))
    .map(([name]) => name);
}

function holds(body: unknown, text: string): boolean {
  return JSON.stringify(body).includes(JSON.stringify(text).slice(1, -1));
}

async function userBrain(): Promise<{ wire: WireRecorder; endpoint: UserModelEndpoint }> {
  const server = await startModelServer({ policy: 'plays-user' });
  closers.push(() => server.close());
  const wire = await startWireRecorder(server.baseUrl);
  closers.push(() => wire.close());
  return {
    wire,
    endpoint: { id: scriptedModelId('plays-user'), baseUrl: wire.baseUrl, apiKey: sessionApiKey },
  };
}

async function session(
  backend: BackendName,
  policy: string,
  userModel: UserModelEndpoint | undefined,
  sessionUser = user,
) {
  const server = await startModelServer({ policy: 'structural' });
  closers.push(() => server.close());
  const repo = greetingsFixture();
  const template = await loadPromptTemplate(path.join(scenarioDir, 'prompt.hbs'), 'played-user');
  if (!template.ok) throw new Error(template.error.problem);
  const prompt = template.value.render({
    fixtureRepo: repo,
    planPath: String(scenario.config.plan ?? ''),
    skillDir: planScopedSkill,
  });
  const run = await runBackendSession({
    backend,
    stop: 'complete',
    baseUrl: server.baseUrl,
    model: scriptedModelId(policy),
    prompt,
    fixtureRepo: repo,
    repId: `played/${backend}/${policy}`,
    ...(sessionUser === undefined ? {} : { user: sessionUser }),
    ...(userModel === undefined ? {} : { userModel }),
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
  return { run, prompt, text, transcript: read.value, written };
}

const fancyLine = 'I want the fancy-greeting style for the greeting style file.';
const thanksLine = 'Thank you, that is all I need today.';

describe('the played user on the messages backend', () => {
  it("a reply's question and a declared turn are played from the story; the request holds the story and the reply, never the checks, rubric, skill or prompt", async () => {
    const { wire, endpoint } = await userBrain();
    const { run, prompt, text, transcript, written } = await session(
      'messages',
      'asks-user-reply',
      endpoint,
    );
    expect(run.outcome.status).toEqual({ kind: 'completed' });
    // The played answer, not the style rule's plain-greeting, decided what was written.
    expect(written).toBe('fancy-greeting');
    // Two requests: the question's answer, then the wording of the declared turn.
    const bodies = wire.exchanges.map((exchange) => exchange.requestBody);
    expect(bodies).toHaveLength(2);
    const [asked, turned] = bodies;
    expect(asked?.model).toBe('scripted:plays-user');
    expect(holds(asked, story)).toBe(true);
    expect(holds(asked, `Before I start: ${GREETING_QUESTION}`)).toBe(true);
    expect(holds(turned, story)).toBe(true);
    expect(holds(turned, `Wrote ${STYLE_FILE}: fancy-greeting.`)).toBe(true);
    expect(holds(turned, 'Thank you, that is all I need.')).toBe(true);
    for (const body of bodies) expect(leaks(body, prompt)).toEqual([]);
    expect(text).not.toContain(sessionApiKey);

    // (b) recorded as played, with the model that played.
    expect(transcript.malformed).toEqual([]);
    expect(transcript.questions).toEqual([
      expect.objectContaining({
        via: 'reply',
        answer: fancyLine,
        source: 'played',
        rule: null,
        playedBy: 'scripted:plays-user',
      }),
    ]);
    expect(transcript.turns).toEqual([
      expect.objectContaining({ turn: 2, questionId: 'q-1', text: fancyLine }),
      expect.objectContaining({
        turn: 3,
        id: 'thanks',
        text: thanksLine,
        playedBy: 'scripted:plays-user',
      }),
    ]);
    const script = run.transcript.find((line) => line.subtype === 'user_script');
    expect(script?.played_by).toBe('scripted:plays-user');
    // The played words are the messages the session got.
    const sent = run.transcript.filter((line) => line.type === 'user' && 'user_turn' in line);
    expect(JSON.stringify(sent)).toContain(thanksLine);

    // A check on which rule answered cannot be decided on a played answer; any answer passes.
    const evidence = { transcript: { questions: transcript.questions, partial: false } };
    const byRule = userAnswered.run(
      userAnswered.params.parse({ answer: 'style' }),
      evidence as never,
    );
    expect(byRule.outcome).toBe('undecided');
    const any = userAnswered.run(userAnswered.params.parse({}), evidence as never);
    expect(any.outcome).toBe('pass');
  });

  it('planted: the leak detector catches a request that carries the skill, a check, the rubric or the prompt', async () => {
    const prompt = `Ask the user, following the skill at ${planScopedSkill}.`;
    const clean = userRequest(story, [{ from: 'session', text: 'Which style?' }], {
      kind: 'question',
      question: 'Which style?',
      options: [],
    });
    expect(leaks(clean, prompt)).toEqual([]);
    const leaky = userRequest(
      `${story}\n${skillText}\ncheckmarker-wrote\nrubricmarker`,
      [{ from: 'session', text: prompt }],
      { kind: 'question', question: 'Which style?', options: [] },
    );
    const found = leaks(leaky, prompt);
    expect(found).toContain('check id checkmarker-wrote');
    expect(found.some((name) => name.startsWith('SKILL.md line'))).toBe(true);
    expect(found.some((name) => name.startsWith('prompt line'))).toBe(true);
    expect(found).toContain('the skill directory');
    const rubric = userRequest(
      `${story}\n${scenarioFile.judge.rubric['checkmarker-wrote'] ?? ''}`,
      [],
      { kind: 'turn', gist: 'Thanks.' },
    );
    expect(leaks(rubric, prompt)).toEqual(['rubric item checkmarker-wrote']);
  });

  it('(c) without a user model the scripted user plays: the rule answers, the turn is sent as written', async () => {
    const { wire } = await userBrain();
    const { run, transcript, written } = await session('messages', 'asks-user-reply', undefined);
    expect(run.outcome.status).toEqual({ kind: 'completed' });
    expect(written).toBe('plain-greeting');
    expect(wire.exchanges).toHaveLength(0);
    expect(transcript.questions).toEqual([
      expect.objectContaining({ source: 'rule', rule: 'style', answer: 'Use the plain-greeting.' }),
    ]);
    expect(transcript.turns?.at(-1)).toEqual(
      expect.objectContaining({ id: 'thanks', text: 'Thank you, that is all I need.' }),
    );
    expect(transcript.turns?.at(-1)).not.toHaveProperty('playedBy');
    const script = run.transcript.find((line) => line.subtype === 'user_script');
    expect(script?.played_by).toBeNull();
  });

  it('a user model that fails leaves the rep indeterminate (api), saying so; never a scripted answer in its place', async () => {
    const server = await startModelServer({ policy: 'plays-user' });
    closers.push(() => server.close());
    const broken: UserModelEndpoint = {
      id: 'scripted:no-such-user-brain',
      baseUrl: server.baseUrl,
      apiKey: sessionApiKey,
    };
    const { run, transcript, written } = await session('messages', 'asks-user-reply', broken);
    expect(run.outcome.status).toEqual({
      kind: 'indeterminate',
      stage: 'api',
      reason: expect.stringMatching(
        /^the model playing the user \(scripted:no-such-user-brain\) failed: /,
      ),
    });
    expect(written).toBeUndefined();
    expect(transcript.questions).toEqual([
      expect.objectContaining({ source: 'unanswered', answer: null }),
    ]);
  });
});

describe.skipIf(engineUnavailable() !== undefined)(
  'the played user on the claude-code engine',
  () => {
    it('answers an AskUserQuestion call from the story, recorded as played', async () => {
      const { wire, endpoint } = await userBrain();
      const noTurns = scriptedUserSchema.parse({ ...user, turns: [] });
      const { run, prompt, transcript, written } = await session(
        'claude-code',
        'asks-user-tool',
        endpoint,
        noTurns,
      );
      expect(run.outcome.status).toEqual({ kind: 'completed' });
      expect(written).toBe('fancy-greeting');
      const bodies = wire.exchanges.map((exchange) => exchange.requestBody);
      expect(bodies).toHaveLength(1);
      expect(holds(bodies[0], story)).toBe(true);
      expect(holds(bodies[0], GREETING_QUESTION)).toBe(true);
      expect(holds(bodies[0], 'plain-greeting; fancy-greeting')).toBe(true);
      expect(leaks(bodies[0], prompt)).toEqual([]);
      expect(transcript.questions).toEqual([
        expect.objectContaining({ via: 'tool', source: 'played', answer: fancyLine }),
      ]);
    });
  },
);

describe('who plays the user', () => {
  const live: ModelEndpoint = {
    id: 'claude-live-model',
    baseUrl: 'http://127.0.0.1:9',
    apiKey: 'k',
    scripted: false,
  };
  const noModel = scriptedUserSchema.parse({ played: { story: 'I am Dana.' } });

  it('a live run with a story: the played model, else the session model, on the session endpoint', () => {
    expect(userModelFor(user, live)).toEqual({
      id: 'claude-user-stand-in',
      baseUrl: 'http://127.0.0.1:9',
      apiKey: 'k',
    });
    expect(userModelFor(noModel, live)?.id).toBe('claude-live-model');
  });

  it('offline (a scripted model), on Bedrock or Vertex, or without a story: the script plays', () => {
    expect(userModelFor(user, { ...live, scripted: true })).toBeUndefined();
    expect(
      userModelFor(user, {
        ...live,
        provider: { kind: 'bedrock', region: 'us-east-1', project: undefined, passEnv: {} },
      }),
    ).toBeUndefined();
    expect(userModelFor(scriptedUserSchema.parse({}), live)).toBeUndefined();
    expect(userModelFor(undefined, live)).toBeUndefined();
  });

  it('the story is checked at load: blank or an unknown field is refused', () => {
    expect(scriptedUserSchema.safeParse({ played: { story: '  ' } }).success).toBe(false);
    expect(scriptedUserSchema.safeParse({ played: { story: 'x', rules: [] } }).success).toBe(false);
  });

  it('the plays-user brain answers with the story line nearest the question', () => {
    expect(storyLineFor(story, GREETING_QUESTION)).toBe(fancyLine);
    expect(storyLineFor(story, 'zzz')).toBe('I am Dana and I keep the greetings repository.');
  });
});
