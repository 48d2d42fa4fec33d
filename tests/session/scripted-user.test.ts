/**
 * The scripted user's parts: the answer rules (first matching pattern,
 * case-insensitive; the default; the answer limit), the scenario `user`
 * block refused at load with one line naming the field and the fix (a bad
 * or match-everything pattern, a shared id, an unknown field, a block under
 * a stop mode where it has no effect), the block entering the campaign
 * identity only when declared, the transcript records validated when read
 * back (and scored by `redgreen check --transcript`), and the tool result
 * both backends give for answered questions.
 */
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ResolvedCampaign } from '../../harness/campaign/load-campaign.js';
import { policyNames } from '../../harness/model-server/index.js';
import { loadScenarioDir } from '../../harness/score/load-scenario.js';
import {
  DEFAULT_USER_ANSWER,
  scriptedAnswer,
  scriptedUserSchema,
} from '../../harness/score/scripted-user.js';
import { readSessionTranscript } from '../../harness/score/transcripts/read-transcript.js';
import { readQuestions } from '../../harness/score/user-question-record.js';
import {
  questionToolResult,
  ScriptedUserSession,
  scriptedUserFor,
} from '../../harness/session/scripted-user-session.js';
import { offeredTools } from '../../harness/session/tools/session-tools.js';
import { scriptedSessionIdentity } from '../campaign/support.js';
import { repoRoot, runCli } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';

type Json = Record<string, unknown>;
const fixtureDir = path.join(import.meta.dirname, 'fixtures', 'scripted-user');

/** The scripted-user test scenario with `change` applied, in a folder of its own. */
function scenarioWith(change: (scenario: Json) => void): string {
  const dir = path.join(makeTempDir(), 'scripted-user');
  mkdirSync(dir);
  cpSync(path.join(fixtureDir, 'prompt.hbs'), path.join(dir, 'prompt.hbs'));
  const scenario = JSON.parse(readFileSync(path.join(fixtureDir, 'scenario.json'), 'utf8')) as Json;
  const calibration = scenario.calibration as Record<string, { skill: string }[]>;
  for (const run of [...(calibration.mustPass ?? []), ...(calibration.mustFail ?? [])]) {
    run.skill = path.resolve(fixtureDir, run.skill);
  }
  change(scenario);
  writeFileSync(path.join(dir, 'scenario.json'), JSON.stringify(scenario));
  return dir;
}

function refusal(change: (scenario: Json) => void): string {
  const loaded = loadScenarioDir(scenarioWith(change), { knownPolicies: policyNames() });
  if (loaded.ok) throw new Error('expected the scenario to be refused');
  return `${loaded.error.input}: ${loaded.error.problem}; ${loaded.error.fix}`;
}

const userOf = (scenario: Json): Json => scenario.user as Json;
const rulesOf = (scenario: Json): Json[] => userOf(scenario).answers as Json[];

