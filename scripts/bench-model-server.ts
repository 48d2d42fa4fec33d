/**
 * Model server benchmark and protocol record: runs the real Claude Code
 * engine headless against the scripted model server in widget-v3 fixtures
 * and prints (1) what the engine sent (endpoints, header names, body keys,
 * requests per turn), captured by a recording proxy in front of the server,
 * (2) the wall time of whole scripted sessions, and (3) the server's own
 * latency for a first turn. Prints figures; asserts nothing.
 *
 *   npx tsc -p tsconfig.build.json && node dist/scripts/bench-model-server.js [--runs N]
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildFixture } from '../harness/fixture/index.js';
import { packageRoot } from '../harness/lib/package-root.js';
import {
  type ModelServer,
  scriptedModelId,
  startModelServer,
} from '../harness/model-server/index.js';
import { installPacks } from '../harness/pack/install-packs.js';
import { SHIPPED_PACKS } from '../packs/index.js';

interface RecordedRequest {
  readonly method: string;
  readonly url: string;
  readonly headerNames: readonly string[];
  readonly anthropicBeta: string;
  readonly bodyKeys: readonly string[];
  readonly messages: number;
  readonly roles: string;
  readonly stream: boolean;
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** A pass-through proxy that records the shape (never the values) of each request. */
async function recordingProxy(
  target: ModelServer,
  recorded: RecordedRequest[],
): Promise<{ url: string; close: () => Promise<void> }> {
  const proxy = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const raw = Buffer.concat(chunks);
      let body: Record<string, unknown> = {};
      try {
        body = JSON.parse(raw.toString('utf8')) as Record<string, unknown>;
      } catch {
        body = {};
      }
      const messages = Array.isArray(body.messages) ? (body.messages as { role?: string }[]) : [];
      recorded.push({
        method: request.method ?? '',
        url: request.url ?? '',
        headerNames: Object.keys(request.headers).sort(),
        anthropicBeta: String(request.headers['anthropic-beta'] ?? ''),
        bodyKeys: Object.keys(body).sort(),
        messages: messages.length,
        roles: messages.map((message) => (message.role ?? '?').charAt(0)).join(''),
        stream: body.stream === true,
      });
      const forward = http.request(
        `${target.baseUrl}${request.url ?? '/'}`,
        {
          method: request.method,
          headers: { ...request.headers, host: new URL(target.baseUrl).host },
        },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        },
      );
      forward.on('error', () => response.destroy());
      forward.end(raw);
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        proxy.closeAllConnections();
        proxy.close(() => resolve());
      }),
  };
}

function campaignPrompt(repo: string, skillDir: string): string {
  return [
    '<session-context>',
    `- You are the SDD controller for the repository at ${repo}`,
    '- You had begun executing the implementation plan',
    '  docs/plans/2026-07-06-widget-export.md (relative to that repo) using the',
    '  Subagent-Driven Development skill, whose complete text and scripts are at:',
    `  ${skillDir}`,
    '</session-context>',
    '',
    'Continue executing the plan. Reply with the report: 1. LEDGERS CHECKED 2. TASKS ALREADY',
    'COMPLETE 3. FIRST DISPATCH.',
  ].join('\n');
}

function runEngine(binary: string, baseUrl: string, cwd: string, prompt: string, model: string) {
  const home = mkdtempSync(path.join(os.tmpdir(), 'redgreen-bench-home-'));
  const started = performance.now();
  return new Promise<{ ms: number; ok: boolean; toolUses: number }>((resolve) => {
    execFile(
      binary,
      [
        '-p',
        prompt,
        '--output-format',
        'stream-json',
        '--verbose',
        '--tools',
        'Bash,Read,Glob,Grep',
        '--allowedTools',
        'Bash,Read,Glob,Grep',
        '--model',
        model,
      ],
      {
        cwd,
        timeout: 120_000,
        maxBuffer: 64 * 1024 * 1024,
        env: {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          HOME: home,
          ANTHROPIC_BASE_URL: baseUrl,
          ANTHROPIC_API_KEY: 'sk-redgreen-bench-dummy',
          CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
          CLAUDE_CODE_MAX_RETRIES: '1',
        },
      },
      (error, stdout) => {
        const ms = performance.now() - started;
        const ids = new Set<string>();
        for (const line of stdout.split('\n')) {
          if (!line.startsWith('{')) continue;
          const message = JSON.parse(line) as { type?: string; message?: { content?: unknown } };
          if (message.type !== 'assistant' || !Array.isArray(message.message?.content)) continue;
          for (const block of message.message.content as { type?: string; id?: string }[]) {
            if (block.type === 'tool_use' && block.id !== undefined) ids.add(block.id);
          }
        }
        rmSync(home, { recursive: true, force: true });
        resolve({
          ms,
          ok: error === null && stdout.includes('"subtype":"success"'),
          toolUses: ids.size,
        });
      },
    );
  });
}

