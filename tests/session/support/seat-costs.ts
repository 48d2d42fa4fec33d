/**
 * What each seat of a transcript cost, and how many model turns it took,
 * read from its assistant messages (one API turn that arrives as several
 * messages sharing an id counts once), priced by the model each reply names.
 * The limits tests set their thresholds from an unlimited run of the same
 * deterministic session, so "just under" and "met" are exact.
 */
import { costUsd } from '../../../harness/campaign/pricing.js';
import { tokenUsageOf } from '../../../harness/session/seat-spend.js';
import type { TokenUsage } from '../../../harness/session/session-types.js';

export interface SeatSpent {
  /** The dispatch that created the seat (the key of the seat's messages). */
  readonly dispatch: string;
  readonly costUsd: number;
  readonly turns: number;
}

/** Prices a reply by the repository's dated table (the pricing a campaign's default profile has). */
export function tablePrice(modelId: string, usage: TokenUsage): number | null {
  return costUsd(modelId, usage);
}

interface ApiUsage {
  readonly input_tokens: number;
  readonly output_tokens: number;
}

/** Per seat, in the order the seats first replied; and the whole rep's cost. */
export function seatSpending(transcript: readonly Record<string, unknown>[]): {
  readonly seats: SeatSpent[];
  readonly repCostUsd: number;
} {
  const byMessage = new Map<string, { parent: string | null; cost: number }>();
  for (const line of transcript) {
    if (line.type !== 'assistant') continue;
    const message = line.message as { id: string; model: string; usage?: ApiUsage };
    if (message.usage === undefined) continue;
    const cost = tablePrice(message.model, tokenUsageOf(message.usage)) ?? 0;
    byMessage.set(message.id, {
      parent: (line.parent_tool_use_id as string | null | undefined) ?? null,
      cost,
    });
  }
  const seats = new Map<string, { costUsd: number; turns: number }>();
  let repCostUsd = 0;
  for (const { parent, cost } of byMessage.values()) {
    repCostUsd += cost;
    if (parent === null) continue;
    const seat = seats.get(parent) ?? { costUsd: 0, turns: 0 };
    seat.costUsd += cost;
    seat.turns += 1;
    seats.set(parent, seat);
  }
  return {
    seats: [...seats.entries()].map(([dispatch, seat]) => ({ dispatch, ...seat })),
    repCostUsd,
  };
}
