import { mkdir } from 'node:fs/promises';
import Anthropic from '@anthropic-ai/sdk';
import { VERSION as SDK_VERSION } from '@anthropic-ai/sdk/version';
import type { Sandbox } from '../sandbox/sandbox.js';
import { CONTROLLER_SEAT, type SubagentSeat } from '../score/seat-record.js';
import { runAnsweredControllerLoop } from './answered-controller-loop.js';
import { DispatchCapture, eventStopRule } from './dispatch-capture.js';
import { privateDirsOf } from './engine-env.js';
import { handedOverSessions } from './handed-over-sessions.js';
import {
  type InstalledLibrary,
  librarySystemText,
  withProjectSkills,
} from './installed-library.js';
import { modelForTier } from './model-tiers.js';
import { sessionUserPlayer } from './played-user.js';
import { instructionsReminder } from './project-instructions.js';
import { ScriptedUserSession, scriptedUserFor } from './scripted-user-session.js';
import { seatSpendFor, tokenUsageOf } from './seat-spend.js';
import type {
  SessionBackend,
  SessionOutcome,
  SessionRequest,
  TokenUsage,
} from './session-types.js';
import { DEFAULT_MAX_SEATS, SubagentSeats, spendSeatOf } from './subagent-seats.js';
import { runToolLoop } from './tool-loop.js';
import { executeTool, toolDefinitions } from './tools/index.js';
import { answerCall, offeredTools } from './tools/session-tools.js';

function systemPromptFor(
  fixtureRepo: string,
  tools: readonly Anthropic.Tool[],
  library?: InstalledLibrary,
): string {
  return [
    'You are an autonomous software engineering agent working in a git repository.',
    `Working directory: ${fixtureRepo}`,
    `You act only through the tools provided (${tools.map((tool) => tool.name).join(', ')}). Paths given to Read, Glob and Grep are absolute.`,
    "Follow the user's instructions exactly, including any scope limits and any report they ask for.",
    // The engine's SessionStart hook context and skills listing, in its words (installed-library.ts).
    ...(library === undefined ? [] : ['', librarySystemText(library)]),
  ].join('\n');
}

function addUsage(total: TokenUsage, usage: Anthropic.Usage): TokenUsage {
  return {
    input: total.input + usage.input_tokens,
    output: total.output + usage.output_tokens,
    cacheWrite: total.cacheWrite + (usage.cache_creation_input_tokens ?? 0),
    cacheRead: total.cacheRead + (usage.cache_read_input_tokens ?? 0),
  };
}

export interface MessagesBackendOptions {
  readonly sandbox: Sandbox;
  /** Retries for 408/409/429/5xx and connection errors, with the SDK's backoff. */
  readonly maxRetries: number;
}

/** The tools a subagent seat is offered: the four that work, no subagent tools (as in Claude Code). */
const SUBAGENT_TOOLS: Anthropic.Tool[] = toolDefinitions.map((tool, index) =>
  index === toolDefinitions.length - 1 ? { ...tool, cache_control: { type: 'ephemeral' } } : tool,
);

/**
 * redgreen's own tool loop on `@anthropic-ai/sdk` (tool-loop.ts): Bash, Read,
 * Glob and Grep under Claude Code's names, model-issued commands confined by
 * the sandbox, prompt caching, the SDK's retries, and a max-turns limit.
 * Under `stop: complete` the controller's `Agent`/`Task` calls run subagents and
 * SendMessage resumes them (subagent-seats.ts), each seat's messages marked
 * with its seat. Writes the same message shapes to the transcript as the
 * Claude Code engine does.
 */
