/**
 * Seat limits on the claude-code backend: the real Claude Code engine runs
 * its own subagents (Agent, SendMessage) against the local model server (the
 * scripted full-controller and its seat programs, on the priced model id
 * `claude-sonnet-5-5`), and redgreen watches the stream to enforce
 * seatMaxTurns, maxSeats, each seat's time and cost, and the rep's cost,
 * stopping the engine when one is met. Each limit has a planted negative:
 * met, the rep is indeterminate at stage `limit` with a reason naming the seat
 * and the limit; just under it, the session completes. Thresholds come from
 * an unlimited run of the same deterministic session; time from an injected
 * clock. Skipped, with the reason printed, when the engine is not installed.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Clock } from '../../harness/session/session-types.js';
import type { SessionRun } from './support/run-session.js';
import { engineUnavailable } from './support/run-session.js';
import { pricedSessionOn, repCostBySeatEnd, seatSpending } from './support/seat-costs.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});
const pricedSession = pricedSessionOn(closers);

const unavailable = engineUnavailable();
if (unavailable !== undefined) {
  console.log(`seat limits on claude-code skipped: ${unavailable}`);
}

function reasonOf(run: SessionRun): string {
  expect(run.outcome.status).toMatchObject({ kind: 'indeterminate', stage: 'limit' });
  return run.outcome.status.kind === 'indeterminate' ? run.outcome.status.reason : '';
}

/** The engine's agent id of the session's first seat (from its task_started message). */
function firstAgentId(run: SessionRun): string {
  const started = run.transcript.find(
    (line) => line.type === 'system' && line.subtype === 'task_started',
  );
  return String(started?.task_id);
}

/**
 * The seat whose reply first took the rep's cost (in transcript order) to `limit`: the
 * dispatch that created it, null for the controller, undefined when none did.
 */
function seatThatCrossed(
  transcript: readonly Record<string, unknown>[],
  limit: number,
): string | null | undefined {
  for (const [index, line] of transcript.entries()) {
    if (line.type !== 'assistant') continue;
    if (seatSpending(transcript.slice(0, index + 1)).repCostUsd >= limit) {
      return (line.parent_tool_use_id as string | null | undefined) ?? null;
    }
  }
  return undefined;
}

function dispatches(run: SessionRun): number {
  let count = 0;
  for (const line of run.transcript) {
    if (line.type !== 'assistant' || line.parent_tool_use_id !== null) continue;
    const content = (line.message as { content: { type: string; name?: string }[] }).content;
    count += content.filter((block) => block.type === 'tool_use' && block.name === 'Agent').length;
  }
  return count;
}

/** Subagents the engine started (its task_started messages, one per agent). */
function seatsStarted(run: SessionRun): number {
  const agents = new Set<unknown>();
  for (const line of run.transcript) {
    if (line.type === 'system' && line.subtype === 'task_started') agents.add(line.task_id);
  }
  return agents.size;
}

describe.skipIf(unavailable !== undefined)('seat limits on the claude-code backend', () => {
  it('per-seat turns and the seat count: met, the engine is stopped naming the seat; just under, completes', async () => {
    const free = await pricedSession('claude-code', {});
    expect(free.outcome.status).toEqual({ kind: 'completed' });
    const spent = seatSpending(free.transcript);
    expect(spent.seats).toHaveLength(5);
    expect(dispatches(free)).toBe(5);
    expect(seatsStarted(free)).toBe(5);
    const most = Math.max(...spent.seats.map((seat) => seat.toolTurns));
    const first = spent.seats[0];
    if (first === undefined) throw new Error('no seat');

    const turnsUnder = await pricedSession('claude-code', { seatMaxTurns: most + 1 });
    expect(turnsUnder.outcome.status).toEqual({ kind: 'completed' });
    const turnsMet = await pricedSession('claude-code', { seatMaxTurns: first.toolTurns });
    expect(reasonOf(turnsMet)).toBe(
      `subagent ${firstAgentId(turnsMet)} (Implement Task 1: Greeting function) reached the per-seat turn limit (${first.toolTurns}) without a final reply`,
    );
    expect(turnsMet.outcome.stopReason).toBe('seat-limit');
    // No seat started after the limit: a later dispatch is held and refused.
    expect(seatsStarted(turnsMet)).toBe(1);

    const seatsUnder = await pricedSession('claude-code', { maxSeats: 5 });
    expect(seatsUnder.outcome.status).toEqual({ kind: 'completed' });
    const seatsMet = await pricedSession('claude-code', { maxSeats: 2 });
    expect(reasonOf(seatsMet)).toBe(
      'the controller started more subagents than the per-rep seat limit allows (2)',
    );
    expect(seatsStarted(seatsMet)).toBe(2);
  });

  it('per-seat and per-rep cost: met, the engine is stopped naming the seat; just under, completes', async () => {
    const free = await pricedSession('claude-code', {});
    const spent = seatSpending(free.transcript);
    const [first, second] = spent.seats;
    if (first === undefined || second === undefined) throw new Error('too few seats');
    const dearest = Math.max(...spent.seats.map((seat) => seat.costUsd));

    const seatUnder = await pricedSession('claude-code', { seatMaxCostUsd: dearest + 1e-9 });
    expect(seatUnder.outcome.status).toEqual({ kind: 'completed' });
    const seatMet = await pricedSession('claude-code', { seatMaxCostUsd: first.costUsd });
    expect(reasonOf(seatMet)).toMatch(
      new RegExp(
        `^subagent ${firstAgentId(seatMet)} \\(Implement Task 1: Greeting function\\) reached the per-seat cost limit \\(\\$0\\.\\d\\d\\): it cost \\$`,
      ),
    );

    // The engine's background resume lets the controller's last turns vary from run to run
    // (a turn more or less while the resumed agent works), so "under" keeps a margin here.
    const repUnder = await pricedSession('claude-code', {
      repMaxCostUsd: spent.repCostUsd * 1.1,
    });
    expect(repUnder.outcome.status).toEqual({ kind: 'completed' });
    const repLimit = repCostBySeatEnd(free.transcript, second.dispatch) * 0.999999;
    const repMet = await pricedSession('claude-code', { repMaxCostUsd: repLimit });
    // The limit is the free run's cost at the reviewer's last reply. Usually the reviewer's reply
    // crosses it again; when the controller's background turn lands first, the controller's does.
    // Either way the reason must name the seat whose reply, in this run's transcript, crossed it.
    const crossed = seatThatCrossed(repMet.transcript, repLimit);
    expect(crossed).not.toBeUndefined();
    expect(reasonOf(repMet)).toMatch(
      crossed === null
        ? /^the rep reached the per-rep cost limit \(\$0\.\d\d\) in the controller: it cost \$/
        : /^the rep reached the per-rep cost limit \(\$0\.\d\d\) in subagent \w+ \(Review Task 1: Greeting function\): it cost \$/,
    );
    expect(seatsStarted(repMet)).toBe(2);
  });

  it('per-seat time: a clock that reaches the limit inside the first seat stops the engine there; under it, completes', async () => {
    let now = 0;
    const ticking: Clock = () => {
      now += 1000;
      return now;
    };
    const met = await pricedSession('claude-code', { seatTimeoutSeconds: 2 }, ticking);
    expect(reasonOf(met)).toMatch(
      /^subagent \w+ \(Implement Task 1: Greeting function\) reached the per-seat time limit \(2 s\)$/,
    );
    expect(seatsStarted(met)).toBe(1);
    const under = await pricedSession('claude-code', { seatTimeoutSeconds: 2 }, () => 0);
    expect(under.outcome.status).toEqual({ kind: 'completed' });
  });
});
