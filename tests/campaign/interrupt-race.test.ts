/**
 * Ctrl-C pressed again and again while reps start their processes. A
 * terminal signals its whole foreground process group, and a process a
 * program starts is in the program's group from fork until it leaves it: a
 * Ctrl-C in that moment stays pending in the child and kills it as soon as
 * it resets its signal handlers, however quickly it calls setsid(). So no
 * process that starts sessions, git or sandboxes may be in the terminal's
 * foreground group at all: redgreen's campaign work runs in a process that
 * left it before starting anything, and the foreground process only relays.
 * A rep whose processes died of a signal nobody in redgreen sent is never
 * recorded either.
 */
import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanEnv, cliPath, repoRoot, runCli } from '../helpers/cli.js';
import { descendants, type ProcessInfo, processInfo, running } from '../helpers/process-tree.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { runInTerminal, type Terminal, tmuxAvailable } from '../helpers/terminal.js';
import { lockHolderPid, readJson, repLines, runCampaignCli, twoRepCampaign } from './support.js';

async function sleep(ms: number): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, ms));
}

function recorded(out: string): number {
  return existsSync(path.join(out, 'ledger.jsonl')) ? repLines(out).length : 0;
}

/** The pid named by the owner file of the one work root under `tmp`, if there is one yet. */
function workRootOwner(tmp: string): number | undefined {
  for (const entry of readdirSync(tmp)) {
    const owner = path.join(tmp, entry, 'owner.json');
    if (/^redgreen-run-/.test(entry) && existsSync(owner)) {
      try {
        return readJson<{ pid: number }>(owner).pid;
      } catch {
        return undefined; // being written
      }
    }
  }
  return undefined;
}

/**
 * The processes started by a process in the terminal's foreground group,
 * other than the command the pane's shell started: each was in that group
 * from its fork until it left, so each could have caught a Ctrl-C meant for
 * redgreen.
 */
function startedFromForeground(shell: number): ProcessInfo[] {
  const terminal = processInfo(shell);
  if (terminal === undefined) return [];
  const tree = descendants(shell);
  const foreground = new Set(
    [terminal, ...tree].filter((info) => info.pgrp === terminal.tpgid).map((info) => info.pid),
  );
  return tree.filter((info) => info.ppid !== shell && foreground.has(info.ppid));
}

const terminals: Terminal[] = [];
afterEach(() => {
  for (const terminal of terminals.splice(0)) terminal.close();
});

const skip = tmuxAvailable() ? false : 'tmux is not installed (apt-get install tmux)';
if (skip) console.log(`skipping the terminal interrupt race test: ${skip}`);

describe.skipIf(skip !== false)('Ctrl-C pressed again and again while reps spawn', () => {
  it('reaches no process redgreen started: one helper outside the foreground group does the work, and nothing a Ctrl-C touched is recorded', async () => {
    const base = makeTempDir();
    const tmp = path.join(base, 'tmp');
    const out = path.join(base, 'out');
    mkdirSync(tmp);
    const campaign = twoRepCampaign();
    const terminal = runInTerminal(
      ['run', campaign, '--concurrency', '4', '--fault', 'delay=150ms', '--out', out],
      { TMPDIR: tmp },
    );
    terminals.push(terminal);
    const shell = terminal.shellPid();

    // While reps run: only the run's own helper (the owner of its work dir) was
    // started from the foreground group, and it is in a session of its own.
    const seen = new Map<number, ProcessInfo>();
    const deadline = Date.now() + 180_000;
    while (recorded(out) < 1) {
      if (Date.now() > deadline) throw new Error(`no rep recorded in time\n${terminal.screen()}`);
      for (const info of startedFromForeground(shell)) seen.set(info.pid, info);
      await sleep(20);
    }
    const owner = workRootOwner(tmp);
    const exposed = [...seen.values()].filter((info) => info.pid !== owner);
    expect(
      exposed.map((info) => `${info.pid} ${info.command.slice(0, 120)}`),
      'processes started by a process in the terminal foreground group',
    ).toEqual([]);
    expect(owner).toBeDefined();
    const ownerInfo = processInfo(owner ?? 0);
    const shellInfo = processInfo(shell);
    expect(ownerInfo?.session).not.toBe(shellInfo?.session);
    expect(ownerInfo?.pgrp).not.toBe(shellInfo?.tpgid);

    // Ctrl-C again and again while the reps in flight start their processes.
    for (let press = 0; press < 30 && !terminal.ended(); press += 1) {
      terminal.press('C-c');
      await sleep(25);
    }
    const status = await terminal.exited(180_000);
    const screen = terminal.screen();
    expect(status, screen).toBe(1);

    const lines = repLines(out);
    expect(lines.length, screen).toBeLessThan(8);
    // Nothing a Ctrl-C cut short was recorded: every recorded rep completed, with git able to read its repository.
    for (const line of lines) {
      expect(line.verdict, `${line.id}\n${screen}`).not.toBe('indeterminate');
      const meta = readJson<{ status: { kind: string }; repositoryAfterSession: string }>(
        path.join(out, line.dir ?? '', 'meta.json'),
      );
      expect(meta.status.kind, line.id).toBe('completed');
      expect(meta.repositoryAfterSession, line.id).toBe('readable');
    }
    const flat = screen.replace(/\s+/g, ' ');
    const resumeCommand = /(?:redgreen|node \S+cli\.js) run --resume (\S+)/.exec(flat);
    expect(resumeCommand, screen).not.toBeNull();
    const resumed = await runCampaignCli(['--resume', resumeCommand?.[1] ?? ''], { TMPDIR: tmp });
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    const gate = await runCli(['gate', out]);
    expect(gate.exitCode, gate.stdout).toBe(0);
    expect(readdirSync(tmp)).toEqual([]);
  });
});

