import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { cliPath, repoRoot } from './cli.js';
import { makeTempDir } from './temp-dir.js';

/**
 * A real terminal for tests: a private tmux server (its own socket, so no
 * other tmux is touched) whose one pane runs a command in a pseudo-terminal.
 * Keys sent with `press` go through the terminal's line discipline, so Ctrl-C
 * signals the whole foreground process group, exactly as at a keyboard.
 */
export interface Terminal {
  /** Send keys in tmux notation, e.g. `C-c`. */
  press(...keys: string[]): void;
  /** The pid of the pane's shell, whose child is the command. */
  shellPid(): number;
  /** The pane's text (with its scrollback). */
  screen(): string;
  /** Whether the command has ended (its exit status is written). */
  ended(): boolean;
  /** Resolves with the command's exit status once it has ended. */
  exited(timeoutMs: number): Promise<number>;
  /** Stop the tmux server and everything in it. */
  close(): void;
}

export function tmuxAvailable(): boolean {
  return spawnSync('tmux', ['-V'], { stdio: 'ignore' }).status === 0;
}

/**
 * Run `redgreen <args>` in a fresh terminal with a clean environment. The
 * pane stays open after the command ends so its output can be read.
 */
export function runInTerminal(args: readonly string[], env: Record<string, string> = {}): Terminal {
  const dir = makeTempDir('redgreen-tty-');
  const socket = `redgreen-test-${process.pid}-${path.basename(dir)}`;
  const statusFile = path.join(dir, 'status');
  const quote = (word: string): string => `'${word.replace(/'/g, `'\\''`)}'`;
  const environment = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? '/root',
    LANG: 'C',
    TERM: 'xterm-256color',
    ...env,
  };
  const script = path.join(dir, 'run.sh');
  writeFileSync(
    script,
    [
      `cd ${quote(repoRoot)}`,
      `env -i ${Object.entries(environment)
        .map(([name, value]) => quote(`${name}=${value}`))
        .join(' ')} ${quote(process.execPath)} ${quote(cliPath)} ${args.map(quote).join(' ')}`,
      `echo $? > ${quote(statusFile)}`,
      // Keys pressed after the command ended must not end the pane (and with it the server).
      "trap '' INT",
      'exec sleep 600',
      '',
    ].join('\n'),
  );
  const tmux = (...tmuxArgs: string[]): string =>
    execFileSync('tmux', ['-L', socket, '-f', '/dev/null', ...tmuxArgs], {
      encoding: 'utf8',
      env: { PATH: environment.PATH, HOME: environment.HOME, TERM: 'xterm-256color' },
    });
  tmux('new-session', '-d', '-s', 'main', '-x', '160', '-y', '50', `bash ${quote(script)}`);
  return {
    press: (...keys) => {
      tmux('send-keys', '-t', 'main', ...keys);
    },
    shellPid: () => Number(tmux('display-message', '-p', '-t', 'main', '#{pane_pid}').trim()),
    screen: () => tmux('capture-pane', '-p', '-J', '-t', 'main', '-S', '-1000'),
    ended: () => existsSync(statusFile) && readFileSync(statusFile, 'utf8').trim() !== '',
    exited: async (timeoutMs) => {
      const deadline = Date.now() + timeoutMs;
      while (!existsSync(statusFile) || readFileSync(statusFile, 'utf8').trim() === '') {
        if (Date.now() > deadline) throw new Error('the command in the terminal did not end');
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      return Number(readFileSync(statusFile, 'utf8').trim());
    },
    close: () => {
      try {
        tmux('kill-server');
      } catch {
        // already gone
      }
    },
  };
}
