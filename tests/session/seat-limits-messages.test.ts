/**
 * Per-seat time and cost limits and the per-rep cost limit on the messages
 * backend, through the real `@anthropic-ai/sdk` against the local model
 * server (the scripted full-controller and its seat programs), on a priced
 * model id (`claude-sonnet-5-5`, answered by the server's default policy)
 * so the campaign's price table applies. Each limit has a planted negative:
 * met, the session ends after that tool turn as an indeterminate rep at stage
 * `limit` naming the seat and the limit; just under it, the session completes.
 * Thresholds come from an unlimited run of the same deterministic session;
 * time comes from an injected clock (no wall-clock time).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer } from '../../harness/model-server/index.js';
import { readSessionTranscript } from '../../harness/score/transcripts/read-transcript.js';
import type { Clock } from '../../harness/session/session-types.js';
import { greetingsFixture } from './support/greetings-fixture.js';
import { runBackendSession } from './support/run-session.js';
import {
  pricedSessionOn,
  repCostBySeatEnd,
  seatSpending,
  tablePrice,
} from './support/seat-costs.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});
const pricedSession = pricedSessionOn(closers);

function seatDescriptions(transcript: readonly Record<string, unknown>[]): string[] {
  const read = readSessionTranscript(transcript.map((line) => JSON.stringify(line)).join('\n'));
  if (!read.ok) throw new Error(read.error.problem);
  return read.value.seats.map((seat) => String(seat.description));
}

describe('seat time and cost limits on the messages backend', () => {
  it('per-seat cost: met by the first seat, it ends the session naming it; just under, completes', async () => {
    const free = await pricedSession('messages', {});
    expect(free.outcome.status).toEqual({ kind: 'completed' });
    const spent = seatSpending(free.transcript);
    expect(spent.seats).toHaveLength(5);
    const first = spent.seats[0];
    if (first === undefined) throw new Error('no seat');
    expect(first.costUsd).toBeGreaterThan(0);
    const dearest = Math.max(...spent.seats.map((seat) => seat.costUsd));

    const under = await pricedSession('messages', { seatMaxCostUsd: dearest + 1e-9 });
    expect(under.outcome.status).toEqual({ kind: 'completed' });

    const met = await pricedSession('messages', { seatMaxCostUsd: first.costUsd });
    expect(met.outcome.status).toMatchObject({ kind: 'indeterminate', stage: 'limit' });
    const reason = met.outcome.status.kind === 'indeterminate' ? met.outcome.status.reason : '';
    expect(reason).toMatch(
      /^subagent agent-1 \(Implement Task 1: Greeting function\) reached the per-seat cost limit \(\$0\.\d\d\): it cost \$/,
    );
    expect(met.outcome.stopReason).toBe('seat-limit');
    // No further model request: the controller never dispatched a second seat.
    expect(seatDescriptions(met.transcript)).toEqual(['Implement Task 1: Greeting function']);
    const ends = met.transcript.filter((line) => line.subtype === 'subagent_end');
    expect(ends.map((line) => line.outcome)).toEqual(['limit']);
  });

  it('per-rep cost: met inside the second seat, it ends the session there; just under, completes', async () => {
    const free = await pricedSession('messages', {});
    const spent = seatSpending(free.transcript);
    const second = spent.seats[1]?.dispatch ?? '';
    const atSecondEnd = repCostBySeatEnd(free.transcript, second);
    expect(atSecondEnd).toBeGreaterThan(0);

    const under = await pricedSession('messages', { repMaxCostUsd: spent.repCostUsd * 1.000001 });
    expect(under.outcome.status).toEqual({ kind: 'completed' });

    const met = await pricedSession('messages', { repMaxCostUsd: atSecondEnd * 0.999999 });
    expect(met.outcome.status).toMatchObject({ kind: 'indeterminate', stage: 'limit' });
    const reason = met.outcome.status.kind === 'indeterminate' ? met.outcome.status.reason : '';
    expect(reason).toMatch(
      /^the rep reached the per-rep cost limit \(\$0\.\d\d\) in subagent agent-2 \(Review Task 1: Greeting function\): it cost \$/,
    );
    expect(seatDescriptions(met.transcript)).toHaveLength(2);
  });

  it('per-seat time: a clock that reaches the limit inside the first seat ends the session there; under it, completes', async () => {
    // A clock that moves one second on every reading: the first seat's run spans several.
    let now = 0;
    const ticking: Clock = () => {
      now += 1000;
      return now;
    };
    const met = await pricedSession('messages', { seatTimeoutSeconds: 2 }, ticking);
    expect(met.outcome.status).toEqual({
      kind: 'indeterminate',
      stage: 'limit',
      reason:
        'subagent agent-1 (Implement Task 1: Greeting function) reached the per-seat time limit (2 s)',
    });
    expect(seatDescriptions(met.transcript)).toHaveLength(1);

    // A clock that stands still: no seat ever spends its time.
    const under = await pricedSession('messages', { seatTimeoutSeconds: 2 }, () => 0);
    expect(under.outcome.status).toEqual({ kind: 'completed' });
  });

  it('per-seat time: a seat held up inside a model request is stopped there (the model server’s latency)', async () => {
    // Each subagent request takes 20 s; the seat may run 1 s: the once-a-second watch
    // stops it mid-request (with the real clock; the margin is the whole request).
    const server = await startModelServer({
      policy: 'full-controller',
      faults: [{ kind: 'delay', minMs: 20_000, maxMs: 20_000, session: 'limits/slow/agent-*' }],
    });
    closers.push(() => server.close());
    const repo = greetingsFixture();
    const run = await runBackendSession({
      backend: 'messages',
      stop: 'complete',
      baseUrl: server.baseUrl,
      model: 'scripted:full-controller',
      prompt: `Plan: ${repo}/docs/plan.md\nRepository: ${repo}`,
      fixtureRepo: repo,
      repId: 'limits/slow',
      limits: { seatTimeoutSeconds: 1 },
    });
    expect(run.outcome.status).toEqual({
      kind: 'indeterminate',
      stage: 'limit',
      reason:
        'subagent agent-1 (Implement Task 1: Greeting function) reached the per-seat time limit (1 s)',
    });
    expect(seatDescriptions(run.transcript)).toHaveLength(1);
  });

  it('an unpriced seat model with a cost limit cannot keep it: indeterminate, saying so', async () => {
    const server = await startModelServer({ policy: 'full-controller' });
    closers.push(() => server.close());
    const repo = greetingsFixture();
    const run = await runBackendSession({
      backend: 'messages',
      stop: 'complete',
      baseUrl: server.baseUrl,
      model: 'claude-unpriced-1',
      prompt: `Plan: ${repo}/docs/plan.md\nRepository: ${repo}`,
      fixtureRepo: repo,
      limits: { seatMaxCostUsd: 1 },
      price: tablePrice,
    });
    expect(run.outcome.status).toEqual({
      kind: 'indeterminate',
      stage: 'limit',
      reason:
        'subagent agent-1 (Implement Task 1: Greeting function) ran on claude-unpriced-1, which has no price, so the per-seat cost limit ($1.00) cannot be kept',
    });
  });
});