describe('a signal from outside redgreen', () => {
  it('that kills the process the shell started ends the run: the reps in flight are not recorded, and the lock and work dir are gone', async () => {
    const base = makeTempDir();
    const tmp = path.join(base, 'tmp');
    const out = path.join(base, 'out');
    mkdirSync(tmp);
    const child = execa(
      process.execPath,
      [
        cliPath,
        'run',
        twoRepCampaign(),
        '--concurrency',
        '2',
        '--fault',
        'delay=400ms',
        '--out',
        out,
      ],
      { cwd: repoRoot, env: cleanEnv({ TMPDIR: tmp }), extendEnv: false, reject: false },
    );
    const deadline = Date.now() + 180_000;
    while (recorded(out) < 1) {
      if (Date.now() > deadline) throw new Error('no rep recorded in time');
      await sleep(50);
    }
    const lock = path.join(out, '.redgreen.lock');
    const worker = lockHolderPid(out);
    expect(worker).not.toBe(child.pid);
    process.kill(child.pid ?? 0, 'SIGKILL');
    await child;
    while (running(worker)) {
      if (Date.now() > deadline)
        throw new Error('the run did not end after its foreground process died');
      await sleep(50);
    }
    expect(existsSync(lock)).toBe(false);
    expect(readdirSync(tmp)).toEqual([]);
    const lines = repLines(out);
    expect(lines.length).toBeLessThan(8);
    expect(lines.filter((line) => line.verdict === 'indeterminate')).toEqual([]);
    const resumed = await runCampaignCli(['--resume', out], { TMPDIR: tmp });
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    const gate = await runCli(['gate', out]);
    expect(gate.exitCode, gate.stdout).toBe(0);
  });

  it('that kills an engine leaves its rep unrecorded, for --resume to run again', async () => {
    const base = makeTempDir();
    const out = path.join(base, 'out');
    const campaign = twoRepCampaign();
    const child = execa(
      process.execPath,
      [cliPath, 'run', campaign, '--concurrency', '2', '--fault', 'delay=400ms', '--out', out],
      { cwd: repoRoot, env: cleanEnv(), extendEnv: false, reject: false },
    );
    // The first engine seen is interrupted as a user's `kill -INT <pid>` would.
    let victim: ProcessInfo | undefined;
    const deadline = Date.now() + 180_000;
    while (victim === undefined) {
      if (Date.now() > deadline) throw new Error('no engine started in time');
      victim = descendants(child.pid ?? 0).find(
        (info) => /claude-agent-sdk/.test(info.command) && !/--version/.test(info.command),
      );
      if (victim === undefined) await sleep(20);
    }
    process.kill(victim.pid, 'SIGINT');
    const result = await child;
    expect(result.exitCode, String(result.stderr)).toBe(1);
    expect(String(result.stderr)).toMatch(/run --resume/);
    const lines = repLines(out);
    expect(lines).toHaveLength(7);
    expect(lines.filter((line) => line.verdict === 'indeterminate')).toEqual([]);
    const resumed = await runCampaignCli(['--resume', out]);
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(repLines(out)).toHaveLength(8);
    const gate = await runCli(['gate', out]);
    expect(gate.exitCode, gate.stdout).toBe(0);
  });
});