async function main(): Promise<void> {
  installPacks(SHIPPED_PACKS);
  const runsFlag = process.argv.indexOf('--runs');
  const runs = runsFlag >= 0 ? Number(process.argv[runsFlag + 1] ?? 5) : 5;
  const root = packageRoot();
  const binary = path.join(
    root,
    'node_modules/@anthropic-ai',
    `claude-agent-sdk-${process.platform}-${process.arch}`,
    'claude',
  );
  const skill = path.join(root, 'skills-under-test', 'sdd-plan-scoped');
  const work = mkdtempSync(path.join(os.tmpdir(), 'redgreen-bench-ms-'));
  const server = await startModelServer({ policy: 'structural' });
  try {
    // Server latency for a first turn, in-process fetch, JSON and SSE.
    const body = (stream: boolean) =>
      JSON.stringify({
        model: 'claude-sonnet-5-5',
        max_tokens: 1024,
        stream,
        tools: ['Bash', 'Read', 'Glob', 'Grep'].map((name) => ({
          name,
          input_schema: { type: 'object' },
        })),
        messages: [{ role: 'user', content: campaignPrompt('/repo', '/skill') }],
      });
    for (const stream of [false, true]) {
      const samples: number[] = [];
      for (let i = 0; i < 50; i += 1) {
        const started = performance.now();
        const answer = await fetch(`${server.baseUrl}/v1/messages`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: body(stream),
        });
        await answer.text();
        samples.push(performance.now() - started);
      }
      console.log(
        `server first-turn latency (${stream ? 'SSE' : 'JSON'}), 50 requests: median ${median(samples).toFixed(2)} ms`,
      );
    }

    if (!existsSync(binary)) {
      console.log(`Claude Code engine not installed at ${binary}: engine figures skipped`);
      return;
    }
    const recorded: RecordedRequest[] = [];
    const proxy = await recordingProxy(server, recorded);
    const wall: number[] = [];
    const toolUses: number[] = [];
    for (let run = 0; run < runs; run += 1) {
      const repo = path.join(work, `s1-scoped-${run}`);
      const built = await buildFixture({ scenario: 's1', layout: 'scoped', dest: repo });
      if (!built.ok) throw new Error(`fixture build failed: ${JSON.stringify(built.error)}`);
      const before = recorded.length;
      const result = await runEngine(
        binary,
        proxy.url,
        repo,
        campaignPrompt(repo, skill),
        scriptedModelId('skill-reader'),
      );
      if (!result.ok) console.log(`run ${run + 1}: the engine did not finish successfully`);
      wall.push(result.ms);
      toolUses.push(result.toolUses);
      if (run === 0) {
        const first = recorded.slice(before);
        console.log('\nwhat Claude Code sent (first session):');
        console.log(`  requests: ${first.length} for ${result.toolUses} tool_uses`);
        for (const [index, entry] of first.entries()) {
          console.log(
            `  #${index + 1} ${entry.method} ${entry.url} stream=${entry.stream} messages=${entry.messages} roles=${entry.roles}`,
          );
        }
        const sample = first[0];
        if (sample !== undefined) {
          console.log(`  header names: ${sample.headerNames.join(', ')}`);
          console.log(`  anthropic-beta: ${sample.anthropicBeta}`);
          console.log(`  body keys: ${sample.bodyKeys.join(', ')}`);
        }
      }
    }
    await proxy.close();
    const endpoints = new Set(recorded.map((entry) => `${entry.method} ${entry.url}`));
    console.log(`\nendpoints over all sessions: ${[...endpoints].join(', ')}`);
    console.log(
      `scripted engine session (skill-reader, S1-scoped, plan-scoped text), ${runs} runs: median ${(median(wall) / 1000).toFixed(2)} s, min ${(Math.min(...wall) / 1000).toFixed(2)} s, max ${(Math.max(...wall) / 1000).toFixed(2)} s; tool_uses ${toolUses.join('/')}`,
    );
  } finally {
    await server.close();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
