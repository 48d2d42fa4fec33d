import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { GateConfig } from '../../harness/campaign/config-schema.js';
import { formatInputError } from '../../harness/lib/input-error.js';
import { evaluateGateOnModels } from '../../harness/report/model-gates.js';
import { interactionSummary } from '../../harness/report/model-summary.js';
import type { CellSummary } from '../../harness/report/results-schema.js';
import { type RunFlags, resolveRunRequest } from '../../harness/run/run-request.js';
import { scheduleRun, shardOf } from '../../harness/schedule/schedule.js';
import { writeCampaign } from '../campaign/support.js';
import { cellSummary } from '../helpers/cell-summary.js';
import { repoRoot } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';

/**
 * Engines as an axis, through the run request a `redgreen run` resolves (in
 * process: no session runs) and the gates and interaction judged on cell
 * summaries built by hand: the campaign's `engines` and `--engine` cross the
 * model axis with the engines (entries named by the engine, rep ids
 * `<engine>/<arm>/<scenario>-rep<N>`), a gate's `engine` picks the entry it
 * is judged on, and a planted regression on one engine fails `every`.
 */
const ENGINES = path.join(repoRoot, 'scenarios/plan-scoped-workspace-engines.campaign.json');
const ONE_ENGINE = path.join(repoRoot, 'scenarios/plan-scoped-workspace.campaign.json');

async function request(flags: Partial<RunFlags>) {
  return resolveRunRequest(
    { campaign: ENGINES, out: path.join(makeTempDir(), 'out'), ...flags },
    repoRoot,
    {},
    new Date(0),
  );
}

async function resolved(flags: Partial<RunFlags>) {
  const result = await request(flags);
  if (!result.ok) throw new Error(formatInputError(result.error));
  return result.value;
}

async function refusal(flags: Partial<RunFlags>): Promise<string> {
  const result = await request(flags);
  if (result.ok) throw new Error('resolved, expected a refusal');
  return formatInputError(result.error);
}

/** A two-engine copy of the default campaign in a temp dir, changed by `changes`. */
function enginesCampaign(changes: Record<string, unknown>): string {
  return writeCampaign({ backend: undefined, engines: ['claude-code', 'codex'], ...changes });
}

describe('the engines of a run', () => {
  it('a two-engine campaign crosses its model with each engine: entries, rep ids and the recorded invocation', async () => {
    const run = await resolved({});
    expect(run.campaign.engines).toEqual(['claude-code', 'codex']);
    expect(run.models.all.map((model) => [model.name, model.engine, model.choice.id])).toEqual([
      ['claude-code', 'claude-code', 'scripted:skill-reader'],
      ['codex', 'codex', 'scripted:skill-reader'],
    ]);
    const schedule = scheduleRun(run.campaign, run.models);
    expect(schedule).toHaveLength(2 * 2 * 2 * 5);
    expect(schedule.slice(0, 4).map((rep) => rep.id)).toEqual([
      'claude-code/red/s1-rep1',
      'claude-code/green/s1-rep1',
      'codex/red/s1-rep1',
      'codex/green/s1-rep1',
    ]);
    expect(run.invocation.engines).toEqual(['claude-code', 'codex']);
    expect(run.invocation.models).toBeUndefined();
  });

  it('--engine replaces the engines (repeatable, several models named <model>-on-<engine>); --backend is the one-engine form', async () => {
    const two = await resolved({
      campaign: ONE_ENGINE,
      engines: ['messages', 'codex'],
      models: ['scripted:skill-reader', 'scripted:literal,name=lit'],
    });
    expect(two.models.all.map((model) => model.name)).toEqual([
      'scripted-skill-reader-on-messages',
      'lit-on-messages',
      'scripted-skill-reader-on-codex',
      'lit-on-codex',
    ]);
    const one = await resolved({ backend: 'messages' });
    expect(one.campaign.engines).toEqual(['messages']);
    expect(one.models.multi).toBe(false);
    expect(scheduleRun(one.campaign, one.models)[0]?.id).toBe('red/s1-rep1');
    expect(one.invocation.engines).toBeUndefined();
    // Its `engine: every` gates hold on the one engine run.
    expect(one.campaign.droppedGates).toEqual([]);
  });

  it('a one-engine campaign records and schedules as it always did', async () => {
    const run = await resolved({ campaign: ONE_ENGINE });
    expect(run.campaign.engines).toEqual(['claude-code']);
    expect(run.models.all.map((model) => model.engine)).toEqual([undefined]);
    expect(run.invocation.engines).toBeUndefined();
    expect(scheduleRun(run.campaign, run.models)[0]?.id).toBe('red/s1-rep1');
  });

  it('shards cut between engine × scenario pairs: disjoint, covering, both arms of a pair in one shard', async () => {
    const run = await resolved({ reps: 2 });
    const schedule = scheduleRun(run.campaign, run.models);
    const shards = [1, 2, 3].map((index) => shardOf(schedule, { index, count: 3 }));
    const ids = shards.flat().map((rep) => rep.id);
    expect(new Set(ids).size).toBe(schedule.length);
    expect(ids.length).toBe(schedule.length);
    for (const shard of shards) {
      for (const rep of shard) {
        expect(
          shard.some(
            (other) =>
              other.model === rep.model &&
              other.scenario === rep.scenario &&
              other.rep === rep.rep &&
              other.arm !== rep.arm,
          ),
        ).toBe(true);
      }
    }
  });

  it('refuses, in one line naming both, a campaign with backend and engines, --backend with --engine, and an unknown gate engine', async () => {
    const both = enginesCampaign({ backend: 'codex' });
    expect(await refusal({ campaign: both })).toMatch(
      /^.*\.campaign\.json: gives both "backend" \(one engine\) and "engines" \(several\); keep one: .*$/,
    );
    expect(await refusal({ backend: 'codex', engines: ['messages'] })).toBe(
      '--backend and --engine: both name the engine: --backend one, --engine one or several; give only --engine codex,messages',
    );
    const typo = enginesCampaign({
      gates: [{ kind: 'max-indeterminate-share', share: 0.2, engine: 'messages' }],
    });
    expect(await refusal({ campaign: typo })).toMatch(
      /gates\[0\]: names engine "messages", which the campaign does not run; use one of claude-code, codex, every/,
    );
  });

  it('a gate naming an engine is judged on that engine’s entry; one the run leaves out (--engine) is dropped', async () => {
    const file = enginesCampaign({
      gates: [
        { kind: 'max-indeterminate-share', share: 0.2, engine: 'codex' },
        { kind: 'max-indeterminate-share', share: 0.2, engine: 'every' },
      ],
    });
    const run = await resolved({ campaign: file });
    expect(run.campaign.gates.map((gate) => gate.model)).toEqual(['codex', undefined]);
    const narrowed = await resolved({ campaign: file, engines: ['claude-code', 'messages'] });
    expect(narrowed.campaign.gates).toHaveLength(1);
    expect(narrowed.campaign.droppedGates.map((gate) => gate.engine)).toEqual(['codex']);
  });
});

