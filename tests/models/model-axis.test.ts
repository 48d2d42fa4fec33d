import { describe, expect, it } from 'vitest';
import { type CampaignConfig, campaignSchema } from '../../harness/campaign/config-schema.js';
import { resolveModels } from '../../harness/campaign/model-axis.js';
import { defaultModelName, parseModelSpec } from '../../harness/campaign/model-spec.js';
import { formatInputError } from '../../harness/lib/input-error.js';
import { policyNames } from '../../harness/model-server/index.js';

/**
 * How a campaign's models resolve: offline stand-ins when no key is set,
 * live models at their endpoint profiles when every key is, and one-line
 * errors naming the field (never a key's value) for an unknown profile, a
 * key unset for a live model, a model listed twice, and the rest.
 */
const CANARY = 'sk-ant-canary-models-0123456789abcdef';
const FILE = '/campaigns/models.campaign.json';

function campaign(changes: Record<string, unknown>): CampaignConfig {
  return campaignSchema.parse({
    id: 'models',
    title: 'models',
    arms: [{ name: 'red', role: 'red', label: 'r', skill: '.', layout: 'flat' }],
    scenarios: ['s1'],
    reps: 1,
    ...changes,
  });
}

const twoModels = {
  models: [
    { id: 'claude-sonnet-5-5', offline: 'scripted:skill-reader' },
    { id: 'claude-opus-5-5', name: 'opus', endpoint: 'gateway', offline: 'scripted:literal' },
  ],
  endpoints: {
    gateway: {
      baseUrl: 'https://gateway.example.test/anthropic',
      keyEnv: 'GATEWAY_KEY',
      headers: { 'x-team': 'evals' },
      pricing: 'unpriced',
      concurrency: 2,
    },
  },
};

function resolve(
  config: CampaignConfig,
  env: NodeJS.ProcessEnv = {},
  extra: { requested?: string[]; only?: string[]; backend?: 'claude-code' | 'messages' } = {},
) {
  return resolveModels({
    config,
    campaignFile: FILE,
    requested: extra.requested,
    env,
    knownPolicies: policyNames(),
    backend: extra.backend ?? 'claude-code',
    only: extra.only ?? [],
  });
}

function problem(result: ReturnType<typeof resolve>): string {
  if (result.ok) throw new Error('expected an input error');
  return formatInputError(result.error);
}

describe('a one-model campaign (model + offlineModel) resolves as it always did', () => {
  const legacy = campaign({ model: 'claude-sonnet-5-5', offlineModel: 'scripted:skill-reader' });

  it('offline without ANTHROPIC_API_KEY: the offlineModel, and no model axis', () => {
    const axis = resolve(legacy);
    expect(axis.ok).toBe(true);
    if (!axis.ok) return;
    expect(axis.value.multi).toBe(false);
    expect(axis.value.models).toHaveLength(1);
    expect(axis.value.models[0]?.choice).toMatchObject({
      kind: 'scripted',
      id: 'scripted:skill-reader',
      reason: 'no-api-key',
    });
    expect(axis.value.models[0]?.standsInFor).toBe('claude-sonnet-5-5');
  });

  it('live with a key, at ANTHROPIC_BASE_URL when it is set', () => {
    const axis = resolve(legacy, {
      ANTHROPIC_API_KEY: CANARY,
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:9999',
    });
    expect(axis.ok && axis.value.models[0]?.choice).toEqual({
      kind: 'live',
      id: 'claude-sonnet-5-5',
      baseUrl: 'http://127.0.0.1:9999',
    });
  });

  it('a schema refuses both model and models, and neither', () => {
    const message = (changes: Record<string, unknown>): string => {
      const parsed = campaignSchema.safeParse({
        id: 'x',
        title: 'x',
        arms: [{ name: 'red', role: 'red', label: 'r', skill: '.', layout: 'flat' }],
        scenarios: ['s1'],
        reps: 1,
        ...changes,
      });
      return parsed.success ? '' : (parsed.error.issues[0]?.message ?? '');
    };
    expect(
      message({ model: 'x', offlineModel: 'scripted:literal', models: [{ id: 'y' }] }),
    ).toMatch(/either "model" \(one model\) or "models" \(several\), not both/);
    expect(message({})).toMatch(/names no model/);
    expect(message({ model: 'x' })).toMatch(/needs "offlineModel"/);
  });
});

