import { describe, expect, it } from 'vitest';
import { sessionIdentity } from '../../harness/campaign/identity.js';
import type { ResolvedCampaign } from '../../harness/campaign/load-campaign.js';
import {
  type CampaignModel,
  type ModelAxis,
  singleModelAxis,
} from '../../harness/campaign/model-axis.js';
import type { ModelChoice } from '../../harness/campaign/model-choice.js';
import type { FixtureFingerprint } from '../../harness/fixture/index.js';

/**
 * The campaign identity with a model axis: a one-model campaign hashes
 * exactly as it did before models were an axis (the values below were
 * computed by the code of commit 3935d20 from the same inputs), so existing
 * results directories resume and merge; several models hash each model's
 * name, id and endpoint, and a live profile's headers, but not its pricing
 * or concurrency limit.
 */
const campaign = {
  only: null,
  config: { id: 'frozen' },
  backend: 'claude-code',
  engines: ['claude-code'],
  limits: {
    maxTurns: 40,
    sessionTimeoutSeconds: 600,
    toolTimeoutSeconds: 120,
    toolOutputMaxBytes: 30000,
    maxCostUsd: 20,
  },
  seed: 7,
  arms: [
    { name: 'red', role: 'red', layout: 'flat' },
    { name: 'green', role: 'green', layout: 'scoped' },
  ],
  scenarios: [
    {
      id: 's1',
      config: {
        plan: 'docs/plans/p.md',
        fixture: { recipe: 'widget-v3', scenario: 's1', variables: {} },
        stop: 'report',
      },
      prompt: { source: 'prompt {{x}}' },
      compiled: { promptVariables: {} },
    },
  ],
} as unknown as ResolvedCampaign;

const common = {
  campaign,
  engine: 'claude-code 2.1.332',
  sandbox: 'bubblewrap',
  harness: '0.1.0',
  trees: new Map([
    ['red', 'a'.repeat(40)],
    ['green', 'b'.repeat(40)],
  ]),
  fixtures: new Map<string, FixtureFingerprint>([
    [
      'widget-v3:s1:flat',
      {
        head: 'c'.repeat(40),
        untracked: [{ path: 'x', sha256: 'd'.repeat(64) }],
      } as unknown as FixtureFingerprint,
    ],
  ]),
};
const scripted: ModelChoice = {
  kind: 'scripted',
  id: 'scripted:skill-reader',
  policy: 'skill-reader',
  reason: 'no-api-key',
};
const live: ModelChoice = {
  kind: 'live',
  id: 'claude-sonnet-5-5',
  baseUrl: 'http://127.0.0.1:9/x?k=1',
};

function axisOf(models: CampaignModel[]): ModelAxis {
  return { models, all: models, multi: models.length > 1, fromFlags: false };
}

function model(
  name: string,
  choice: ModelChoice,
  extra: Partial<CampaignModel> = {},
): CampaignModel {
  return {
    name,
    choice,
    endpoint: null,
    standsInFor: null,
    pricing: 'table',
    source: name,
    spec: choice.id,
    ...extra,
  };
}

describe('the campaign identity with a model axis', () => {
  it('one model hashes as it always did (scripted and live)', () => {
    expect(sessionIdentity({ ...common, models: singleModelAxis(scripted) })).toBe(
      '89ddfabead625a438d030ef6ccfdd196d034443d4be48ea213577a7f197f1922',
    );
    expect(sessionIdentity({ ...common, models: singleModelAxis(live) })).toBe(
      'eaccb2403a06f40d0b5a39711462c854a672d3fcf6017897596437c0f50cd710',
    );
  });

  it('several models: names and ids count; a live profile’s headers count; pricing and concurrency do not', () => {
    const literal: ModelChoice = { ...scripted, id: 'scripted:literal', policy: 'literal' };
    const two = sessionIdentity({
      ...common,
      models: axisOf([model('a', scripted), model('b', literal)]),
    });
    expect(two).not.toBe(sessionIdentity({ ...common, models: singleModelAxis(scripted) }));
    expect(
      sessionIdentity({ ...common, models: axisOf([model('a', scripted), model('c', literal)]) }),
    ).not.toBe(two);
    const endpoint = {
      name: 'gateway',
      provider: 'anthropic' as const,
      baseUrl: 'https://gateway.example.test',
      keyEnv: 'GATEWAY_KEY',
      auth: 'api-key' as const,
      passEnv: [],
      region: undefined,
      project: undefined,
      headers: { 'x-team': 'evals' },
      concurrency: 2,
      pricing: undefined,
    };
    const gateway: ModelChoice = { kind: 'live', id: 'claude-opus-5-5', baseUrl: endpoint.baseUrl };
    const profiled = sessionIdentity({
      ...common,
      models: axisOf([model('a', live), model('b', gateway, { endpoint })]),
    });
    expect(
      sessionIdentity({
        ...common,
        models: axisOf([
          model('a', live, { pricing: 'unpriced' }),
          model('b', gateway, { endpoint: { ...endpoint, concurrency: 8 }, pricing: 'unpriced' }),
        ]),
      }),
    ).toBe(profiled);
    expect(
      sessionIdentity({
        ...common,
        models: axisOf([
          model('a', live),
          model('b', gateway, { endpoint: { ...endpoint, headers: { 'x-team': 'other' } } }),
        ]),
      }),
    ).not.toBe(profiled);
  });
});

describe('the campaign identity of library arms', () => {
  const libraryCampaign = {
    ...campaign,
    arms: campaign.arms.map((arm) => ({ ...arm, library: { overrides: [] } })),
  } as unknown as ResolvedCampaign;
  const identity = (plugin: string) =>
    sessionIdentity({
      ...common,
      campaign: libraryCampaign,
      models: singleModelAxis(scripted),
      plugins: new Map([
        ['red', plugin],
        ['green', plugin],
      ]),
    });
  it('names the plugin the skills are listed under (a manifest-less library’s library.name is in no tree)', () => {
    expect(identity('skills')).not.toBe(identity('devflow'));
    expect(identity('skills')).toBe(identity('skills'));
    expect(identity('skills')).not.toBe(
      sessionIdentity({ ...common, models: singleModelAxis(scripted) }),
    );
  });
});
