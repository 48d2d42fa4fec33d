/**
 * The real Claude Code engine (the binary `@anthropic-ai/claude-agent-sdk`
 * ships) runs headless against the model server inside widget-v3 fixtures,
 * with the reference skill texts: the policy's tool calls are executed by the
 * engine's own Bash/Read/Glob/Grep, the final three-section report arrives as
 * the session's result, and the tool_uses the engine reports are exactly the
 * calls the policy made. Skipped, with the reason printed, where the binary
 * is not installed.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  type ModelServer,
  type ModelServerOptions,
  scriptedModelId,
  startModelServer,
} from '../../harness/model-server/index.js';
import { repoRoot } from '../helpers/cli.js';
import { makeTempDir } from '../helpers/temp-dir.js';
import {
  claudeCodeUnavailable,
  engineResult,
  engineToolUses,
  runClaudeCode,
} from './support/claude-code.js';
import { widgetFixture } from './support/fixture.js';
import { campaignPrompt, reportSections } from './support/prompt.js';

const unavailable = claudeCodeUnavailable();
if (unavailable !== undefined) {
  process.stdout.write(`engine tests skipped: ${unavailable}\n`);
}

const planScopedSkill = path.join(repoRoot, 'skills-under-test', 'sdd-plan-scoped');
const releasedSkill = path.join(repoRoot, 'skills-under-test', 'sdd-released');
const canaryKey = 'sk-ant-engine-canary-5d1c8e7a';

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

interface Logged {
  readonly method: string;
  readonly path: string;
  readonly status: number;
  readonly stream: boolean;
  readonly action: string;
  readonly session: string;
}

/** Start a server; the returned reader closes it (flushing every line) and reads its request log. */
async function serve(
  options: Omit<ModelServerOptions, 'logFile'>,
): Promise<() => Promise<Logged[]>> {
  const logFile = path.join(makeTempDir(), 'requests.jsonl');
  const started = await startModelServer({ ...options, logFile });
  server = started;
  return async () => {
    await started.close();
    return readFileSync(logFile, 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Logged);
  };
}

describe.skipIf(unavailable !== undefined)('the real Claude Code engine against the server', () => {
  it('skill-reader under the plan-scoped text: real tool calls in an S1-scoped fixture, report arrives', async () => {
    const log = await serve({ policy: 'structural' });
    const repo = await widgetFixture('s1', 'scoped');
    const run = await runClaudeCode({
      baseUrl: server?.baseUrl ?? '',
      cwd: repo,
      home: makeTempDir('redgreen-ms-cc-home-'),
      prompt: campaignPrompt(repo, planScopedSkill),
      model: scriptedModelId('skill-reader'),
      sessionKey: 'engine/s1-scoped/rep1',
      apiKey: canaryKey,
    });
    expect(run.timedOut).toBe(false);
    expect(run.exitCode, run.stderr).toBe(0);

    const result = engineResult(run.messages);
    expect(result).toMatchObject({ subtype: 'success', is_error: false });
    const report = reportSections(String(result?.result));
    expect(report?.dispatch).toBe('Task 1 (Export data model).');
    expect(report?.complete).toMatch(/^none/);

    const uses = engineToolUses(run.messages);
    expect(uses.length).toBeGreaterThanOrEqual(3);
    expect(uses.map((use) => use.name)).toEqual(['Read', 'Bash', 'Read', 'Read', 'Bash']);
    expect(String(uses[1]?.input.command)).toContain(
      'sdd-workspace docs/plans/2026-07-06-widget-export.md',
    );

    const init = run.messages.find(
      (message) => message.type === 'system' && message.subtype === 'init',
    );
    expect(init?.model).toBe('scripted:skill-reader');

    // Only POST /v1/messages?beta=true, streamed, one per turn; the key never reaches the log.
    const requests = await log();
    expect(new Set(requests.map((entry) => `${entry.method} ${entry.path}`))).toEqual(
      new Set(['POST /v1/messages?beta=true']),
    );
    expect(requests.every((entry) => entry.stream && entry.status === 200)).toBe(true);
    expect(requests.every((entry) => entry.session === 'engine/s1-scoped/rep1')).toBe(true);
    const loggedUses = requests
      .filter((entry) => entry.action.startsWith('tool_use:'))
      .flatMap((entry) => entry.action.slice('tool_use:'.length).split(','));
    expect(loggedUses).toEqual(uses.map((use) => use.name));
    expect(requests.at(-1)?.action).toBe('text');
    expect(JSON.stringify(requests)).not.toContain(canaryKey);
  });

  it("forensic under the released text: the seed's 6–13 calls of commit forensics, executed by the engine", async () => {
    await serve({ policy: 'forensic' });
    const repo = await widgetFixture('s1', 'flat');
    const run = await runClaudeCode({
      baseUrl: server?.baseUrl ?? '',
      cwd: repo,
      home: makeTempDir('redgreen-ms-cc-home-'),
      prompt: campaignPrompt(repo, releasedSkill),
    });
    expect(run.exitCode, run.stderr).toBe(0);
    const uses = engineToolUses(run.messages);
    expect(uses.length).toBeGreaterThanOrEqual(6);
    expect(uses.length).toBeLessThanOrEqual(13);
    const results = run.messages
      .filter((message) => message.type === 'user')
      .flatMap(
        (message) =>
          (message.message as { content: { type: string; content?: unknown }[] }).content,
      )
      .filter((block) => block.type === 'tool_result')
      .map((block) =>
        typeof block.content === 'string' ? block.content : JSON.stringify(block.content),
      );
    expect(results.filter((text) => text.includes('diff --git'))).toHaveLength(5);
    const report = reportSections(String(engineResult(run.messages)?.result));
    expect(report?.ledgers).toContain("another plan's ledger, not trusted");
    expect(report?.dispatch).toBe('Task 1 (Export data model).');
  });

  it('rides out an injected 529 with its own retry, and reports the retry', async () => {
    const log = await serve({
      policy: 'structural',
      faults: [{ kind: 'status', status: 529, turn: 2, times: 1, retryAfterSeconds: 0 }],
    });
    const repo = await widgetFixture('s2', 'scoped');
    const run = await runClaudeCode({
      baseUrl: server?.baseUrl ?? '',
      cwd: repo,
      home: makeTempDir('redgreen-ms-cc-home-'),
      prompt: campaignPrompt(repo, planScopedSkill),
      maxRetries: 2,
    });
    expect(run.exitCode, run.stderr).toBe(0);
    expect(reportSections(String(engineResult(run.messages)?.result))?.dispatch).toBe(
      'Task 3 (JSON serializer).',
    );
    expect((await log()).filter((entry) => entry.status === 529)).toHaveLength(1);
    expect(
      run.messages.some((message) => message.type === 'system' && message.subtype === 'api_retry'),
    ).toBe(true);
  });
});
