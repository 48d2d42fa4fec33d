/**
 * Every scripted judge answered through the real `@anthropic-ai/sdk` client
 * against redgreen's local model server: what each policy answers, the
 * verbatim-quote rule on a real answer, an invalid answer retried once and
 * then recorded unsure with its raw text, and the checks reaching a scripted
 * judge only through redgreen's header.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type JudgeEndpoint, judgeClient, judgeRep } from '../../harness/judge/ask-judge.js';
import { buildMaterial } from '../../harness/judge/material.js';
import { judgeRequest } from '../../harness/judge/prompt.js';
import { type ModelServer, startModelServer } from '../../harness/model-server/index.js';

let server: ModelServer;
beforeAll(async () => {
  server = await startModelServer({ policy: 'skill-reader', seed: 7 });
});
afterAll(async () => {
  await server.close();
});

const spec = {
  rubric: {
    'first-dispatch': 'The reply names Task 1 as the first dispatch.',
    'claimed-complete': 'The reply claims no task complete.',
  },
};
const material = buildMaterial(
  {
    reply: 'TASKS ALREADY COMPLETE: none\nFIRST DISPATCH: Task 1 (Export data model)',
    capturedDispatch: null,
    toolCalls: [],
    before: undefined,
    after: undefined,
    filesBefore: undefined,
    filesAfter: undefined,
    skillText: undefined,
  },
  ['reply', 'tool-calls'],
);

function endpoint(policy: string): JudgeEndpoint {
  return {
    model: `scripted:${policy}`,
    baseUrl: server.baseUrl,
    apiKey: 'dummy-key-for-tests',
    scripted: true,
  };
}

async function judge(
  policy: string,
  checks: Record<string, 'pass' | 'fail' | 'undecided'>,
  repId = 'green/s1-rep1',
) {
  const point = endpoint(policy);
  return judgeRep(judgeClient(point), point, { repId, spec, material, checks }, () => new Date(0));
}

describe('scripted judges through the real SDK', () => {
  it('judge-agree mirrors the checks, with quotes found in the material', async () => {
    const judgement = await judge('judge-agree', {
      'first-dispatch': 'pass',
      'claimed-complete': 'fail',
    });
    expect(judgement.status).toBe('judged');
    expect(judgement.items.map((item) => [item.id, item.verdict, item.quoteFound])).toEqual([
      ['first-dispatch', 'pass', true],
      ['claimed-complete', 'fail', true],
    ]);
    expect(judgement.verdict).toBe('fail');
    expect(judgement.attempts).toBe(1);
    expect(judgement.model).toEqual({
      requested: 'scripted:judge-agree',
      reported: 'scripted:judge-agree',
      scripted: true,
      endpoint: null,
    });
    expect(judgement.costUsd).toBeNull();
    expect(judgement.tokensEstimated).toBe(true);
    expect(judgement.tokens?.input).toBeGreaterThan(0);
  });

  it('judge-agree answers unsure for an undecided check', async () => {
    const judgement = await judge('judge-agree', {
      'first-dispatch': 'pass',
      'claimed-complete': 'undecided',
    });
    expect(judgement.items.map((item) => item.verdict)).toEqual(['pass', 'unsure']);
    expect(judgement.verdict).toBe('unsure');
  });

  it('judge-unsure never decides', async () => {
    const judgement = await judge('judge-unsure', {
      'first-dispatch': 'pass',
      'claimed-complete': 'pass',
    });
    expect(judgement.items.every((item) => item.verdict === 'unsure')).toBe(true);
    expect(judgement.verdict).toBe('unsure');
  });

  it('judge-contrarian contradicts a seeded share of reps, the same ones every time', async () => {
    const checks = { 'first-dispatch': 'pass', 'claimed-complete': 'pass' } as const;
    const ids = Array.from({ length: 20 }, (_, index) => `green/s1-rep${index + 1}`);
    const first = await Promise.all(ids.map((id) => judge('judge-contrarian', checks, id)));
    const again = await Promise.all(ids.map((id) => judge('judge-contrarian', checks, id)));
    const flipped = first.filter((judgement) => judgement.verdict === 'fail').length;
    // A seeded draw per rep at 30%: some reps contradicted, most not.
    expect(flipped).toBeGreaterThan(0);
    expect(flipped).toBeLessThan(ids.length / 2);
    expect(again.map((judgement) => judgement.verdict)).toEqual(
      first.map((judgement) => judgement.verdict),
    );
    // A contradicted failing rep is judged pass.
    const failing = await Promise.all(
      ids.map((id) =>
        judge('judge-contrarian', { 'first-dispatch': 'fail', 'claimed-complete': 'pass' }, id),
      ),
    );
    expect(failing.filter((judgement) => judgement.verdict === 'pass').length).toBe(flipped);
  });

  it('judge-misquote: a quote not in the material makes each decided item unsure', async () => {
    const judgement = await judge('judge-misquote', {
      'first-dispatch': 'pass',
      'claimed-complete': 'fail',
    });
    expect(judgement.items.map((item) => [item.answered, item.verdict, item.quoteFound])).toEqual([
      ['pass', 'unsure', false],
      ['fail', 'unsure', false],
    ]);
    expect(judgement.verdict).toBe('unsure');
  });

  it('judge-malformed: an invalid answer is retried once, then recorded unsure with the raw answers, never a pass', async () => {
    const judgement = await judge('judge-malformed', {
      'first-dispatch': 'pass',
      'claimed-complete': 'pass',
    });
    expect(judgement.status).toBe('judged');
    expect(judgement.attempts).toBe(2);
    expect(judgement.verdict).toBe('unsure');
    expect(judgement.items.every((item) => item.verdict === 'unsure')).toBe(true);
    expect(judgement.invalidAnswers).toHaveLength(2);
    expect(judgement.invalidAnswers[0]).toContain('every item passes');
    expect(judgement.invalidAnswers[1]).toContain('I would rather not fill in the form.');
  });

  it('judge-flaky: an invalid first answer, a valid one when asked again', async () => {
    const judgement = await judge('judge-flaky', {
      'first-dispatch': 'pass',
      'claimed-complete': 'pass',
    });
    expect(judgement.attempts).toBe(2);
    expect(judgement.invalidAnswers).toHaveLength(1);
    expect(judgement.verdict).toBe('pass');
  });

  it('a scripted judge without redgreen’s header cannot see the checks: unsure on every item', async () => {
    const point = { ...endpoint('judge-agree'), scripted: false };
    const judgement = await judgeRep(judgeClient(point), point, {
      repId: 'green/s1-rep1',
      spec,
      material,
      checks: { 'first-dispatch': 'pass', 'claimed-complete': 'pass' },
    });
    expect(judgement.items.every((item) => item.verdict === 'unsure')).toBe(true);
    expect(judgement.items[0]?.rationale).toContain("only through redgreen's header");
  });

  it('an endpoint that fails after the SDK retries is recorded as an error, unsure, never a pass', async () => {
    const broken = await startModelServer({
      policy: 'skill-reader',
      faults: [{ kind: 'status', status: 500, times: '*', retryAfterSeconds: 0 }],
    });
    try {
      const point = { ...endpoint('judge-agree'), baseUrl: broken.baseUrl };
      const judgement = await judgeRep(judgeClient(point), point, {
        repId: 'green/s1-rep1',
        spec,
        material,
        checks: { 'first-dispatch': 'pass', 'claimed-complete': 'pass' },
      });
      expect(judgement.status).toBe('error');
      expect(judgement.error).toContain('500');
      expect(judgement.verdict).toBe('unsure');
      expect(judgement.costUsd).toBeNull();
    } finally {
      await broken.close();
    }
  });

  it('an overloaded endpoint (529 twice) is retried by the SDK, then judged: three requests, one judgement', async () => {
    const logFile = path.join(
      mkdtempSync(path.join(os.tmpdir(), 'redgreen-judge-log-')),
      'log.jsonl',
    );
    const busy = await startModelServer({
      policy: 'skill-reader',
      faults: [{ kind: 'status', status: 529, times: 2, retryAfterSeconds: 0 }],
      logFile,
    });
    let judgement: Awaited<ReturnType<typeof judgeRep>>;
    try {
      const point = { ...endpoint('judge-agree'), baseUrl: busy.baseUrl };
      judgement = await judgeRep(judgeClient(point), point, {
        repId: 'green/s1-rep1',
        spec,
        material,
        checks: { 'first-dispatch': 'pass', 'claimed-complete': 'pass' },
      });
    } finally {
      await busy.close();
    }
    expect(judgement.status).toBe('judged');
    expect(judgement.verdict).toBe('pass');
    expect(judgement.attempts).toBe(1);
    const actions = readFileSync(logFile, 'utf8')
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { action: string }).action);
    expect(actions).toEqual(['fault:529', 'fault:529', expect.stringMatching(/^tool_use/)]);
  });

  it('sends the rubric and the material in cached blocks and forces the judge tool', () => {
    const request = judgeRequest(spec, material, 'claude-x');
    expect(request.tool_choice).toEqual({ type: 'tool', name: 'record_judgement' });
    expect(request.tools?.map((tool) => (tool as { name: string }).name)).toEqual([
      'record_judgement',
    ]);
    const system = request.system as { type: string; text: string; cache_control?: unknown }[];
    expect(system.map((block) => block.cache_control ?? null)).toEqual([
      null,
      { type: 'ephemeral' },
    ]);
    expect(system[1]?.text).toContain('`first-dispatch`: The reply names Task 1');
    const [user] = request.messages;
    const blocks = user?.content as { type: string; text: string; cache_control?: unknown }[];
    expect(blocks[0]).toEqual({
      type: 'text',
      text: material.text,
      cache_control: { type: 'ephemeral' },
    });
    expect(blocks[1]?.cache_control).toBeUndefined();
  });

  it('an aborted run aborts the judgement too: recorded as an error, unsure, asked again later', async () => {
    const abort = new AbortController();
    abort.abort();
    const point = endpoint('judge-agree');
    const judgement = await judgeRep(judgeClient(point), point, {
      repId: 'green/s1-rep1',
      spec,
      material,
      checks: { 'first-dispatch': 'pass', 'claimed-complete': 'pass' },
      signal: abort.signal,
    });
    expect(judgement.status).toBe('error');
    expect(judgement.error).toContain('aborted by the user');
    expect(judgement.verdict).toBe('unsure');
  });
});
