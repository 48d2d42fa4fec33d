/**
 * `stop: complete` in the campaign room: the scenario field accepts it, it
 * enters the campaign identity as first-dispatch does (a non-default stop is
 * hashed; report leaves identities unchanged), the seat limits are optional
 * limits that change no identity while absent, and the dry run prices a full
 * session from its own profile.
 */
import { describe, expect, it } from 'vitest';
import { stopModeSchema } from '../../harness/campaign/config-schema.js';
import type { ResolvedCampaign } from '../../harness/campaign/load-campaign.js';
import { estimateCell, sessionUsage } from '../../harness/estimate/cell-estimate.js';
import { limitsSchema } from '../../harness/session/session-limits.js';
import { scriptedSessionIdentity } from './support.js';

function campaignWith(stop: string, limits: Record<string, unknown> = {}): ResolvedCampaign {
  return {
    only: null,
    config: { id: 'full' },
    backend: 'messages',
    engines: ['messages'],
    limits: {
      maxTurns: 40,
      sessionTimeoutSeconds: 600,
      toolTimeoutSeconds: 120,
      toolOutputMaxBytes: 30000,
      maxCostUsd: null,
      ...limits,
    },
    seed: 1,
    arms: [{ name: 'red', role: 'red', layout: 'scoped' }],
    scenarios: [
      {
        id: 'full',
        config: {
          plan: 'docs/plan.md',
          fixture: { recipe: 'r', scenario: 's', variables: {} },
          stop,
        },
        prompt: { source: 'p' },
        compiled: { promptVariables: {} },
      },
    ],
  } as unknown as ResolvedCampaign;
}

function identityOf(campaign: ResolvedCampaign): string {
  return scriptedSessionIdentity(campaign, 'full-controller');
}

describe('stop: complete', () => {
  it('is a stop mode; an unknown one is not', () => {
    expect(stopModeSchema.parse('complete')).toBe('complete');
    expect(stopModeSchema.safeParse('full').success).toBe(false);
  });

  it('enters the campaign identity: complete, first-dispatch and report all differ', () => {
    const ids = ['report', 'first-dispatch', 'complete'].map((stop) =>
      identityOf(campaignWith(stop)),
    );
    expect(new Set(ids).size).toBe(3);
  });

  it('the seat limits change no identity while absent, and do once given', () => {
    const plain = identityOf(campaignWith('complete'));
    expect(identityOf(campaignWith('complete', { seatMaxTurns: undefined }))).toBe(plain);
    expect(identityOf(campaignWith('complete', { seatMaxTurns: 10 }))).not.toBe(plain);
    expect(identityOf(campaignWith('complete', { maxSeats: 3 }))).not.toBe(plain);
  });

  it('the seat limits are validated: a seat needs a turn, a rep a seat', () => {
    expect(limitsSchema.parse({})).not.toHaveProperty('seatMaxTurns');
    expect(limitsSchema.parse({ seatMaxTurns: 5, maxSeats: 4 })).toMatchObject({
      seatMaxTurns: 5,
      maxSeats: 4,
    });
    expect(limitsSchema.safeParse({ seatMaxTurns: 0 }).success).toBe(false);
    expect(limitsSchema.safeParse({ maxSeats: 0 }).success).toBe(false);
  });

  it('a dry run prices a full session from its own profile, above a report session', () => {
    const full = sessionUsage('complete');
    const report = sessionUsage('report');
    expect(full.output).toBeGreaterThan(report.output);
    expect(
      estimateCell(
        'complete',
        { kind: 'scripted', id: 'scripted:x', policy: 'literal', reason: 'no-api-key' } as never,
        3,
      ),
    ).toEqual({ tokensPerRep: null, costPerRepUsd: null, costUsd: null });
  });
});
