/**
 * The full-session campaign `scenarios/sdd-full-runs.campaign.json` end to
 * end through the real CLI, offline: `redgreen run` on the messages backend
 * (all three scenarios, both arms, two reps a cell) with the results tables
 * and the gates read back, one scenario on the real Claude Code engine (its
 * own Agent and SendMessage run the seats), and `--dry-run`, which prices a
 * full session from its own profile. The resume scenario is the planted
 * negative of the campaign: RED (the review loop's "dispatch a fix subagent")
 * fails exactly its two resume checks.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { cleanEnv, repoRoot, runCli } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { engineUnavailable } from '../session/support/run-session.js';
import { readJson, repLines, runCampaignCli } from './support.js';

const campaign = path.join(repoRoot, 'scenarios', 'sdd-full-runs.campaign.json');

/** A local obra/superpowers mirror (SUPERPOWERS_REPO, or `.mirror/obra+superpowers/repo` above). */
function superpowersMirror(): string | undefined {
  const fromEnv = process.env.SUPERPOWERS_REPO;
  if (fromEnv !== undefined && fromEnv !== '') return existsSync(fromEnv) ? fromEnv : undefined;
  for (let dir = repoRoot; path.dirname(dir) !== dir; dir = path.dirname(dir)) {
    const candidate = path.join(dir, '.mirror', 'obra+superpowers', 'repo');
    if (existsSync(candidate)) return candidate;
  }
  return undefined;
}
const mirror = superpowersMirror();

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

interface ScoreFile {
  readonly verdict: string;
  readonly checks: readonly { readonly id: string; readonly outcome: string }[];
}

/** The ids of a rep's failing checks, from its score.json. */
function failing(out: string, arm: string, rep: string): string[] {
  const score = readJson<ScoreFile>(path.join(out, 'reps', arm, rep, 'score.json'));
  return score.checks.filter((check) => check.outcome === 'fail').map((check) => check.id);
}

