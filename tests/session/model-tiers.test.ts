/**
 * The model a dispatch asks for (`model: "opus"` on Agent) is honoured per
 * seat with one tier→model mapping on both backends (model-tiers.ts): the
 * messages backend runs the seat on it, the Claude Code engine gets it
 * through ANTHROPIC_DEFAULT_<TIER>_MODEL. Offline a tier is
 * `scripted:<policy>@<tier>`, answered by the same policy. The seat records
 * the model its requests were answered by (`modelUsed`). Through the real
 * SDK and the real engine against a brain that records each request's model;
 * the engine's half is skipped, with the reason printed, when it is absent.
 */

import { afterEach, describe, expect, it } from 'vitest';
import { priceSession } from '../../harness/estimate/model-pricing.js';
import { policyAnswering, startModelServer } from '../../harness/model-server/index.js';
import { repCostUsd } from '../../harness/run/rep-cost.js';
import { readSessionTranscript } from '../../harness/score/transcripts/read-transcript.js';
import { modelForTier, tierEnvironment, tierModels } from '../../harness/session/model-tiers.js';
import type { ModelEndpoint, TokenUsage } from '../../harness/session/session-types.js';
import { greetingsFixture } from './support/greetings-fixture.js';
import { type BackendName, engineUnavailable, runBackendSession } from './support/run-session.js';
import { startTierBrain } from './support/tier-brain.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

const endpoint = (id: string, scripted: boolean, extra: Partial<ModelEndpoint> = {}) =>
  ({ id, baseUrl: undefined, apiKey: 'k', scripted, ...extra }) as ModelEndpoint;

