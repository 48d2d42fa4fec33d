import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type ModelServer, startModelServer } from '../../harness/model-server/index.js';
import { runCampaignCli, writeCampaign } from '../campaign/support.js';
import { cleanEnv, runCli } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { closedPort, type RecordingGateway, startRecordingGateway } from './support.js';

/**
 * Bad model-axis input through the real CLI: one line naming the field and
 * the fix, exit 2, nothing created, and never a key's value; and `doctor`
 * on a campaign of several endpoint profiles.
 */
const CANARY = 'sk-ant-canary-cli-0123456789abcdef';

const profiles = {
  model: undefined,
  offlineModel: undefined,
  models: [
    { id: 'claude-sonnet-5-5', name: 'sonnet', offline: 'scripted:skill-reader' },
    { id: 'claude-opus-5-5', name: 'opus', endpoint: 'gateway', offline: 'scripted:literal' },
  ],
  endpoints: {
    gateway: { baseUrl: 'https://gateway.example.test/v1', keyEnv: 'GATEWAY_KEY', concurrency: 2 },
  },
};

async function expectInputError(
  args: readonly string[],
  pattern: RegExp,
  env: Record<string, string> = {},
): Promise<void> {
  const out = path.join(makeTempDir(), 'out');
  const run = await runCampaignCli([...args, '--out', out], env, 60_000);
  expect(run.exitCode, run.stderr).toBe(2);
  const lines = run.stderr.trim().split('\n');
  expect(lines, run.stderr).toHaveLength(1);
  expect(lines[0]).toMatch(/^redgreen: /);
  expect(lines[0]).toMatch(pattern);
  expect(`${run.stdout}${run.stderr}`).not.toContain(CANARY);
  expect(existsSync(out), 'nothing is created for bad input').toBe(false);
}

let server: ModelServer | undefined;
let gateway: RecordingGateway | undefined;
afterEach(async () => {
  await gateway?.close();
  gateway = undefined;
  await server?.close();
  server = undefined;
});

describe('redgreen run: bad model input is refused before anything is built or run', () => {
  it('an unknown endpoint profile', async () => {
    const file = writeCampaign({
      ...profiles,
      models: [profiles.models[0], { ...profiles.models[1], endpoint: 'gatewy' }],
    });
    await expectInputError(
      [file],
      /models\[1\]\.endpoint: "gatewy" is no endpoint profile of the campaign; use one of gateway/,
    );
  });

  it('a key variable unset for a live model while another model’s key is set', async () => {
    await expectInputError(
      [writeCampaign(profiles)],
      /models\[1\]: "claude-opus-5-5" is a live model on endpoint gateway, whose key variable GATEWAY_KEY is not set; export GATEWAY_KEY/,
      { ANTHROPIC_API_KEY: CANARY },
    );
  });

  it('the same model listed twice, in the file and as --model', async () => {
    const file = writeCampaign({
      ...profiles,
      models: [
        profiles.models[0],
        { ...profiles.models[0], name: undefined, offline: 'scripted:literal' },
      ],
    });
    await expectInputError(
      [file],
      /models\[1\]: "claude-sonnet-5-5" at the default endpoint is listed twice/,
      {
        ANTHROPIC_API_KEY: CANARY,
      },
    );
    await expectInputError(
      [writeCampaign(profiles), '--model', 'scripted:literal', '--model', 'scripted:literal'],
      /--model scripted:literal: is given twice/,
    );
  });

  it('the same model listed twice offline (no key set): refused as it is live', async () => {
    const file = writeCampaign({
      ...profiles,
      models: [profiles.models[0], { ...profiles.models[0], name: 'again' }],
    });
    await expectInputError(
      [file, '--dry-run'],
      /models\[1\]: "claude-sonnet-5-5" at the default endpoint is listed twice \(also .*models\[0\]\); list each model once/,
    );
    await expectInputError(
      [
        writeCampaign(profiles),
        '--model',
        'scripted:literal',
        '--model',
        'scripted:literal,name=x',
      ],
      /--model scripted:literal,name=x: "scripted:literal" is listed twice/,
    );
  });

  it('a gate naming a model the campaign does not run, and an --only model it lacks', async () => {
    const file = writeCampaign({
      ...profiles,
      gates: [{ kind: 'max-indeterminate-share', share: 0.2, model: 'haiku' }],
    });
    await expectInputError(
      [file],
      /gates\[0\]: names model "haiku", which the campaign does not run; use one of sonnet, opus, every/,
    );
    await expectInputError(
      [writeCampaign(profiles), '--only', 'model=haiku'],
      /--only model=haiku: the run has no model "haiku"; use one of sonnet, opus/,
    );
  });

  it('a credential in a header or a base URL is refused where it is written, and not echoed', async () => {
    const header = writeCampaign({
      ...profiles,
      endpoints: { gateway: { ...profiles.endpoints.gateway, headers: { 'x-api-key': CANARY } } },
    });
    await expectInputError(
      [header],
      /endpoints\.gateway\.headers\.x-api-key: a credential header does not belong in a campaign file: name its variable in keyEnv/,
    );
    const url = writeCampaign({
      ...profiles,
      endpoints: {
        gateway: {
          ...profiles.endpoints.gateway,
          baseUrl: `https://evals:${CANARY}@gateway.example.test`,
        },
      },
    });
    await expectInputError([url], /endpoints\.gateway\.baseUrl: a base URL carries no credentials/);
  });

  it('a refused key on a profile names its key variable, not ANTHROPIC_API_KEY, and never the key', async () => {
    server = await startModelServer({
      policy: 'literal',
      faults: [{ kind: 'status', status: 401, times: '*' }],
    });
    const file = writeCampaign({
      ...profiles,
      endpoints: { gateway: { baseUrl: server.baseUrl, keyEnv: 'GATEWAY_KEY' } },
    });
    await expectInputError(
      [file],
      /^redgreen: GATEWAY_KEY: http:\/\/127\.0\.0\.1:\d+ refused the key/,
      {
        ANTHROPIC_API_KEY: `${CANARY}-a`,
        GATEWAY_KEY: CANARY,
      },
    );
  });
});