describe('the sdd-full-runs campaign', () => {
  it('runs every full session on the messages backend: RED fails the resume scenario for its two checks, both arms pass the guards', async () => {
    const out = path.join(makeTempDir(), 'out');
    const run = await runCampaignCli([
      campaign,
      '--backend',
      'messages',
      '--reps',
      '2',
      '--out',
      out,
      '--quiet',
    ]);
    expect(run.exitCode, run.stderr).toBe(0);
    expect(repLines(out)).toHaveLength(12);
    expect(cells(out)).toEqual([
      'fix-loop-resumes-implementer red 0/2',
      'fix-loop-resumes-implementer green 2/2',
      'reviewer-catches-planted-defect red 2/2',
      'reviewer-catches-planted-defect green 2/2',
      'rejects-extra-features red 2/2',
      'rejects-extra-features green 2/2',
    ]);
    expect(failing(out, 'red', 'fix-loop-resumes-implementer-rep1')).toEqual([
      'fix-resumes-implementer',
      'fix-in-implementer-seat',
    ]);
    const markdown = readFileSync(path.join(out, 'results.md'), 'utf8');
    expect(markdown).toContain('| FIX-LOOP-RESUMES-IMPLEMENTER RED |');
    expect(markdown).toMatch(/FIX-LOOP-RESUMES-IMPLEMENTER GREEN \|[^\n]*\| 2\/2 \|/);
    // Two reps a cell are too few for the Fisher gates: even 0/2 against 2/2 (p = 0.17) could
    // not show GREEN better, nor any regression: both undecided, neither a pass.
    const gate = await runCli(['gate', out, '--json']);
    const verdict = JSON.parse(gate.stdout) as {
      outcome: string;
      gates: { kind: string; outcome: string }[];
    };
    expect(verdict.gates.map((one) => `${one.kind} ${one.outcome}`)).toEqual([
      'green-better undecided',
      'no-scenario-regresses undecided',
      'max-indeterminate-share holds',
    ]);
    expect(gate.exitCode).not.toBe(0);
    // Every stage reads what the one before wrote: a rescore from the rep files lands the same cells.
    const rescore = await runCli(['score', out]);
    expect(rescore.exitCode, rescore.stderr).toBe(0);
    expect(cells(out)).toEqual([
      'fix-loop-resumes-implementer red 0/2',
      'fix-loop-resumes-implementer green 2/2',
      'reviewer-catches-planted-defect red 2/2',
      'reviewer-catches-planted-defect green 2/2',
      'rejects-extra-features red 2/2',
      'rejects-extra-features green 2/2',
    ]);
  }, 240_000);

  it.skipIf(engineUnavailable() !== undefined)(
    'runs a full session through the real Claude Code engine: the engine’s Agent and SendMessage run the seats',
    async () => {
      const out = path.join(makeTempDir(), 'out');
      const run = await runCampaignCli([
        campaign,
        '--only',
        'scenario=fix-loop-resumes-implementer',
        '--reps',
        '1',
        '--out',
        out,
        '--quiet',
      ]);
      expect(run.exitCode, run.stderr).toBe(0);
      expect(cells(out)).toEqual([
        'fix-loop-resumes-implementer red 0/1',
        'fix-loop-resumes-implementer green 1/1',
      ]);
      expect(failing(out, 'red', 'fix-loop-resumes-implementer-rep1')).toEqual([
        'fix-resumes-implementer',
        'fix-in-implementer-seat',
      ]);
      const meta = readJson<{ backend?: string; subagentDispatches?: number }>(
        path.join(out, 'reps', 'green', 'fix-loop-resumes-implementer-rep1', 'meta.json'),
      );
      expect(meta.backend).toBe('claude-code');
      // Two implementers, three reviewers (Task 2 reviewed again after its fix).
      expect(meta.subagentDispatches).toBe(5);
    },
    240_000,
  );

  it.skipIf(mirror === undefined)(
    'the real texts of PR #1998 as git: arms land the resume scenario where the reference texts do',
    async () => {
      const subdir = 'skills/subagent-driven-development';
      const out = path.join(makeTempDir(), 'out');
      const run = await runCampaignCli([
        campaign,
        '--only',
        'scenario=fix-loop-resumes-implementer',
        '--arm',
        `red=git:${mirror}@0aff9eb8:${subdir}`,
        '--arm',
        `green=git:${mirror}@78bbfdae:${subdir}`,
        '--backend',
        'messages',
        '--reps',
        '1',
        '--out',
        out,
        '--quiet',
      ]);
      expect(run.exitCode, run.stderr).toBe(0);
      expect(cells(out)).toEqual([
        'fix-loop-resumes-implementer red 0/1',
        'fix-loop-resumes-implementer green 1/1',
      ]);
    },
    240_000,
  );

  it('--dry-run prices a live full session from the full-session profile', async () => {
    const dry = await runCli(['run', campaign, '--dry-run'], {
      env: cleanEnv({ ANTHROPIC_API_KEY: 'sk-ant-test-not-a-key' }),
    });
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(dry.stdout).toMatch(
      /fixture resume-fix\/scoped, 5 rep\(s\), complete; ~\d+k tokens\/rep, \$\d+\.\d\d\/rep/,
    );
    expect(dry.stdout).toContain('sessions: 30');
    expect(dry.stdout).toContain('a full session (complete) 60 turns summed over its seats');
    // Answers of a scripted user each give the controller a fresh maxTurns: not in the price.
    expect(dry.stdout).toContain("a scripted user's answers not priced");
    // 30 full sessions of about 10 minutes, four at a time.
    const wall = Number(/estimated wall time: (\d+) s/.exec(dry.stdout)?.[1]);
    expect(wall).toBeGreaterThanOrEqual(Math.ceil(30 / 4) * 600);
    expect(dry.stdout).toContain('600 s a full session (stop: complete; assumed)');
  });

  it('--dry-run offline: the wall time counts a full session as the several reps it is', async () => {
    const dry = await runCli(['run', campaign, '--dry-run']);
    expect(dry.exitCode, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('a full session (stop: complete) about 8.7 s and 2.9 CPU s');
    const wall = Number(/estimated wall time: (\d+) s/.exec(dry.stdout)?.[1]);
    // 30 scripted full sessions on the claude-code backend, four at a time: well over 30 probes' 7 s.
    expect(wall).toBeGreaterThanOrEqual(Math.ceil(30 / 4) * 8.7);
  });
});

if (engineUnavailable() !== undefined) {
  process.stderr.write(`sdd-full-runs: claude-code case skipped: ${engineUnavailable()}\n`);
}
if (mirror === undefined) {
  process.stderr.write(
    'sdd-full-runs: real-text case skipped: no obra/superpowers mirror (set SUPERPOWERS_REPO to a clone)\n',
  );
}
