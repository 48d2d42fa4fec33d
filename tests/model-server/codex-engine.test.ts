/**
 * The real Codex CLI binary (`@openai/codex`'s platform package) runs
 * `codex exec --json` headless against the model server's Responses face,
 * with a per-test CODEX_HOME written by harness/session/codex-home.ts. One
 * run, shared by the assertions: a policy file whose controller runs a
 * shell command, reads a file and dispatches one subagent, whose seat runs
 * a command and reports. It proves the tool map end to end (exec_command,
 * spawn_agent plus the face's wait_agent, a subagent thread), the request
 * log and the rollouts Codex writes (read back with the Codex rollout
 * reader), that no variable of the engine's environment reaches a model
 * command, that the session lists only the skills installed under
 * `$CODEX_HOME/skills` (Codex's bundled `.system` skills neither extracted
 * nor listed), and, under strace, that the engine connects to nothing but the
 * local server (no DNS, no other address). Skipped, with the reason
 * printed, where the binary (or strace, for the network proof) is absent.
 */
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ModelServer, startModelServer } from '../../harness/model-server/index.js';
import { loadPolicyFile } from '../../harness/model-server/load-policy.js';
import { readCodexRollouts } from '../../harness/score/transcripts/codex-rollout.js';
import {
  bundledCatalogTemplate,
  locateCodexBinary,
  writeCodexHome,
} from '../../harness/session/codex-home.js';
import { execItems, trustedTranscript } from '../../harness/session/codex-stream.js';
import { testGitEnv } from '../helpers/git-env.js';

