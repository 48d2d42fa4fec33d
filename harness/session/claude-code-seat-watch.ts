/**
 * Seat limits on the Claude Code engine. The engine runs its subagents
 * itself, so redgreen watches its stream-json messages and stops the engine
 * (the backend aborts the query, which kills its process group) once a limit
 * is met, recording the reason as the messages backend does:
 *
 * - `maxSeats`: the controller's `Agent`/`Task` calls (each a new subagent).
 * - `seatMaxTurns`: a subagent's turns that asked for tools, summed over its
 *   runs. A seat whose N-th such turn arrives cannot reply within N turns
 *   (the results need another), so the limit is met there, as on the messages
 *   backend ("without a final reply").
 * - a seat's time and cost and the rep's cost (seat-spend.ts): a run starts at
 *   the engine's `task_started` (a dispatch, or a SendMessage resuming the
 *   agent) and ends at its `task_updated` with an end; every assistant
 *   message's usage is priced, counted once per API turn and seat.
 *
 * Stopping is prompt: under `stop: complete` a PreToolUse hook holds every
 * tool call (controller's or subagent's) until the watch has seen the
 * message that made it, then checks the limits; once one is met the call is
 * denied with `continue: false` and the engine is stopped, so no tool runs
 * and no seat starts after the limit, however fast the model answers.
 *
 * Measured on 2.1.332 with the local model server: a subagent's messages
 * carry `parent_tool_use_id` = the dispatch that created it, before and after
 * a resume; `task_started` names the agent (`task_id`, the id SendMessage
 * takes) and the call that started the run (`tool_use_id`); the engine does
 * not stream a subagent's final text-only turn of a first run (its text goes
 * into the dispatch's tool result), so that turn's tokens are not seen and a
 * seat's counted cost leaves it out.
 */
import type { HookCallback, Options, SDKMessage } from '@anthropic-ai/claude-agent-sdk';
import { type SeatSpend, type SpendSeat, seatSpendFor, tokenUsageOf } from './seat-spend.js';
import type { SessionRequest } from './session-types.js';
import { DEFAULT_MAX_SEATS } from './subagent-seats.js';

export interface SeatWatchOptions {
  /** Subagents one rep may start (Infinity: no limit, outside `stop: complete`). */
  readonly maxSeats: number;
  readonly seatMaxTurns: number;
  readonly spend: SeatSpend;
  /** Called once, when the first limit is met: the backend stops the engine. */
  readonly onLimit: () => void;
  /**
   * How long the hook holds a tool call whose message the stream has not shown
   * (default 5000 ms); after it the call goes on, so a message the engine never
   * streams cannot deadlock the session.
   */
  readonly seenWaitMs?: number;
}

interface WatchedSeat {
  /** Its agent id, once the engine named it. */
  agentId: string | undefined;
  readonly description: string | null;
  /** Message ids of its turns that asked for tools. */
  readonly toolTurns: Set<string>;
}

interface ContentBlock {
  readonly type: string;
  readonly id?: string;
  readonly name?: string;
  readonly input?: unknown;
}

interface ApiMessage {
  readonly id?: string;
  readonly model?: string;
  readonly content?: readonly ContentBlock[];
  readonly usage?: Parameters<typeof tokenUsageOf>[0];
}

const DISPATCH_TOOLS = new Set(['Agent', 'Task']);

/** How long the hook waits for a call's message to reach the watch before letting it run. */
export const SEEN_WAIT_MS = 5000;

function descriptionOf(input: unknown): string | null {
  if (typeof input !== 'object' || input === null) return null;
  const value = (input as { description?: unknown }).description;
  return typeof value === 'string' ? value : null;
}

export class ClaudeCodeSeatWatch {
  readonly #options: SeatWatchOptions;
  /** Seats by the dispatch (tool_use id) that created them. */
  readonly #seats = new Map<string, WatchedSeat>();
  /** The dispatch of each agent id the engine named. */
  readonly #dispatchOfAgent = new Map<string, string>();
  #limit: string | undefined;
  #stopped = false;
  /** tool_use ids seen in the stream, and hooks waiting for one. */
  readonly #seenToolUses = new Set<string>();
  readonly #waiting = new Map<string, () => void>();

  constructor(options: SeatWatchOptions) {
    this.#options = options;
  }

  /** The first limit met, as the session's indeterminate reason. */
  get limitReached(): string | undefined {
    this.#limit ??= this.#options.spend.limitReached;
    return this.#limit;
  }

  /** Watch one engine message; stops the engine when it meets a limit. */
  observe(message: SDKMessage): void {
    if (message.type === 'assistant') this.#assistant(message);
    else if (message.type === 'system') this.#system(message as { subtype?: string });
    this.tick();
  }

  /** Hold the running seats' time against the limit now (the backend calls it periodically). */
  tick(): void {
    this.#options.spend.check();
    if (this.limitReached !== undefined && !this.#stopped) {
      this.#stopped = true;
      this.#options.onLimit();
    }
  }

