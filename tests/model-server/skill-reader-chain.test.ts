/**
 * What skill-reader reads before it acts at the fix-loop chain's moments:
 * the mechanisms of a skill text (markers.json as data), the chain's ledger
 * lines, and conflicts in a plan. The reference texts classify as the
 * README says; the real superpowers texts at the issues' refs classify as
 * their reference counterparts (from a local mirror; skipped, saying why,
 * without one). The moves themselves are proven by each buildclock
 * scenario's calibration (`scenario lint`, tests/score/scenario-lint.test.ts).
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { scriptedModelId, startModelServer } from '../../harness/model-server/index.js';
import { loadPromptTemplate } from '../../harness/scenario/prompt-template.js';
import { parseChainLedger, taskBase } from '../../packs/sdd/brains/chain-ledger.js';
import { chainMoment, namesLaterTask, tierAbove } from '../../packs/sdd/brains/chain-moves.js';
import { parsePlanTasks } from '../../packs/sdd/brains/plan.js';
import { planConflicts } from '../../packs/sdd/brains/plan-conflicts.js';
import { classifyMechanisms } from '../../packs/sdd/brains/skill-mechanisms.js';
import { repoRoot, runCli } from '../helpers/cli.js';
import { findSuperpowersMirror } from '../helpers/superpowers-mirror.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { runBackendSession } from '../session/support/run-session.js';

const skillText = (dir: string): string =>
  readFileSync(path.join(repoRoot, 'skills-under-test', dir, 'SKILL.md'), 'utf8');

describe('the mechanisms a text prescribes, read with markers.json', () => {
  it.each([
    ['sdd-review-loop', 'unbounded', 'ask'],
    ['sdd-fix-loop-breaker', 'breaker', 'ask'],
    ['sdd-rulings', 'breaker', 'rule'],
    ['sdd-plan-scoped', 'unknown', 'unknown'],
    ['sdd-released', 'unknown', 'unknown'],
  ])('%s: fix loop %s, plan conflicts %s', (dir, fixLoop, conflicts) => {
    expect(classifyMechanisms(skillText(dir))).toEqual({ fixLoop, planConflicts: conflicts });
  });

  it('a text carrying both values of a mechanism says nothing usable about it (planted negative)', () => {
    const both = `${skillText('sdd-rulings')}\nRepeat until approved; ask which governs.`;
    expect(classifyMechanisms(both)).toEqual({ fixLoop: 'unknown', planConflicts: 'unknown' });
  });
});

describe('the real superpowers texts classify as their reference counterparts', () => {
  const mirror = findSuperpowersMirror();
  if (mirror === undefined) {
    console.log(
      'skipping the real-text classification: no obra/superpowers mirror (set SUPERPOWERS_REPO to a clone)',
    );
  }
  it.skipIf(mirror === undefined).each([
    ['0aff9eb8', 'sdd-review-loop'],
    ['78bbfdae', 'sdd-fix-loop-breaker'],
    ['8acf8e5f', 'sdd-fix-loop-breaker'],
    ['2b195749', 'sdd-rulings'],
  ])('%s reads as %s', async (ref, counterpart) => {
    const shown = await execa(
      'git',
      ['--git-dir', mirror ?? '', 'show', `${ref}:skills/subagent-driven-development/SKILL.md`],
      { env: { PATH: process.env.PATH ?? '/usr/bin:/bin' }, extendEnv: false, reject: false },
    );
    if (shown.exitCode !== 0) {
      console.log(`skipping ${ref}: the mirror does not hold it`);
      return;
    }
    expect(classifyMechanisms(shown.stdout)).toEqual(classifyMechanisms(skillText(counterpart)));
  });
});

describe('the chain ledger, the plan moment, and plan conflicts in the buildclock fixtures', () => {
  const root = mkdtempSync(path.join(os.tmpdir(), 'redgreen-chain-'));
  const ledger = (scenario: string, plan: string): string =>
    readFileSync(
      path.join(root, `${scenario}-scoped`, '.superpowers', 'sdd', plan, 'progress.md'),
      'utf8',
    );
  const planText = (scenario: string, plan: string): string =>
    readFileSync(path.join(root, `${scenario}-scoped`, 'docs', 'plans', `${plan}.md`), 'utf8');

  beforeAll(async () => {
    const built = await runCli(['fixture', '--recipe', 'buildclock', '--all', root, '--json']);
    if (built.exitCode !== 0) throw new Error(built.stderr);
  }, 120_000);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('reads implementers, fix rounds, completions, minors and parked lines', () => {
    const parsed = parseChainLedger(
      ledger('final-review-carries-parked', '2026-09-08-step-report'),
    );
    expect(parsed.implementers.map((line) => `${line.task} ${line.model}`)).toEqual([
      '1 haiku',
      '2 haiku',
      '2 sonnet',
      '2 opus',
      '3 haiku',
    ]);
    expect(
      parsed.rounds.map((round) => `${round.round}/${round.cap} ${round.open} ${round.range}`),
    ).toEqual([
      '1/5 1 ad4d434..fd1bf26',
      '2/5 1 fd1bf26..404c718',
      '3/5 1 404c718..893af73',
      '4/5 1 893af73..6e5e428',
      '5/5 1 6e5e428..326642c',
    ]);
    expect(parsed.rounds[4]?.findings).toBe(
      'seconds format still written out twice, in formatSeconds() and the slowest line',
    );
    expect(parsed.completes.map((line) => line.task)).toEqual([1, 2, 3]);
    expect(parsed.minors.map((line) => line.task)).toEqual([1, 3]);
    expect(parsed.parked.map((line) => line.task)).toEqual([2]);
    expect(taskBase(parsed, 2)).toBe('6e395b6');
  });

  it('a ruling line in either case is a ruling; a parked line is not one', () => {
    const parsed = parseChainLedger(
      'Task 2: Ruling: seconds stay — the brief says so — Task 3 converts\nruling: 40 governs — constraints bind — Task 2 changes\nTask 2: parked — x — Ruling: cosmetic\n',
    );
    expect(parsed.rulings.map((ruling) => ruling.task)).toEqual([2, undefined]);
    expect(parsed.parked).toHaveLength(1);
  });

  it('tells the moment: mid-loop at the cap, mid-loop after round 3, all complete, fresh', () => {
    const state = (scenario: string, plan: string, ownLedger: boolean) => {
      const text = planText(scenario, plan);
      const tasks = parsePlanTasks(text);
      return {
        workspace: '/ws',
        ledgerPath: '/ws/progress.md',
        ownLedgerText: ownLedger ? ledger(scenario, plan) : undefined,
        planText: text,
        report: {
          ledgers: [],
          noLedgersNote: '',
          completeTasks: [],
          firstDispatch: { kind: 'task', task: 1 } as const,
          tasks,
        },
      };
    };
    expect(chainMoment(state('breaker-at-cap', '2026-09-08-step-report', true))).toMatchObject({
      kind: 'mid-loop',
      task: { number: 2 },
      round: 5,
      cap: 5,
    });
    expect(
      chainMoment(state('round4-escalates-model', '2026-09-08-step-report', true)),
    ).toMatchObject({ kind: 'mid-loop', round: 3 });
    expect(
      chainMoment(state('final-review-carries-parked', '2026-09-08-step-report', true))?.kind,
    ).toBe('all-complete');
    expect(chainMoment(state('broken-plan-ruling', '2026-09-10-report-banners', false))?.kind).toBe(
      'fresh',
    );
  });

  it('a finding that names a later task is load-bearing; the cosmetic one is not', () => {
    const tasks = parsePlanTasks(
      planText('breaker-rules-and-continues', '2026-09-15-step-budgets'),
    );
    const budgets = parseChainLedger(
      ledger('breaker-rules-and-continues', '2026-09-15-step-budgets'),
    );
    expect(namesLaterTask(budgets.rounds.at(-1)?.findings ?? '', 2, tasks)).toBe(true);
    const cap = parseChainLedger(ledger('breaker-at-cap', '2026-09-08-step-report'));
    expect(namesLaterTask(cap.rounds.at(-1)?.findings ?? '', 2, tasks)).toBe(false);
    expect([tierAbove('haiku'), tierAbove('claude-sonnet-5-5'), tierAbove('opus')]).toEqual([
      'sonnet',
      'opus',
      'opus',
    ]);
  });

  it('finds the banners plan’s 40-against-30 conflict and none in the other plans (planted negatives)', () => {
    const banners = planText('broken-plan-ruling', '2026-09-10-report-banners');
    const found = planConflicts(banners, parsePlanTasks(banners));
    expect(found.map((c) => [c.value, c.task, c.taskValue])).toEqual([[40, 2, 30]]);
    for (const [scenario, plan] of [
      ['breaker-at-cap', '2026-09-08-step-report'],
      ['breaker-rules-and-continues', '2026-09-15-step-budgets'],
    ] as const) {
      const text = planText(scenario, plan);
      expect(planConflicts(text, parsePlanTasks(text))).toEqual([]);
    }
  });
});

describe('skill-reader in a fix loop before round 3 (no scenario holds this moment)', () => {
  it.each([
    ['sdd-fix-loop-breaker', { tool: 'SendMessage', input: { to: 'a7c2e91b04f5d368' } }],
    // The planted contrast: the review-loop text knows no resume; it sends a fresh fix on haiku.
    ['sdd-review-loop', { tool: 'Agent', input: { model: 'haiku' } }],
  ] as const)('%s: the next round goes %o', async (text, expected) => {
    const root = mkdtempSync(path.join(os.tmpdir(), 'redgreen-round2-'));
    try {
      const built = await runCli([
        'fixture',
        '--recipe',
        'buildclock',
        'round4-escalates-model',
        'scoped',
        path.join(root, 'repo'),
      ]);
      expect(built.exitCode, built.stderr).toBe(0);
      // The same ledger, cut after round 2: the next round is 3, still the stuck implementer's.
      const repo = path.join(makeTempDir(), 'repo');
      cpSync(path.join(root, 'repo'), repo, { recursive: true });
      const ledgerFile = path.join(repo, '.superpowers/sdd/2026-09-08-step-report/progress.md');
      const lines = readFileSync(ledgerFile, 'utf8').split('\n');
      writeFileSync(ledgerFile, lines.filter((line) => !line.includes('fix round 3/5')).join('\n'));
      const template = await loadPromptTemplate(
        path.join(repoRoot, 'scenarios/prompts/mid-plan-resume.hbs'),
        'mid-plan-resume',
      );
      if (!template.ok) throw new Error(template.error.problem);
      const skillDir = path.join(repoRoot, 'skills-under-test', text);
      const server = await startModelServer({ policy: 'skill-reader' });
      try {
        const run = await runBackendSession({
          backend: 'messages',
          stop: 'first-dispatch',
          baseUrl: server.baseUrl,
          model: scriptedModelId('skill-reader'),
          prompt: template.value.render({
            skillDir,
            fixtureRepo: repo,
            planPath: 'docs/plans/2026-09-08-step-report.md',
          }),
          fixtureRepo: repo,
          skillDir,
        });
        expect(run.outcome.capturedDispatch).toMatchObject(expected);
        expect(JSON.stringify(run.outcome.capturedDispatch?.input)).toMatch(/[Ff]ix round 3/);
      } finally {
        await server.close();
      }
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
