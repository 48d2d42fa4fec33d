/**
 * The `codex` backend: one session is one `codex exec --json` of the real
 * Codex CLI binary (`@openai/codex`), offline against the local model
 * server's Responses face, confined like every model-issued command:
 *
 * - the engine itself runs inside redgreen's bubblewrap (`confinedArgv`):
 *   new namespaces, no capabilities, no user namespaces inside, the fixture,
 *   its private HOME, TMPDIR and CODEX_HOME read-write, the skill and the
 *   engine's own files read-only, a cleared environment (no key exists or
 *   is passed: the provider has no `env_key`). Codex's own sandbox cannot
 *   nest there (it needs user namespaces), so it is off
 *   (`--dangerously-bypass-approvals-and-sandbox`): every command the model
 *   issues runs in redgreen's sandbox, as on the other backends;
 * - the sandbox's network namespace holds only loopback; the engine reaches
 *   the model server through the bridge (codex-bridge.ts) and nothing else;
 * - a fresh CODEX_HOME per session (codex-home.ts) in the rep's private
 *   directory: the library's and the opted-in project skills under
 *   `$CODEX_HOME/skills`, where Codex lists them; the scenario's named
 *   instruction files as `$CODEX_HOME/AGENTS.md`, with the repository's own
 *   AGENTS.md files not read (the other backends give exactly the named
 *   files too);
 * - after the run, the rollouts Codex wrote (the root thread's and each
 *   subagent's) are read with the Codex rollout reader, kept to what the
 *   engine's `--json` stream reports (codex-stream.ts: the rollouts are
 *   files the session's commands can write, the stream is not), a spawned
 *   thread's calls kept to what the model server issued on that thread
 *   (codex-issued-check.ts: the stream reports the root thread only), and
 *   written as the rep's transcript (codex-transcript.ts); the reply is the
 *   stream's last agent message.
 *
 * Scripted models only (createBackend refuses a live one). Under
 * `first-dispatch` (or an event stop that picks dispatches only) the engine
 * is ended at the controller's first dispatch as its `--json` stream reports
 * it, and the dispatch is recorded from the rollout (codex-capture.ts); the
 * other captures are refused at load (session-tool-table.ts's stopProblem).
 */

import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { trackDetachedChild } from '../lib/live-children.js';
import { noteChildExit, stoppedFromOutside } from '../lib/outside-signals.js';
import { ISSUED_CALLS_PATH, IssuedCallsSchema } from '../model-server/responses/issued-calls.js';
import {
  CONFINED_LIMITS,
  commandEnvironment,
  confinedArgv,
  handOverToSandbox,
  openPathToSandbox,
  type Sandbox,
} from '../sandbox/sandbox.js';
import { readCodexRollouts } from '../score/transcripts/codex-rollout.js';
import type { SessionTranscript } from '../score/transcripts/session-transcript.js';
import { bridgedCommand, openModelBridge } from './codex-bridge.js';
import { capturedFromRollout, DispatchWatch } from './codex-capture.js';
import { bundledCatalogTemplate, writeCodexHome } from './codex-home.js';
import { checkedAgainstIssued, type ServerRecord } from './codex-issued-check.js';
import { bareSkillName, codexSkillClash } from './codex-skill-installs.js';
import { execItems, trustedTranscript } from './codex-stream.js';
import { codexTranscriptLines } from './codex-transcript.js';
import { handedOverSessions } from './handed-over-sessions.js';
import { tierModels } from './model-tiers.js';
import { isDispatchStop } from './session-tool-table.js';
import type {
  IndeterminateStage,
  SessionBackend,
  SessionOutcome,
  SessionRequest,
  TokenUsage,
} from './session-types.js';

export interface CodexBackendOptions {
  readonly binary: string;
  /** `codex-cli 0.169.0`, as `codex --version` prints it. */
  readonly version: string;
  readonly sandbox: Sandbox;
}

interface CodexDirs {
  readonly home: string;
  readonly tmp: string;
  readonly codexHome: string;
}

function codexDirsOf(privateDir: string): CodexDirs {
  return {
    home: path.join(privateDir, 'home'),
    tmp: path.join(privateDir, 'tmp'),
    codexHome: path.join(privateDir, 'codex-home'),
  };
}

/** What `codex exec --json` printed that the outcome needs: its usage and its errors. */
interface ExecStream {
  usage: TokenUsage | null;
  errors: string[];
}