  /** What to add to `query()`'s options: the hook that holds each tool call for the limits. */
  queryOptions(): Pick<Options, 'hooks'> {
    return { hooks: { PreToolUse: [{ hooks: [this.#hook] }] } };
  }

  readonly #hook: HookCallback = async (input) => {
    if (input.hook_event_name !== 'PreToolUse') return {};
    await this.#seen(input.tool_use_id);
    this.tick();
    const reason = this.limitReached;
    if (reason === undefined) return {};
    return {
      continue: false,
      hookSpecificOutput: {
        hookEventName: 'PreToolUse',
        permissionDecision: 'deny',
        permissionDecisionReason: `Not run: ${reason}.`,
      },
    };
  };

  /** Resolves once the stream has shown the tool_use `id` (or after a bound, should it never). */
  async #seen(id: string): Promise<void> {
    if (this.#seenToolUses.has(id)) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.#waiting.delete(id);
        resolve();
      }, this.#options.seenWaitMs ?? SEEN_WAIT_MS);
      this.#waiting.set(id, () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  #assistant(message: { parent_tool_use_id: string | null; message: unknown }): void {
    const api = message.message as ApiMessage;
    const id = api.id ?? '';
    const blocks = api.content ?? [];
    const parent = message.parent_tool_use_id;
    const arrived = blocks.flatMap((block) =>
      block.type === 'tool_use' && block.id !== undefined ? [block.id] : [],
    );
    if (parent === null) {
      for (const block of blocks) {
        if (block.type !== 'tool_use' || block.id === undefined) continue;
        if (!DISPATCH_TOOLS.has(block.name ?? '') || this.#seats.has(block.id)) continue;
        this.#seats.set(block.id, {
          agentId: undefined,
          description: descriptionOf(block.input),
          toolTurns: new Set(),
        });
        if (this.#seats.size > this.#options.maxSeats) {
          this.#met(
            `the controller started more subagents than the per-rep seat limit allows (${this.#options.maxSeats})`,
          );
        }
      }
    } else {
      const seat = this.#seatOf(parent);
      if (blocks.some((block) => block.type === 'tool_use') && !seat.toolTurns.has(id)) {
        seat.toolTurns.add(id);
        if (seat.toolTurns.size >= this.#options.seatMaxTurns) {
          this.#met(
            `${this.#spendSeat(parent).name} reached the per-seat turn limit (${this.#options.seatMaxTurns}) without a final reply`,
          );
        }
      }
    }
    if (api.usage !== undefined && api.model !== undefined) {
      this.#options.spend.reply(
        parent === null ? null : this.#spendSeat(parent),
        id,
        api.model,
        tokenUsageOf(api.usage),
      );
    }
    // Calls held by the hook go on once the limits have seen their message (observe ticks next).
    queueMicrotask(() => {
      for (const toolUseId of arrived) {
        this.#seenToolUses.add(toolUseId);
        this.#waiting.get(toolUseId)?.();
        this.#waiting.delete(toolUseId);
      }
    });
  }

  #system(message: {
    subtype?: string;
    task_id?: string;
    tool_use_id?: string;
    patch?: { status?: string; end_time?: number };
  }): void {
    const agentId = message.task_id;
    if (agentId === undefined) return;
    if (message.subtype === 'task_started') {
      const known = this.#dispatchOfAgent.get(agentId);
      const dispatch =
        message.tool_use_id !== undefined && this.#seats.has(message.tool_use_id)
          ? message.tool_use_id
          : known;
      if (dispatch === undefined) return;
      this.#dispatchOfAgent.set(agentId, dispatch);
      this.#seatOf(dispatch).agentId ??= agentId;
      this.#options.spend.runStarted(this.#spendSeat(dispatch));
    } else if (message.subtype === 'task_updated' && message.patch?.end_time !== undefined) {
      const dispatch = this.#dispatchOfAgent.get(agentId);
      if (dispatch !== undefined) this.#options.spend.runEnded(dispatch);
    }
  }

  #seatOf(dispatch: string): WatchedSeat {
    let seat = this.#seats.get(dispatch);
    if (seat === undefined) {
      seat = { agentId: undefined, description: null, toolTurns: new Set() };
      this.#seats.set(dispatch, seat);
    }
    return seat;
  }

  /** The seat as limits name it: `subagent <agent id> (<description>)`. */
  #spendSeat(dispatch: string): SpendSeat {
    const seat = this.#seatOf(dispatch);
    const who = seat.agentId ?? `of dispatch ${dispatch}`;
    return {
      key: dispatch,
      name: `subagent ${who}${seat.description === null ? '' : ` (${seat.description})`}`,
    };
  }

  #met(reason: string): void {
    this.#limit ??= reason;
  }
}

/**
 * A session's watch, from its request: seat limits under `stop: complete`
 * (the rep's cost limit in every mode), and a tick each second while a time
 * limit applies, so a seat that goes quiet is still stopped. `stop()` ends
 * the tick.
 */
export function seatWatchFor(
  request: Pick<SessionRequest, 'limits' | 'stop' | 'price' | 'clock'>,
  onLimit: () => void,
): { readonly watch: ClaudeCodeSeatWatch; readonly stop: () => void } {
  const complete = request.stop === 'complete';
  const { limits } = request;
  const spend = seatSpendFor({
    limits: complete ? limits : { repMaxCostUsd: limits.repMaxCostUsd },
    price: request.price,
    clock: request.clock,
  });
  const watch = new ClaudeCodeSeatWatch({
    maxSeats: complete ? (limits.maxSeats ?? DEFAULT_MAX_SEATS) : Number.POSITIVE_INFINITY,
    seatMaxTurns: complete ? (limits.seatMaxTurns ?? limits.maxTurns) : Number.POSITIVE_INFINITY,
    spend,
    onLimit,
  });
  return { watch, stop: spend.watchTime(() => watch.tick()) };
}