describe('several models', () => {
  it('offline (no key set at all): each model is its stand-in, under the name of the model it stands for', () => {
    const axis = resolve(campaign(twoModels));
    expect(axis.ok).toBe(true);
    if (!axis.ok) return;
    expect(axis.value.multi).toBe(true);
    expect(
      axis.value.models.map((model) => [model.name, model.choice.id, model.standsInFor]),
    ).toEqual([
      ['claude-sonnet-5-5', 'scripted:skill-reader', 'claude-sonnet-5-5'],
      ['opus', 'scripted:literal', 'claude-opus-5-5'],
    ]);
    // The profile is kept offline (its concurrency limit still applies); it sends nothing.
    expect(axis.value.models[1]?.endpoint?.concurrency).toBe(2);
    // Recorded so that --resume runs the same models under the same names.
    expect(axis.value.models.map((model) => model.spec)).toEqual([
      'scripted:skill-reader,name=claude-sonnet-5-5',
      'scripted:literal,endpoint=gateway,name=opus',
    ]);
  });

  it('live when every key variable is set: each model at its own endpoint, with its pricing', () => {
    const axis = resolve(campaign(twoModels), { ANTHROPIC_API_KEY: CANARY, GATEWAY_KEY: CANARY });
    expect(axis.ok).toBe(true);
    if (!axis.ok) return;
    const [sonnet, opus] = axis.value.models;
    expect(sonnet?.choice).toEqual({ kind: 'live', id: 'claude-sonnet-5-5', baseUrl: undefined });
    expect(opus?.choice).toEqual({
      kind: 'live',
      id: 'claude-opus-5-5',
      baseUrl: 'https://gateway.example.test/anthropic',
    });
    expect(opus?.pricing).toBe('unpriced');
    expect(sonnet?.pricing).toBe('table');
    expect(opus?.endpoint?.headers).toEqual({ 'x-team': 'evals' });
  });

  it('a profile without a base URL goes to the Anthropic API, never to the caller’s ANTHROPIC_BASE_URL', () => {
    const config = campaign({
      models: [{ id: 'claude-opus-5-5', endpoint: 'second' }],
      endpoints: { second: { keyEnv: 'SECOND_KEY' } },
    });
    const axis = resolve(config, { SECOND_KEY: CANARY, ANTHROPIC_BASE_URL: 'http://127.0.0.1:1' });
    expect(axis.ok && axis.value.models[0]?.choice).toMatchObject({
      baseUrl: 'https://api.anthropic.com',
    });
  });

  it('a key variable unset for a live model, while another is set: names the model and the variable, never a value', () => {
    const message = problem(resolve(campaign(twoModels), { ANTHROPIC_API_KEY: CANARY }));
    expect(message).toMatch(
      /models\[1\]: "claude-opus-5-5" is a live model on endpoint gateway, whose key variable GATEWAY_KEY is not set/,
    );
    expect(message).not.toContain(CANARY);
  });

  it('an unknown endpoint profile names the field and lists the profiles', () => {
    const config = campaign({
      ...twoModels,
      models: [{ id: 'claude-opus-5-5', endpoint: 'gatewy', offline: 'scripted:literal' }],
    });
    expect(problem(resolve(config))).toMatch(
      /models\[0\]\.endpoint: "gatewy" is no endpoint profile of the campaign; use one of gateway/,
    );
  });

  it('the same model listed twice is refused, by name and by id at one endpoint', () => {
    const sameName = campaign({
      models: [
        { id: 'scripted:skill-reader' },
        { id: 'scripted:literal', name: 'scripted-skill-reader' },
      ],
    });
    expect(problem(resolve(sameName))).toMatch(
      /models\[1\]: the model name "scripted-skill-reader" is taken \(also .*models\[0\]\)/,
    );
    const sameId = campaign({
      models: [
        { id: 'claude-opus-5-5', name: 'a' },
        { id: 'claude-opus-5-5', name: 'b' },
      ],
    });
    expect(problem(resolve(sameId, { ANTHROPIC_API_KEY: CANARY }))).toMatch(
      /models\[1\]: "claude-opus-5-5" at the default endpoint is listed twice/,
    );
    const twice = campaign({ models: [{ id: 'scripted:literal' }, { id: 'scripted:literal' }] });
    expect(problem(resolve(twice))).toMatch(/"scripted:literal" is listed twice/);
  });

  it('the same model listed twice is refused offline too, whatever the keys (an offline check catches what fails live)', () => {
    const entries = (endpoint?: string) =>
      [
        { id: 'claude-sonnet-5-5', name: 'a', offline: 'scripted:skill-reader' },
        { id: 'claude-sonnet-5-5', name: 'b', offline: 'scripted:literal' },
      ].map((entry) => (endpoint === undefined ? entry : { ...entry, endpoint }));
    const atDefault = campaign({ ...twoModels, models: entries() });
    for (const env of [{}, { ANTHROPIC_API_KEY: CANARY }]) {
      const message = problem(resolve(atDefault, env));
      expect(message).toMatch(
        /^\/campaigns\/models\.campaign\.json: models\[1\]: "claude-sonnet-5-5" at the default endpoint is listed twice \(also .*models\[0\]\)/,
      );
      expect(message).not.toContain(CANARY);
    }
    expect(problem(resolve(campaign({ ...twoModels, models: entries('gateway') })))).toMatch(
      /models\[1\]: "claude-sonnet-5-5" at endpoint gateway is listed twice/,
    );
    const scripted = campaign({
      models: [
        { id: 'scripted:skill-reader', name: 'a' },
        { id: 'scripted:skill-reader', name: 'b', endpoint: 'gateway' },
      ],
      endpoints: twoModels.endpoints,
    });
    expect(problem(resolve(scripted))).toMatch(
      /models\[1\]: "scripted:skill-reader" is listed twice \(also .*models\[0\]\)/,
    );
    expect(
      problem(
        resolve(atDefault, {}, { requested: ['scripted:literal', 'scripted:literal,name=x'] }),
      ),
    ).toMatch(
      /^--model scripted:literal,name=x: "scripted:literal" is listed twice \(also --model scripted:literal\)/,
    );
    // Not twice: one id at two endpoints, and a live model whose stand-in another entry runs.
    const twoEndpoints = campaign({
      ...twoModels,
      models: [entries()[0], { ...entries('gateway')[1] }],
    });
    expect(resolve(twoEndpoints).ok).toBe(true);
    const standIn = campaign({
      models: [
        { id: 'claude-sonnet-5-5', name: 'a', offline: 'scripted:skill-reader' },
        { id: 'scripted:skill-reader', name: 'b' },
      ],
    });
    expect(resolve(standIn).ok).toBe(true);
  });

  it('offline, a model without a stand-in is refused, naming it and its key variable', () => {
    const config = campaign({ models: [{ id: 'claude-opus-5-5' }, { id: 'scripted:literal' }] });
    expect(problem(resolve(config))).toMatch(
      /models\[0\]: "claude-opus-5-5" has no offline stand-in, and no key is set \(ANTHROPIC_API_KEY\)/,
    );
  });

  it('a scripted model names a real policy, or the error lists them', () => {
    const config = campaign({ models: [{ id: 'scripted:psychic' }, { id: 'scripted:literal' }] });
    expect(problem(resolve(config))).toMatch(
      /models\[0\]: "scripted:psychic" names no scripted policy; use one of .*scripted:skill-reader/,
    );
  });

  it('a Bedrock model cannot run on the messages backend', () => {
    const config = campaign({
      models: [{ id: 'anthropic.claude-opus-5-5-v1:0', endpoint: 'bedrock' }],
      endpoints: { bedrock: { provider: 'bedrock', region: 'us-east-1' } },
    });
    const env = { AWS_BEARER_TOKEN_BEDROCK: CANARY };
    expect(problem(resolve(config, env, { backend: 'messages' }))).toMatch(
      /bedrock endpoint \(bedrock\), which the messages backend cannot reach/,
    );
    const axis = resolve(config, env);
    expect(axis.ok && axis.value.models[0]?.endpoint).toMatchObject({
      provider: 'bedrock',
      region: 'us-east-1',
      keyEnv: 'AWS_BEARER_TOKEN_BEDROCK',
      baseUrl: undefined,
    });
  });

  it('profile fields are checked against the provider', () => {
    const bad = (profile: Record<string, unknown>) =>
      problem(
        resolve(
          campaign({
            models: [{ id: 'm', endpoint: 'p', offline: 'scripted:literal' }],
            endpoints: { p: profile },
          }),
        ),
      );
    expect(bad({ provider: 'bedrock' })).toMatch(
      /endpoints\.p\.region: a bedrock profile needs its region/,
    );
    expect(bad({ provider: 'vertex', region: 'us-east5' })).toMatch(/endpoints\.p\.project/);
    expect(bad({ passEnv: ['AWS_ACCESS_KEY_ID'] })).toMatch(
      /endpoints\.p\.passEnv: applies to bedrock and vertex/,
    );
    expect(bad({ provider: 'bedrock', region: 'us-east-1', auth: 'bearer' })).toMatch(
      /endpoints\.p\.auth/,
    );
    expect(bad({ keyEnv: null })).toMatch(
      /endpoints\.p\.keyEnv: is null and passEnv names no variable/,
    );
  });

  it('a campaign file never holds a key: credential headers and URLs with credentials are refused', () => {
    const parse = (profile: Record<string, unknown>) =>
      campaignSchema.safeParse({
        id: 'x',
        title: 'x',
        arms: [{ name: 'red', role: 'red', label: 'r', skill: '.', layout: 'flat' }],
        scenarios: ['s1'],
        reps: 1,
        models: [{ id: 'm', endpoint: 'p' }],
        endpoints: { p: profile },
      }).success;
    expect(parse({ headers: { 'x-api-key': CANARY } })).toBe(false);
    expect(parse({ headers: { Authorization: `Bearer ${CANARY}` } })).toBe(false);
    expect(parse({ baseUrl: `https://user:${CANARY}@gateway.example.test` })).toBe(false);
    expect(parse({ keyEnv: CANARY })).toBe(false);
    expect(parse({ headers: { 'x-team': 'evals' }, keyEnv: 'GATEWAY_KEY' })).toBe(true);
  });

  it('"every" is no model name: it means every model in a gate', () => {
    expect(() => campaign({ models: [{ id: 'x', name: 'every' }] })).toThrow(/reserved/);
    expect(defaultModelName('every')).not.toBe('every');
  });
});

