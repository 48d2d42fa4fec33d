/**
 * The time and cost a session's seats spend, held against the campaign's
 * per-seat and per-rep limits (`seatTimeoutSeconds`, `seatMaxCostUsd`,
 * `repMaxCostUsd`), on either backend. The backend tells it when a seat's run
 * starts and ends (a dispatch or a resume, and the seat's reply) and hands it
 * every model reply with its usage; it answers, once a limit is met, with the
 * reason the session ends on (naming the seat and the limit). The backend
 * then stops the session (the messages backend after that tool turn, the
 * engine by aborting its query) and records an indeterminate rep at stage
 * `limit`.
 *
 * A seat's time is the clock time of its runs, summed (not the idle time
 * between a reply and a resume). The clock is a parameter, so tests need no
 * wall-clock time; it is read on every reply, after every tool turn and on
 * the backend's periodic tick. A reply's cost is priced by the model the API
 * reported, with the rep's pricing; one API turn that arrives as several
 * messages sharing an id is counted once (its latest usage). A cost limit
 * with a reply of a model that has no price cannot be kept: that ends the
 * session too, saying so.
 */
import type { Clock, PriceModel, TokenUsage } from './session-types.js';

export interface SpendLimits {
  readonly seatTimeoutSeconds?: number | undefined;
  readonly seatMaxCostUsd?: number | undefined;
  readonly repMaxCostUsd?: number | undefined;
}

/** A seat as the limits name it. */
export interface SpendSeat {
  /** The tool_use id of the dispatch that created the seat. */
  readonly key: string;
  /** How a reason names it: `subagent agent-3 (Implement step 2: …)`. */
  readonly name: string;
}

interface SeatState {
  readonly seat: SpendSeat;
  /** Milliseconds of its finished runs. */
  spentMs: number;
  /** When its current run started, or undefined between runs. */
  runStart: number | undefined;
  /** Cost by message id (one API turn counts once). */
  readonly costs: Map<string, number>;
}

function usd(amount: number): string {
  return `$${amount.toFixed(2)}`;
}

function sum(values: Iterable<number>): number {
  let total = 0;
  for (const value of values) total += value;
  return total;
}

export class SeatSpend {
  readonly #limits: SpendLimits;
  readonly #price: PriceModel | undefined;
  readonly #clock: Clock;
  readonly #seats = new Map<string, SeatState>();
  readonly #controllerCosts = new Map<string, number>();
  #limitReached: string | undefined;

  constructor(limits: SpendLimits, price: PriceModel | undefined, clock: Clock) {
    this.#limits = limits;
    this.#price = price;
    this.#clock = clock;
  }

  /** Whether any limit here applies (else the backend need not watch). */
  get active(): boolean {
    const { seatTimeoutSeconds, seatMaxCostUsd, repMaxCostUsd } = this.#limits;
    return (
      seatTimeoutSeconds !== undefined ||
      seatMaxCostUsd !== undefined ||
      repMaxCostUsd !== undefined
    );
  }

  /** The first limit met, as the session's indeterminate reason; undefined while none is. */
  get limitReached(): string | undefined {
    return this.#limitReached;
  }

