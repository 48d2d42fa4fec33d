import { mkdir } from 'node:fs/promises';
import Anthropic from '@anthropic-ai/sdk';
import { VERSION as SDK_VERSION } from '@anthropic-ai/sdk/version';
import { DispatchCapture } from './dispatch-capture.js';
import { privateDirsOf } from './engine-env.js';
import type { Sandbox } from './sandbox.js';
import type {
  SessionBackend,
  SessionOutcome,
  SessionRequest,
  TokenUsage,
} from './session-types.js';
import { answerCall, offeredTools } from './tools/session-tools.js';

const MAX_TOKENS_PER_TURN = 8192;

function systemPromptFor(fixtureRepo: string, tools: readonly Anthropic.Tool[]): string {
  return [
    'You are an autonomous software engineering agent working in a git repository.',
    `Working directory: ${fixtureRepo}`,
    `You act only through the tools provided (${tools.map((tool) => tool.name).join(', ')}). Paths given to Read, Glob and Grep are absolute.`,
    "Follow the user's instructions exactly, including any scope limits and any report they ask for.",
  ].join('\n');
}

/**
 * Mark the conversation for prompt caching: tools and system prompt are
 * cached once, and a moving breakpoint on the newest user block makes each
 * turn read the whole earlier conversation from the cache (three of the four
 * breakpoints the API allows).
 */
function withCacheBreakpoint(messages: Anthropic.MessageParam[]): Anthropic.MessageParam[] {
  return messages.map((message, index) => {
    if (index !== messages.length - 1 || typeof message.content === 'string') return message;
    const blocks = message.content.map((block, blockIndex) =>
      blockIndex === message.content.length - 1
        ? ({ ...block, cache_control: { type: 'ephemeral' } } as typeof block)
        : block,
    );
    return { ...message, content: blocks } as Anthropic.MessageParam;
  });
}

/** The text blocks of an assistant message, joined. */
function textOf(message: Anthropic.Message): string {
  return message.content
    .filter((block): block is Anthropic.TextBlock => block.type === 'text')
    .map((block) => block.text)
    .join('');
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

/**
 * redgreen's own tool loop on `@anthropic-ai/sdk`: Bash, Read, Glob and Grep
 * under Claude Code's names, model-issued commands confined by the sandbox,
 * prompt caching, the SDK's retries, and a max-turns limit. Writes the same
 * message shapes to the transcript as the Claude Code engine does.
 */
export function messagesBackend(options: MessagesBackendOptions): SessionBackend {
  return {
    name: 'messages',
    async run(request: SessionRequest): Promise<SessionOutcome> {
      const dirs = privateDirsOf(request.privateDir);
      await mkdir(dirs.home, { recursive: true });
      const sessionId = `redgreen-${request.repId.replace(/[^a-z0-9-]/gi, '-')}`;
      const engine = `redgreen-messages (@anthropic-ai/sdk ${SDK_VERSION})`;
      const client = new Anthropic({
        ...(request.model.auth === 'bearer'
          ? { apiKey: null, authToken: request.model.apiKey }
          : { apiKey: request.model.apiKey }),
        ...(request.model.baseUrl === undefined ? {} : { baseURL: request.model.baseUrl }),
        maxRetries: options.maxRetries,
        timeout: request.limits.sessionTimeoutSeconds * 1000,
        defaultHeaders: {
          ...request.model.headers,
          ...(request.model.scripted ? { 'x-redgreen-session': request.repId } : {}),
        },
      });
      const abort = new AbortController();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        abort.abort();
      }, request.limits.sessionTimeoutSeconds * 1000);
      const onOuterAbort = (): void => abort.abort();
      request.signal.addEventListener('abort', onOuterAbort, { once: true });
      const tools = offeredTools(request.stop);
      const capture = request.stop === 'first-dispatch' ? new DispatchCapture() : undefined;
      const toolContext = {
        sandbox: options.sandbox,
        fixtureDir: request.fixtureRepo,
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
        cwd: request.fixtureRepo,
        tools: tools.map((tool) => tool.name),
        model: request.model.id,
        engine,
        sandbox: options.sandbox.kind,
      });

      const messages: Anthropic.MessageParam[] = [
        { role: 'user', content: [{ type: 'text', text: request.prompt }] },
      ];
      let usage: TokenUsage = { input: 0, output: 0, cacheWrite: 0, cacheRead: 0 };
      let modelReported: string | null = null;
      let turns = 0;
      let finalReply: string | null = null;
      let stopReason: string | null = null;
      let failure: { stage: 'api' | 'timeout' | 'aborted'; reason: string } | undefined;
      let cutShort: string | undefined;

      try {
        while (turns < request.limits.maxTurns) {
          turns += 1;
          const stream = client.messages.stream(
            {
              model: request.model.id,
              max_tokens: MAX_TOKENS_PER_TURN,
              system: [
                {
                  type: 'text',
                  text: systemPromptFor(request.fixtureRepo, tools),
                  cache_control: { type: 'ephemeral' },
                },
              ],
              tools,
              messages: withCacheBreakpoint(messages),
            },
            { signal: abort.signal },
          );
          const reply = await stream.finalMessage();
          request.transcript.write({
            type: 'assistant',
            message: reply,
            parent_tool_use_id: null,
            session_id: sessionId,
          });
          usage = addUsage(usage, reply.usage);
          modelReported = reply.model;
          stopReason = reply.stop_reason;
          messages.push({ role: 'assistant', content: reply.content });
          const toolUses = reply.content.filter(
            (block): block is Anthropic.ToolUseBlock => block.type === 'tool_use',
          );
          if (reply.stop_reason === 'tool_use' && toolUses.length > 0) {
            const results: Anthropic.ToolResultBlockParam[] = [];
            for (const call of toolUses) {
              const output = await answerCall(call, {
                tools,
                capture,
                toolContext,
                signal: abort.signal,
              });
              results.push({
                type: 'tool_result',
                tool_use_id: call.id,
                content: output.content,
                is_error: output.isError,
              });
            }
            request.transcript.write({
              type: 'user',
              message: { role: 'user', content: results },
              parent_tool_use_id: null,
              session_id: sessionId,
            });
            messages.push({ role: 'user', content: results });
            if ((capture?.captured ?? null) !== null) {
              // The session ends at the dispatch: no further model request.
              const text = textOf(reply);
              finalReply = text.trim() === '' ? null : text;
              stopReason = 'first-dispatch';
              break;
            }
            continue;
          }
          if (reply.stop_reason === 'pause_turn') continue;
          finalReply = textOf(reply);
          if (reply.stop_reason === 'max_tokens' || reply.stop_reason === 'refusal') {
            cutShort =
              reply.stop_reason === 'max_tokens'
                ? `the reply was cut off at the ${MAX_TOKENS_PER_TURN}-token output limit`
                : 'the model refused to answer';
          }
          break;
        }
      } catch (error) {
        if (timedOut) {
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
        request.signal.removeEventListener('abort', onOuterAbort);
      }

      const captured = capture?.captured ?? null;
      const hitMaxTurns = failure === undefined && finalReply === null && captured === null;
      const subtype =
        failure !== undefined
          ? 'error_during_execution'
          : hitMaxTurns
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
        errors: failure === undefined ? [] : [failure.reason],
        session_id: sessionId,
      });
      const base = {
        turns,
        usage,
        modelReported,
        engineCostEstimateUsd: null,
        engine,
        capturedDispatch: captured,
      };
      if (failure !== undefined) {
        return { ...base, status: { kind: 'indeterminate', ...failure }, finalReply, stopReason };
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
  };
}