describe('answer rules', () => {
  const user = scriptedUserSchema.parse({
    answers: [
      { id: 'style', pattern: 'greeting\\s+style', answer: 'Fancy.' },
      { id: 'anything-style', pattern: 'style', answer: 'Plain.' },
    ],
    maxAnswers: 2,
  });

  it('the first rule whose pattern matches answers, case-insensitively; else the default', () => {
    expect(scriptedAnswer(user, 'Which GREETING style?', 0)).toEqual({
      answer: 'Fancy.',
      source: { kind: 'rule', id: 'style' },
    });
    expect(scriptedAnswer(user, 'Which code style?', 0).source).toEqual({
      kind: 'rule',
      id: 'anything-style',
    });
    expect(scriptedAnswer(user, 'Deploy now?', 1)).toEqual({
      answer: DEFAULT_USER_ANSWER,
      source: { kind: 'default' },
    });
  });

  it('past maxAnswers nobody answers', () => {
    expect(scriptedAnswer(user, 'Which greeting style?', 2)).toEqual({
      answer: null,
      source: { kind: 'unanswered' },
    });
  });

  it('defaults: "Your call: follow your skill.", five answers, no rules', () => {
    expect(scriptedUserSchema.parse({})).toEqual({
      answers: [],
      default: 'Your call: follow your skill.',
      maxAnswers: 5,
      turns: [],
    });
  });

  it('only a complete session has a scripted user (the defaults without a block)', () => {
    expect(scriptedUserFor('complete', undefined)).toEqual(scriptedUserSchema.parse({}));
    expect(scriptedUserFor('complete', user)).toBe(user);
    expect(scriptedUserFor('report', user)).toBeUndefined();
    expect(scriptedUserFor('first-dispatch', user)).toBeUndefined();
    // The messages backend offers the question tool where it is answered or captured, not under report.
    expect(offeredTools('complete').map((tool) => tool.name)).toContain('AskUserQuestion');
    expect(offeredTools('report').map((tool) => tool.name)).not.toContain('AskUserQuestion');
  });

  it('the tool result names each answered question and its answer, as the engine words it', () => {
    expect(questionToolResult({ 'Which style?': 'Fancy.', 'Deploy?': 'No.' })).toBe(
      'The user answered: "Which style?"="Fancy.", "Deploy?"="No.". Read the answers carefully \u2014 they may request clarification, changes, or that you not proceed \u2014 and follow what they actually say.',
    );
  });
});

describe('the scenario user block at load', () => {
  it('loads, defaults applied', () => {
    const loaded = loadScenarioDir(
      scenarioWith((s) => {
        delete userOf(s).default;
        delete userOf(s).maxAnswers;
      }),
      { knownPolicies: policyNames() },
    );
    if (!loaded.ok) throw new Error(loaded.error.problem);
    expect(loaded.value.config.user).toEqual({
      answers: [
        { id: 'style', pattern: 'greeting style', answer: 'Use the fancy-greeting, please.' },
      ],
      default: DEFAULT_USER_ANSWER,
      maxAnswers: 5,
      turns: [],
    });
  });

  it('refuses a pattern that does not compile, naming the field', () => {
    const line = refusal((s) => {
      (rulesOf(s)[0] as Json).pattern = '(unclosed';
    });
    expect(line).toMatch(
      /scenario\.json: user\.answers\[0\]\.pattern: is not a valid regular expression \(JavaScript syntax\): [A-Z]/,
    );
    expect(line.split('\n')).toHaveLength(1);
  });

  it('refuses a pattern that matches every question', () => {
    expect(
      refusal((s) => {
        (rulesOf(s)[0] as Json).pattern = '.*';
      }),
    ).toMatch(/user\.answers\[0\]\.pattern: matches every question .*use "default"/);
  });

  it('refuses two rules with one id, a rule named default, a blank answer, an unknown field', () => {
    expect(
      refusal((s) => {
        rulesOf(s).push({ id: 'style', pattern: 'deploy', answer: 'No.' });
      }),
    ).toMatch(/user\.answers: two answer rules share the id "style": give each its own/);
    expect(
      refusal((s) => {
        (rulesOf(s)[0] as Json).id = 'default';
      }),
    ).toMatch(/user\.answers\[0\]\.id: is reserved for the default answer/);
    expect(
      refusal((s) => {
        (rulesOf(s)[0] as Json).answer = '  ';
      }),
    ).toMatch(/user\.answers\[0\]\.answer: must not be blank/);
    expect(
      refusal((s) => {
        userOf(s).answer = 'x';
      }),
    ).toMatch(/user: unknown field "answer"; did you mean "answers"\? use "answers"/);
    expect(
      refusal((s) => {
        userOf(s).maxAnswers = -1;
      }),
    ).toMatch(/user\.maxAnswers/);
  });

  it('refuses a user block where it has no effect: stop report or first-dispatch', () => {
    for (const stop of ['report', 'first-dispatch']) {
      const line = refusal((s) => {
        s.stop = stop;
      });
      expect(line).toMatch(
        new RegExp(
          `scenario\\.json: user: has no effect under "stop": "${stop}" .*; set "stop": "complete" or remove the user block$`,
        ),
      );
    }
  });
});

