import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type GateConfig, gateSchema } from '../../harness/campaign/config-schema.js';
import { gatesFor } from '../../harness/campaign/only.js';
import { formatInputError } from '../../harness/lib/input-error.js';
import { gateDecision } from '../../harness/report/gates.js';
import { evaluateGateOnModels } from '../../harness/report/model-gates.js';
import { axisNoun, backendFact } from '../../harness/report/model-tables.js';
import type { CellSummary, ModelSummary } from '../../harness/report/results-schema.js';
import { gatesOutOfReach } from '../../harness/run/gate-reach.js';
import { type RunFlags, resolveRunRequest } from '../../harness/run/run-request.js';
import { writeCampaign } from '../campaign/support.js';
import { cellSummary as cell } from '../helpers/cell-summary.js';
import { repoRoot } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';

/**
 * `engines-agree`, the gate on the difference between engines, judged on
 * cell summaries built by hand (entries of one model on two engines, and of
 * two models on two engines), and its refusals at load time through the run
 * request `redgreen run` resolves. Planted negatives: engines that disagree
 * fail it; too few reps leave it undecided, never holding.
 */
const ENGINES = [
  { name: 'claude-code', engine: 'claude-code' },
  { name: 'codex', engine: 'codex' },
] as const;

const gate = (changes: Record<string, unknown> = {}): GateConfig =>
  gateSchema.parse({ kind: 'engines-agree', ...changes });

/** S1 and S2, both arms, on claude-code and codex; `codexGreenS2` passes of 5 on codex's S2 GREEN. */
function cells(codexGreenS2: number, reps = 5): CellSummary[] {
  return ENGINES.flatMap(({ name }) =>
    ['s1', 's2'].flatMap((scenario) =>
      (['red', 'green'] as const).map((role) => {
        const pass =
          name === 'codex' && scenario === 's2' && role === 'green'
            ? codexGreenS2
            : scenario === 's1' && role === 'red'
              ? 0
              : reps;
        return cell(name, scenario, role, pass, reps - pass);
      }),
    ),
  );
}

