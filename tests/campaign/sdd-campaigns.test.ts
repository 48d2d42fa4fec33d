/**
 * The three campaigns of the SDD skill's later history, end to end and
 * offline through the real CLI (`redgreen run`, then `redgreen gate`):
 * fix-loop-breaker (PR #1998) and rulings-not-stalls (PR #2077) with their
 * reference texts, where every claimed behaviour goes 0/5 → 5/5 and every
 * gate holds; and the SDD panel, which lists every scenario of the
 * repository, holds for the reference pair and fails (exit 1 from `gate`)
 * when the arms are swapped so that two scenarios regress: the planted
 * negative of its Holm-corrected gate. The messages backend keeps them quick;
 * two probes' calibrations also run on the real Claude Code engine.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CampaignConfig } from '../../harness/campaign/config-schema.js';
import { listScenarioIds } from '../../harness/score/load-scenario.js';
import { repoRoot, runCli } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { engineUnavailable } from '../session/support/run-session.js';
import { readJson, repLines, runCampaignCli } from './support.js';

const scenarios = path.join(repoRoot, 'scenarios');
const skills = path.join(repoRoot, 'skills-under-test');

interface CellRow {
  readonly arm: string;
  readonly scenario: string;
  readonly pass: number;
  readonly decided: number;
}

function cells(out: string): string[] {
  const results = readJson<{ cells: CellRow[] }>(path.join(out, 'results.json'));
  return results.cells.map((cell) => `${cell.scenario} ${cell.arm} ${cell.pass}/${cell.decided}`);
}

async function runAndGate(args: readonly string[]) {
  const out = path.join(makeTempDir(), 'out');
  const run = await runCampaignCli([...args, '--backend', 'messages', '--out', out, '--quiet']);
  const gate = await runCli(['gate', out, '--json']);
  return { out, run, gate, gateJson: JSON.parse(gate.stdout || '{}') as { outcome?: string } };
}

describe('the fix-loop-breaker and rulings-not-stalls campaigns', () => {
  it('fix-loop-breaker: the three claimed behaviours go 0/5 → 5/5, the probes stay 5/5, every gate holds', async () => {
    const { out, run, gate } = await runAndGate([
      path.join(scenarios, 'fix-loop-breaker.campaign.json'),
    ]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(repLines(out)).toHaveLength(50);
    expect(cells(out)).toEqual([
      'breaker-at-cap red 0/5',
      'breaker-at-cap green 5/5',
      'round4-escalates-model red 0/5',
      'round4-escalates-model green 5/5',
      'final-review-carries-parked red 0/5',
      'final-review-carries-parked green 5/5',
      's1-probe red 5/5',
      's1-probe green 5/5',
      's2-probe red 5/5',
      's2-probe green 5/5',
    ]);
    expect(gate.exitCode, gate.stdout).toBe(0);
  });

  it('rulings-not-stalls: the two claimed behaviours go 0/5 → 5/5, the fix-loop ones stay 5/5, every gate holds', async () => {
    const { out, run, gate } = await runAndGate([
      path.join(scenarios, 'rulings-not-stalls.campaign.json'),
    ]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(cells(out)).toEqual([
      'broken-plan-ruling red 0/5',
      'broken-plan-ruling green 5/5',
      'breaker-rules-and-continues red 0/5',
      'breaker-rules-and-continues green 5/5',
      'breaker-at-cap red 5/5',
      'breaker-at-cap green 5/5',
      'round4-escalates-model red 5/5',
      'round4-escalates-model green 5/5',
      'final-review-carries-parked red 5/5',
      'final-review-carries-parked green 5/5',
    ]);
    expect(gate.exitCode, gate.stdout).toBe(0);
  });
});

describe('the SDD panel', () => {
  const panelFile = path.join(scenarios, 'sdd-panel.campaign.json');

  it('runs every SDD decision scenario of the repository; the full sessions run in sdd-full-runs', () => {
    const panel = readJson<CampaignConfig>(panelFile);
    const fullRuns = readJson<CampaignConfig>(path.join(scenarios, 'sdd-full-runs.campaign.json'));
    const stopOf = (id: string) =>
      readJson<{ stop?: string }>(path.join(scenarios, id, 'scenario.json')).stop ?? 'report';
    // The SDD scenarios are the ones with a plan to execute; the skill-triggering ones have none.
    const all = listScenarioIds(scenarios).filter(
      (id) =>
        readJson<{ plan?: string }>(path.join(scenarios, id, 'scenario.json')).plan !== undefined,
    );
    expect([...panel.scenarios].sort()).toEqual(
      all.filter((id) => stopOf(id) !== 'complete').sort(),
    );
    expect([...fullRuns.scenarios].sort()).toEqual(
      all.filter((id) => stopOf(id) === 'complete').sort(),
    );
    expect(panel.gates.map((gate) => gate.kind)).toContain('no-scenario-regresses');
  });

  // Three scenarios keep these runs short: one both texts pass, the two where rulings beat the breaker.
  const subset = [
    '--only',
    'scenario=s2-probe,scenario=broken-plan-ruling,scenario=breaker-rules-and-continues',
  ];

  it('holds for the reference pair: GREEN regresses nowhere', async () => {
    const { run, gate, gateJson } = await runAndGate([panelFile, ...subset]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(gate.exitCode, gate.stdout).toBe(0);
    expect(gateJson.outcome).toBe('pass');
  });

  it('fails when the command line swaps the arms so two scenarios regress (planted negative)', async () => {
    const { out, run, gate } = await runAndGate([
      panelFile,
      ...subset,
      '--arm',
      `red=${path.join(skills, 'sdd-rulings')}`,
      '--arm',
      `green=${path.join(skills, 'sdd-fix-loop-breaker')}`,
    ]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(cells(out)).toEqual(
      expect.arrayContaining([
        'broken-plan-ruling red 5/5',
        'broken-plan-ruling green 0/5',
        'breaker-rules-and-continues red 5/5',
        'breaker-rules-and-continues green 0/5',
      ]),
    );
    expect(gate.exitCode, gate.stdout).toBe(1);
    const verdict = JSON.parse(gate.stdout) as {
      gates: {
        kind: string;
        outcome: string;
        figure: string;
        params: Record<string, unknown>;
        cells: { scenario: string; pass: number }[];
      }[];
    };
    const panelGate = verdict.gates.find((g) => g.kind === 'no-scenario-regresses');
    expect(panelGate?.outcome).toBe('fails');
    expect(panelGate?.figure).toMatch(/BROKEN-PLAN-RULING .*BREAKER-RULES-AND-CONTINUES/);
    // Its structured fields: the declared correction, and the counts of the cells it reads.
    expect(panelGate?.params).toMatchObject({ correction: 'holm' });
    expect(new Set(panelGate?.cells.map((cell) => cell.scenario))).toEqual(
      new Set(['s2-probe', 'broken-plan-ruling', 'breaker-rules-and-continues']),
    );
  });
});

describe('the buildclock probes on the real Claude Code engine', () => {
  const unavailable = engineUnavailable();
  it.skipIf(unavailable !== undefined).each(['broken-plan-ruling', 'breaker-at-cap'])(
    '%s: every calibration policy lands as declared with --backend claude-code',
    async (id) => {
      // broken-plan-ruling's asks-human calls AskUserQuestion, which the engine offers headless
      // only under first-dispatch; its capture ends the session like a dispatch.
      const lint = await runCli(['scenario', 'lint', id, '--backend', 'claude-code'], {
        timeoutMs: 240_000,
      });
      expect(lint.exitCode, lint.stdout + lint.stderr).toBe(0);
      expect(lint.stdout).toContain(`lint: ${id} is sound`);
    },
  );
});