const binary = locateCodexBinary();
const strace = (() => {
  try {
    execFileSync('strace', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();
if (binary === undefined) {
  process.stdout.write(
    'codex engine tests skipped: @openai/codex has no binary installed for this platform\n',
  );
} else if (!strace) {
  process.stdout.write('codex network proof skipped: strace is not installed\n');
}

const secret = 'rg-codex-env-canary-4f2a9c';
const probePolicy = `summary: runs a command, reads a file, dispatches one subagent, reports
steps:
  - tool: Bash
    id: environment
    input:
      command: env
      description: environment
  - tool: Read
    id: notes
    input:
      file_path: "{{cwd}}/notes.txt"
  - tool: Agent
    id: child
    input:
      description: count lines
      prompt: "You are the line counter of this session. Count the lines of notes.txt."
      subagent_type: general-purpose
  - reply: "Notes: {{notes}}\\nChild: {{child}}\\nEnvironment:\\n{{environment}}"
seats:
  - prompt: "^You are the line counter"
    steps:
      - tool: Bash
        id: tally
        input:
          command: wc -l < notes.txt
          description: count
      - reply: "lines: {{tally}}"
`;

interface Logged {
  readonly path: string;
  readonly status: number;
  readonly action: string;
  readonly session: string;
  readonly thread: string;
  readonly requestKind: string;
  readonly policy: string;
}

interface Run {
  readonly exitCode: number | undefined;
  readonly events: readonly Record<string, unknown>[];
  readonly log: readonly Logged[];
  readonly rollouts: readonly { name: string; text: string }[];
  readonly connects: readonly string[];
  readonly port: number;
  readonly ms: number;
  /** Whether Codex extracted its bundled skills into `$CODEX_HOME/skills/.system`. */
  readonly bundledExtracted: boolean;
}

let root: string | undefined;
let server: ModelServer | undefined;
let run: Run | undefined;

beforeAll(async () => {
  if (binary === undefined) return;
  root = mkdtempSync(path.join(os.tmpdir(), 'redgreen-codex-'));
  const repo = path.join(root, 'repo');
  const home = path.join(root, 'home');
  const tmp = path.join(root, 'tmp');
  for (const dir of [repo, home, tmp]) mkdirSync(dir);
  writeFileSync(path.join(repo, 'notes.txt'), 'one\ntwo\nthree\n');
  execFileSync('git', ['init', '-q'], { cwd: repo, env: testGitEnv(home) });
  const policyFile = path.join(root, 'probe.yaml');
  writeFileSync(policyFile, probePolicy);
  const loaded = await loadPolicyFile(policyFile, 'codex-probe');
  if (!loaded.ok) throw new Error(loaded.error.problem);
  const logFile = path.join(root, 'requests.jsonl');
  server = await startModelServer({
    policy: 'codex-probe',
    brains: new Map([['codex-probe', loaded.value.brain]]),
    logFile,
  });
  const template = await bundledCatalogTemplate(binary, tmp);
  if (!template.ok) throw new Error(template.error);
  const codexHome = await writeCodexHome({
    dir: path.join(root, 'codex-home'),
    serverUrl: server.baseUrl,
    model: 'scripted:codex-probe',
    catalogTemplate: template.value,
    sessionKey: 'codex-probe/rep1',
    sandbox: 'danger-full-access',
  });
  // One installed skill, as a library arm's: the listing must hold it and nothing else.
  mkdirSync(path.join(codexHome, 'skills', 'probe-skill'), { recursive: true });
  writeFileSync(
    path.join(codexHome, 'skills', 'probe-skill', 'SKILL.md'),
    '---\nname: probe-skill\ndescription: Use when probing the listing\n---\nProbe.\n',
  );
  const trace = path.join(root, 'connect.trace');
  const command = ['exec', '--json', '--strict-config', 'Count the notes.'];
  const started = performance.now();
  const result = await execa(
    strace ? 'strace' : binary,
    strace
      ? ['-f', '-qq', '-e', 'trace=connect,sendto,sendmsg', '-o', trace, binary, ...command]
      : command,
    {
      cwd: repo,
      env: {
        PATH: '/usr/local/bin:/usr/bin:/bin',
        HOME: home,
        CODEX_HOME: codexHome,
        TMPDIR: tmp,
        REDGREEN_CANARY: secret,
      },
      extendEnv: false,
      stdin: 'ignore',
      timeout: 60_000,
      reject: false,
    },
  );
  const ms = performance.now() - started;
  await server.close();
  const sessions = path.join(codexHome, 'sessions');
  const rollouts = readdirSync(sessions, { recursive: true, encoding: 'utf8' })
    .filter((name) => /rollout-.*\.jsonl$/.test(name))
    .map((name) => ({ name, text: readFileSync(path.join(sessions, name), 'utf8') }));
  run = {
    exitCode: result.exitCode,
    events: result.stdout
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>),
    log: readFileSync(logFile, 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Logged),
    rollouts,
    connects: strace
      ? readFileSync(trace, 'utf8')
          .split('\n')
          .filter((line) => /AF_INET6?\b/.test(line))
      : [],
    port: server.port,
    ms,
    bundledExtracted: existsSync(path.join(codexHome, 'skills', '.system')),
  };
  process.stdout.write(
    `codex exec (offline, ${strace ? 'under strace' : 'plain'}): ${Math.round(ms)} ms\n`,
  );
}, 90_000);

afterAll(async () => {
  await server?.close();
  if (root !== undefined) rmSync(root, { recursive: true, force: true });
});

/** The traced network calls that are not to the local server's port on 127.0.0.1. */
function foreignConnects(lines: readonly string[], port: number): string[] {
  return lines.filter(
    (line) => !line.includes(`sin_port=htons(${port}), sin_addr=inet_addr("127.0.0.1")`),
  );
}

/** The skill names under `### Available skills` in the rollouts' skills message. */
function listedSkills(rollouts: readonly { text: string }[]): string[] {
  const strings: string[] = [];
  const collect = (value: unknown): void => {
    if (typeof value === 'string') strings.push(value);
    else if (Array.isArray(value)) value.forEach(collect);
    else if (typeof value === 'object' && value !== null) Object.values(value).forEach(collect);
  };
  for (const { text } of rollouts) {
    for (const line of text.split('\n')) if (line.startsWith('{')) collect(JSON.parse(line));
  }
  const listing = strings.find((text) => text.includes('### Available skills'));
  if (listing === undefined) return [];
  const section = listing.split('### Available skills')[1]?.split('\n### ')[0] ?? '';
  return [...section.matchAll(/^- ([^:\n]+): .*\(file: /gm)].map((match) => match[1] ?? '');
}

function finished(): Run {
  if (run === undefined) throw new Error('the codex run did not happen');
  return run;
}

describe.skipIf(binary === undefined)('the real Codex CLI against the Responses face', () => {
  it('runs the policy to its reply: the shell, a file read, a subagent dispatched and waited for', () => {
    const { exitCode, events } = finished();
    expect(exitCode).toBe(0);
    const commands = events
      .filter((event) => event.type === 'item.completed')
      .map((event) => event.item as Record<string, unknown>)
      .filter((item) => item.type === 'command_execution' || item.type === 'collab_tool_call')
      .map((item) => (item.type === 'command_execution' ? item.command : item.tool));
    // The subagent's own command runs in its thread: the parent's stream shows its spawn and wait.
    expect(commands).toEqual([
      '/bin/bash -lc env',
      expect.stringMatching(/^\/bin\/bash -lc 'cat -n -- .*\/notes\.txt'$/),
      'spawn_agent',
      'wait',
    ]);
    const reply = events
      .filter((event) => event.type === 'item.completed')
      .map((event) => event.item as Record<string, unknown>)
      .find((item) => item.type === 'agent_message')?.text;
    expect(reply).toMatch(/^Notes: one\ntwo\nthree\nChild: lines: 3\n\nagentId: [\w-]+ /);
  });

  it('the request log: each Codex call a request of its own, spawn and wait counted apart, the child a subagent thread', () => {
    const { log } = finished();
    expect(new Set(log.map((line) => `${line.path} ${line.status}`))).toEqual(
      new Set(['/v1/responses 200']),
    );
    // The session key the runner chose, sent by Codex on every thread's requests.
    expect(new Set(log.map((line) => line.session))).toEqual(new Set(['codex-probe/rep1']));
    const threads = [...new Set(log.map((line) => line.thread))];
    expect(threads).toHaveLength(2);
    const [parent, child] = threads;
    expect(log.filter((line) => line.thread === parent).map((line) => line.action)).toEqual([
      'tool_use:exec_command',
      'tool_use:exec_command',
      'tool_use:spawn_agent',
      'tool_use:wait_agent',
      'text',
    ]);
    expect(
      log.filter((line) => line.thread === child).map((line) => [line.requestKind, line.action]),
    ).toEqual([
      ['subagent', 'tool_use:exec_command'],
      ['subagent', 'text'],
    ]);
    expect(log.find((line) => line.action === 'tool_use:wait_agent')?.policy).toBe(
      'redgreen:tool-map',
    );
  });

  it('the rollouts Codex wrote read back as one session: the controller’s calls, the spawn a dispatch, the child’s calls its seat’s', () => {
    const { rollouts } = finished();
    expect(rollouts).toHaveLength(2);
    const read = readCodexRollouts(rollouts);
    if (!read.ok) throw new Error(read.error.problem);
    expect(read.value.toolCalls.map((call) => [call.name, call.parentToolUseId])).toEqual([
      ['Bash', null],
      ['Bash', null],
      ['Agent', null],
      ['Bash', expect.stringMatching(/_0of1_Agent$/)],
      ['wait_agent', null],
    ]);
  });

  it('the stream and the rollouts agree: every call kept, the spawn’s prompt the one the stream reports', () => {
    const { events, rollouts } = finished();
    const read = readCodexRollouts(rollouts);
    if (!read.ok) throw new Error(read.error.problem);
    const items = execItems(events.map((event) => JSON.stringify(event)).join('\n'));
    const spawn = items.calls.find((call) => call.tool === 'spawn_agent');
    const dispatched = read.value.toolCalls.find((call) => call.name === 'Agent');
    expect(spawn?.prompt).toBeDefined();
    expect((dispatched?.input as { prompt?: string } | undefined)?.prompt).toBe(spawn?.prompt);
    const trusted = trustedTranscript(read.value, items);
    expect(trusted.problems).toEqual([]);
    expect(trusted.dropped).toEqual([]);
    expect(trusted.transcript.toolCalls).toHaveLength(read.value.toolCalls.length);
  });

  it('no variable of the engine’s environment reaches a model command', () => {
    const { events, rollouts } = finished();
    const reply = JSON.stringify(events);
    expect(reply).toContain('Environment:');
    expect(reply).not.toContain(secret);
    expect(rollouts.map((file) => file.text).join('')).not.toContain(secret);
  });

  it('lists only the installed skills: Codex’s bundled ones are neither extracted nor listed', () => {
    const { rollouts, bundledExtracted } = finished();
    expect(bundledExtracted).toBe(false);
    expect(listedSkills(rollouts.slice(0, 1))).toEqual(['probe-skill']);
  });

  it('the listing reader sees a bundled skill listed beside the installed one (planted)', () => {
    const listing =
      '## Skills\n### Skill roots\n- `r0` = `/h/skills`\n- `r1` = `/h/skills/.system`\n### Available skills\n' +
      '- openai-docs: Use for OpenAI docs (file: r1/openai-docs/SKILL.md)\n' +
      '- probe-skill: Use when probing (file: r0/probe-skill/SKILL.md)\n### How to use skills\n- x: y (file: z)';
    const line = JSON.stringify({
      type: 'response_item',
      payload: { content: [{ text: listing }] },
    });
    expect(listedSkills([{ text: line }])).toEqual(['openai-docs', 'probe-skill']);
  });

  it.skipIf(!strace)('connects to nothing but the local server: no DNS, no other address', () => {
    const { connects, port } = finished();
    expect(connects.length).toBeGreaterThan(0);
    expect(foreignConnects(connects, port)).toEqual([]);
  });

  it('the connection check sees a lookup or another address (planted)', () => {
    const local = `connect(9, {sa_family=AF_INET, sin_port=htons(4100), sin_addr=inet_addr("127.0.0.1")}, 16) = 0`;
    const dns = `sendto(7, "x", 1, MSG_NOSIGNAL, {sa_family=AF_INET, sin_port=htons(53), sin_addr=inet_addr("192.168.1.1")}, 16) = 1`;
    const v6 = `connect(8, {sa_family=AF_INET6, sin6_port=htons(443), sin6_addr=inet_pton(AF_INET6, "2606:4700::1")}, 28) = -1`;
    expect(foreignConnects([local, dns, v6], 4100)).toEqual([dns, v6]);
    expect(foreignConnects([local], 4101)).toEqual([local]);
  });
});