function campaignWith(user: unknown): ResolvedCampaign {
  return {
    only: null,
    config: { id: 'full' },
    backend: 'messages',
    engines: ['messages'],
    limits: {
      maxTurns: 40,
      sessionTimeoutSeconds: 600,
      toolTimeoutSeconds: 120,
      toolOutputMaxBytes: 30000,
      maxCostUsd: null,
    },
    seed: 1,
    arms: [{ name: 'red', role: 'red', layout: 'scoped' }],
    scenarios: [
      {
        id: 'full',
        config: {
          plan: 'docs/plan.md',
          fixture: { recipe: 'r', scenario: 's', variables: {} },
          stop: 'complete',
          ...(user === undefined ? {} : { user }),
        },
        prompt: { source: 'p' },
        compiled: { promptVariables: {} },
      },
    ],
  } as unknown as ResolvedCampaign;
}

function identityOf(campaign: ResolvedCampaign): string {
  return scriptedSessionIdentity(campaign, 'asks-user-tool');
}

describe('the campaign identity', () => {
  it('holds the user block when declared; an answer changed is another campaign', () => {
    const plain = identityOf(campaignWith(undefined));
    const fancy = scriptedUserSchema.parse({
      answers: [{ id: 'style', pattern: 'style', answer: 'Fancy.' }],
    });
    const plainAnswer = scriptedUserSchema.parse({
      answers: [{ id: 'style', pattern: 'style', answer: 'Plain.' }],
    });
    expect(identityOf(campaignWith(fancy))).not.toBe(plain);
    expect(identityOf(campaignWith(plainAnswer))).not.toBe(identityOf(campaignWith(fancy)));
    expect(identityOf(campaignWith(fancy))).toBe(identityOf(campaignWith(structuredClone(fancy))));
  });
});

describe('the records read back', () => {
  /** Lines a ScriptedUserSession writes, through a sink that keeps them. */
  async function recorded(
    act: (session: ScriptedUserSession) => Promise<void> | void,
  ): Promise<string> {
    const lines: unknown[] = [];
    const sink = { write: (message: unknown) => lines.push(message) };
    const session = new ScriptedUserSession(
      scriptedUserSchema.parse({
        answers: [{ id: 'style', pattern: 'style', answer: 'Fancy.' }],
        maxAnswers: 1,
      }),
      sink as never,
      () => 'sess-1',
    );
    session.start();
    await act(session);
    return lines.map((line) => JSON.stringify(line)).join('\n');
  }

  it('reads each question with its answer and where it came from', async () => {
    const text = await recorded(async (session) => {
      await session.answerQuestionCall(
        'toolu_1',
        {
          questions: [
            {
              question: 'Which style?',
              header: 'Style',
              options: [
                { label: 'a', description: 'A' },
                { label: 'b', description: 'B' },
              ],
              multiSelect: false,
            },
          ],
        },
        { kind: 'controller' },
      );
      expect(
        await session.answerReply('Done. Shall I deploy?', { kind: 'controller' }),
      ).toBeUndefined();
      expect(await session.answerReply('Done.', { kind: 'controller' })).toBeUndefined();
    });
    expect(readQuestions(text)).toEqual({
      questions: [
        {
          id: 'q-1',
          via: 'tool',
          text: 'Which style?',
          seat: 'controller',
          toolUseId: 'toolu_1',
          afterCall: null,
          answer: 'Fancy.',
          source: 'rule',
          rule: 'style',
        },
        {
          id: 'q-2',
          via: 'reply',
          text: 'Done. Shall I deploy?',
          seat: 'controller',
          toolUseId: null,
          afterCall: null,
          answer: null,
          source: 'unanswered',
          rule: null,
        },
      ],
      turns: [],
      malformed: [],
    });
  });

  it('a transcript without a scripted user has no questions to speak of; one with it and none asked has none', async () => {
    expect(readQuestions('{"type":"system","subtype":"init"}').questions).toBeUndefined();
    expect(readQuestions(await recorded(() => {})).questions).toEqual([]);
  });

  it('a record off its schema, or an answer to no question, is a malformed line', () => {
    const bad = [
      '{"type":"system","subtype":"user_script","rules":[],"maxAnswers":3}',
      '{"type":"system","subtype":"user_question","question_id":"q-1","via":"email","text":"?","seat":{"kind":"controller"},"tool_use_id":null}',
      '{"type":"system","subtype":"user_answer","question_id":"q-9","answer":"x","source":"default","rule":null}',
    ].join('\n');
    const read = readQuestions(bad);
    expect(read.questions).toEqual([]);
    expect(read.malformed).toEqual([
      { line: 2, problem: expect.stringMatching(/^user_question event: via: /) },
      { line: 3, problem: 'user_answer event for q-9, which no user_question asked' },
    ]);
    // readSessionTranscript reports them with the transcript's other malformed lines.
    const whole = readSessionTranscript(
      `${bad}\n{"type":"result","subtype":"success","is_error":false,"result":"ok","num_turns":1}`,
    );
    if (!whole.ok) throw new Error(whole.error.problem);
    expect(whole.value.malformed.map((line) => line.line)).toEqual([2, 3]);
  });
});