function readExecStream(stdout: string): ExecStream {
  const stream: ExecStream = { usage: null, errors: [] };
  for (const line of stdout.split('\n')) {
    let event: Record<string, unknown>;
    try {
      event = JSON.parse(line) as Record<string, unknown>;
    } catch {
      continue;
    }
    if (typeof event !== 'object' || event === null) continue;
    if (event.type === 'turn.completed') {
      const usage = (event.usage ?? {}) as Record<string, unknown>;
      const count = (name: string): number =>
        typeof usage[name] === 'number' ? (usage[name] as number) : 0;
      const cached = count('cached_input_tokens');
      // The Responses API counts cached input inside input_tokens; redgreen counts them apart.
      stream.usage = {
        input: Math.max(0, count('input_tokens') - cached),
        output: count('output_tokens'),
        cacheWrite: count('cache_write_input_tokens'),
        cacheRead: cached,
      };
    } else if (event.type === 'turn.failed' || event.type === 'error') {
      const error = event.type === 'error' ? event : (event.error as Record<string, unknown>);
      const message = typeof error?.message === 'string' ? error.message : undefined;
      // Codex reports a model without catalog metadata as an error item too; ours have one.
      if (message !== undefined) stream.errors.push(message);
    }
  }
  return stream;
}

/** Every rollout file under CODEX_HOME/sessions, with its text. */
async function rolloutsIn(codexHome: string): Promise<{ name: string; text: string }[]> {
  const root = path.join(codexHome, 'sessions');
  let entries: string[];
  try {
    entries = await readdir(root, { recursive: true });
  } catch {
    return [];
  }
  const files = entries.filter((entry) => /(?:^|\/)rollout-[^/]*\.jsonl$/.test(entry)).sort();
  const read = await Promise.all(
    files.map(async (file) => ({
      name: path.basename(file),
      text: await readFile(path.join(root, file), 'utf8'),
    })),
  );
  // A thread the engine was ended beside (a spawned one, at a capture) may have written nothing yet.
  return read.filter((rollout) => rollout.text.trim() !== '');
}

/** The model replies of the root thread: its `token_usage_record` lines (one per response). */
function rootTurns(rollouts: readonly { text: string }[]): number {
  let turns = 0;
  for (const { text } of rollouts) {
    for (const line of text.split('\n')) {
      if (!line.includes('"token_usage_record"')) continue;
      try {
        const payload = (JSON.parse(line) as { payload?: Record<string, unknown> }).payload;
        if (payload !== undefined && payload.thread_id === payload.session_id) turns += 1;
      } catch {
        // not a line the count can use; the rollout reader reports it
      }
    }
  }
  return turns;
}

/**
 * The skills a session lists: the library's and the opted-in project ones, by
 * bare name; nothing is written when two would share a directory (the
 * clash, one line, is returned).
 */
async function installSkills(
  codexHome: string,
  request: SessionRequest,
): Promise<string | undefined> {
  const skillsDir = path.join(codexHome, 'skills');
  const project = (request.projectSkills ?? []).map((skill) => ({
    dir: path.basename(skill.dir),
    from: `the fixture's ${skill.file}`,
    text: async () => skill.text,
  }));
  const library = (request.library?.skills ?? []).map((skill) => ({
    dir: bareSkillName(skill.name),
    from: `${skill.name} (${path.join(skill.dir, 'SKILL.md')})`,
    text: () => readFile(path.join(skill.dir, 'SKILL.md'), 'utf8'),
  }));
  const entries = [...project, ...library];
  const clash = codexSkillClash(entries);
  if (clash !== undefined) return `${clash.problem}; ${clash.fix}`;
  for (const entry of entries) {
    const dir = path.join(skillsDir, entry.dir);
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'SKILL.md'), await entry.text(), { flag: 'wx' });
  }
  return undefined;
}

/** The named instruction files, as one global AGENTS.md (each under its path). */
function instructionsText(request: SessionRequest): string | undefined {
  const files = request.instructions ?? [];
  if (files.length === 0) return undefined;
  return `${files.map((file) => `# ${file.path}\n\n${file.text.replace(/\n+$/, '')}`).join('\n\n')}\n`;
}

