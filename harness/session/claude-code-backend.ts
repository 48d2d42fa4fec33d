import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import {
  type Options,
  query,
  type SDKMessage,
  type SDKResultMessage,
} from '@anthropic-ai/claude-agent-sdk';
import type { Sandbox } from '../sandbox/sandbox.js';
import { apiReportedModel } from '../score/reported-model.js';
import type { StopMode } from '../score/stop-mode.js';
import { ClaudeCodeCapture } from './claude-code-capture.js';
import { claudeCodeRefusalHook } from './claude-code-refusals.js';
import { replyAfterResult } from './claude-code-result-reply.js';
import { seatWatchFor } from './claude-code-seat-watch.js';
import { ClaudeCodeUser } from './claude-code-user.js';
import { eventStopRule } from './dispatch-capture.js';
import { claudeCodeEnvironment, configDirOf, privateDirsOf } from './engine-env.js';
import { type EngineProcess, spawnEngineInOwnGroup } from './engine-process.js';
import { engineWritesHandOver } from './engine-writes.js';
import { handedOverSessions } from './handed-over-sessions.js';
import type { InstalledLibrary } from './installed-library.js';
import { sessionUserPlayer } from './played-user.js';
import { instructionsReminder } from './project-instructions.js';
import { installProjectSkills } from './project-skills.js';
import { combinedHooks } from './query-hooks.js';
import { SESSION_TOOLS, sessionToolNames, type ToolChanges } from './session-tool-table.js';
import type {
  SessionBackend,
  SessionOutcome,
  SessionRequest,
  TokenUsage,
} from './session-types.js';
import { writeShellPrefix } from './shell-prefix.js';

/**
 * Permission rules for a session: Claude Code's general-purpose tool set,
 * minus web access. Reads (which also govern Glob and Grep) are allowed in
 * the fixture and the skill only; edits in the fixture only; Bash always, as
 * every command runs through the confining shell prefix. Subagent dispatch
 * stays available so that a session ignoring the prompt's scope limit is
 * recorded doing so. In `dontAsk` mode anything else is denied.
 */
export function claudeCodeAllowedTools(
  fixtureDir: string,
  skillDir: string,
  offered: readonly string[] = [],
): string[] {
  const under = (dir: string): string => `/${dir}/**`;
  return [
    'Bash',
    `Read(${under(fixtureDir)})`,
    `Read(${under(skillDir)})`,
    `Edit(${under(fixtureDir)})`,
    `Write(${under(fixtureDir)})`,
    'Task',
    // Tools a scenario adds that act only inside the session (worktrees of the fixture, a todo list).
    ...offered.filter((tool) => SELF_CONTAINED_TOOLS.includes(tool)),
  ];
}

/** Added tools the engine runs itself that reach nothing outside the fixture. */
const SELF_CONTAINED_TOOLS: readonly string[] = ['EnterWorktree', 'ExitWorktree', 'TodoWrite'];

/**
 * The tools a session has: a general-purpose agent's file, shell and
 * subagent tools, named explicitly (this engine's preset leaves out Glob and
 * Grep, and adds scheduling, worktree and skill tools a fixture session has
 * no use for).
 */
export const CLAUDE_CODE_TOOLS = SESSION_TOOLS['claude-code'].defaults;

export const CLAUDE_CODE_DISALLOWED_TOOLS: readonly string[] = ['WebFetch', 'WebSearch'];

/**
 * The tools of a session in a stop mode. `Task` is advertised to the model as
 * `Agent` (the engine's current name; it still accepts calls named `Task`).
 * Headless, the engine offers `SendMessage` only when it is named here, so a
 * first-dispatch session names it: a message to a live agent is a dispatch
 * too (a resume). It names `AskUserQuestion` too: a question to the human is
 * the other decision a controller can take, and is captured the same way
 * (the engine offers it headless only with a permission prompt tool, see
 * firstDispatchOptions). A `complete` session names SendMessage too: the
 * engine's own Agent and SendMessage run and resume its subagents, and
 * AskUserQuestion is answered by the scripted user (claude-code-user.ts).
 */