describe('redgreen doctor <campaign>', () => {
  it('lists each model and endpoint profile with its key variable set or not, never the value; --check one request per endpoint', async () => {
    server = await startModelServer({ policy: 'literal' });
    const gone = await closedPort();
    const file = writeCampaign({
      ...profiles,
      models: [
        {
          id: 'claude-sonnet-5-5',
          name: 'sonnet',
          endpoint: 'local',
          offline: 'scripted:skill-reader',
        },
        { id: 'claude-opus-5-5', name: 'opus', endpoint: 'gone', offline: 'scripted:literal' },
        {
          id: 'anthropic.claude-opus-5-5-v1:0',
          name: 'bedrock-opus',
          endpoint: 'bedrock',
          offline: 'scripted:literal',
        },
      ],
      endpoints: {
        local: { baseUrl: server.baseUrl, keyEnv: 'LOCAL_KEY', headers: { 'x-team': 'evals' } },
        gone: { baseUrl: `http://127.0.0.1:${gone}`, keyEnv: 'GONE_KEY', pricing: 'unpriced' },
        bedrock: { provider: 'bedrock', region: 'us-east-1', concurrency: 2 },
      },
    });
    const offline = await runCli(['doctor', file], { env: cleanEnv() });
    expect(offline.exitCode, offline.stdout).toBe(0);
    expect(offline.stdout).toMatch(
      /ok\s+model opus\s+claude-opus-5-5 on endpoint gone; offline: scripted:literal/,
    );
    expect(offline.stdout).toMatch(
      /ok\s+endpoint local\s+http:\/\/127\.0\.0\.1:\d+; LOCAL_KEY not set; models claude-sonnet-5-5; headers x-team/,
    );
    expect(offline.stdout).toMatch(
      /ok\s+endpoint bedrock\s+bedrock in us-east-1; AWS_BEARER_TOKEN_BEDROCK not set; .*at most 2 at once/,
    );
    expect(offline.stdout).toMatch(
      /ok\s+keys\s+none of its key variables is set: a run is offline/,
    );

    const partly = await runCli(['doctor', file], { env: cleanEnv({ LOCAL_KEY: CANARY }) });
    expect(partly.exitCode).toBe(1);
    expect(partly.stdout).toMatch(
      /WARN\s+keys\s+some key variables are set but not GONE_KEY, AWS_BEARER_TOKEN_BEDROCK/,
    );

    const keys = {
      LOCAL_KEY: CANARY,
      GONE_KEY: `${CANARY}-gone`,
      AWS_BEARER_TOKEN_BEDROCK: `${CANARY}-aws`,
    };
    const check = await runCli(['doctor', file, '--check', '--json'], { env: cleanEnv(keys) });
    const checks = (
      JSON.parse(check.stdout) as { checks: { name: string; ok: boolean; detail: string }[] }
    ).checks;
    const byName = Object.fromEntries(checks.map((entry) => [entry.name, entry]));
    expect(byName['check local']).toMatchObject({
      ok: true,
      detail: 'accepted the key and answered for claude-sonnet-5-5',
    });
    expect(byName['check gone']).toMatchObject({
      ok: false,
      detail: expect.stringMatching(/endpoints\.gone\.baseUrl: cannot reach/),
    });
    expect(byName['check bedrock']).toMatchObject({
      ok: true,
      detail: expect.stringMatching(/not checked: the engine reaches bedrock itself/),
    });
    expect(byName.keys?.detail).toMatch(/every key variable is set: a run is live/);
    expect(check.exitCode).toBe(1);
    for (const value of Object.values(keys)) {
      expect(`${check.stdout}${check.stderr}${offline.stdout}${partly.stdout}`).not.toContain(
        value,
      );
    }
  });
});

