/**
 * Many sessions at once, and no memory between requests: 32 concurrent
 * sessions each get their own answers, and a server restarted (on a new port)
 * between every turn of a session carries it on to the same report as an
 * uninterrupted run, because each turn is derived from the history alone.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { type ModelServer, startModelServer } from '../../harness/model-server/index.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import { widgetFixture } from './support/fixture.js';
import { claudeCodeTools } from './support/local-tools.js';
import { writeProbeSkill } from './support/probe-skill.js';
import { campaignPrompt, reportSections } from './support/prompt.js';
import { runSession, sdkClient } from './support/tool-loop.js';

let servers: ModelServer[] = [];
afterEach(async () => {
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

describe('concurrency', () => {
  it('holds 32 requests in flight at once and answers each for its own session', async () => {
    const server = await startModelServer({
      policy: 'structural',
      faults: [{ kind: 'delay', minMs: 200, maxMs: 200 }],
    });
    servers.push(server);
    const keys = Array.from({ length: 32 }, (_, index) => `concurrent-${index}`);
    const answers = await Promise.all(
      keys.map((key, index) =>
        sdkClient(server.baseUrl, { sessionKey: key }).messages.create({
          model: 'claude-sonnet-5-5',
          max_tokens: 1024,
          tools: claudeCodeTools,
          messages: [
            { role: 'user', content: campaignPrompt(`/repos/r${index}`, `/skills/s${index}`) },
          ],
        }),
      ),
    );
    answers.forEach((answer, index) => {
      const block = answer.content[0];
      expect(block?.type === 'tool_use' && block.input).toEqual({
        file_path: `/skills/s${index}/SKILL.md`,
      });
      expect((answer as unknown as { redgreen: { session: string } }).redgreen.session).toBe(
        keys[index],
      );
    });
  });

  it('runs 32 whole sessions concurrently on one server, each to its own correct report', async () => {
    const server = await startModelServer({ policy: 'skill-reader', seed: 9 });
    servers.push(server);
    const fixtures = await Promise.all([
      widgetFixture('s1', 'scoped'),
      widgetFixture('s2', 'scoped'),
    ]);
    const skill = writeProbeSkill(makeTempDir(), 'plan-scoped');
    const records = await Promise.all(
      Array.from({ length: 32 }, (_, index) => {
        const repo = fixtures[index % 2] ?? '';
        return runSession({
          baseUrl: server.baseUrl,
          prompt: campaignPrompt(repo, skill),
          cwd: repo,
          home: makeTempDir('redgreen-ms-home-'),
          sessionKey: `session-${index}`,
          stream: index % 3 === 0,
        });
      }),
    );
    records.forEach((record, index) => {
      const expected =
        index % 2 === 0 ? 'Task 1 (Export data model).' : 'Task 3 (JSON serializer).';
      expect(reportSections(record.finalText)?.dispatch).toBe(expected);
    });
  });
});

describe('restart between turns', () => {
  it('a session whose server is replaced after every turn ends exactly as an uninterrupted one', async () => {
    const repo = await widgetFixture('s1', 'scoped');
    const skill = writeProbeSkill(makeTempDir(), 'plan-scoped');
    const options = { policy: 'forensic' as const, seed: 4 };
    const steady = await startModelServer(options);
    servers.push(steady);
    const uninterrupted = await runSession({
      baseUrl: steady.baseUrl,
      prompt: campaignPrompt(repo, skill),
      cwd: repo,
      home: makeTempDir('redgreen-ms-home-'),
      sessionKey: 'restart-me',
    });

    let current = await startModelServer(options);
    let restarts = 0;
    const interrupted = await runSession({
      baseUrl: current.baseUrl,
      baseUrlForTurn: () => current.baseUrl,
      prompt: campaignPrompt(repo, skill),
      cwd: repo,
      home: makeTempDir('redgreen-ms-home-'),
      sessionKey: 'restart-me',
      betweenTurns: async () => {
        await current.close();
        current = await startModelServer(options);
        restarts += 1;
      },
    });
    servers.push(current);

    expect(restarts).toBeGreaterThanOrEqual(5);
    expect(interrupted.finalText).toBe(uninterrupted.finalText);
    expect(interrupted.toolCalls.map((call) => [call.id, call.input])).toEqual(
      uninterrupted.toolCalls.map((call) => [call.id, call.input]),
    );
  });
});