export function claudeCodeTools(
  stop: StopMode,
  options: { readonly library: boolean; readonly changes?: ToolChanges | undefined } = {
    library: false,
  },
): string[] {
  return sessionToolNames('claude-code', stop, options);
}

/**
 * What a first-dispatch session adds to `query()`'s options besides the
 * capture's hook. Measured on 2.1.332: headless, the engine disables
 * AskUserQuestion ("disabled for this session") unless a permission prompt
 * tool is named; `stdio` names the SDK's control channel. In `dontAsk` mode
 * the engine answers every permission check itself, so nothing is ever
 * prompted there, and the capture's PreToolUse hook refuses the question
 * before any permission rule is consulted. (A `canUseTool` callback would
 * enable it too, but the SDK then warns on stderr about the allow rules.)
 */
export function firstDispatchOptions(): Pick<Options, 'permissionPromptToolName'> {
  return { permissionPromptToolName: 'stdio' };
}

export interface ClaudeCodeBackendOptions {
  readonly binary: string;
  /** Confines every Bash command (through CLAUDE_CODE_SHELL_PREFIX). */
  readonly sandbox: Sandbox;
  /** API retries inside the engine; the harness timeout bounds the rest. */
  readonly maxRetries: number;
}

function usageOf(result: SDKResultMessage): TokenUsage {
  const totals = { input: 0, output: 0, cacheWrite: 0, cacheRead: 0 };
  for (const model of Object.values(result.modelUsage ?? {})) {
    totals.input += model.inputTokens;
    totals.output += model.outputTokens;
    totals.cacheWrite += model.cacheCreationInputTokens;
    totals.cacheRead += model.cacheReadInputTokens;
  }
  return totals;
}

/** The result's usage per model (the engine reports each model it ran: the seats' tiers too). */
function usageByModelOf(result: SDKResultMessage): Record<string, TokenUsage> {
  return Object.fromEntries(
    Object.entries(result.modelUsage ?? {}).map(([model, used]) => [
      model,
      {
        input: used.inputTokens,
        output: used.outputTokens,
        cacheWrite: used.cacheCreationInputTokens,
        cacheRead: used.cacheReadInputTokens,
      },
    ]),
  );
}

type OutcomeBase = Pick<
  SessionOutcome,
  'modelReported' | 'engine' | 'engineCostEstimateUsd' | 'usage' | 'usageByModel' | 'turns'
>;

/** How a session that captured no dispatch ended: its reply, or why it has none. */
function endedWithoutCapture(
  base: OutcomeBase,
  result: SDKResultMessage | undefined,
  ending: {
    readonly timedOut: boolean;
    readonly failure: string | undefined;
    readonly lastAssistantText: string | null;
    /** The reply the results gave (a later result that ran no root turn keeps an earlier one). */
    readonly resultReply: string | null;
    readonly timeoutSeconds: number;
  },
): Omit<SessionOutcome, 'capturedDispatch'> {
  const { lastAssistantText, failure } = ending;
  if (ending.timedOut) {
    return {
      ...base,
      status: {
        kind: 'indeterminate',
        stage: 'timeout',
        reason: `no result within the session timeout (${ending.timeoutSeconds} s)`,
      },
      finalReply: lastAssistantText,
      stopReason: 'timeout',
    };
  }
  if (result === undefined) {
    return {
      ...base,
      status: {
        kind: 'indeterminate',
        stage: 'engine',
        reason: `the engine ended without a result${failure === undefined ? '' : `: ${failure.split('\n')[0]}`}`,
      },
      finalReply: lastAssistantText,
      stopReason: null,
    };
  }
  if (result.subtype !== 'success') {
    const stage = result.subtype === 'error_during_execution' ? 'api' : 'limit';
    const detail = result.errors.length > 0 ? `: ${result.errors[0]}` : '';
    return {
      ...base,
      status: { kind: 'indeterminate', stage, reason: `${result.subtype}${detail}` },
      finalReply: lastAssistantText,
      stopReason: result.subtype,
    };
  }
  const apiStatus = (result as { api_error_status?: number | null }).api_error_status;
  if (result.is_error) {
    return {
      ...base,
      status: {
        kind: 'indeterminate',
        stage: 'api',
        reason: `the engine reported an error${apiStatus ? ` (API status ${apiStatus})` : ''}: ${result.result.split('\n')[0]}`,
      },
      finalReply: null,
      stopReason: result.stop_reason ?? result.subtype,
    };
  }
  return {
    ...base,
    status: { kind: 'completed' },
    finalReply: ending.resultReply,
    stopReason: result.stop_reason ?? result.subtype,
  };
}

