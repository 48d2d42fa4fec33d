/**
 * Which gates `run --only` keeps. A selection that names no scenario runs
 * every scenario of the models and arms it keeps, so a gate over every
 * scenario (the panel's `no-scenario-regresses`) stays and is judged; only
 * a `scenario=` selection that leaves out every scenario a gate reads
 * drops it (and the run says so), as does an arm selection that leaves a
 * comparison one role.
 */
import { cpSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveRunRequest } from '../../harness/run/run-request.js';
import { repoRoot } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { readJson } from './support.js';

const PANEL = path.join(repoRoot, 'scenarios/sdd-panel.campaign.json');

async function gatesOf(flags: {
  campaign?: string;
  only: string[];
  models?: string[];
}): Promise<{ kept: string[]; dropped: string[] }> {
  const request = await resolveRunRequest(
    { campaign: PANEL, out: path.join(makeTempDir(), 'out'), ...flags },
    repoRoot,
    {},
    new Date(0),
  );
  if (!request.ok) throw new Error(request.error.problem);
  const { gates, droppedGates } = request.value.campaign;
  return { kept: gates.map((gate) => gate.kind), dropped: droppedGates.map((gate) => gate.kind) };
}

/** The panel with its regression gate limited to S1 and S2, beside the repository's scenarios. */
function panelGatedOnS1S2(): string {
  const dir = path.join(makeTempDir(), 'scenarios');
  cpSync(path.join(repoRoot, 'scenarios'), dir, { recursive: true });
  const file = path.join(dir, 'panel-s1s2.campaign.json');
  const panel = readJson<Record<string, unknown> & { arms: { skill: string }[] }>(PANEL);
  writeFileSync(
    file,
    JSON.stringify({
      ...panel,
      arms: panel.arms.map((arm) => ({
        ...arm,
        skill: path.resolve(path.dirname(PANEL), arm.skill),
      })),
      gates: [
        {
          kind: 'no-scenario-regresses',
          alpha: 0.05,
          correction: 'holm',
          scenarios: ['s1', 's2'],
        },
      ],
    }),
  );
  return file;
}

describe('run --only keeps the gates whose cells it runs', () => {
  it('--only model= (no scenario named) keeps no-scenario-regresses over every scenario', async () => {
    const gates = await gatesOf({
      models: ['scripted:skill-reader', 'scripted:literal'],
      only: ['model=scripted-literal'],
    });
    expect(gates).toEqual({
      kept: ['no-scenario-regresses', 'max-indeterminate-share'],
      dropped: [],
    });
  });

  it('--only arm= keeps it with both roles left, and drops it with one', async () => {
    const both = await gatesOf({ only: ['arm=red', 'arm=green'] });
    expect(both.kept).toContain('no-scenario-regresses');
    const one = await gatesOf({ only: ['arm=green'] });
    expect(one.dropped).toEqual(['no-scenario-regresses']);
  });

  it('a scenario= selection drops it only when it leaves out every scenario the gate reads', async () => {
    const file = panelGatedOnS1S2();
    expect(await gatesOf({ campaign: file, only: ['scenario=s1-probe'] })).toEqual({
      kept: [],
      dropped: ['no-scenario-regresses'],
    });
    expect(await gatesOf({ campaign: file, only: ['scenario=s2'] })).toEqual({
      kept: ['no-scenario-regresses'],
      dropped: [],
    });
    // A gate over every scenario reads whichever the selection runs.
    expect((await gatesOf({ only: ['scenario=breaker-at-cap'] })).kept).toContain(
      'no-scenario-regresses',
    );
  });
});