describe('engines-agree', () => {
  it('fails when one engine passes a cell far less often (planted), naming the scenario, arm and engines', () => {
    const outcome = evaluateGateOnModels(gate({ scenarios: ['s2'] }), cells(0), ENGINES);
    expect(outcome.outcome).toBe('fails');
    expect(outcome.figure).toBe(
      'the engines disagree: S2 GREEN (claude-code 5/5, codex 0/5: 100 pts apart; p = 0.0079 below 0.0250) (2 pair(s) of engines, Holm-corrected)',
    );
    // The whole run's decision: exit 1.
    const decision = gateDecision([gate({ scenarios: ['s2'] })], cells(0), [], (g, c) =>
      evaluateGateOnModels(g, c, ENGINES),
    );
    expect(decision.exitCode).toBe(1);
  });

  it('holds when the engines agree, saying the widest gap', () => {
    const same = evaluateGateOnModels(gate({ scenarios: ['s2'] }), cells(5), ENGINES);
    expect(same).toMatchObject({
      outcome: 'holds',
      figure: '2 pair(s) of engines, Holm-corrected: the same pass rate on every engine',
    });
    const close = evaluateGateOnModels(gate({ scenarios: ['s2'] }), cells(3), ENGINES);
    expect(close.outcome).toBe('holds');
    expect(close.figure).toMatch(
      /none disagrees; widest: S2 GREEN \(claude-code 5\/5, codex 3\/5: 40 pts apart; p = 0\.4444\)$/,
    );
  });

  it('a significant gap within maxGapPts does not fail it', () => {
    const many = ENGINES.flatMap(({ name }) => [
      cell(name, 's1', 'red', name === 'codex' ? 60 : 100, name === 'codex' ? 40 : 0),
    ]);
    expect(evaluateGateOnModels(gate(), many, ENGINES).outcome).toBe('fails');
    const tolerant = evaluateGateOnModels(gate({ maxGapPts: 40 }), many, ENGINES);
    expect(tolerant.outcome).toBe('holds');
    expect(tolerant.figure).toMatch(/40 pts apart; p < 0\.0001, within 40 pts\)$/);
  });

  it('is undecided, never holds, with too few reps to show a disagreement, or an engine without decided reps', () => {
    const few = evaluateGateOnModels(gate(), cells(0, 2), ENGINES);
    expect(few.outcome).toBe('undecided');
    expect(few.figure).toMatch(
      /^too few decided reps to show a disagreement: the smallest p they allow is p = 0\.3333, and the first threshold is 0\.0125 \(4 pair\(s\) of engines, Holm-corrected\); run more reps$/,
    );
    const empty = cells(5).map((entry) =>
      entry.model === 'codex' && entry.scenario === 's1'
        ? { ...entry, pass: 0, fail: 0, decided: 0, passRate: null }
        : entry,
    );
    expect(evaluateGateOnModels(gate(), empty, ENGINES)).toMatchObject({
      outcome: 'undecided',
      figure: 'no decided reps on an engine for S1 RED, S1 GREEN',
    });
    // One engine only (no axis): nothing to compare.
    expect(evaluateGateOnModels(gate(), cells(0), []).outcome).toBe('undecided');
  });

  it("with several models, compares each model's engines, never one model with another", () => {
    const entries = ['a', 'b'].flatMap((model) =>
      ['claude-code', 'codex'].map((engine) => ({ name: `${model}-on-${engine}`, engine })),
    );
    // Model a passes everything on both engines; model b nothing on both: the engines agree.
    const agree = entries.map(({ name }) =>
      name.startsWith('a-') ? cell(name, 's1', 'green', 5, 0) : cell(name, 's1', 'green', 0, 5),
    );
    expect(evaluateGateOnModels(gate(), agree, entries).outcome).toBe('holds');
    const disagree = entries.map(({ name }) =>
      name === 'b-on-codex' ? cell(name, 's1', 'green', 5, 0) : cell(name, 's1', 'green', 0, 5),
    );
    const outcome = evaluateGateOnModels(gate(), disagree, entries);
    expect(outcome.outcome).toBe('fails');
    expect(outcome.figure).toMatch(
      /^the engines disagree: b: S1 GREEN \(claude-code 0\/5, codex 5\/5/,
    );
  });

  it('run says before any rep when the reps per cell could never decide it', () => {
    expect(gatesOutOfReach({ gates: [gate()], reps: 3 })).toEqual([
      'gate the engines agree (holm) cannot be decided with 3 rep(s) per cell: even one engine 3/3 against another 0/3 is not below α = 0.05 (two-sided), so it stays undecided (run with --reps 4 or more; more with several pairs of engines, Holm-corrected)',
    ]);
    expect(gatesOutOfReach({ gates: [gate()], reps: 4 })).toEqual([]);
  });

  it('refuses an engine or a model on the gate', () => {
    expect(() => gateSchema.parse({ kind: 'engines-agree', engine: 'codex' })).toThrow(
      /engines-agree compares the engines with each other: give it no engine/,
    );
    expect(() => gateSchema.parse({ kind: 'engines-agree', model: 'sonnet' })).toThrow(
      /give it no model/,
    );
    expect(() => gateSchema.parse({ kind: 'engines-agree', maxGapPts: 101 })).toThrow();
  });
});

async function request(campaign: string, flags: Partial<RunFlags> = {}) {
  return resolveRunRequest(
    { campaign, out: path.join(makeTempDir(), 'out'), ...flags },
    repoRoot,
    {},
    new Date(0),
  );
}