/** The local model server's host and port, or why the session's model is not on it. */
function serverOf(request: SessionRequest): { host: string; port: number } | string {
  const { model } = request;
  if (!model.scripted || model.baseUrl === undefined) {
    return `the codex backend runs scripted models on the local model server only (${model.id} is not one)`;
  }
  const url = new URL(model.baseUrl);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (url.protocol !== 'http:' || !['127.0.0.1', 'localhost', '::1'].includes(host)) {
    return `the model server is not on this machine's loopback (${model.baseUrl})`;
  }
  return { host, port: Number(url.port || 80) };
}

/** The model server's record of the calls it issued in this session (model-server/responses/issued-calls.ts). */
async function serverRecord(
  server: { host: string; port: number },
  session: string,
  token: string,
): Promise<ServerRecord> {
  const host = server.host.includes(':') ? `[${server.host}]` : server.host;
  const url = `http://${host}:${server.port}${ISSUED_CALLS_PATH}?session=${encodeURIComponent(session)}`;
  const withToken = `${url}&token=${encodeURIComponent(token)}`;
  try {
    const response = await fetch(withToken, { signal: AbortSignal.timeout(10_000) });
    if (!response.ok) return { kind: 'unavailable', why: `${url} answered ${response.status}` };
    const parsed = IssuedCallsSchema.safeParse(await response.json());
    if (!parsed.success)
      return { kind: 'unavailable', why: `${url} answered no issued-calls record` };
    return { kind: 'record', issued: parsed.data };
  } catch (error) {
    return { kind: 'unavailable', why: `${url}: ${(error as Error).message}` };
  }
}

interface Ended {
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly timedOut: boolean;
  readonly aborted: boolean;
  /** Ended by redgreen at the line `endAt` picked. */
  readonly ended: boolean;
}

/**
 * Run the confined engine to its end (or the session timeout, or an abort),
 * streaming stderr; `endAt` reads each stdout line as it arrives, and a true
 * from it ends the engine there (the first-dispatch capture).
 */
function runEngine(
  argv: readonly string[],
  request: SessionRequest,
  cwd: string,
  endAt?: (line: string) => boolean,
): Promise<Ended> {
  const [file, ...args] = argv as [string, ...string[]];
  return new Promise((resolve) => {
    const child = spawn(file, args, {
      cwd,
      env: {},
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group: a Ctrl-C at the terminal reaches the harness, not the engine.
      detached: true,
    });
    trackDetachedChild(child);
    let stdout = '';
    let timedOut = false;
    let aborted = false;
    let endedHere = false;
    let pending = '';
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (text: string) => {
      stdout += text;
      if (endAt === undefined || endedHere) return;
      pending += text;
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      if (lines.some((line) => endAt(line))) {
        endedHere = true;
        kill();
      }
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (text: string) => request.engineLog(text));
    const kill = (): void => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    };
    const timer = setTimeout(() => {
      timedOut = true;
      kill();
    }, request.limits.sessionTimeoutSeconds * 1000);
    const onAbort = (): void => {
      aborted = true;
      kill();
    };
    request.signal.addEventListener('abort', onAbort, { once: true });
    const finish = (exitCode: number | null, signal: NodeJS.Signals | null): void => {
      clearTimeout(timer);
      request.signal.removeEventListener('abort', onAbort);
      noteChildExit(signal, timedOut || aborted || endedHere);
      resolve({ exitCode, signal, stdout, timedOut, aborted, ended: endedHere });
    };
    child.on('error', (error) => {
      request.engineLog(`${error.message}\n`);
      finish(127, null);
    });
    child.on('close', (code, signal) => finish(code, signal));
  });
}

