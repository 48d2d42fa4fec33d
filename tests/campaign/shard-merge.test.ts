import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readTranscript } from '../../harness/score/transcripts/claude-messages.js';
import { type CliResult, runCli } from '../helpers/cli.js';
import { sharedRun } from '../helpers/shared-runs.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import {
  defaultCampaign,
  readJson,
  repLines,
  runCampaignCli,
  sharedOneRep,
  sharedWholeRun,
} from './support.js';

/** What a rep did and decided, without the paths and ids that differ between runs. */
function repFacts(out: string, id: string): unknown {
  const line = repLines(out).find((candidate) => candidate.id === id);
  const dir = path.join(out, line?.dir ?? '');
  const score = readJson<Record<string, unknown>>(path.join(dir, 'score.json'));
  const meta = readJson<Record<string, unknown>>(path.join(dir, 'meta.json'));
  const calls = readTranscript(
    readFileSync(path.join(dir, 'transcript.jsonl'), 'utf8'),
  ).toolCalls.map((call) =>
    JSON.stringify([call.name, call.input]).replace(/\/tmp\/redgreen-run-[^/]+\/[^/]+/g, '<rep>'),
  );
  const observations = score.observations as { id: string; observed?: string }[];
  return {
    verdict: score.verdict,
    // What was read, without the quotes (they hold each run's own temp paths).
    values: Object.fromEntries(
      Object.entries(score.values as Record<string, { ok: boolean; value?: unknown }>).map(
        ([section, reading]) => [section, reading.ok ? reading.value : 'unreadable'],
      ),
    ),
    resolution: observations.find((observation) => observation.id === 'resolution')?.observed,
    toolUses: meta.toolUses,
    toolCallsByName: meta.toolCallsByName,
    calls,
  };
}

function succeeded<T extends { run: CliResult }>(made: T): T {
  expect(made.run.exitCode, made.run.stderr).toBe(0);
  return made;
}

describe('redgreen run --shard k/n and redgreen merge', () => {
  it('shards cover the plan disjointly, and merged shards equal an unsharded run rep for rep', async () => {
    const root = makeTempDir();
    const merged = path.join(root, 'merged');
    const common = [defaultCampaign, '--reps', '1'];
    // The whole run and the first shard are shared with other tests (shared-runs.ts).
    const [{ out: whole }, { out: shard1 }, { out: shard2 }] = await Promise.all([
      sharedWholeRun('whole').then(succeeded),
      sharedRun([...common, '--shard', '1/2'], 'shard1').then(succeeded),
      runCampaignCli([...common, '--shard', '2/2', '--out', path.join(root, 'shard2')]).then(
        (run) => succeeded({ out: path.join(root, 'shard2'), run }),
      ),
    ]);
    const ids1 = repLines(shard1).map((line) => line.id);
    const ids2 = repLines(shard2).map((line) => line.id);
    expect(ids1).toHaveLength(2);
    expect(ids2).toHaveLength(2);
    expect(ids1.filter((id) => ids2.includes(id))).toEqual([]);

    // A shard alone cannot be gated: it is part of a campaign.
    const shardGate = await runCli(['gate', shard1]);
    expect(shardGate.exitCode).toBe(2);
    expect(shardGate.stdout).toContain('this is shard 1/2 of the campaign');

    const merge = await runCli(['merge', shard1, shard2, '--out', merged]);
    expect(merge.exitCode, merge.stderr).toBe(0);
    expect(merge.stdout).toMatch(/^merged \d+ reps from 2 directories into /);
    const wholeIds = repLines(whole)
      .map((line) => line.id)
      .sort();
    expect(
      repLines(merged)
        .map((line) => line.id)
        .sort(),
    ).toEqual(wholeIds);
    for (const id of wholeIds) {
      expect(repFacts(merged, id ?? ''), id).toEqual(repFacts(whole, id ?? ''));
    }
    const wholeCsv = readFileSync(path.join(whole, 'results.csv'), 'utf8').split('\n')[0];
    expect(readFileSync(path.join(merged, 'results.csv'), 'utf8').split('\n')[0]).toBe(wholeCsv);
    expect((await runCli(['gate', merged])).exitCode).toBe(
      (await runCli(['gate', whole])).exitCode,
    );

    // Duplicates and foreign campaigns are refused, and nothing is written.
    const twice = await runCli(['merge', shard1, shard1, '--out', path.join(root, 'twice')]);
    expect(twice.exitCode).toBe(2);
    expect(twice.stderr).toMatch(/records rep .* too/);
    expect(existsSync(path.join(root, 'twice'))).toBe(false);
    // Another campaign identity (the messages backend, not the engine): a run other tests share.
    const { out: other, run: otherRun } = await sharedOneRep('2/4', ['--backend', 'messages']);
    expect(otherRun.exitCode, otherRun.stderr).toBe(0);
    const foreign = await runCli(['merge', shard1, other, '--out', path.join(root, 'foreign')]);
    expect(foreign.exitCode).toBe(2);
    expect(foreign.stderr).toMatch(/campaign identity/);
    expect(existsSync(path.join(root, 'foreign'))).toBe(false);
  });

  it('the same shard of the same campaign is always the same slice', async () => {
    const a = await runCampaignCli([defaultCampaign, '--reps', '3', '--shard', '2/3', '--dry-run']);
    const b = await runCampaignCli([defaultCampaign, '--reps', '3', '--shard', '2/3', '--dry-run']);
    expect(a.stdout).toContain('sessions: 4 (shard 2/3 of 12)');
    expect(a.stdout).toBe(b.stdout);
  });

  it('merging shards run with different --reps keeps every recorded rep', async () => {
    const root = makeTempDir();
    const large = path.join(root, 'large');
    const { out: small, run: first } = await sharedRun(
      [defaultCampaign, '--reps', '1', '--shard', '1/2'],
      'small',
    );
    const second = await runCampaignCli([
      defaultCampaign,
      '--reps',
      '2',
      '--shard',
      '2/2',
      '--out',
      large,
    ]);
    expect(first.exitCode, first.stderr).toBe(0);
    expect(second.exitCode, second.stderr).toBe(0);
    const recorded = [...repLines(small), ...repLines(large)].map((line) => line.id).sort();
    for (const order of [
      [small, large],
      [large, small],
    ]) {
      const merged = path.join(root, `merged-${order.map((dir) => path.basename(dir)).join('-')}`);
      const merge = await runCli(['merge', ...order, '--out', merged]);
      expect(merge.exitCode, merge.stderr).toBe(0);
      expect(
        repLines(merged)
          .map((line) => line.id)
          .sort(),
      ).toEqual(recorded);
    }
  });
});