export function messagesBackend(options: MessagesBackendOptions): SessionBackend {
  // The session's commands write in the fixture as the sandbox's user.
  return handedOverSessions(options.sandbox, (request) => [request.fixtureRepo], {
    name: 'messages',
    async run(request: SessionRequest): Promise<SessionOutcome> {
      const dirs = privateDirsOf(request.privateDir);
      await mkdir(dirs.home, { recursive: true });
      const sessionId = `redgreen-${request.repId.replace(/[^a-z0-9-]/gi, '-')}`;
      const engine = `redgreen-messages (@anthropic-ai/sdk ${SDK_VERSION})`;
      const clientFor = (seatKey: string | undefined): Anthropic =>
        new Anthropic({
          ...(request.model.auth === 'bearer'
            ? { apiKey: null, authToken: request.model.apiKey }
            : { apiKey: request.model.apiKey }),
          ...(request.model.baseUrl === undefined ? {} : { baseURL: request.model.baseUrl }),
          maxRetries: options.maxRetries,
          timeout: request.limits.sessionTimeoutSeconds * 1000,
          defaultHeaders: {
            ...request.model.headers,
            // Each seat is its own conversation on the local server.
            ...(request.model.scripted
              ? {
                  'x-redgreen-session':
                    seatKey === undefined ? request.repId : `${request.repId}/${seatKey}`,
                }
              : {}),
          },
        });
      const client = clientFor(undefined);
      const abort = new AbortController();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        abort.abort();
      }, request.limits.sessionTimeoutSeconds * 1000);
      const onOuterAbort = (): void => abort.abort();
      request.signal.addEventListener('abort', onOuterAbort, { once: true });
      // The library's skills and the project's opted-in ones, offered through one Skill tool.
      const skills = withProjectSkills(request.library, request.projectSkills);
      const tools = offeredTools(request.stop, {
        library: skills !== undefined,
        changes: request.tools,
      });
      const capture =
        request.stopAt !== undefined
          ? new DispatchCapture(eventStopRule(request.stopAt, request.fixtureRepo))
          : request.stop === 'first-dispatch'
            ? new DispatchCapture()
            : undefined;
      const toolContext = {
        sandbox: options.sandbox,
        fixtureDir: request.fixtureRepo,
        workDir: request.startDir,
        readOnlyDirs: [request.skillDir],
        fallbackHome: dirs.home,
        timeoutMs: request.limits.toolTimeoutSeconds * 1000,
        maxOutputBytes: request.limits.toolOutputMaxBytes,
      };
      const started = performance.now();
      request.transcript.write({
        type: 'system',
        subtype: 'init',
        session_id: sessionId,
        cwd: request.startDir ?? request.fixtureRepo,
        tools: tools.map((tool) => tool.name),
        model: request.model.id,
        engine,
        sandbox: options.sandbox.kind,
      });
      const scripted = scriptedUserFor(request.stop, request.user);
      const player = sessionUserPlayer(request, {
        maxRetries: options.maxRetries,
        signal: abort.signal,
      });
      const user =
        scripted === undefined
          ? undefined
          : new ScriptedUserSession(
              scripted,
              request.transcript,
              () => sessionId,
              player === undefined ? undefined : { player },
            );
      user?.start();

      const messages: Anthropic.MessageParam[] = [
        {
          role: 'user',
          content: [
            // The project instruction files the scenario names, as the engine gives a CLAUDE.md.
            ...(request.instructions === undefined || request.instructions.length === 0
              ? []
              : [{ type: 'text' as const, text: instructionsReminder(request.instructions) }]),
            { type: 'text', text: request.prompt },
          ],
        },
      ];
      let usage: TokenUsage = { input: 0, output: 0, cacheWrite: 0, cacheRead: 0 };
      let modelReported: string | null = null;
      const usageByModel: Record<string, TokenUsage> = {};
      const onReply = (reply: Anthropic.Message): void => {
        usage = addUsage(usage, reply.usage);
        usageByModel[reply.model] = addUsage(
          usageByModel[reply.model] ?? { input: 0, output: 0, cacheWrite: 0, cacheRead: 0 },
          reply.usage,
        );
      };
      // Each seat's time and cost, and the rep's cost, against the campaign's limits.
      const spend = seatSpendFor(request);
      const endTimeWatch = spend.watchTime(() => abort.abort());
      const workDir = request.startDir ?? request.fixtureRepo;
      const system = systemPromptFor(workDir, tools, skills);
      const seatSystem = systemPromptFor(workDir, SUBAGENT_TOOLS);
      const seats =
        request.stop === 'complete'
          ? new SubagentSeats({
              maxSeats: request.limits.maxSeats ?? DEFAULT_MAX_SEATS,
              seatMaxTurns: request.limits.seatMaxTurns ?? request.limits.maxTurns,
              spend,
              transcript: request.transcript,
              sessionId,
              runSeat: (seat: SubagentSeat, seatMessages, maxTurns) =>
                runToolLoop({
                  client: clientFor(seat.agentId),
                  // The tier its dispatch asked for, mapped as on claude-code (model-tiers.ts).
                  modelId: modelForTier(request.model, seat.model),
                  system: seatSystem,
                  tools: SUBAGENT_TOOLS,
                  messages: seatMessages,
                  maxTurns,
                  seat,
                  parentToolUseId: seat.dispatch,
                  transcript: request.transcript,
                  sessionId,
                  signal: abort.signal,
                  onReply: (reply) => {
                    onReply(reply);
                    spend.reply(
                      spendSeatOf(seat),
                      reply.id,
                      reply.model,
                      tokenUsageOf(reply.usage),
                    );
                  },
                  answer: (call) => executeTool(call.name, call.input, toolContext, abort.signal),
                  stopAfterToolTurn: () => spend.shouldStop(),
                }),
            })
          : undefined;
      let turns = 0;
      let finalReply: string | null = null;
      let stopReason: string | null = null;
      let failure: { stage: 'api' | 'timeout' | 'aborted'; reason: string } | undefined;
      let cutShort: string | undefined;
      let limitStop: string | undefined;

      try {
        const loop = await runAnsweredControllerLoop({
          user,
          messages,
          maxTurns: request.limits.maxTurns,
          transcript: request.transcript,
          sessionId,
          run: (maxTurns) =>
            runToolLoop({
              client,
              modelId: request.model.id,
              system,
              tools,
              messages,
              maxTurns,
              seat: CONTROLLER_SEAT,
              parentToolUseId: null,
              transcript: request.transcript,
              sessionId,
              signal: abort.signal,
              onReply: (reply) => {
                turns += 1;
                onReply(reply);
                modelReported = reply.model;
                spend.reply(null, reply.id, reply.model, tokenUsageOf(reply.usage));
              },
              answer: (call) =>
                answerCall(call, {
                  tools,
                  capture,
                  seats,
                  user,
                  toolContext,
                  signal: abort.signal,
                  library: skills,
                }),
              stopAfterToolTurn: () =>
                (capture?.captured ?? null) !== null ||
                seats?.limitReached !== undefined ||
                user?.failure !== undefined ||
                spend.shouldStop(),
            }),
        });
        stopReason = loop.stopReason;
        const limit = seats?.limitReached ?? spend.limitReached;
        if (user?.failure !== undefined) {
          // The model playing the user gave no words: the conversation stopped short of its script.
          failure = { stage: 'api', reason: user.failure };
        } else if (limit !== undefined) {
          limitStop = limit;
          stopReason = 'seat-limit';
        } else if (loop.end.kind === 'stopped') {
          // The session ends at the dispatch: no further model request.
          finalReply = loop.end.text.trim() === '' ? null : loop.end.text;
          stopReason = request.stopAt === undefined ? 'first-dispatch' : 'stop-at';
        } else if (loop.end.kind === 'reply') {
          finalReply = loop.end.text;
          cutShort = loop.end.cutShort;
        }
      } catch (error) {
        if (spend.limitReached !== undefined) {
          // A seat's time ran out mid-request or mid-tool: the watch stopped it.
          limitStop = spend.limitReached;
          stopReason = 'seat-limit';
        } else if (timedOut) {
          failure = {
            stage: 'timeout',
            reason: `no final reply within the session timeout (${request.limits.sessionTimeoutSeconds} s)`,
          };
        } else if (request.signal.aborted) {
          failure = { stage: 'aborted', reason: 'aborted by the user' };
        } else if (error instanceof Anthropic.APIError) {
          failure = {
            stage: 'api',
            reason: `API error after ${options.maxRetries} retries: ${error.status ?? 'connection'} ${error.message.split('\n')[0]}`,
          };
        } else {
          failure = {
            stage: 'api',
            reason: error instanceof Error ? error.message : String(error),
          };
        }
      } finally {
        clearTimeout(timer);
        endTimeWatch();
        request.signal.removeEventListener('abort', onOuterAbort);
      }

      const captured = capture?.captured ?? null;
      const hitMaxTurns =
        failure === undefined &&
        limitStop === undefined &&
        finalReply === null &&
        captured === null;
      const subtype =
        failure !== undefined
          ? 'error_during_execution'
          : hitMaxTurns || limitStop !== undefined
            ? 'error_max_turns'
            : 'success';
      request.transcript.write({
        type: 'result',
        subtype,
        is_error: subtype !== 'success',
        num_turns: turns,
        result: finalReply ?? '',
        stop_reason: stopReason,
        duration_ms: Math.round(performance.now() - started),
        usage: {
          input_tokens: usage.input,
          output_tokens: usage.output,
          cache_creation_input_tokens: usage.cacheWrite,
          cache_read_input_tokens: usage.cacheRead,
        },
        total_cost_usd: null,
        errors:
          failure !== undefined ? [failure.reason] : limitStop !== undefined ? [limitStop] : [],
        session_id: sessionId,
      });
      const base = {
        turns,
        usage,
        usageByModel,
        modelReported,
        engineCostEstimateUsd: null,
        engine,
        capturedDispatch: captured,
      };
      if (failure !== undefined) {
        return { ...base, status: { kind: 'indeterminate', ...failure }, finalReply, stopReason };
      }
      if (limitStop !== undefined) {
        return {
          ...base,
          status: { kind: 'indeterminate', stage: 'limit', reason: limitStop },
          finalReply: null,
          stopReason: 'seat-limit',
        };
      }
      if (hitMaxTurns) {
        return {
          ...base,
          status: {
            kind: 'indeterminate',
            stage: 'limit',
            reason: `reached the max-turns limit (${request.limits.maxTurns}) without a final reply`,
          },
          finalReply: null,
          stopReason: 'error_max_turns',
        };
      }
      if (cutShort !== undefined) {
        return {
          ...base,
          status: { kind: 'indeterminate', stage: 'limit', reason: cutShort },
          finalReply,
          stopReason,
        };
      }
      return { ...base, status: { kind: 'completed' }, finalReply, stopReason };
    },
  });
}
