/**
 * Which stored judgements count in the tables and the gate: only those by a
 * scenario's current judge (the model of its newest judgement) whose key
 * still fits the scenario's rubric and the judge protocol. Judgements by an
 * earlier judge, or against an old rubric, are set aside with why, never
 * pooled; every rep of a scenario with a judge block is expected to be judged.
 */
import { describe, expect, it } from 'vitest';
import type { Judgement } from '../../harness/judge/judgement.js';
import { judgingScopeOf } from '../../harness/judge/judging-scope.js';
import { judgementKey, rubricHash } from '../../harness/judge/prompt.js';

const spec = { rubric: { 'first-dispatch': 'The reply names Task 1 first.' } };

function judgement(
  rep: string,
  model: string,
  judgedAt: string,
  rubric: { rubric: Record<string, string> } = spec,
  endpoint: string | null = null,
): Judgement {
  const materialHash = `m-${rep}`;
  return {
    schemaVersion: 1,
    rep,
    key: judgementKey(rubric, { hash: materialHash }, model, endpoint),
    rubricHash: rubricHash(rubric),
    materialHash,
    model: { requested: model, reported: model, scripted: true, endpoint },
    status: 'judged',
    error: null,
    verdict: 'pass',
    items: [],
    attempts: 1,
    invalidAnswers: [],
    tokens: null,
    tokensEstimated: true,
    costUsd: null,
    pricingAsOf: '2026-01-01',
    judgedAt,
  };
}

const reps = [
  { id: 'red/s1-rep1', scenario: 's1' },
  { id: 'red/s1-rep2', scenario: 's1' },
  { id: 'red/s2-rep1', scenario: 's2' },
];

describe('the judgements that count', () => {
  it('are those of the scenario’s newest judge; an earlier judge’s are set aside, never pooled', () => {
    const stored = new Map([
      ['red/s1-rep1', judgement('red/s1-rep1', 'scripted:judge-agree', '2026-01-01T00:00:00Z')],
      [
        'red/s1-rep2',
        judgement('red/s1-rep2', 'scripted:judge-contrarian', '2026-01-02T00:00:00Z'),
      ],
    ]);
    const scope = judgingScopeOf(
      reps,
      stored,
      new Map([
        ['s1', spec],
        ['s2', undefined],
      ]),
    );
    expect([...scope.judgements.keys()]).toEqual(['red/s1-rep2']);
    expect(scope.setAside).toEqual([
      {
        id: 'red/s1-rep1',
        why: "judged by scripted:judge-agree, not by the scenario's current judge scripted:judge-contrarian",
      },
    ]);
    expect([...scope.judgedScenarios]).toEqual(['s1']);
  });

  it('a judgement against an old rubric is stale and set aside', () => {
    const old = { rubric: { 'first-dispatch': 'An older wording.' } };
    const stored = new Map([
      ['red/s1-rep1', judgement('red/s1-rep1', 'm', '2026-01-01T00:00:00Z', old)],
      ['red/s1-rep2', judgement('red/s1-rep2', 'm', '2026-01-01T00:00:00Z')],
    ]);
    const scope = judgingScopeOf(reps, stored, new Map([['s1', spec]]));
    expect([...scope.judgements.keys()]).toEqual(['red/s1-rep2']);
    expect(scope.setAside.map((entry) => entry.why)).toEqual([
      'stale: the rubric or the judge protocol changed since it was judged',
    ]);
  });

  it('a scenario with a judge block is judged even with no judgement; one that lost its block is not', () => {
    const stored = new Map([
      ['red/s2-rep1', judgement('red/s2-rep1', 'm', '2026-01-01T00:00:00Z')],
    ]);
    const scope = judgingScopeOf(
      reps,
      stored,
      new Map([
        ['s1', spec],
        ['s2', undefined],
      ]),
    );
    expect([...scope.judgedScenarios]).toEqual(['s1']);
    expect(scope.judgements.size).toBe(0);
    expect(scope.setAside).toEqual([
      { id: 'red/s2-rep1', why: 'scenario s2 has no judge block now' },
    ]);
    // Scenario files unreadable: the scenarios with judgements count as judged.
    expect([...judgingScopeOf(reps, stored, null).judgedScenarios]).toEqual(['s2']);
  });

  it('the same model behind another endpoint is another judge', () => {
    const stored = new Map([
      ['red/s1-rep1', judgement('red/s1-rep1', 'claude-x', '2026-01-01T00:00:00Z')],
      [
        'red/s1-rep2',
        judgement('red/s1-rep2', 'claude-x', '2026-01-02T00:00:00Z', spec, 'https://gw.example'),
      ],
    ]);
    const scope = judgingScopeOf(reps, stored, new Map([['s1', spec]]));
    expect([...scope.judgements.keys()]).toEqual(['red/s1-rep2']);
    expect(scope.setAside[0]?.why).toBe(
      "judged by claude-x, not by the scenario's current judge claude-x at https://gw.example",
    );
    // And its key differs: a judgement moved to another endpoint's record is stale.
    expect(judgementKey(spec, { hash: 'm' }, 'claude-x', 'https://gw.example')).not.toBe(
      judgementKey(spec, { hash: 'm' }, 'claude-x'),
    );
  });
});