describe('redgreen check --transcript reads the questions', () => {
  /** The scripted-user scenario on a shipped recipe, so `check` can resolve its fixture. */
  function shippedRecipeScenario(): string {
    return scenarioWith((s) => {
      s.fixture = { recipe: 'widget-v3', scenario: 's1' };
      s.plan = 'docs/plans/2026-07-06-widget-export.md';
    });
  }

  const lines = (answer: { source: string; rule: string | null; answer: string | null }) =>
    [
      { type: 'system', subtype: 'init', engine: 'redgreen-messages (@anthropic-ai/sdk 1.14.0)' },
      { type: 'system', subtype: 'user_script', rules: ['style'], maxAnswers: 3 },
      {
        type: 'system',
        subtype: 'user_question',
        question_id: 'q-1',
        via: 'reply',
        text: 'Which greeting style should I write?',
        seat: { kind: 'controller' },
        tool_use_id: null,
      },
      { type: 'system', subtype: 'user_answer', question_id: 'q-1', ...answer },
      { type: 'result', subtype: 'success', is_error: false, result: 'Wrote it.', num_turns: 2 },
    ]
      .map((line) => JSON.stringify(line))
      .join('\n');

  it('scores user-answered from a transcript file: the rule passes, the default fails it', async () => {
    const scenario = shippedRecipeScenario();
    const dir = makeTempDir();
    const ruled = path.join(dir, 'ruled.jsonl');
    const defaulted = path.join(dir, 'defaulted.jsonl');
    writeFileSync(ruled, lines({ source: 'rule', rule: 'style', answer: 'fancy-greeting' }));
    writeFileSync(
      defaulted,
      lines({ source: 'default', rule: null, answer: 'Your call: follow your skill.' }),
    );
    const passed = await runCli(['check', scenario, '--transcript', ruled], { cwd: repoRoot });
    expect(passed.stderr).toBe('');
    expect(passed.stdout).toMatch(/pass {2}asked-the-user: /);
    expect(passed.stdout).toMatch(/pass {2}style-rule-answered: q-1 .* got answer style/);
    const failed = await runCli(['check', scenario, '--transcript', defaulted], { cwd: repoRoot });
    expect(failed.stdout).toMatch(/FAIL {2}style-rule-answered: .*none got answer rule style/);
  });
});