const cell = cellSummary;

/** S2 on two engines: GREEN holds on claude-code, regresses on codex (or not, `codexGreen` 5). */
function s2Cells(codexGreen: number): CellSummary[] {
  return [
    cell('claude-code', 's2', 'red', 5, 0),
    cell('claude-code', 's2', 'green', 5, 0),
    cell('codex', 's2', 'red', 5, 0),
    cell('codex', 's2', 'green', codexGreen, 5 - codexGreen),
  ];
}

describe('the interaction gate and summary by engine', () => {
  const everyEngine: GateConfig = {
    kind: 'no-scenario-regresses',
    alpha: 0.05,
    correction: 'holm',
  };

  it('no-scenario-regresses on every engine fails when one engine regresses (planted), holds when neither does', () => {
    const planted = evaluateGateOnModels(everyEngine, s2Cells(0));
    expect(planted.outcome).toBe('fails');
    expect(planted.perModel?.map((entry) => [entry.model, entry.outcome])).toEqual([
      ['claude-code', 'holds'],
      ['codex', 'fails'],
    ]);
    expect(evaluateGateOnModels(everyEngine, s2Cells(5)).outcome).toBe('holds');
    // Judged on claude-code alone (a gate's `engine: claude-code` resolves to its entry), it holds.
    expect(evaluateGateOnModels({ ...everyEngine, model: 'claude-code' }, s2Cells(0)).outcome).toBe(
      'holds',
    );
  });

  it('stays undecided, never holds, when an engine has no decided reps', () => {
    const cells = s2Cells(5).map((entry) =>
      entry.model === 'codex' ? { ...entry, pass: 0, fail: 0, decided: 0, passRate: null } : entry,
    );
    expect(evaluateGateOnModels(everyEngine, cells).outcome).toBe('undecided');
  });

  it('the summary gives GREEN−RED per engine and how far apart the engines are', () => {
    const [s2] = interactionSummary(['s2'], ['claude-code', 'codex'], s2Cells(0), 0.05, 'engine');
    expect(s2?.rows.map((row) => [row.model, row.difference, row.effect])).toEqual([
      ['claude-code', 0, 'no clear effect'],
      ['codex', -1, 'hurts'],
    ]);
    expect(s2?.summary).toBe(
      'GREEN helps on none of the 2 engines; hurts on codex; the effect depends on the engine; GREEN−RED is 0 pts on claude-code and -100 pts on codex, 100 pts apart',
    );
    const [same] = interactionSummary(['s2'], ['claude-code', 'codex'], s2Cells(5), 0.05, 'engine');
    expect(same?.summary).toBe('GREEN helps on none of the 2 engines');
  });
});
