/**
 * Codex CLI benchmark: the model server's Responses face and the real Codex
 * binary offline. Prints (1) the server's latency for a Codex first turn
 * (`POST /v1/responses`, SSE, in-process fetch) and (2) whole `codex exec
 * --json` runs of the built-in `skill-reader` policy, unchanged, in S1-scoped
 * widget-v3 fixtures under the plan-scoped reference text: wall time, exit
 * code, the Codex calls the server answered and the reply's last line.
 * Prints figures; asserts nothing.
 *
 *   npm run build && node dist/scripts/bench-codex.js [--runs N]
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { execa } from 'execa';
import { buildFixture } from '../harness/fixture/index.js';
import { packageRoot } from '../harness/lib/package-root.js';
import { startModelServer } from '../harness/model-server/index.js';
import { installPacks } from '../harness/pack/install-packs.js';
import {
  bundledCatalogTemplate,
  locateCodexBinary,
  writeCodexHome,
} from '../harness/session/codex-home.js';
import { SHIPPED_PACKS } from '../packs/index.js';

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
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

async function main(): Promise<void> {
  // skill-reader and the widget-v3 recipe are the sdd pack's.
  installPacks(SHIPPED_PACKS);
  const runsFlag = process.argv.indexOf('--runs');
  const runs = runsFlag >= 0 ? Number(process.argv[runsFlag + 1] ?? 3) : 3;
  const skill = path.join(packageRoot(), 'skills-under-test', 'sdd-plan-scoped');
  const work = mkdtempSync(path.join(os.tmpdir(), 'redgreen-bench-codex-'));
  const logFile = path.join(work, 'requests.jsonl');
  const server = await startModelServer({ policy: 'skill-reader', logFile });
  try {
    const body = JSON.stringify({
      model: 'scripted:structural',
      stream: true,
      tools: [{ type: 'function', name: 'exec_command' }],
      input: [
        {
          type: 'message',
          role: 'user',
          content: '<environment_context><cwd>/repo</cwd></environment_context>',
        },
        { type: 'message', role: 'user', content: campaignPrompt('/repo', '/skill') },
      ],
    });
    const samples: number[] = [];
    for (let i = 0; i < 50; i += 1) {
      const started = performance.now();
      const answer = await fetch(`${server.baseUrl}/v1/responses`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'session-id': `bench-${i}` },
        body,
      });
      await answer.text();
      samples.push(performance.now() - started);
    }
    console.log(
      `Responses face first-turn latency (SSE), 50 requests: median ${median(samples).toFixed(2)} ms`,
    );

    const binary = locateCodexBinary();
    if (binary === undefined) {
      console.log('@openai/codex has no binary for this platform: codex exec figures skipped');
      return;
    }
    const template = await bundledCatalogTemplate(binary, work);
    if (!template.ok) throw new Error(template.error);
    const wall: number[] = [];
    for (let run = 0; run < runs; run += 1) {
      const repo = path.join(work, `s1-scoped-${run}`);
      const built = await buildFixture({ scenario: 's1', layout: 'scoped', dest: repo });
      if (!built.ok) throw new Error(`fixture build failed: ${JSON.stringify(built.error)}`);
      const home = path.join(work, `home-${run}`);
      const tmp = path.join(work, `tmp-${run}`);
      mkdirSync(home);
      mkdirSync(tmp);
      const codexHome = await writeCodexHome({
        dir: path.join(work, `codex-home-${run}`),
        serverUrl: server.baseUrl,
        model: 'scripted:skill-reader',
        catalogTemplate: template.value,
        sessionKey: `bench/rep${run + 1}`,
        sandbox: 'danger-full-access',
      });
      const started = performance.now();
      const result = await execa(
        binary,
        ['exec', '--json', '--strict-config', campaignPrompt(repo, skill)],
        {
          cwd: repo,
          env: {
            PATH: '/usr/local/bin:/usr/bin:/bin',
            HOME: home,
            CODEX_HOME: codexHome,
            TMPDIR: tmp,
          },
          extendEnv: false,
          stdin: 'ignore',
          timeout: 120_000,
          reject: false,
        },
      );
      wall.push(performance.now() - started);
      const reply = result.stdout
        .split('\n')
        .filter((line) => line.includes('"agent_message"'))
        .map((line) => (JSON.parse(line) as { item: { text: string } }).item.text)
        .at(-1);
      const calls = readFileSync(logFile, 'utf8')
        .split('\n')
        .filter((line) => line.includes(`"session":"bench/rep${run + 1}"`))
        .map((line) => (JSON.parse(line) as { action: string }).action);
      console.log(
        `run ${run + 1}: exit ${result.exitCode}, ${calls.length} requests (${calls.join(' ')}), last line: ${reply?.trim().split('\n').at(-1) ?? '(no reply)'}`,
      );
    }
    console.log(
      `codex exec (skill-reader, S1-scoped, plan-scoped text), ${runs} runs: median ${(median(wall) / 1000).toFixed(2)} s, min ${(Math.min(...wall) / 1000).toFixed(2)} s, max ${(Math.max(...wall) / 1000).toFixed(2)} s`,
    );
  } finally {
    await server.close();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
