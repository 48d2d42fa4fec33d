import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, runCli } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { defaultCampaign, readJson, repLines, runCampaignCli } from './support.js';

/**
 * The default campaign, offline, end to end through the real CLI: the real
 * Claude Code engine against the local model server with scripted:skill-reader.
 * The released text is followed literally (S1 RED adopts the foreign ledger and
 * fails); the plan-scoped text structurally (S1 GREEN passes); both resume S2.
 */
describe('redgreen run: the default campaign offline', () => {
  it('runs 20 reps, records them, scores S1 RED as failing and the other cells as passing, and gates 0', async () => {
    const out = path.join(makeTempDir(), 'results');
    const run = await runCampaignCli([
      defaultCampaign,
      '--out',
      out,
      '--concurrency',
      '4',
      '--json',
    ]);
    expect(run.exitCode, run.stderr).toBe(0);
    // With --json the banner goes to stderr and stdout carries only events.
    expect(run.stderr).toContain('OFFLINE');
    expect(run.stderr).toContain('scripted:skill-reader');
    const events = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; id?: string });
    // Interleaved dispatch: rep 1 of every cell before rep 2 of any, in campaign order.
    const started = events.filter((event) => event.type === 'rep-start').map((event) => event.id);
    const cells = ['red/s1', 'green/s1', 'red/s2', 'green/s2'];
    expect(started).toEqual(
      [1, 2, 3, 4, 5].flatMap((rep) => cells.map((cell) => `${cell}-rep${rep}`)),
    );
    expect(events.at(-1)).toMatchObject({
      type: 'run-end',
      pass: 15,
      fail: 5,
      indeterminate: 0,
      missing: 0,
    });

    const reps = repLines(out);
    expect(reps).toHaveLength(20);
    const verdicts = (cell: string) =>
      reps.filter((rep) => rep.id?.startsWith(cell)).map((rep) => rep.verdict);
    expect(verdicts('red/s1-')).toEqual(Array(5).fill('fail'));
    expect(verdicts('green/s1-')).toEqual(Array(5).fill('pass'));
    expect(verdicts('red/s2-')).toEqual(Array(5).fill('pass'));
    expect(verdicts('green/s2-')).toEqual(Array(5).fill('pass'));

    for (const rep of reps) {
      const dir = path.join(out, rep.dir ?? '');
      for (const file of [
        'reply.md',
        'transcript.jsonl',
        'meta.json',
        'score.json',
        'snapshot-before.json',
        'snapshot-after.json',
        'files-before.json',
        'files-after.json',
        'commands.json',
        'prompt.md',
      ]) {
        expect(existsSync(path.join(dir, file)), `${rep.id} ${file}`).toBe(true);
      }
      const meta = readJson<{
        toolUses: number;
        model: { reported: string; scripted: boolean };
        costUsd: number | null;
        tokensEstimated: boolean;
      }>(path.join(dir, 'meta.json'));
      const reply = readFileSync(path.join(dir, 'reply.md'), 'utf8');
      expect(reply.split('\n')[0]).toBe(String(meta.toolUses));
      expect(reply).toContain('FIRST DISPATCH');
      expect(meta.toolUses).toBeGreaterThanOrEqual(3);
      expect(meta.model).toMatchObject({ reported: 'scripted:skill-reader', scripted: true });
      expect(meta.costUsd).toBeNull();
      expect(meta.tokensEstimated).toBe(true);
      const prompt = readFileSync(path.join(dir, 'prompt.md'), 'utf8');
      expect(prompt).toContain('docs/plans/2026-07-06-widget-export.md');
      expect(prompt).not.toMatch(/sdd-released|sdd-plan-scoped/);
    }

    const markdown = readFileSync(path.join(out, 'results.md'), 'utf8');
    expect(markdown).toContain('| S1 RED | released (flat ledger) | widget-v3 s1 flat | 0/5 |');
    expect(markdown).toContain('| S1 GREEN | plan-scoped workspace | widget-v3 s1 scoped | 5/5 |');
    // The Notes keep the seed's shape: resolution from tool calls, forensics, tool_uses.
    expect(markdown).toMatch(
      /\| S1 GREEN \|[^\n]*\| 95% CI 57%–100%; resolution: 5 structural; none via commit-content forensics; tool_uses [\d/]+ \|/,
    );
    expect(markdown).toMatch(
      /\| S1 RED \|[^\n]*resolution: 5 neither structural nor forensic;[^\n]*e\.g\. red\/s1-rep1: first-dispatch: /,
    );
    expect(markdown).toContain('scripted policy');
    // The skill texts are named as read, not as the campaign file spelt them relative to itself.
    expect(markdown).toContain(`\`${path.join(repoRoot, 'skills-under-test', 'sdd-released')}\``);
    expect(markdown).not.toContain('`../skills-under-test');
    expect(markdown).toContain('## Disambiguation cost');
    const header = readFileSync(path.join(out, 'results.csv'), 'utf8').split('\n')[0];
    expect(header).toMatch(/^rep_id,arm,role,scenario,/);
    expect(header).toContain(',failed_checks,undecided_checks,values,');
    expect(header).toMatch(/,obs_resolution,obs_forensic-calls,/);

    const gate = await runCli(['gate', out]);
    expect(gate.exitCode).toBe(0);
    expect(gate.stdout).toContain('Gates: PASS');
  });

  it('--dry-run prints the cells and estimates and creates nothing', async () => {
    const out = path.join(makeTempDir(), 'never');
    const run = await runCampaignCli(['--dry-run', '--out', out]);
    expect(run.exitCode).toBe(0);
    expect(run.stdout).toContain('cell S1 RED');
    expect(run.stdout).toContain('cell S2 GREEN');
    expect(run.stdout).toMatch(/sessions: 20/);
    expect(run.stdout).toMatch(/estimated wall time/);
    expect(existsSync(out)).toBe(false);
  });
});
