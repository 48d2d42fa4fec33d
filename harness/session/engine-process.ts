import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { SpawnedProcess, SpawnOptions } from '@anthropic-ai/claude-agent-sdk';
import { stoppedFromOutside } from '../lib/outside-signals.js';
import { SETPRIV } from '../sandbox/sandbox.js';

type Listener = (...args: never[]) => void;

/**
 * The engine's process as the Agent SDK drives it, except that `kill`
 * signals the engine's whole process group (the commands it started too).
 */
export class EngineProcess implements SpawnedProcess {
  readonly #child: ChildProcessWithoutNullStreams;
  /** Whether redgreen (the SDK closing it, or an abort) signalled it. */
  #signalled = false;

  constructor(child: ChildProcessWithoutNullStreams) {
    this.#child = child;
  }

  /** Resolves once the engine has exited, or after `timeoutMs` if it has not. */
  async settled(timeoutMs: number): Promise<void> {
    const child = this.#child;
    if (child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** The signal that killed the engine when redgreen did not send it (a user's kill, a stray Ctrl-C), else null. */
  stoppedFromOutside(): NodeJS.Signals | null {
    const signal = this.#child.signalCode;
    return stoppedFromOutside(signal, this.#signalled) ? signal : null;
  }

  get stdin(): ChildProcessWithoutNullStreams['stdin'] {
    return this.#child.stdin;
  }
  get stdout(): ChildProcessWithoutNullStreams['stdout'] {
    return this.#child.stdout;
  }
  get killed(): boolean {
    return this.#child.killed;
  }
  get exitCode(): number | null {
    return this.#child.exitCode;
  }
  get signalCode(): NodeJS.Signals | null {
    return this.#child.signalCode;
  }

  kill(signal: NodeJS.Signals): boolean {
    const child = this.#child;
    this.#signalled = true;
    if (child.pid !== undefined && child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-child.pid, signal);
      } catch {
        // the group is gone already; the leader is signalled below all the same
      }
    }
    return child.kill(signal) || child.killed;
  }

  on(event: 'exit' | 'error', listener: Listener): void {
    this.#child.on(event, listener as (...args: unknown[]) => void);
  }
  once(event: 'exit' | 'error', listener: Listener): void {
    this.#child.once(event, listener as (...args: unknown[]) => void);
  }
  off(event: 'exit' | 'error', listener: Listener): void {
    this.#child.off(event, listener as (...args: unknown[]) => void);
  }
}

/**
 * Start the Claude Code engine in a process group (and session) of its own.
 * A Ctrl-C at a terminal signals the whole foreground process group; in
 * redgreen's group the engines would die with the harness and leave their
 * reps half-run. In their own group only the harness decides: it lets them
 * finish or aborts them, and an abort stops the engine's whole group.
 *
 * The SDK reads the engine's stderr only when it spawns the engine itself, so
 * stderr goes to `onStderr` here.
 */
export function spawnEngineInOwnGroup(
  options: SpawnOptions,
  onStderr: (text: string) => void,
): EngineProcess {
  // In its own group the engine would outlive a redgreen killed with SIGKILL, and finish its
  // (paid, when live) session: it gets SIGKILL when redgreen dies (a parent-death signal, set
  // by setpriv, which then executes the engine). Its sandboxed commands die with it (bubblewrap's
  // --die-with-parent).
  const [command, args] = existsSync(SETPRIV)
    ? [SETPRIV, ['--pdeathsig', 'KILL', '--', options.command, ...options.args]]
    : [options.command, options.args];
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (text: string) => onStderr(text));
  const engine = new EngineProcess(child);
  // The SDK aborts this signal only after its own graceful close has had its chance.
  options.signal.addEventListener('abort', () => engine.kill('SIGKILL'), { once: true });
  return engine;
}
