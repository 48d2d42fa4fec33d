import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { campaignSchema } from '../../harness/campaign/config-schema.js';
import { resolveModels } from '../../harness/campaign/model-axis.js';
import { policyNames } from '../../harness/model-server/index.js';
import { repoRoot } from '../helpers/cli.js';

/**
 * The README's example endpoint profiles (Bedrock, a gateway, a second
 * provider) are documented, not run: this keeps them valid campaign fields
 * that resolve live with their keys set and offline without.
 */
function readmeExample(): Record<string, unknown> {
  const readme = readFileSync(path.join(repoRoot, 'README.md'), 'utf8');
  const start = readme.indexOf('<!-- models-example -->');
  expect(start).toBeGreaterThan(0);
  const block = /```json\n([\s\S]*?)\n```/.exec(readme.slice(start));
  return JSON.parse(block?.[1] ?? '{}') as Record<string, unknown>;
}

describe("the README's example profiles", () => {
  const config = campaignSchema.parse({
    id: 'readme',
    title: 'readme',
    arms: [{ name: 'red', role: 'red', label: 'r', skill: '.', layout: 'flat' }],
    scenarios: ['s1'],
    reps: 1,
    ...readmeExample(),
  });
  const resolve = (env: NodeJS.ProcessEnv) =>
    resolveModels({
      config,
      campaignFile: 'README.md',
      requested: undefined,
      env,
      knownPolicies: policyNames(),
      backend: 'claude-code',
      only: [],
    });

  it('resolve live when each key variable is set: Bedrock, a bearer gateway, a second provider', () => {
    const axis = resolve({
      ANTHROPIC_API_KEY: 'k1-0123456789',
      AWS_BEARER_TOKEN_BEDROCK: 'k2-0123456789',
      LLM_GATEWAY_TOKEN: 'k3-0123456789',
      EXAMPLE_PROVIDER_API_KEY: 'k4-0123456789',
    });
    expect(axis.ok).toBe(true);
    if (!axis.ok) return;
    expect(
      axis.value.models.map((model) => [model.name, model.choice.kind, model.endpoint?.provider]),
    ).toEqual([
      ['sonnet', 'live', undefined],
      ['opus-bedrock', 'live', 'bedrock'],
      ['opus-gateway', 'live', 'anthropic'],
      ['second', 'live', 'anthropic'],
    ]);
    expect(axis.value.models[2]?.endpoint?.auth).toBe('bearer');
  });

  it('resolve offline, each to its own stand-in, without keys', () => {
    const axis = resolve({});
    expect(axis.ok && axis.value.models.map((model) => model.choice.id)).toEqual([
      'scripted:skill-reader',
      'scripted:literal',
      'scripted:forensic',
      'scripted:always-redo',
    ]);
  });
});
