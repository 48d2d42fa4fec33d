/**
 * The subagents of one `stop: complete` session on the `messages` backend.
 * A controller's `Agent` (or `Task`) call starts a seat: a nested session
 * with its own conversation and tool loop, in the same sandbox and work tree,
 * on the same model endpoint, whose first user message is the dispatch
 * prompt. The call's result is the subagent's final text and the agent id to
 * address it by. A `SendMessage` to that agent id resumes the seat: the
 * message is appended to its conversation and its loop runs again; the
 * result is its new final text.
 *
 * Limits: each seat has a turn budget (summed over its runs) and a rep may
 * start at most so many seats; each seat's time and cost, and the rep's
 * cost, are held against their limits by a SeatSpend (seat-spend.ts). A limit met is recorded (`limitReached`, a
 * `subagent_end` event, an error tool result saying which limit) and ends the
 * session after the controller's tool turn, as an indeterminate rep with
 * that reason; it is never a crash. Calls run one after another, in the
 * order the controller made them (`run_in_background` runs in the foreground).
 */
import type Anthropic from '@anthropic-ai/sdk';
import { type SubagentSeat, seatEventSchema } from '../score/seat-record.js';
import type { SeatSpend, SpendSeat } from './seat-spend.js';
import type { ToolLoopResult } from './tool-loop.js';
import { type ToolOutput, toolError } from './tools/tool-context.js';
import type { TranscriptSink } from './transcript-sink.js';

/** How many subagents a rep may start when the campaign's limits do not say. */
export const DEFAULT_MAX_SEATS = 12;

export interface SubagentSeatsOptions {
  readonly maxSeats: number;
  /** Each seat's turn budget, summed over its first run and every resume. */
  readonly seatMaxTurns: number;
  /** Each seat's time and cost, and the rep's cost, against their limits (seat-spend.ts). */
  readonly spend?: SeatSpend;
  readonly transcript: TranscriptSink;
  readonly sessionId: string;
  /** Runs one seat's loop on its conversation for at most `maxTurns` turns. */
  readonly runSeat: (
    seat: SubagentSeat,
    messages: Anthropic.MessageParam[],
    maxTurns: number,
  ) => Promise<ToolLoopResult>;
}

interface LiveSeat {
  readonly seat: SubagentSeat;
  readonly messages: Anthropic.MessageParam[];
  turns: number;
}

/** What a dispatch's input holds that the seat records (validated before it gets here). */
export interface DispatchInput {
  readonly prompt: string;
  readonly description?: string | undefined;
  readonly subagent_type?: string | undefined;
  readonly model?: string | undefined;
}

export interface ResumeInput {
  readonly to: string;
  readonly message: string;
}

export class SubagentSeats {
  readonly #options: SubagentSeatsOptions;
  readonly #seats = new Map<string, LiveSeat>();
  #limitReached: string | undefined;

  constructor(options: SubagentSeatsOptions) {
    this.#options = options;
  }

  /** Why the session must stop (a seat or turn limit met), once one was. */
  get limitReached(): string | undefined {
    return this.#limitReached;
  }

  /** The seats started so far, in dispatch order. */
  get seats(): readonly SubagentSeat[] {
    return [...this.#seats.values()].map((live) => live.seat);
  }

  /** Start a subagent for an `Agent`/`Task` call and run it to its first reply. */
  async dispatch(call: Anthropic.ToolUseBlock, input: DispatchInput): Promise<ToolOutput> {
    if (this.#seats.size >= this.#options.maxSeats) {
      const reason = `the controller started more subagents than the per-rep seat limit allows (${this.#options.maxSeats})`;
      this.#limitReached = reason;
      return toolError(`Subagent not started: ${reason}.`);
    }
    const seat: SubagentSeat = {
      kind: 'subagent',
      agentId: `agent-${this.#seats.size + 1}`,
      dispatch: call.id,
      tool: call.name,
      subagentType: input.subagent_type ?? null,
      model: input.model ?? null,
      description: input.description ?? null,
    };
    const live: LiveSeat = {
      seat,
      messages: [{ role: 'user', content: [{ type: 'text', text: input.prompt }] }],
      turns: 0,
    };
    this.#seats.set(seat.agentId, live);
    this.#event({ type: 'system', subtype: 'subagent_start', seat, session_id: this.#sessionId });
    return this.#run(live, call.id);
  }

  /** Resume the subagent a SendMessage names, with the message as its next user turn. */
  async resume(call: Anthropic.ToolUseBlock, input: ResumeInput): Promise<ToolOutput> {
    const live = this.#seats.get(input.to);
    if (live === undefined) {
      const known = [...this.#seats.keys()];
      return toolError(
        `No agent "${input.to}" in this session (${known.length === 0 ? 'no agent has been started' : `agents: ${known.join(', ')}`}).`,
      );
    }
    live.messages.push({ role: 'user', content: [{ type: 'text', text: input.message }] });
    this.#event({
      type: 'system',
      subtype: 'subagent_resume',
      seat: live.seat,
      via: call.id,
      session_id: this.#sessionId,
    });
    return this.#run(live, call.id);
  }

  get #sessionId(): string {
    return this.#options.sessionId;
  }

  async #run(live: LiveSeat, via: string): Promise<ToolOutput> {
    const budget = this.#options.seatMaxTurns - live.turns;
    const spend = this.#options.spend;
    spend?.runStarted(spendSeatOf(live.seat));
    const result =
      budget > 0
        ? await this.#options.runSeat(live.seat, live.messages, budget)
        : { end: { kind: 'turn-limit' as const }, turns: 0, stopReason: null };
    spend?.runEnded(live.seat.dispatch);
    live.turns += result.turns;
    const end = result.end;
    const spent = spend?.limitReached;
    const outcome =
      spent !== undefined
        ? 'limit'
        : end.kind === 'turn-limit'
          ? 'turn-limit'
          : end.kind === 'reply' && end.cutShort !== undefined
            ? 'cut-short'
            : 'replied';
    this.#event({
      type: 'system',
      subtype: 'subagent_end',
      seat: live.seat,
      via,
      turns: live.turns,
      outcome,
      session_id: this.#sessionId,
    });
    const { agentId } = live.seat;
    if (spent !== undefined) {
      this.#limitReached = spent;
      return toolError(`Subagent stopped: ${spent}.`);
    }
    if (end.kind === 'turn-limit') {
      const reason = `${seatName(live.seat)} reached the per-seat turn limit (${this.#options.seatMaxTurns}) without a final reply`;
      this.#limitReached = reason;
      return toolError(`Subagent stopped: ${reason}.`);
    }
    const text = end.text.trim() === '' ? '(the subagent gave no final text)' : end.text;
    const note =
      end.kind === 'reply' && end.cutShort !== undefined ? `\n\n(Its reply: ${end.cutShort}.)` : '';
    return {
      content: `${text}${note}\n\nagentId: ${agentId} (use SendMessage with to: '${agentId}' to continue this agent)`,
      isError: false,
    };
  }

  /** Write a seat event, checked against the schema its readers use. */
  #event(event: Record<string, unknown>): void {
    this.#options.transcript.write(seatEventSchema.parse(event));
  }
}

/** How a limit's reason names a seat: `subagent agent-3 (Implement step 2: …)`. */
export function seatName(seat: SubagentSeat): string {
  return `subagent ${seat.agentId}${seat.description === null ? '' : ` (${seat.description})`}`;
}

/** A seat as its time and cost limits name it. */
export function spendSeatOf(seat: SubagentSeat): SpendSeat {
  return { key: seat.dispatch, name: seatName(seat) };
}