  /** What the rep has cost so far (priced replies only). */
  get repCostUsd(): number {
    return sum(this.#controllerCosts.values()) + sum([...this.#seats.values()].map(seatCost));
  }

  /** A seat's run starts: its dispatch, or a resume. */
  runStarted(seat: SpendSeat): void {
    const state = this.#stateOf(seat);
    state.runStart ??= this.#clock();
  }

  /** A seat's run ended (it replied, or its dispatch or resume was answered). */
  runEnded(key: string): void {
    const state = this.#seats.get(key);
    if (state === undefined || state.runStart === undefined) return;
    this.#checkTime(state);
    state.spentMs += this.#clock() - state.runStart;
    state.runStart = undefined;
  }

  /**
   * One model reply: the seat that made it (null: the controller), the API
   * message id, the model the API reported, and its usage.
   */
  reply(seat: SpendSeat | null, messageId: string, modelId: string, usage: TokenUsage): void {
    const costs = seat === null ? this.#controllerCosts : this.#stateOf(seat).costs;
    const costLimited =
      this.#limits.repMaxCostUsd !== undefined ||
      (seat !== null && this.#limits.seatMaxCostUsd !== undefined);
    if (costLimited && this.#price !== undefined) {
      const cost = this.#price(modelId, usage);
      if (cost === null) {
        const which =
          seat !== null && this.#limits.seatMaxCostUsd !== undefined
            ? `the per-seat cost limit (${usd(this.#limits.seatMaxCostUsd)})`
            : `the per-rep cost limit (${usd(this.#limits.repMaxCostUsd ?? 0)})`;
        this.#met(
          `${seat === null ? 'the controller' : seat.name} ran on ${modelId}, which has no price, so ${which} cannot be kept`,
        );
        return;
      }
      costs.set(messageId, cost);
    }
    this.check();
  }

  /**
   * While a seat time limit applies, check every second and call `onMet` once
   * one is met (a seat quiet in a long tool call or model request is stopped
   * too). Returns the function that ends the watch.
   */
  watchTime(onMet: () => void): () => void {
    if (this.#limits.seatTimeoutSeconds === undefined) return () => {};
    const timer = setInterval(() => {
      if (!this.shouldStop()) return;
      clearInterval(timer);
      onMet();
    }, 1000);
    timer.unref();
    return () => clearInterval(timer);
  }

  /** Check the limits now; true once one is met (the session must stop). */
  shouldStop(): boolean {
    this.check();
    return this.#limitReached !== undefined;
  }

  /** Hold every seat's time and cost, and the rep's cost, against the limits now. */
  check(): void {
    const { seatMaxCostUsd, repMaxCostUsd } = this.#limits;
    for (const state of this.#seats.values()) {
      this.#checkTime(state);
      if (seatMaxCostUsd !== undefined && seatCost(state) >= seatMaxCostUsd) {
        this.#met(
          `${state.seat.name} reached the per-seat cost limit (${usd(seatMaxCostUsd)}): it cost ${usd(seatCost(state))}`,
        );
      }
    }
    if (repMaxCostUsd !== undefined && this.repCostUsd >= repMaxCostUsd) {
      const last = [...this.#seats.values()].find((state) => state.runStart !== undefined);
      this.#met(
        `the rep reached the per-rep cost limit (${usd(repMaxCostUsd)}) ${last === undefined ? 'in the controller' : `in ${last.seat.name}`}: it cost ${usd(this.repCostUsd)}`,
      );
    }
  }

  #checkTime(state: SeatState): void {
    const limit = this.#limits.seatTimeoutSeconds;
    if (limit === undefined) return;
    const running = state.runStart === undefined ? 0 : this.#clock() - state.runStart;
    if (state.spentMs + running >= limit * 1000) {
      this.#met(`${state.seat.name} reached the per-seat time limit (${limit} s)`);
    }
  }

  #stateOf(seat: SpendSeat): SeatState {
    let state = this.#seats.get(seat.key);
    if (state === undefined) {
      state = { seat, spentMs: 0, runStart: undefined, costs: new Map() };
      this.#seats.set(seat.key, state);
    }
    return state;
  }

  #met(reason: string): void {
    this.#limitReached ??= reason;
  }
}

function seatCost(state: SeatState): number {
  return sum(state.costs.values());
}

/** A session's SeatSpend, from its request: the campaign's limits, its pricing and its clock. */
export function seatSpendFor(request: {
  readonly limits: SpendLimits;
  readonly price?: PriceModel | undefined;
  readonly clock?: Clock | undefined;
}): SeatSpend {
  return new SeatSpend(request.limits, request.price, request.clock ?? (() => performance.now()));
}

/** An API reply's usage block as redgreen counts tokens. */
export function tokenUsageOf(usage: {
  readonly input_tokens: number;
  readonly output_tokens: number;
  readonly cache_creation_input_tokens?: number | null;
  readonly cache_read_input_tokens?: number | null;
}): TokenUsage {
  return {
    input: usage.input_tokens,
    output: usage.output_tokens,
    cacheWrite: usage.cache_creation_input_tokens ?? 0,
    cacheRead: usage.cache_read_input_tokens ?? 0,
  };
}