describe('--model (repeatable) replaces the campaign’s models', () => {
  it('parses id and options, and completes them from the campaign entry of the same id', () => {
    expect(parseModelSpec('claude-opus-5-5,endpoint=gateway,name=opus')).toEqual({
      ok: true,
      value: { id: 'claude-opus-5-5', endpoint: 'gateway', name: 'opus' },
    });
    const axis = resolve(
      campaign(twoModels),
      { GATEWAY_KEY: CANARY },
      { requested: ['claude-opus-5-5'] },
    );
    expect(axis.ok).toBe(true);
    if (!axis.ok) return;
    expect(axis.value.fromFlags).toBe(true);
    expect(axis.value.multi).toBe(false);
    expect(axis.value.models[0]).toMatchObject({ name: 'opus', pricing: 'unpriced' });
    expect(axis.value.models[0]?.endpoint?.name).toBe('gateway');
  });

  it('two scripted policies side by side are two models', () => {
    const axis = resolve(
      campaign({ model: 'claude-sonnet-5-5', offlineModel: 'scripted:skill-reader' }),
      {},
      { requested: ['scripted:skill-reader', 'scripted:literal'] },
    );
    expect(axis.ok && axis.value.models.map((model) => model.name)).toEqual([
      'scripted-skill-reader',
      'scripted-literal',
    ]);
  });

  it('a live --model without its key says how to run offline; a spec given twice or with an unknown option is refused', () => {
    const legacy = campaign({ model: 'claude-sonnet-5-5', offlineModel: 'scripted:skill-reader' });
    expect(problem(resolve(legacy, {}, { requested: ['claude-sonnet-5-5'] }))).toMatch(
      /ANTHROPIC_API_KEY is not set.*scripted:skill-reader/,
    );
    expect(
      problem(resolve(legacy, {}, { requested: ['scripted:literal', 'scripted:literal'] })),
    ).toMatch(/--model scripted:literal: is given twice/);
    expect(problem(resolve(legacy, {}, { requested: ['scripted:literal,region=x'] }))).toMatch(
      /--model scripted:literal,region=x: "region=x" is not one of/,
    );
  });

  it('--only model= selects models, and names one the run lacks', () => {
    const config = campaign(twoModels);
    const axis = resolve(config, {}, { only: ['opus'] });
    expect(axis.ok && axis.value.models.map((model) => model.name)).toEqual(['opus']);
    expect(axis.ok && axis.value.multi).toBe(true);
    expect(problem(resolve(config, {}, { only: ['haiku'] }))).toMatch(
      /--only model=haiku: the run has no model "haiku"; use one of claude-sonnet-5-5, opus/,
    );
  });
});
