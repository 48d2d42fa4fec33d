import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RepScore } from '../../harness/score/score-rep.js';
import { runCli } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import {
  defaultCampaign,
  plantedSkill,
  readJson,
  repLines,
  runCampaignCli,
  runOneRep,
  sharedOneRep,
  sharedWholeRun,
} from './support.js';

describe('scoring end to end, offline', () => {
  it('with scripted:always-redo S2 fails in both arms and redgreen gate exits 1', async () => {
    const out = path.join(makeTempDir(), 'out');
    const run = await runCampaignCli([
      defaultCampaign,
      '--reps',
      '1',
      '--model',
      'scripted:always-redo',
      '--out',
      out,
    ]);
    expect(run.exitCode, run.stderr).toBe(0);
    const verdicts = Object.fromEntries(repLines(out).map((line) => [line.id, line.verdict]));
    expect(verdicts['red/s2-rep1']).toBe('fail');
    expect(verdicts['green/s2-rep1']).toBe('fail');
    expect(verdicts['green/s1-rep1']).toBe('pass');
    const summary = path.join(makeTempDir(), 'summary.md');
    const junit = path.join(makeTempDir(), 'junit.xml');
    const gate = await runCli(['gate', out, '--summary', summary, '--junit', junit]);
    expect(gate.exitCode).toBe(1);
    expect(gate.stdout).toContain('FAILS');
    expect(readFileSync(summary, 'utf8')).toContain('redgreen:');
    expect(readFileSync(junit, 'utf8')).toMatch(/<failure message="0\/1 decided reps passed/);
  });

  it('a rep that edits the stale flat ledger fails S1 on its file check even with a correct reply', async () => {
    // A planted skill whose workspace script also appends to the legacy flat ledger.
    const skill = plantedSkill(
      'root=$(git rev-parse --show-toplevel); [ -f "$root/.superpowers/sdd/progress.md" ] && echo "touched" >> "$root/.superpowers/sdd/progress.md"',
    );
    const { out, run } = await runOneRep('2/4', ['--arm', `green=${skill}`]);
    expect(run.exitCode, run.stderr).toBe(0);
    const [rep] = repLines(out);
    expect(rep?.id).toBe('green/s1-rep1');
    const score = readJson<RepScore>(path.join(out, rep?.dir ?? '', 'score.json'));
    expect(score.values.dispatch).toMatchObject({ ok: true, value: { kind: 'task', task: 1 } });
    expect(score.values.complete).toMatchObject({ ok: true, value: { kind: 'tasks', tasks: [] } });
    expect(score.verdict).toBe('fail');
    expect(score.reasons).toEqual([
      expect.stringMatching(
        /^stale-artifacts-untouched: \.superpowers\/sdd\/progress\.md was modified/,
      ),
    ]);
    // The file the session changed was captured at rep time, so a rescore can read it.
    const captured = readJson<{ files: Record<string, { text?: string }> }>(
      path.join(out, rep?.dir ?? '', 'files-after.json'),
    );
    expect(captured.files['.superpowers/sdd/progress.md']?.text).toMatch(/touched\n$/);
  });

  it('redgreen score rescores from disk, honours overrides and shows them in every table', async () => {
    const { out, run } = await sharedWholeRun();
    expect(run.exitCode, run.stderr).toBe(0);
    writeFileSync(
      path.join(out, 'overrides.json'),
      JSON.stringify({
        'red/s1-rep1': { verdict: 'pass', reason: 'hand-adjudicated for the test' },
      }),
    );
    const score = await runCli(['score', out]);
    expect(score.exitCode, score.stderr).toBe(0);
    expect(score.stdout).toContain('rescored 4 rep(s); 0 verdict(s) changed');
    const markdown = readFileSync(path.join(out, 'results.md'), 'utf8');
    expect(markdown).toContain('pass (override: hand-adjudicated for the test; scored fail)');
    expect(markdown).toContain('1 verdict(s) overridden by hand');
    const csv = readFileSync(path.join(out, 'results.csv'), 'utf8');
    expect(csv).toMatch(
      /red\/s1-rep1,red,red,s1,1,1,pass,override,fail,hand-adjudicated for the test/,
    );

    writeFileSync(
      path.join(out, 'overrides.json'),
      JSON.stringify({ 'red/s1-rep9': { verdict: 'pass', reason: 'x' } }),
    );
    const bad = await runCli(['report', out]);
    expect(bad.exitCode).toBe(2);
    expect(bad.stderr).toMatch(/overrides "red\/s1-rep9", which is not a rep of this run/);
  });

  it('a session that damages its repository is still scored on its work tree: a touched stale ledger fails', async () => {
    // Append to the stale flat ledger, then make the repository unreadable to git.
    const skill = plantedSkill(
      'root=$(git rev-parse --show-toplevel); echo touched >> "$root/.superpowers/sdd/progress.md"; printf garbage > "$root/.git/HEAD"',
    );
    const { out, run } = await runOneRep('2/4', ['--arm', `green=${skill}`]);
    expect(run.exitCode, run.stderr).toBe(0);
    const [rep] = repLines(out);
    expect(rep).toMatchObject({ id: 'green/s1-rep1', verdict: 'fail', status: 'completed' });
    const meta = readJson<{ repositoryAfterSession: string }>(
      path.join(out, rep?.dir ?? '', 'meta.json'),
    );
    expect(meta.repositoryAfterSession).toMatch(/^git could not read it/);
    const score = readJson<RepScore>(path.join(out, rep?.dir ?? '', 'score.json'));
    const untouched = score.checks.find((check) => check.id === 'stale-artifacts-untouched');
    expect(untouched?.detail).toContain('.superpowers/sdd/progress.md was modified');
    // The untouched stale ledger is not reported as removed.
    expect(untouched?.detail).not.toContain('2026-07-01-widget-backend/progress.md was removed');
    expect(score.observations.find((o) => o.id === 'no-new-commits')?.outcome).toBe('fail');
  });

  it('a results directory of an older redgreen rescores: report names the way, score rewrites it', async () => {
    const { out, run } = await sharedOneRep('1/4', ['--no-report']);
    expect(run.exitCode, run.stderr).toBe(0);
    const [rep] = repLines(out);
    const dir = path.join(out, rep?.dir ?? '');
    // What an older redgreen left: the old score.json, no captured files or
    // command outcomes, snapshots without the branch.
    writeFileSync(
      path.join(dir, 'score.json'),
      JSON.stringify({
        scenario: 's1',
        verdict: 'fail',
        reasons: ['first-dispatch: expected Task 1, reply says no dispatch'],
        flags: [],
        firstDispatch: 'none',
        claimedComplete: [1, 2, 3, 4, 5],
      }),
    );
    for (const name of ['files-before.json', 'files-after.json', 'commands.json'])
      rmSync(path.join(dir, name));
    for (const name of ['snapshot-before.json', 'snapshot-after.json']) {
      const { branch: _dropped, ...older } = readJson<Record<string, unknown>>(
        path.join(dir, name),
      );
      writeFileSync(path.join(dir, name), JSON.stringify(older));
    }
    const report = await runCli(['report', out]);
    expect(report.exitCode).toBe(2);
    expect(report.stderr).toMatch(
      /score\.json was written by an older redgreen \(before checks\); run `redgreen score \/\S+` to rescore the directory/,
    );
    const score = await runCli(['score', out]);
    expect(score.exitCode, score.stderr).toBe(0);
    expect(score.stdout).toContain('rescored 1 rep(s); 0 verdict(s) changed');
    const rescored = readJson<RepScore>(path.join(dir, 'score.json'));
    expect(rescored.schemaVersion).toBe(2);
    expect(rescored.verdict).toBe('fail');
  });

  it('gate refuses a --junit path whose directory does not exist, with one line and exit 2', async () => {
    const { out, run } = await sharedOneRep('1/4', ['--no-report']);
    expect(run.exitCode, run.stderr).toBe(0);
    const gate = await runCli(['gate', out, '--junit', '/nonexistent/dir/junit.xml']);
    expect(gate.exitCode).toBe(2);
    expect(gate.stderr.trim().split('\n')).toHaveLength(1);
    expect(gate.stderr).toMatch(
      /--junit \/nonexistent\/dir\/junit.xml: directory \/nonexistent\/dir does not exist/,
    );
  });
});
