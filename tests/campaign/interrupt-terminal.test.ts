/**
 * Ctrl-C in a real terminal: the terminal signals the whole foreground
 * process group, so every engine session would get SIGINT along with
 * redgreen. The engines run in process groups of their own, so the harness
 * alone decides: the first Ctrl-C lets the reps in flight finish, the second
 * aborts them without recording them, and either way a resume (whose command
 * is printed) ends in the same gate as a clean run.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { runInTerminal, type Terminal, tmuxAvailable } from '../helpers/terminal.js';
import { repLines, runCampaignCli, twoRepCampaign } from './support.js';

async function waitFor(condition: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

function recorded(out: string): number {
  return existsSync(path.join(out, 'ledger.jsonl')) ? repLines(out).length : 0;
}

const terminals: Terminal[] = [];
afterEach(() => {
  for (const terminal of terminals.splice(0)) terminal.close();
});

const skip = tmuxAvailable() ? false : 'tmux is not installed (apt-get install tmux)';
if (skip) console.log(`skipping the terminal interrupt tests: ${skip}`);

describe.skipIf(skip !== false)('Ctrl-C in a terminal', () => {
  let cleanGate: { exitCode: number | undefined; stdout: string } | undefined;
  async function cleanRunGate(
    campaign: string,
  ): Promise<{ exitCode: number | undefined; stdout: string }> {
    if (cleanGate === undefined) {
      const out = path.join(makeTempDir(), 'clean');
      const run = await runCampaignCli([campaign, '--out', out]);
      expect(run.exitCode, run.stderr).toBe(0);
      const gate = await runCli(['gate', out]);
      cleanGate = { exitCode: gate.exitCode, stdout: gate.stdout };
    }
    return cleanGate;
  }

  for (const presses of [1, 2] as const) {
    it(`${presses === 1 ? 'once lets the reps in flight finish' : 'twice aborts the reps in flight without recording them'}; the resume command it prints ends in a clean run's gate`, async () => {
      const out = path.join(makeTempDir(), 'out');
      const campaign = twoRepCampaign();
      const terminal = runInTerminal([
        'run',
        campaign,
        '--concurrency',
        '4',
        '--fault',
        'delay=400ms',
        '--out',
        out,
      ]);
      terminals.push(terminal);
      await waitFor(() => recorded(out) >= 1, 120_000);
      terminal.press('C-c');
      if (presses === 2) {
        await new Promise((resolve) => setTimeout(resolve, 300));
        terminal.press('C-c');
      }
      const status = await terminal.exited(120_000);
      const screen = terminal.screen();
      expect(status, screen).toBe(1);

      const lines = repLines(out);
      expect(lines.length, screen).toBeLessThan(8);
      // No session was killed by the terminal's SIGINT: nothing indeterminate was recorded.
      expect(
        lines.filter((line) => line.verdict === 'indeterminate'),
        screen,
      ).toEqual([]);
      const flat = screen.replace(/\s+/g, ' ');
      const resumeCommand = /(?:redgreen|node \S+cli\.js) run --resume (\S+)/.exec(flat);
      expect(resumeCommand, screen).not.toBeNull();
      expect(path.resolve(resumeCommand?.[1] ?? '')).toBe(out);

      const resumed = await runCampaignCli(['--resume', resumeCommand?.[1] ?? '']);
      expect(resumed.exitCode, resumed.stderr).toBe(0);
      expect(repLines(out).filter((line) => line.verdict === 'indeterminate')).toEqual([]);
      const gate = await runCli(['gate', out]);
      const clean = await cleanRunGate(campaign);
      expect(gate.exitCode, gate.stdout).toBe(clean.exitCode);
      expect(gate.exitCode).toBe(0);
      expect(gate.stdout).toBe(clean.stdout);
    });
  }
});
