/**
 * A command that starts model sessions runs where a Ctrl-C cannot reach
 * what it starts. A terminal signals its whole foreground process group, and
 * a child is in its parent's group from fork until it leaves it: even a
 * child started `detached` (setsid() in the child) can catch a Ctrl-C in
 * that moment, keep it pending and die of it as it execs. No spawn option
 * closes that window, so no process that starts children may be in the
 * terminal's group at all.
 *
 * The process the terminal runs (the foreground process) therefore starts
 * one helper, `node <the same script> <the same arguments>`, in a session of
 * its own, and does nothing else: SIGINT, SIGTERM and SIGHUP it receives go
 * to the helper as messages (never as signals: a message cannot kill it),
 * a terminal resize as SIGWINCH (ignored by default, so harmless even in the
 * helper's first moment), and the helper's exit status comes back as its
 * own. The helper writes to the same stdout and stderr, so a terminal (and
 * its status line), a pipe and a closed pipe behave as they would without
 * it; it reads no stdin. Should the helper itself catch a Ctrl-C in its
 * first moment, it dies before it has run anything, and the foreground
 * process says so.
 *
 * In the helper, `interruptRequests` delivers the relayed requests (and
 * SIGINT/SIGTERM sent to the helper itself); the foreground process going
 * away (its terminal closed, or it was killed) asks for an abort, since
 * nobody is left to see the run.
 */
import { spawn } from 'node:child_process';
import os from 'node:os';

/** Set in the helper's environment (and removed from it at once) so it does the work itself. */
const HELPER_MARK = 'REDGREEN_SESSION_HELPER';

const RELAYED = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
type RelayedSignal = (typeof RELAYED)[number];

interface RelayMessage {
  readonly type: 'signal';
  readonly signal: RelayedSignal;
}

/** What a request asks of a run: stop dispatching (then abort, on the second), or abort at once. */
export type InterruptRequest = 'interrupt' | 'abort';

function isRelayMessage(value: unknown): value is RelayMessage {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { type?: unknown }).type === 'signal' &&
    RELAYED.includes((value as { signal?: RelayedSignal }).signal as RelayedSignal)
  );
}

/** True in the helper. Removes the mark from the environment, so nothing it starts inherits it. */
export function isSessionHelper(): boolean {
  const marked = process.env[HELPER_MARK] === '1';
  delete process.env[HELPER_MARK];
  return marked && typeof process.send === 'function';
}

/**
 * The foreground side: run `argv` (this process's own command line) in the
 * helper and resolve with the exit status to end with.
 */
export function runInOwnSession(argv: readonly string[]): Promise<number> {
  return new Promise((resolve) => {
    let ready = false;
    const queued: RelayMessage[] = [];
    const received: RelayedSignal[] = [];
    // Installed before the helper exists: from now on a Ctrl-C is a request, not this process's death.
    const relays = RELAYED.map((signal) => {
      const relay = (): void => {
        received.push(signal);
        const message: RelayMessage = { type: 'signal', signal };
        if (ready) send(message);
        else queued.push(message);
      };
      process.on(signal, relay);
      return [signal, relay] as const;
    });
    const onResize = (): void => {
      if (helper.pid !== undefined) {
        try {
          process.kill(helper.pid, 'SIGWINCH');
        } catch {
          // gone already
        }
      }
    };
    process.on('SIGWINCH', onResize);
    const inspectFlags = /^--(inspect|debug)/;
    const helper = spawn(
      process.execPath,
      [...process.execArgv.filter((flag) => !inspectFlags.test(flag)), ...argv.slice(1)],
      {
        detached: true,
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
        env: { ...process.env, [HELPER_MARK]: '1' },
      },
    );
    function send(message: RelayMessage): void {
      if (helper.connected) helper.send(message, () => undefined);
    }
    const finish = (status: number): void => {
      for (const [signal, relay] of relays) process.off(signal, relay);
      process.off('SIGWINCH', onResize);
      resolve(status);
    };
    helper.on('message', (message: unknown) => {
      if ((message as { type?: unknown } | null)?.type !== 'ready') return;
      ready = true;
      for (const pending of queued.splice(0)) send(pending);
    });
    helper.on('error', (error) => {
      process.stderr.write(`redgreen: could not start the run's process: ${error.message}\n`);
      finish(70);
    });
    helper.on('exit', (code, signal) => {
      if (code !== null) return finish(code);
      if (!ready && received.length > 0) {
        process.stderr.write('redgreen: interrupted before the run started; nothing was run\n');
        return finish(1);
      }
      process.stderr.write(
        `redgreen: the run's process (pid ${helper.pid}) was killed by ${signal}; reps in flight were not recorded (redgreen run --resume <its results directory> finishes it)\n`,
      );
      const number = signal === null ? undefined : os.constants.signals[signal];
      return finish(number === undefined ? 70 : 128 + number);
    });
  });
}

type RequestHandler = (request: InterruptRequest) => void;
let helperListening = false;
let handler: RequestHandler | undefined;
const early: InterruptRequest[] = [];

function deliver(request: InterruptRequest): void {
  if (handler === undefined) early.push(request);
  else handler(request);
}

/**
 * The helper side, called first thing: listen for relayed requests (and
 * signals sent to the helper itself), then tell the foreground process it
 * may relay. The channel does not keep the helper alive.
 */
export function listenAsSessionHelper(): void {
  helperListening = true;
  process.on('message', (message: unknown) => {
    if (!isRelayMessage(message)) return;
    deliver(message.signal === 'SIGHUP' ? 'abort' : 'interrupt');
  });
  process.on('disconnect', () => deliver('abort'));
  process.on('SIGINT', () => deliver('interrupt'));
  process.on('SIGTERM', () => deliver('interrupt'));
  process.send?.({ type: 'ready' });
  process.channel?.unref();
}

/**
 * Call `onRequest` for each interrupt request from now on, and at once for
 * those that came before; returns the function that stops listening. Outside
 * the helper (the command run in the foreground), SIGINT and SIGTERM are the
 * requests.
 */
export function interruptRequests(onRequest: RequestHandler): () => void {
  const signalled = (): void => onRequest('interrupt');
  const ownSignals = !helperListening;
  if (ownSignals) {
    process.on('SIGINT', signalled);
    process.on('SIGTERM', signalled);
  }
  handler = onRequest;
  for (const request of early.splice(0)) onRequest(request);
  return () => {
    handler = undefined;
    if (ownSignals) {
      process.off('SIGINT', signalled);
      process.off('SIGTERM', signalled);
    }
  };
}