/** Runs one session on the real Codex CLI binary, confined, against the local model server. */
export function codexBackend(options: CodexBackendOptions): SessionBackend {
  const { binary, sandbox } = options;
  const engine = options.version;
  // The binary's own gpt-5.5 catalog entry, read once: every scripted model is modelled on it.
  let template: ReturnType<typeof bundledCatalogTemplate> | undefined;
  const writable = (request: SessionRequest): string[] => {
    const dirs = codexDirsOf(request.privateDir);
    return [request.fixtureRepo, dirs.home, dirs.tmp, dirs.codexHome];
  };
  return handedOverSessions(sandbox, writable, {
    name: 'codex',
    async run(request: SessionRequest): Promise<SessionOutcome> {
      const started = performance.now();
      const base = {
        capturedDispatch: null,
        engineCostEstimateUsd: null,
        engine,
        modelReported: null,
        turns: 0,
        usage: null,
      };
      const indeterminate = (
        stage: IndeterminateStage,
        reason: string,
        extra: Partial<SessionOutcome> = {},
      ): SessionOutcome => ({
        ...base,
        status: { kind: 'indeterminate', stage, reason },
        finalReply: null,
        stopReason: null,
        ...extra,
      });
      const capturing = request.stop === 'first-dispatch' || request.stopAt !== undefined;
      if (request.stopAt?.some((selector) => !isDispatchStop(selector)) === true) {
        return indeterminate('engine', 'the codex backend captures dispatches only');
      }
      const server = serverOf(request);
      if (typeof server === 'string') return indeterminate('engine', server);
      const dirs = codexDirsOf(request.privateDir);
      template ??= bundledCatalogTemplate(binary, request.privateDir);
      const catalog = await template;
      if (!catalog.ok) return indeterminate('engine', catalog.error);
      // Known to this rep's CODEX_HOME only: another rep's commands cannot read or add to its record.
      const recordToken = randomUUID();
      const instructions = instructionsText(request);
      await writeCodexHome({
        dir: dirs.codexHome,
        serverUrl: `http://127.0.0.1:${server.port}`,
        model: request.model.id,
        // A spawn that asks for a tier names the session's id at it (the face's tool map).
        otherModels: Object.values(tierModels(request.model) ?? {}),
        catalogTemplate: catalog.value,
        sessionKey: request.repId,
        recordToken,
        sandbox: 'danger-full-access',
        projectDocs: false,
        ...(instructions === undefined ? {} : { instructions }),
      });
      const clash = await installSkills(dirs.codexHome, request);
      if (clash !== undefined) return indeterminate('engine', clash);
      // Written after the hand-over: Codex (the sandbox's user) writes in it too (its state files).
      await handOverToSandbox(sandbox, dirs.codexHome);

      // The socket's directory is private and short; the sandbox's user passes through it.
      const runtimeDir = request.runtimeDir ?? dirs.tmp;
      await openPathToSandbox(sandbox, runtimeDir);
      const bridge = await openModelBridge(path.join(runtimeDir, 'model.sock'), server);
      const engineFiles = path.dirname(path.dirname(binary));
      const argv = confinedArgv(
        sandbox,
        {
          readWrite: [request.fixtureRepo, dirs.home, dirs.tmp, dirs.codexHome],
          readOnly: [request.skillDir, engineFiles, bridge.socket],
          home: dirs.home,
          cwd: request.startDir ?? request.fixtureRepo,
          env: commandEnvironment(dirs.home, { CODEX_HOME: dirs.codexHome, TMPDIR: dirs.tmp }),
          limits: CONFINED_LIMITS,
        },
        bridgedCommand(bridge.socket, server.port, [
          binary,
          'exec',
          '--json',
          '--strict-config',
          '--skip-git-repo-check',
          // Codex's own sandbox needs user namespaces, which redgreen's does not allow inside.
          '--dangerously-bypass-approvals-and-sandbox',
          '--',
          request.prompt,
        ]),
      );
      const watch = new DispatchWatch();
      let ended: Ended;
      try {
        ended = await runEngine(
          argv,
          request,
          request.fixtureRepo,
          capturing ? (line) => watch.read(line) : undefined,
        );
      } finally {
        await bridge.close();
      }
      const stream = readExecStream(ended.stdout);
      const rollouts = await rolloutsIn(dirs.codexHome);
      const read = rollouts.length === 0 ? undefined : readCodexRollouts(rollouts);
      // The rollouts are the session's own files: only what the --json stream reports counts.
      const trusted =
        read?.ok === true ? trustedTranscript(read.value, execItems(ended.stdout)) : undefined;
      // A spawned thread's calls are not in the stream: the server's record of each thread checks
      // them (and the root thread's, which a command attached to the engine could write into the stream).
      const children =
        trusted === undefined
          ? undefined
          : checkedAgainstIssued(
              trusted.transcript,
              await serverRecord(server, request.repId, recordToken),
              {
                endedByRedgreen: ended.ended,
                rootThread: execItems(ended.stdout).rootThread,
              },
            );
      const readBack: SessionTranscript | undefined = children?.transcript;
      const streamed = ended.ended ? watch.seen : undefined;
      const capture =
        readBack === undefined || streamed === undefined
          ? undefined
          : capturedFromRollout(readBack, streamed);
      const transcript = capture?.transcript ?? readBack;
      if (read?.ok === false) {
        request.engineLog(`redgreen: the rollouts could not be read: ${read.error.problem}\n`);
      }
      for (const why of trusted?.dropped ?? []) {
        request.engineLog(`redgreen: a rollout call not counted: ${why}\n`);
      }
      for (const why of children?.dropped ?? []) {
        request.engineLog(`redgreen: a rollout call not counted: ${why}\n`);
      }
      // At a capture the dispatch may not be in the rollout yet; the stream's item stands for it.
      const disagreements = [
        ...(trusted?.problems ?? []).filter(
          (problem) => streamed === undefined || !problem.includes(`'s ${streamed.itemId} (`),
        ),
        ...(children?.problems ?? []),
      ];
      for (const problem of disagreements) request.engineLog(`redgreen: ${problem}\n`);
      // What the reader could not read (a call in it is not counted) goes to the rep's engine.log.
      for (const line of transcript?.malformed ?? []) {
        request.engineLog(
          `redgreen: rollout ${line.file ?? ''} line ${line.line} not read: ${line.problem}\n`,
        );
      }
      const turns = rootTurns(rollouts);
      const error = stream.errors.at(-1);
      const ok =
        capture !== undefined || (ended.exitCode === 0 && transcript?.ending.kind === 'completed');
      if (transcript !== undefined) {
        for (const line of codexTranscriptLines(transcript, {
          sessionId: `codex-${request.repId.replace(/[^a-z0-9-]/gi, '-')}`,
          engine,
          model: request.model.id,
          cwd: request.startDir ?? request.fixtureRepo,
          prompt: request.prompt,
          sandbox: sandbox.kind,
          skillsDir: path.join(dirs.codexHome, 'skills'),
          ending: { ok, error },
          turns,
          usage: stream.usage,
          durationMs: Math.round(performance.now() - started),
        })) {
          request.transcript.write(line);
        }
      }
      const reply = transcript?.reply ?? null;
      const done = {
        turns,
        usage: stream.usage,
        modelReported: transcript?.model ?? null,
        finalReply: reply,
      };
      const outside = stoppedFromOutside(
        ended.signal,
        ended.timedOut || ended.aborted || ended.ended,
      );
      if (ended.aborted || outside) {
        return indeterminate(
          'aborted',
          outside
            ? `the engine was stopped by ${ended.signal} from outside redgreen`
            : 'aborted by the user',
          { ...done, stopReason: 'aborted' },
        );
      }
      if (ended.timedOut) {
        return indeterminate(
          'timeout',
          `no result within the session timeout (${request.limits.sessionTimeoutSeconds} s)`,
          { ...done, stopReason: 'timeout' },
        );
      }
      if (disagreements.length > 0) {
        const more = disagreements.length > 1 ? ` (and ${disagreements.length - 1} more)` : '';
        return indeterminate(
          'engine',
          `the rollouts disagree with the engine's --json stream or the model server's record, so the transcript is not trusted: ${disagreements[0]}${more}`,
          done,
        );
      }
      if (ended.ended) {
        if (capture === undefined) {
          return indeterminate(
            'engine',
            'the dispatch was seen but no rollout could be read',
            done,
          );
        }
        // The decision was observed; the engine was ended there, so its exit says nothing.
        return {
          ...base,
          ...done,
          finalReply: transcript?.reply ?? '',
          status: { kind: 'completed' },
          stopReason: request.stopAt === undefined ? 'first-dispatch' : 'stop-at',
          capturedDispatch: capture.captured,
        };
      }
      if (ended.exitCode !== 0) {
        const why = error ?? `codex exec exited ${ended.exitCode ?? ended.signal}`;
        return indeterminate('api', why.split('\n')[0] ?? why, done);
      }
      if (read === undefined) {
        return indeterminate('engine', 'codex exec ended without writing a rollout', done);
      }
      if (!read.ok) {
        return indeterminate(
          'engine',
          `the rollouts could not be read: ${read.error.problem}`,
          done,
        );
      }
      if (read.value.ending.kind !== 'completed') {
        return indeterminate('engine', read.value.ending.reason, done);
      }
      return { ...base, ...done, status: { kind: 'completed' }, stopReason: 'turn.completed' };
    },
  });
}