describe('a key variable whose value holds a line break (a key pasted with a header after it)', () => {
  const HEAD = 'sk-ant-CANARYq7x9zmultiline';
  const BROKEN = `${HEAD}\nX-Evil: 1`;
  const noLeak = (text: string): void => {
    expect(text).not.toContain(HEAD);
    expect(text).not.toContain('X-Evil');
  };

  async function localGateway(): Promise<string> {
    server = await startModelServer({ policy: 'literal' });
    gateway = await startRecordingGateway(server.baseUrl);
    return gateway.baseUrl;
  }

  it('run: refused before anything is built or sent, one line naming only the variable, exit 2', async () => {
    const baseUrl = await localGateway();
    const file = writeCampaign({
      ...profiles,
      endpoints: { gateway: { baseUrl, keyEnv: 'GATEWAY_KEY' } },
    });
    for (const [variable, env] of [
      ['ANTHROPIC_API_KEY', { ANTHROPIC_API_KEY: BROKEN, GATEWAY_KEY: CANARY }],
      ['GATEWAY_KEY', { ANTHROPIC_API_KEY: CANARY, GATEWAY_KEY: BROKEN }],
    ] as const) {
      for (const extra of [[], ['--dry-run']]) {
        const out = path.join(makeTempDir(), 'out');
        const run = await runCampaignCli([file, ...extra, '--out', out], env, 60_000);
        expect(run.exitCode, run.stderr).toBe(2);
        const lines = run.stderr.trim().split('\n');
        expect(lines, run.stderr).toHaveLength(1);
        expect(lines[0]).toMatch(
          new RegExp(`^redgreen: ${variable}: holds a control character \\(a line break, a tab\\)`),
        );
        noLeak(`${run.stdout}${run.stderr}`);
        expect(`${run.stdout}${run.stderr}`).not.toContain(CANARY);
        expect(existsSync(out), 'nothing is created').toBe(false);
      }
    }
    expect(gateway?.requests).toHaveLength(0);
  });

  it('doctor --check (of a campaign, and of the default endpoint) names the variable, sends nothing, shows no part of the key', async () => {
    const baseUrl = await localGateway();
    const file = writeCampaign({
      ...profiles,
      models: [
        { id: 'claude-sonnet-5-5', name: 'sonnet', endpoint: 'local', offline: 'scripted:literal' },
      ],
      endpoints: { local: { baseUrl, keyEnv: 'LOCAL_KEY' } },
    });
    const check = await runCli(['doctor', file, '--check'], {
      env: cleanEnv({ LOCAL_KEY: BROKEN }),
    });
    expect(check.exitCode).toBe(1);
    expect(check.stdout).toMatch(
      /WARN\s+endpoint local\s+.*LOCAL_KEY set, but holds a control character/,
    );
    expect(check.stdout).toMatch(/WARN\s+check local\s+LOCAL_KEY: holds a control character/);
    const plain = await runCli(['doctor', '--check'], {
      env: cleanEnv({ ANTHROPIC_API_KEY: BROKEN, ANTHROPIC_BASE_URL: baseUrl }),
    });
    expect(plain.exitCode).toBe(1);
    expect(plain.stdout).toMatch(/WARN\s+endpoint\s+ANTHROPIC_API_KEY: holds a control character/);
    for (const output of [check, plain]) noLeak(`${output.stdout}${output.stderr}`);
    expect(gateway?.requests).toHaveLength(0);
  });
});
