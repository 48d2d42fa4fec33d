/**
 * Children that died of a signal redgreen never sends them. redgreen stops its
 * own children with SIGKILL (timeouts, aborts) or, for the engine, with the
 * SIGTERM the Agent SDK sends when it closes a session; SIGINT, SIGTERM,
 * SIGHUP or SIGQUIT arriving any other way came from outside: a user's
 * `kill`, or a Ctrl-C meant for redgreen. A rep any of whose processes was
 * stopped like that did not run as asked, so it must not be recorded (a
 * resume runs it again).
 *
 * The engine's session tells its own rep (claude-code backend). For the other
 * children (git, sandboxed commands) this is a fact about the whole process,
 * counted here; which rep a child belonged to is not tracked, so a rep asks
 * whether the count moved while it ran and, if it did, is not recorded. That
 * may drop a rep that was not hit (its neighbour was), never record one that
 * was.
 */
const INTERRUPTING = new Set<string>(['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT']);

/** Whether a child that died of `signal` (and was not signalled by redgreen) was stopped from outside. */
export function stoppedFromOutside(
  signal: NodeJS.Signals | null,
  sentByRedgreen: boolean,
): boolean {
  return signal !== null && !sentByRedgreen && INTERRUPTING.has(signal);
}

let outsideStops = 0;
let lastSignal: string | undefined;

/**
 * Note how a child ended. `sentByRedgreen` is true when redgreen itself
 * signalled it (then nothing is counted).
 */
export function noteChildExit(signal: NodeJS.Signals | null, sentByRedgreen = false): void {
  if (signal === null || !stoppedFromOutside(signal, sentByRedgreen)) return;
  outsideStops += 1;
  lastSignal = signal;
}

/** How many children died of a signal from outside so far; compare two readings. */
export function childrenStoppedFromOutside(): number {
  return outsideStops;
}

/** The last such signal, for messages. */
export function lastOutsideSignal(): string | undefined {
  return lastSignal;
}
