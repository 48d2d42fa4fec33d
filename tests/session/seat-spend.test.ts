/**
 * SeatSpend, the one place seat time and cost and rep cost are held against
 * their limits, with a hand-moved clock and a fixed price: each limit met
 * exactly at its threshold and not a unit before; a seat's time summed over
 * its runs without the idle time between; one API turn counted once; an
 * unpriced model with a cost limit ends the session, saying so.
 */
import { describe, expect, it } from 'vitest';
import { SeatSpend, type SpendLimits } from '../../harness/session/seat-spend.js';
import type { TokenUsage } from '../../harness/session/session-types.js';

const seat = { key: 'd1', name: 'subagent agent-1 (Implement Task 1)' };
const other = { key: 'd2', name: 'subagent agent-2 (Review Task 1)' };
const usage = (output: number): TokenUsage => ({ input: 0, output, cacheWrite: 0, cacheRead: 0 });
/** One dollar per output token, for whole-dollar arithmetic; `unpriced-*` has no price. */
const price = (model: string, used: TokenUsage) =>
  model.startsWith('unpriced') ? null : used.output;

function spendWith(limits: SpendLimits) {
  let now = 0;
  const spend = new SeatSpend(limits, price, () => now);
  return { spend, advance: (ms: number) => (now += ms) };
}

describe('SeatSpend', () => {
  it('a seat’s time: met at the limit, not a millisecond before; idle time between runs is not counted', () => {
    const { spend, advance } = spendWith({ seatTimeoutSeconds: 10 });
    spend.runStarted(seat);
    advance(6000);
    spend.runEnded(seat.key);
    advance(60_000); // waiting for a resume
    spend.runStarted(seat);
    advance(3999);
    expect(spend.shouldStop()).toBe(false);
    advance(1);
    expect(spend.shouldStop()).toBe(true);
    expect(spend.limitReached).toBe(
      'subagent agent-1 (Implement Task 1) reached the per-seat time limit (10 s)',
    );
  });

  it('a seat’s cost: met when its replies reach the limit; one API turn counts once', () => {
    const { spend } = spendWith({ seatMaxCostUsd: 5 });
    spend.reply(seat, 'm1', 'm', usage(2));
    spend.reply(seat, 'm1', 'm', usage(2)); // the same turn again
    spend.reply(other, 'm1', 'm', usage(4)); // another seat's turn of the same id
    spend.reply(null, 'c1', 'm', usage(100)); // the controller has no seat limit
    expect(spend.limitReached).toBeUndefined();
    spend.reply(seat, 'm2', 'm', usage(2));
    expect(spend.limitReached).toBeUndefined();
    spend.reply(seat, 'm3', 'm', usage(1));
    expect(spend.limitReached).toBe(
      'subagent agent-1 (Implement Task 1) reached the per-seat cost limit ($5.00): it cost $5.00',
    );
  });

  it('the rep’s cost counts the controller and every seat, naming the seat running when met', () => {
    const { spend } = spendWith({ repMaxCostUsd: 10 });
    spend.reply(null, 'c1', 'm', usage(4));
    spend.runStarted(other);
    spend.reply(other, 'm1', 'm', usage(5));
    expect(spend.limitReached).toBeUndefined();
    expect(spend.repCostUsd).toBe(9);
    spend.reply(other, 'm2', 'm', usage(1));
    expect(spend.limitReached).toBe(
      'the rep reached the per-rep cost limit ($10.00) in subagent agent-2 (Review Task 1): it cost $10.00',
    );
  });

  it('no limits: nothing is ever met, and nothing is priced', () => {
    const { spend, advance } = spendWith({});
    expect(spend.active).toBe(false);
    spend.runStarted(seat);
    advance(10_000_000);
    spend.reply(seat, 'm1', 'unpriced-model', usage(1_000_000));
    expect(spend.shouldStop()).toBe(false);
  });

  it('an unpriced model under a cost limit cannot keep it: that is the reason', () => {
    const { spend } = spendWith({ seatMaxCostUsd: 1 });
    spend.reply(seat, 'm1', 'unpriced-model', usage(1));
    expect(spend.limitReached).toBe(
      'subagent agent-1 (Implement Task 1) ran on unpriced-model, which has no price, so the per-seat cost limit ($1.00) cannot be kept',
    );
  });
});