/** Runs one session on the real Claude Code engine through the Agent SDK. */
export function claudeCodeBackend(options: ClaudeCodeBackendOptions): SessionBackend {
  // The session's commands write in the fixture and the TMPDIR as the sandbox's user.
  const writable = (request: SessionRequest): string[] => [
    request.fixtureRepo,
    privateDirsOf(request.privateDir).tmp,
  ];
  return handedOverSessions(options.sandbox, writable, {
    name: 'claude-code',
    async run(request: SessionRequest): Promise<SessionOutcome> {
      const dirs = privateDirsOf(request.privateDir);
      await mkdir(dirs.home, { recursive: true });
      await mkdir(dirs.tmp, { recursive: true });
      const shellPrefix = path.join(request.privateDir, 'confined-shell');
      await writeShellPrefix(shellPrefix, {
        sandbox: options.sandbox,
        fixtureDir: request.fixtureRepo,
        skillDir: request.skillDir,
        home: dirs.home,
        tmp: dirs.tmp,
      });

      const abort = new AbortController();
      const timeoutMs = request.limits.sessionTimeoutSeconds * 1000;
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        abort.abort();
      }, timeoutMs);
      const onOuterAbort = (): void => abort.abort();
      request.signal.addEventListener('abort', onOuterAbort, { once: true });

      let result: SDKResultMessage | undefined;
      let modelReported: string | null = null;
      let engine = 'claude-code';
      let turns = 0;
      // A background subagent's end brings the controller another turn and another result
      // message; each result counts its own turns.
      let resultTurns = 0;
      let lastAssistantText: string | null = null;
      let resultReply: string | null = null;
      let failure: string | undefined;
      const capture =
        request.stopAt !== undefined
          ? new ClaudeCodeCapture(eventStopRule(request.stopAt, request.fixtureRepo))
          : request.stop === 'first-dispatch'
            ? new ClaudeCodeCapture()
            : undefined;
      const library = request.library;
      const projectSkills = request.projectSkills ?? [];
      // Opted-in project skills go to the engine's private config directory and are loaded as
      // the `user` source's: the `project` source would also read the fixture's settings files
      // (their hooks, status line and permissions: fixture code run by the engine, unconfined).
      if (projectSkills.length > 0) await installProjectSkills(configDirOf(dirs), projectSkills);
      const listedSkills = [
        ...projectSkills.map((skill) => skill.name),
        ...(library?.skills.map((skill) => skill.name) ?? []),
      ];
      const tools = claudeCodeTools(request.stop, {
        library: listedSkills.length > 0,
        changes: request.tools,
      });
      const prompt =
        request.instructions === undefined || request.instructions.length === 0
          ? request.prompt
          : `${instructionsReminder(request.instructions)}\n\n${request.prompt}`;
      let loaded: { plugins: readonly string[]; skills: readonly string[] } | undefined;
      // Seat and rep limits, watched on the stream: a limit met stops the engine (abort).
      const seatWatch = seatWatchFor(request, () => abort.abort());
      const player = sessionUserPlayer(request, {
        maxRetries: options.maxRetries,
        signal: abort.signal,
      });
      const user = ClaudeCodeUser.for(
        request.stop,
        request.user,
        request.transcript,
        player === undefined ? undefined : { player },
      );
      let engineProcess: EngineProcess | undefined;
      // Background work that brings the controller another turn (agents, workflows), as the
      // engine last listed it; a background shell brings none.
      let backgroundAgents = false;
      let endedAtResult = false;
      try {
        const session = query({
          prompt: user === undefined ? prompt : user.input(prompt),
          options: {
            cwd: request.startDir ?? request.fixtureRepo,
            pathToClaudeCodeExecutable: options.binary,
            env: claudeCodeEnvironment({
              dirs,
              model: request.model,
              repId: request.repId,
              shellPrefix,
              maxRetries: options.maxRetries,
              runtimeDir: request.runtimeDir,
            }),
            settingSources: projectSkills.length > 0 ? ['user'] : [],
            // A complete session keeps its transcripts (in the private HOME): the engine
            // resumes a subagent (SendMessage) from its transcript on disk.
            persistSession: request.stop === 'complete',
            systemPrompt: { type: 'preset', preset: 'claude_code' },
            tools,
            allowedTools: claudeCodeAllowedTools(request.fixtureRepo, request.skillDir, tools),
            disallowedTools: CLAUDE_CODE_DISALLOWED_TOOLS.filter((tool) => !tools.includes(tool)),
            // A library arm: its plugin, and exactly its skills listed (not the engine's own).
            ...(library === undefined
              ? {}
              : { plugins: [{ type: 'local' as const, path: library.root }] }),
            // Exactly the installed and opted-in skills listed (not the engine's own).
            ...(listedSkills.length === 0 ? {} : { skills: listedSkills }),
            permissionMode: 'dontAsk',
            maxTurns: request.limits.maxTurns,
            model: request.model.id,
            additionalDirectories: [request.skillDir],
            abortController: abort,
            ...capture?.queryOptions(),
            // Headless, the engine offers the question tool only with a permission prompt tool.
            ...(tools.includes('AskUserQuestion') ? firstDispatchOptions() : {}),
            ...user?.queryOptions(),
            // Every part's PreToolUse hook, not only the last part's.
            ...combinedHooks([
              capture?.queryOptions(),
              claudeCodeRefusalHook(request.stop),
              request.stop === 'complete' ? seatWatch.watch.queryOptions() : undefined,
              user?.queryOptions(),
              engineWritesHandOver(options.sandbox, request.fixtureRepo),
            ]),
            // Its own process group: a Ctrl-C at the terminal reaches the harness, not the engine.
            spawnClaudeCodeProcess: (spawnOptions) => {
              engineProcess = spawnEngineInOwnGroup(spawnOptions, request.engineLog);
              return engineProcess;
            },
          },
        });
        for await (const message of session as AsyncIterable<SDKMessage>) {
          if (capture !== undefined && !capture.observe(message)) continue;
          request.transcript.write(message);
          seatWatch.watch.observe(message);
          await user?.observe(message);
          if (message.type === 'system' && message.subtype === 'init') {
            // The init message names the model the engine was asked for, not one an API reported.
            engine = `claude-code ${message.claude_code_version}`;
            loaded = {
              plugins: (message.plugins ?? []).map((plugin) => plugin.name),
              skills: message.skills ?? [],
            };
          } else if (message.type === 'assistant') {
            if (message.parent_tool_use_id === null) {
              turns += 1;
              const text = message.message.content
                .filter(
                  (block): block is { type: 'text'; text: string } & typeof block =>
                    block.type === 'text',
                )
                .map((block) => (block as { text: string }).text)
                .join('');
              if (text.trim().length > 0) lastAssistantText = text;
              modelReported = apiReportedModel(message.message.model) ?? modelReported;
            }
          } else if (message.type === 'result') {
            result = message;
            resultReply = replyAfterResult(resultReply, message);
            resultTurns += message.num_turns;
            // The session's answer is in. The engine would hold the process open for a
            // background shell up to the session timeout (a rep indeterminate for a command the
            // model left running); only background agents or a user's answer bring more.
            if (!backgroundAgents && (user === undefined || user.inputEnded)) {
              endedAtResult = true;
              break;
            }
          } else if (message.type === 'system' && message.subtype === 'background_tasks_changed') {
            backgroundAgents = message.tasks.some(
              (running) => running.task_type !== 'local_bash' && running.ambient !== true,
            );
          }
        }
      } catch (error) {
        failure = error instanceof Error ? error.message : String(error);
      } finally {
        user?.close();
        // Whatever the engine still runs (a background shell) ends with the session.
        if (endedAtResult) abort.abort();
        clearTimeout(timer);
        seatWatch.stop();
        request.signal.removeEventListener('abort', onOuterAbort);
      }

      const base = {
        modelReported,
        engine,
        engineCostEstimateUsd: result?.total_cost_usd ?? null,
        usage: result === undefined ? null : usageOf(result),
        usageByModel: result === undefined ? undefined : usageByModelOf(result),
        turns: result === undefined ? turns : resultTurns,
      };
      // An engine killed by a signal redgreen did not send (a user's kill) did not run as asked.
      await engineProcess?.settled(2000);
      const outsideSignal = engineProcess?.stoppedFromOutside() ?? null;
      if (request.signal.aborted || outsideSignal !== null) {
        return {
          ...base,
          status: {
            kind: 'indeterminate',
            stage: 'aborted',
            reason:
              outsideSignal === null
                ? 'aborted by the user'
                : `the engine was stopped by ${outsideSignal} from outside redgreen`,
          },
          finalReply: lastAssistantText,
          stopReason: 'aborted',
          capturedDispatch: null,
        };
      }
      const playerFailure = user?.playerFailure;
      if (playerFailure !== undefined) {
        // The model playing the user gave no words: the conversation stopped short of its script.
        return {
          ...base,
          status: { kind: 'indeterminate', stage: 'api', reason: playerFailure },
          finalReply: lastAssistantText,
          stopReason: null,
          capturedDispatch: null,
        };
      }
      const limit = seatWatch.watch.limitReached;
      if (limit !== undefined) {
        return {
          ...base,
          status: { kind: 'indeterminate', stage: 'limit', reason: limit },
          finalReply: null,
          stopReason: 'seat-limit',
          capturedDispatch: null,
        };
      }
      const missing = [
        ...(library === undefined ? [] : notLoaded(library, loaded)),
        ...projectSkills
          .map((skill) => skill.name)
          .filter((name) => !(loaded?.skills ?? []).includes(name))
          .map((name) => `project skill ${name}`),
      ];
      if (missing.length > 0) {
        return {
          ...base,
          status: {
            kind: 'indeterminate',
            stage: 'engine',
            reason: `the engine did not load the installed skills (missing: ${missing.join(', ')})`,
          },
          finalReply: lastAssistantText,
          stopReason: null,
          capturedDispatch: null,
        };
      }
      const captured = capture?.result() ?? null;
      if (captured !== null) {
        // The decision was observed; how the engine then wound down does not change it.
        return {
          ...base,
          status: { kind: 'completed' },
          finalReply: captured.turnText,
          stopReason: request.stopAt === undefined ? 'first-dispatch' : 'stop-at',
          capturedDispatch: captured.dispatch,
        };
      }
      const outcome = endedWithoutCapture(base, result, {
        timedOut,
        failure,
        lastAssistantText,
        resultReply,
        timeoutSeconds: request.limits.sessionTimeoutSeconds,
      });
      return { ...outcome, capturedDispatch: null };
    },
  });
}

/** What of an installed library the engine's init message does not list (its plugin, its skills). */
function notLoaded(
  library: InstalledLibrary,
  loaded: { plugins: readonly string[]; skills: readonly string[] } | undefined,
): string[] {
  if (loaded === undefined) return [`plugin ${library.pluginName}`];
  return [
    ...(loaded.plugins.includes(library.pluginName) ? [] : [`plugin ${library.pluginName}`]),
    ...library.skills.map((skill) => skill.name).filter((name) => !loaded.skills.includes(name)),
  ];
}
