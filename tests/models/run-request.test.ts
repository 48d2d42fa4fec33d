import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { modelBanner, resolveRunRequest } from '../../harness/run/run-request.js';
import { repoRoot } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';

/**
 * What a run records of its models for `--resume`: a plain one-model run
 * only `model`, as before; several models, or one given with an endpoint or
 * a name, each as a `--model` spec, so a resume runs exactly the same ones.
 */
async function invocation(models: string[] | undefined) {
  const request = await resolveRunRequest(
    {
      campaign: path.join(repoRoot, 'scenarios/plan-scoped-workspace.campaign.json'),
      models,
      out: path.join(makeTempDir(), 'out'),
    },
    repoRoot,
    {},
    new Date(0),
  );
  if (!request.ok) throw new Error(request.error.problem);
  return request.value.invocation;
}

describe('the invocation a run records of its models', () => {
  it('one plain model: only `model`, as it always was', async () => {
    const recorded = await invocation(undefined);
    expect(recorded.model).toBe('scripted:skill-reader');
    expect(recorded.models).toBeUndefined();
    expect((await invocation(['scripted:forensic'])).models).toBeUndefined();
  });

  it('one named model, or several: each as a spec', async () => {
    expect((await invocation(['scripted:literal,name=lit'])).models).toEqual([
      'scripted:literal,name=lit',
    ]);
    expect((await invocation(['scripted:skill-reader', 'scripted:literal'])).models).toEqual([
      'scripted:skill-reader,name=scripted-skill-reader',
      'scripted:literal,name=scripted-literal',
    ]);
  });
});

describe('the banner of a run of some of its models (--only model=)', () => {
  async function banner(
    flags: { models?: string[]; only?: string[]; backend?: 'codex' },
    campaign: string,
  ) {
    const request = await resolveRunRequest(
      {
        campaign: path.join(repoRoot, 'scenarios', campaign),
        out: path.join(makeTempDir(), 'out'),
        ...flags,
      },
      repoRoot,
      {},
      new Date(0),
    );
    if (!request.ok) throw new Error(request.error.problem);
    return modelBanner(request.value);
  }

  it('counts the models it runs of the campaign’s, in words that fit one', async () => {
    const scripted = ['scripted:skill-reader', 'scripted:literal'];
    expect(await banner({ models: scripted }, 'plan-scoped-workspace.campaign.json')).toMatch(
      /^redgreen: run with 2 models: scripted-skill-reader = /,
    );
    const one = await banner(
      { models: scripted, only: ['model=scripted-literal'] },
      'plan-scoped-workspace.campaign.json',
    );
    expect(one).toMatch(
      /^redgreen: run with 1 of its 2 models \(--only model=\): scripted-literal = scripted:literal /,
    );
    expect(one).not.toMatch(/1 models/);
    const offline = await banner(
      { only: ['model=opus'] },
      'plan-scoped-workspace-models.campaign.json',
    );
    expect(offline).toMatch(
      /OFFLINE: the 1 of its 2 "models" this run runs \(--only model=\) is a scripted policy .*: opus = scripted:literal \(standing in for claude-opus-5-5\)\.$/,
    );
    expect(await banner({}, 'plan-scoped-workspace-models.campaign.json')).toMatch(
      /OFFLINE: each of its 2 "models" is a scripted policy/,
    );
  });

  it('on the codex engine, names the model id the engine runs with, not the campaign model a key would run', async () => {
    const codex = await banner({ backend: 'codex' }, 'plan-scoped-workspace.campaign.json');
    expect(codex).toMatch(
      /^redgreen: this run is OFFLINE: the codex engine runs with model id scripted:skill-reader, /,
    );
    expect(codex).not.toMatch(/claude-sonnet-5-5/);
    // Planted negative: on claude-code the key would run the campaign's model, and the line says so.
    expect(await banner({}, 'plan-scoped-workspace.campaign.json')).toMatch(
      /Set ANTHROPIC_API_KEY to run claude-sonnet-5-5\.$/,
    );
  });
});
