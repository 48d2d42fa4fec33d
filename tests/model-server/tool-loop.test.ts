/**
 * Whole sessions on the real SDK client: the policy's tool calls are executed
 * for real (Bash, Read, Glob, Grep) in widget-v3 fixture repositories, their
 * results go back to the server, and the policy ends with the three-section
 * report. Policies act only through those tools and touch nothing outside
 * the fixture except reading the skill; the same seed and session give the
 * same transcript.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type ModelServer, startModelServer } from '../../harness/model-server/index.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { widgetFixture } from './support/fixture.js';
import { writeProbeSkill } from './support/probe-skill.js';
import { campaignPrompt, reportSections } from './support/prompt.js';
import { runSession, type SessionRecord } from './support/tool-loop.js';
import { treeChanges, treeState } from './support/tree-state.js';

let servers: ModelServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

async function serve(options: Parameters<typeof startModelServer>[0]): Promise<ModelServer> {
  const server = await startModelServer(options);
  servers.push(server);
  return server;
}

function session(
  server: ModelServer,
  repo: string,
  skillDir: string,
  extra: { stream?: boolean; sessionKey?: string; model?: string } = {},
): Promise<SessionRecord> {
  return runSession({
    baseUrl: server.baseUrl,
    prompt: campaignPrompt(repo, skillDir),
    cwd: repo,
    home: makeTempDir('redgreen-ms-home-'),
    ...extra,
  });
}

function transcript(record: SessionRecord): unknown {
  return {
    calls: record.toolCalls.map((call) => ({ id: call.id, name: call.name, input: call.input })),
    text: record.finalText,
  };
}

describe('a full tool loop on the real SDK', () => {
  it('structural (create): runs the skill script, reads its own ledger, and reports Task 1 in S1-scoped', async () => {
    const repo = await widgetFixture('s1', 'scoped');
    const skill = writeProbeSkill(makeTempDir(), 'plan-scoped');
    const server = await serve({ policy: 'structural' });
    const before = treeState(repo);

    const record = await session(server, repo, skill);

    expect(record.toolCalls.map((call) => call.name)).toEqual([
      'Read',
      'Bash',
      'Read',
      'Read',
      'Bash',
    ]);
    expect(
      record.toolCalls.every((call) => !call.isError || call.input.file_path !== undefined),
    ).toBe(true);
    const workspace = path.join(repo, '.superpowers/sdd/2026-07-06-widget-export');
    expect(record.toolCalls[1]?.output).toBe(workspace);
    const report = reportSections(record.finalText);
    expect(report?.dispatch).toBe('Task 1 (Export data model).');
    expect(report?.complete).toMatch(/^none/);
    expect(report?.ledgers).toContain(`${workspace}/progress.md — not present`);
    expect(report?.ledgers).toContain(
      `${repo}/.superpowers/sdd/progress.md — stray ledger at the old flat path`,
    );
    expect(report?.ledgers).toContain(
      'identity line names docs/plans/2026-07-01-widget-backend.md',
    );
    // The only change: the workspace directory the skill's own script created.
    expect(treeChanges(before, treeState(repo))).toEqual([
      '.superpowers/sdd/2026-07-06-widget-export/',
    ]);
  });

  it("forensic (stream): inspects every cited commit and rejects the other plan's ledger in S1-flat", async () => {
    const repo = await widgetFixture('s1', 'flat');
    const skill = writeProbeSkill(makeTempDir(), 'flat');
    const server = await serve({ policy: 'forensic' });
    const before = treeState(repo);

    const record = await session(server, repo, skill, { stream: true });

    const shows = record.toolCalls.filter((call) =>
      String(call.input.command ?? '').includes(' show --stat --patch '),
    );
    expect(shows).toHaveLength(5);
    expect(shows.every((call) => !call.isError && call.output.includes('diff --git'))).toBe(true);
    expect(
      record.toolCalls.some(
        (call) => call.name === 'Glob' && call.output.includes('2026-07-01-widget-backend.md'),
      ),
    ).toBe(true);
    expect(record.toolCalls.length).toBeGreaterThanOrEqual(6);
    expect(record.toolCalls.length).toBeLessThanOrEqual(13);
    const report = reportSections(record.finalText);
    expect(report?.ledgers).toContain('docs/plans/2026-07-01-widget-backend.md Tasks 1–5');
    expect(report?.ledgers).toContain("another plan's ledger, not trusted");
    expect(report?.complete).toMatch(/^none/);
    expect(report?.dispatch).toBe('Task 1 (Export data model).');
    expect(treeChanges(before, treeState(repo))).toEqual([]);
  });

  it('forensic: trusts a same-plan ledger whose commits implement its tasks (S2-flat)', async () => {
    const repo = await widgetFixture('s2', 'flat');
    const skill = writeProbeSkill(makeTempDir(), 'flat');
    const server = await serve({ policy: 'forensic' });

    const record = await session(server, repo, skill);

    const report = reportSections(record.finalText);
    expect(report?.complete).toBe('Tasks 1–2 (Export data model; CSV serializer).');
    expect(report?.dispatch).toBe('Task 3 (JSON serializer).');
    expect(report?.ledgers).toContain("this plan's progress, trusted");
  });

  it('executes all four tools for real when the seeded look-around calls for Glob and Grep', async () => {
    const repo = await widgetFixture('s1', 'scoped');
    const skill = writeProbeSkill(makeTempDir(), 'plan-scoped');
    const server = await serve({
      policy: 'structural',
      seed: 11,
      extras: { lookAroundProbability: 1, verificationProbability: 1 },
    });
    const records = await Promise.all(
      ['a', 'b', 'c', 'd'].map((key) => session(server, repo, skill, { sessionKey: `rep-${key}` })),
    );
    const calls = records.flatMap((record) => record.toolCalls);
    expect(new Set(calls.map((call) => call.name))).toEqual(
      new Set(['Bash', 'Read', 'Glob', 'Grep']),
    );
    const grep = calls.find((call) => call.name === 'Grep');
    expect(grep?.output).toContain('2026-07-06-widget-export.md:7:## Task 1: Export data model');
    const globbed = calls.find((call) => call.name === 'Glob');
    expect(globbed?.output).toContain(path.join(repo, 'docs/plans/2026-07-01-widget-backend.md'));
    for (const record of records) {
      expect(reportSections(record.finalText)?.dispatch).toBe('Task 1 (Export data model).');
    }
  });
  it('skill-reader under a text that names no ledger starts fresh without reading one', async () => {
    const repo = await widgetFixture('s2', 'flat');
    const skill = writeProbeSkill(makeTempDir(), 'none');
    const server = await serve({ policy: 'skill-reader' });

    const record = await session(server, repo, skill);

    expect(record.toolCalls.map((call) => call.name)).toEqual(['Read', 'Read', 'Bash']);
    expect(
      record.toolCalls.some((call) => String(call.input.file_path).includes('.superpowers')),
    ).toBe(false);
    const report = reportSections(record.finalText);
    expect(report?.ledgers).toContain('the skill text names no progress ledger');
    expect(report?.dispatch).toBe('Task 1 (Export data model).');
  });
});

describe('seeded randomness', () => {
  it('gives the same transcript for the same seed and session, on a fresh server', async () => {
    const repo = await widgetFixture('s2', 'scoped');
    const skill = writeProbeSkill(makeTempDir(), 'plan-scoped');
    const first = await session(await serve({ policy: 'structural', seed: 5 }), repo, skill, {
      sessionKey: 'arm/s2/rep1',
    });
    const second = await session(await serve({ policy: 'structural', seed: 5 }), repo, skill, {
      sessionKey: 'arm/s2/rep1',
      stream: true,
    });
    expect(transcript(second)).toEqual(transcript(first));
  });

  it('varies tool_uses across sessions with a seed, and not at all without one', async () => {
    const repo = await widgetFixture('s1', 'scoped');
    const skill = writeProbeSkill(makeTempDir(), 'plan-scoped');
    const keys = Array.from({ length: 8 }, (_, index) => `rep-${index}`);
    const seeded = await serve({ policy: 'structural', seed: 3 });
    const unseeded = await serve({ policy: 'structural' });
    const seededCounts = await Promise.all(
      keys.map(
        async (key) => (await session(seeded, repo, skill, { sessionKey: key })).toolCalls.length,
      ),
    );
    const plainCounts = await Promise.all(
      keys.map(
        async (key) => (await session(unseeded, repo, skill, { sessionKey: key })).toolCalls.length,
      ),
    );
    expect(new Set(seededCounts).size).toBeGreaterThan(1);
    expect(new Set(plainCounts)).toEqual(new Set([5]));
    expect(Math.min(...seededCounts)).toBeGreaterThanOrEqual(5);
  });
});
