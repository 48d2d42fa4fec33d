import { setMaxListeners } from 'node:events';

/**
 * How a user stops a run: the first request stops dispatching new reps and
 * lets those in flight finish; the second aborts the reps in flight (they are
 * not recorded, so a resume runs them again). The journal stays consistent
 * either way because a rep is recorded only once its directory is complete.
 */
export class RunControl {
  #stopReason: string | undefined;
  readonly #abort = new AbortController();

  constructor() {
    // Every rep in flight listens on this one signal: above 10 at once is normal, not a leak.
    setMaxListeners(0, this.#abort.signal);
  }

  get stopping(): boolean {
    return this.#stopReason !== undefined;
  }

  get stopReason(): string | undefined {
    return this.#stopReason;
  }

  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  /** Stop dispatching; returns false if a stop was already requested. */
  stop(reason: string): boolean {
    if (this.#stopReason !== undefined) return false;
    this.#stopReason = reason;
    return true;
  }

  abortInFlight(): void {
    this.#abort.abort();
  }

  /** Stop dispatching and abort the reps in flight at once (nobody is left to see the run). */
  abort(): 'aborting' {
    this.stop('aborted: the terminal or the process that started the run is gone');
    this.abortInFlight();
    return 'aborting';
  }

  /** The Ctrl-C policy: first press stops dispatching, the second aborts. */
  interrupt(): 'stopping' | 'aborting' {
    if (this.stop('interrupted (Ctrl-C); press Ctrl-C again to abort the reps in flight')) {
      return 'stopping';
    }
    this.abortInFlight();
    return 'aborting';
  }
}