describe('the tier mapping', () => {
  it('live: the tier’s model (fable: the session’s); scripted: the same policy with the tier', () => {
    const live = endpoint('claude-sonnet-5-5', false);
    expect(modelForTier(live, 'opus')).toBe('claude-opus-5-5');
    expect(modelForTier(live, 'haiku')).toBe('claude-haiku-5-5');
    expect(modelForTier(live, 'fable')).toBe('claude-sonnet-5-5');
    expect(modelForTier(live, null)).toBe('claude-sonnet-5-5');
    expect(modelForTier(live, 'inherit')).toBe('claude-sonnet-5-5');
    const scripted = endpoint('scripted:literal', true);
    expect(modelForTier(scripted, 'opus')).toBe('scripted:literal@opus');
    expect(policyAnswering('scripted:literal@opus')).toBe('literal');
    expect(policyAnswering('scripted:literal')).toBe('literal');
    expect(policyAnswering('claude-opus-5-5')).toBeUndefined();
  });

  it('the engine gets the same mapping; Bedrock and Vertex keep the engine’s own', () => {
    expect(tierEnvironment(endpoint('claude-sonnet-5-5', false))).toEqual({
      ANTHROPIC_DEFAULT_OPUS_MODEL: 'claude-opus-5-5',
      ANTHROPIC_DEFAULT_SONNET_MODEL: 'claude-sonnet-5-5',
      ANTHROPIC_DEFAULT_HAIKU_MODEL: 'claude-haiku-5-5',
      ANTHROPIC_DEFAULT_FABLE_MODEL: 'claude-sonnet-5-5',
    });
    const bedrock = endpoint('anthropic.claude-opus-5-5-v1:0', false, {
      provider: { kind: 'bedrock', region: 'us-east-1', project: undefined, passEnv: {} },
    });
    expect(tierModels(bedrock)).toBeUndefined();
    expect(tierEnvironment(bedrock)).toEqual({});
    expect(modelForTier(bedrock, 'opus')).toBe('anthropic.claude-opus-5-5-v1:0');
  });

  it('the model server answers a tier id with the policy it names, and echoes the id', async () => {
    const server = await startModelServer({ policy: 'structural' });
    closers.push(() => server.close());
    const response = await fetch(`${server.baseUrl}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'k' },
      body: JSON.stringify({
        model: 'scripted:literal@haiku',
        max_tokens: 100,
        messages: [{ role: 'user', content: 'hello' }],
      }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-redgreen-policy')).toBe('scripted:literal');
    expect(((await response.json()) as { model: string }).model).toBe('scripted:literal@haiku');
  });
});

/** One session on a backend whose controller dispatches one seat asking for `tier`. */
async function tierSession(
  backend: BackendName,
  model: string,
  scripted: boolean,
  tier: string | undefined,
) {
  const brain = await startTierBrain(tier);
  closers.push(() => brain.close());
  const repo = greetingsFixture();
  const run = await runBackendSession({
    backend,
    stop: 'complete',
    baseUrl: brain.baseUrl,
    model,
    scripted,
    prompt: `Review the work in ${repo}.`,
    fixtureRepo: repo,
  });
  expect(run.outcome.status).toEqual({ kind: 'completed' });
  const read = readSessionTranscript(run.transcript.map((line) => JSON.stringify(line)).join('\n'));
  if (!read.ok) throw new Error(read.error.problem);
  const seatModels = [...new Set(brain.requests.filter((r) => r.seat).map((r) => r.model))];
  const controllerModels = [...new Set(brain.requests.filter((r) => !r.seat).map((r) => r.model))];
  return { seats: read.value.seats, seatModels, controllerModels, run };
}

function tierCases(backend: BackendName) {
  it(`${backend}: a scripted seat asking for opus runs on scripted:<policy>@opus, recorded on the seat`, async () => {
    const { seats, seatModels, controllerModels } = await tierSession(
      backend,
      'scripted:full-controller',
      true,
      'opus',
    );
    expect(seatModels).toEqual(['scripted:full-controller@opus']);
    expect(controllerModels).toEqual(['scripted:full-controller']);
    expect(seats.map((seat) => [seat.model, seat.modelUsed])).toEqual([
      ['opus', 'scripted:full-controller@opus'],
    ]);
  });

  it(`${backend}: a live seat asking for haiku runs on the tier’s model; one asking for none, on the session’s`, async () => {
    const haiku = await tierSession(backend, 'claude-sonnet-5-5', false, 'haiku');
    expect(haiku.seatModels).toEqual(['claude-haiku-5-5']);
    expect(haiku.seats.map((seat) => seat.modelUsed)).toEqual(['claude-haiku-5-5']);
    expect(haiku.run.outcome.modelReported).toBe('claude-sonnet-5-5');
    // The usage is split by model, so the rep prices each tier at its own rates (rep-cost.ts).
    const byModel = haiku.run.outcome.usageByModel ?? {};
    expect(Object.keys(byModel).sort()).toEqual(['claude-haiku-5-5', 'claude-sonnet-5-5']);
    // Haiku 5.5 has no price in the table: the rep's cost is unknown, never priced at Sonnet's rates.
    const table = {
      price: () => -1,
      priceModel: (id: string, usage: TokenUsage) => priceSession('table', id, usage),
    };
    expect(repCostUsd(table, haiku.run.outcome)).toBeNull();
    const haikuRates = { input: 1, output: 5 };
    const priced = repCostUsd(
      {
        price: () => -1,
        priceModel: (id, usage) =>
          priceSession(id === 'claude-haiku-5-5' ? haikuRates : 'table', id, usage),
      },
      haiku.run.outcome,
    );
    const sonnet = byModel['claude-sonnet-5-5'];
    const cheap = byModel['claude-haiku-5-5'];
    if (sonnet === undefined || cheap === undefined) throw new Error('usage by model missing');
    expect(priced).toBeCloseTo(
      (priceSession('table', 'claude-sonnet-5-5', sonnet) ?? Number.NaN) +
        (priceSession(haikuRates, 'claude-haiku-5-5', cheap) ?? Number.NaN),
      9,
    );
    // Planted negative: priced all at the session model's rates, the figure differs.
    expect(priced).not.toBeCloseTo(
      priceSession('table', 'claude-sonnet-5-5', haiku.run.outcome.usage) ?? 0,
      9,
    );
    const none = await tierSession(backend, 'claude-sonnet-5-5', false, undefined);
    expect(none.seatModels).toEqual(['claude-sonnet-5-5']);
    expect(none.seats.map((seat) => [seat.model, seat.modelUsed])).toEqual([
      [null, 'claude-sonnet-5-5'],
    ]);
  });
}

describe('a seat’s model tier on the messages backend', () => {
  tierCases('messages');
});

const unavailable = engineUnavailable();
if (unavailable !== undefined) console.log(`model tiers on claude-code skipped: ${unavailable}`);

describe.skipIf(unavailable !== undefined)('a seat’s model tier on the claude-code backend', () => {
  tierCases('claude-code');
});