describe('engines-agree in a campaign file', () => {
  const twoEngines = (gates: unknown[]) =>
    writeCampaign({ backend: undefined, engines: ['messages', 'codex'], gates });

  it('is kept in a two-engine run and dropped when --engine leaves one engine', async () => {
    const file = twoEngines([{ kind: 'engines-agree' }]);
    const run = await request(file);
    if (!run.ok) throw new Error(formatInputError(run.error));
    expect(run.value.campaign.gates.map((g) => g.kind)).toEqual(['engines-agree']);
    const one = await request(file, { engines: ['messages'] });
    if (!one.ok) throw new Error(formatInputError(one.error));
    expect(one.value.campaign.gates).toEqual([]);
    expect(one.value.campaign.droppedGates.map((g) => g.kind)).toEqual(['engines-agree']);
  });

  it('a subset (--only) keeps it when it runs one of its scenarios and arms, else drops it', () => {
    const roles = new Map([
      ['red', 'red'],
      ['green', 'green'],
    ] as const);
    const onS2Green = gate({ scenarios: ['s2'], arms: ['green'] });
    const keep = (arms: string[], scenarios: string[]) =>
      gatesFor([onS2Green], { arms, scenarios }, roles, ['s1', 's2']).kept.length;
    expect(keep([], ['s2'])).toBe(1);
    expect(keep(['green'], [])).toBe(1);
    expect(keep([], ['s1'])).toBe(0);
    expect(keep(['red'], ['s2'])).toBe(0);
  });

  it('refuses it in a one-engine campaign, and an arm or scenario the campaign does not run', async () => {
    const one = await request(writeCampaign({ gates: [{ kind: 'engines-agree' }] }));
    expect(one.ok ? '' : formatInputError(one.error)).toMatch(
      /gates\[0\]: engines-agree compares engines, and the campaign runs one; list two engines or more under "engines", or drop the gate$/,
    );
    const arm = await request(twoEngines([{ kind: 'engines-agree', arms: ['blue'] }]));
    expect(arm.ok ? '' : formatInputError(arm.error)).toMatch(
      /gates\[0\]: names arm "blue", which the campaign does not run; use one of red, green/,
    );
    const scenario = await request(twoEngines([{ kind: 'engines-agree', scenarios: ['s9'] }]));
    expect(scenario.ok ? '' : formatInputError(scenario.error)).toMatch(
      /gates\[0\]: names scenario "s9", which the campaign does not run/,
    );
  });
});

describe('what the tables call the entries', () => {
  const entry = (name: string, engine?: string) => ({
    name,
    ...(engine === undefined ? {} : { engine }),
  });

  it('engines for one model on several engines, models × engines for several of each, models otherwise', () => {
    expect(
      axisNoun({ models: [entry('claude-code', 'claude-code'), entry('codex', 'codex')] }),
    ).toEqual({
      column: 'Engine',
      one: 'engine',
      many: 'engines',
      title: 'Engines',
    });
    expect(
      axisNoun({ models: [entry('a-on-codex', 'codex'), entry('a-on-messages', 'messages')] })
        .column,
    ).toBe('Model × engine');
    expect(axisNoun({ models: [entry('sonnet'), entry('opus')] }).column).toBe('Model');
  });

  it("the header names each engine of a campaign of several, and a one-engine campaign's backend", () => {
    expect(
      backendFact({
        models: undefined,
        backend: 'claude-code',
        engine: 'claude-code 2.1.332',
      }),
    ).toEqual({ term: 'Backend', text: 'claude-code (claude-code 2.1.332)' });
    expect(
      backendFact({
        models: [
          { ...summary('messages'), engine: 'messages' },
          { ...summary('codex'), engine: 'codex' },
        ],
        backend: 'messages',
        engine: 'redgreen-messages, codex-cli 0.169.0',
      }),
    ).toEqual({ term: 'Engines', text: 'messages, codex (redgreen-messages, codex-cli 0.169.0)' });
  });
});

function summary(name: string): ModelSummary {
  return {
    name,
    requested: 'scripted:skill-reader',
    reported: [],
    scripted: true,
    standsInFor: null,
    endpoint: null,
    label: name,
    planned: 0,
    recorded: 0,
    pass: 0,
    fail: 0,
    indeterminate: 0,
    infrastructure: {},
  };
}
