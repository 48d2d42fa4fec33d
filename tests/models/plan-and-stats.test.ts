import { describe, expect, it } from 'vitest';
import { holmAdjust } from '../../harness/report/stats-holm.js';
import { scheduleReps, shardOf } from '../../harness/schedule/schedule.js';
import { endpointEnvironment } from '../../harness/session/provider-env.js';

/**
 * The plan across models (interleaved so an outage hits every arm alike,
 * sharded so shards keep RED and GREEN of a scenario and model together),
 * Holm's correction against known values, and the engine environment an
 * endpoint profile builds (Bedrock, Vertex, a bearer gateway with headers).
 */
describe('the plan with a model axis', () => {
  it('one model: ids and order exactly as they always were', () => {
    expect(scheduleReps(['red', 'green'], ['s1'], 2, null).map((rep) => rep.id)).toEqual(
      scheduleReps(['red', 'green'], ['s1'], 2).map((rep) => rep.id),
    );
    expect(scheduleReps(['red'], ['s1'], 1)[0]).toEqual({
      arm: 'red',
      scenario: 's1',
      model: null,
      rep: 1,
      id: 'red/s1-rep1',
    });
  });

  it('several models: rep by rep, scenario by scenario, model by model, the arms side by side', () => {
    const plan = scheduleReps(['red', 'green'], ['s1', 's2'], 2, ['a', 'b']).map((rep) => rep.id);
    expect(plan.slice(0, 8)).toEqual([
      'a/red/s1-rep1',
      'a/green/s1-rep1',
      'b/red/s1-rep1',
      'b/green/s1-rep1',
      'a/red/s2-rep1',
      'a/green/s2-rep1',
      'b/red/s2-rep1',
      'b/green/s2-rep1',
    ]);
    expect(plan).toHaveLength(16);
    expect(plan[8]).toBe('a/red/s1-rep2');
  });

  it('shards of a model axis are disjoint, cover the plan, and keep RED and GREEN of a scenario and model together', () => {
    const plan = scheduleReps(['red', 'green'], ['s1', 's2'], 4, ['a', 'b', 'c']);
    for (const count of [2, 3, 4]) {
      const slices = Array.from({ length: count }, (_, index) =>
        shardOf(plan, { index: index + 1, count }),
      );
      const ids = slices.flat().map((rep) => rep.id);
      expect(new Set(ids).size).toBe(plan.length);
      expect(ids.sort()).toEqual(plan.map((rep) => rep.id).sort());
      for (const slice of slices) {
        for (const rep of slice) {
          const partner = slice.find(
            (other) =>
              other.rep === rep.rep &&
              other.scenario === rep.scenario &&
              other.model === rep.model &&
              other.arm !== rep.arm,
          );
          // With 12 cells per rep and at most 4 shards, a shard holds 3 or more cells of a rep.
          expect(partner, `${rep.id} in shard of ${count}`).toBeDefined();
        }
      }
    }
  });
});

describe('Holm correction', () => {
  it('matches the step-down values, keeps their order, caps at 1 and leaves missing tests out', () => {
    const adjusted = holmAdjust([0.01, 0.04, 0.03, 0.005]);
    // Sorted: 0.005×4 = 0.02, 0.01×3 = 0.03, 0.03×2 = 0.06, 0.04×1 → max(0.06, 0.04) = 0.06.
    expect(adjusted.map((p) => Number(p?.toFixed(6)))).toEqual([0.03, 0.06, 0.06, 0.02]);
    expect(holmAdjust([0.6, null, 0.7])).toEqual([1, null, 1]);
    expect(holmAdjust([0.004, null])).toEqual([0.004, null]);
    expect(holmAdjust([])).toEqual([]);
  });

  it('can fail to reject what a single test rejects (planted negative for "helps on every model")', () => {
    const [first, second] = holmAdjust([0.03, 0.04]);
    expect(first).toBeGreaterThan(0.05);
    expect(second).toBeGreaterThan(0.05);
  });
});

describe('the engine environment of an endpoint profile', () => {
  const base = { id: 'm', baseUrl: undefined, apiKey: 'secret-key-value', scripted: false };

  it('the default endpoint: the key as ANTHROPIC_API_KEY, nothing else', () => {
    expect(endpointEnvironment(base, undefined)).toEqual({ ANTHROPIC_API_KEY: 'secret-key-value' });
  });

  it('a bearer gateway with headers: ANTHROPIC_AUTH_TOKEN, its URL, one header per line', () => {
    expect(
      endpointEnvironment(
        {
          ...base,
          baseUrl: 'https://gateway.example.test',
          auth: 'bearer',
          headers: { 'x-team': 'evals', 'x-budget': 'q4' },
        },
        'x-redgreen-session: red/s1-rep1',
      ),
    ).toEqual({
      ANTHROPIC_AUTH_TOKEN: 'secret-key-value',
      ANTHROPIC_BASE_URL: 'https://gateway.example.test',
      ANTHROPIC_CUSTOM_HEADERS: 'x-team: evals\nx-budget: q4\nx-redgreen-session: red/s1-rep1',
    });
  });

  it('Bedrock: the engine’s switch, region, API key and passed credentials; no Anthropic key', () => {
    const env = endpointEnvironment(
      {
        ...base,
        baseUrl: 'https://bedrock-runtime.us-east-1.amazonaws.com',
        provider: {
          kind: 'bedrock',
          region: 'us-east-1',
          project: undefined,
          passEnv: { AWS_SESSION_TOKEN: 'session' },
        },
      },
      undefined,
    );
    expect(env).toEqual({
      CLAUDE_CODE_USE_BEDROCK: '1',
      AWS_REGION: 'us-east-1',
      ANTHROPIC_BEDROCK_BASE_URL: 'https://bedrock-runtime.us-east-1.amazonaws.com',
      AWS_BEARER_TOKEN_BEDROCK: 'secret-key-value',
      AWS_SESSION_TOKEN: 'session',
    });
  });

  it('Vertex: the engine’s switch, region, project and credentials file', () => {
    expect(
      endpointEnvironment(
        {
          ...base,
          apiKey: '/secrets/sa.json',
          provider: { kind: 'vertex', region: 'us-east5', project: 'evals-1', passEnv: {} },
        },
        undefined,
      ),
    ).toEqual({
      CLAUDE_CODE_USE_VERTEX: '1',
      CLOUD_ML_REGION: 'us-east5',
      ANTHROPIC_VERTEX_PROJECT_ID: 'evals-1',
      GOOGLE_APPLICATION_CREDENTIALS: '/secrets/sa.json',
    });
  });
});
