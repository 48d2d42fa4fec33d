/**
 * What each seat of a transcript cost, and how many model turns it took,
 * read from its assistant messages (one API turn that arrives as several
 * messages sharing an id counts once), priced by the model each reply names.
 * The limits tests set their thresholds from an unlimited run of the same
 * deterministic session, so "just under" and "met" are exact.
 */

import { costUsd } from '../../../harness/estimate/pricing.js';
import { startModelServer } from '../../../harness/model-server/index.js';
import { tokenUsageOf } from '../../../harness/session/seat-spend.js';
import type { Limits } from '../../../harness/session/session-limits.js';
import type { Clock, TokenUsage } from '../../../harness/session/session-types.js';
import { greetingsFixture } from './greetings-fixture.js';
import { type BackendName, runBackendSession, type SessionRun } from './run-session.js';

export interface SeatSpent {
  /** The dispatch that created the seat (the key of the seat's messages). */
  readonly dispatch: string;
  readonly costUsd: number;
  /** Its turns that asked for tools. */
  readonly toolTurns: number;
}

/** Prices a reply by the repository's dated table (the pricing a campaign's default profile has). */
export function tablePrice(modelId: string, usage: TokenUsage): number | null {
  return costUsd(modelId, usage);
}

interface ApiUsage {
  readonly input_tokens: number;
  readonly output_tokens: number;
}

interface ApiMessage {
  readonly id: string;
  readonly model: string;
  readonly usage?: ApiUsage;
  readonly content: readonly { type: string }[];
}

/** Per seat, in the order the seats first replied; and the whole rep's cost. */
export function seatSpending(transcript: readonly Record<string, unknown>[]): {
  readonly seats: SeatSpent[];
  readonly repCostUsd: number;
} {
  // Keyed by seat and message id: the local server's ids repeat from one conversation to the next.
  const byMessage = new Map<string, { parent: string | null; cost: number; tools: boolean }>();
  for (const line of transcript) {
    if (line.type !== 'assistant') continue;
    const message = line.message as ApiMessage;
    if (message.usage === undefined) continue;
    const parent = (line.parent_tool_use_id as string | null | undefined) ?? null;
    const cost = tablePrice(message.model, tokenUsageOf(message.usage)) ?? 0;
    const key = `${parent}\u0000${message.id}`;
    const tools =
      (byMessage.get(key)?.tools ?? false) ||
      message.content.some((block) => block.type === 'tool_use');
    byMessage.set(key, { parent, cost, tools });
  }
  const seats = new Map<string, { costUsd: number; toolTurns: number }>();
  let repCostUsd = 0;
  for (const { parent, cost, tools } of byMessage.values()) {
    repCostUsd += cost;
    if (parent === null) continue;
    const seat = seats.get(parent) ?? { costUsd: 0, toolTurns: 0 };
    seat.costUsd += cost;
    if (tools) seat.toolTurns += 1;
    seats.set(parent, seat);
  }
  return {
    seats: [...seats.entries()].map(([dispatch, seat]) => ({ dispatch, ...seat })),
    repCostUsd,
  };
}

/** A priced model id, answered by the server's default policy. */
export const PRICED_MODEL = 'claude-sonnet-5-5';

/**
 * Runs one full-controller session of the greetings fixture on a backend
 * against a fresh model server, on a priced model id, priced by the table,
 * with these limits; `closers` gets the server's close.
 */
export function pricedSessionOn(closers: (() => Promise<void>)[]) {
  return async (
    backend: BackendName,
    limits: Partial<Limits>,
    clock?: Clock,
  ): Promise<SessionRun> => {
    const server = await startModelServer({ policy: 'full-controller' });
    closers.push(() => server.close());
    const repo = greetingsFixture();
    return runBackendSession({
      backend,
      stop: 'complete',
      baseUrl: server.baseUrl,
      model: PRICED_MODEL,
      prompt: `Plan: ${repo}/docs/plan.md\nRepository: ${repo}`,
      fixtureRepo: repo,
      repId: `limits/${backend}`,
      limits,
      price: tablePrice,
      ...(clock === undefined ? {} : { clock }),
    });
  };
}

/** What the rep had cost, in transcript order, by the last reply of the seat `dispatch` created. */
export function repCostBySeatEnd(
  transcript: readonly Record<string, unknown>[],
  dispatch: string,
): number {
  let atEnd = 0;
  for (const [index, line] of transcript.entries()) {
    if (line.type === 'assistant' && line.parent_tool_use_id === dispatch) {
      atEnd = seatSpending(transcript.slice(0, index + 1)).repCostUsd;
    }
  }
  return atEnd;
}
