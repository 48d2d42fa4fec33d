/**
 * A session on the real `@anthropic-ai/sdk` client: send the prompt, execute
 * every tool_use for real (support/local-tools.ts), send the results back, and
 * repeat until the model (here: a scripted policy) answers with text.
 */
import Anthropic from '@anthropic-ai/sdk';
import { claudeCodeTools, runLocalTool, type ToolEnvironment } from './local-tools.js';

export interface ToolCallRecord {
  readonly id: string;
  readonly name: string;
  readonly input: Readonly<Record<string, unknown>>;
  readonly output: string;
  readonly isError: boolean;
}

export interface SessionRecord {
  readonly finalText: string;
  /** The call the session stopped at (see `stopAtTools`), if it stopped at one. */
  readonly stoppedAt?: Anthropic.ToolUseBlock;
  readonly toolCalls: readonly ToolCallRecord[];
  readonly responses: readonly Anthropic.Message[];
  readonly messages: readonly Anthropic.MessageParam[];
}

export interface SessionOptions extends ToolEnvironment {
  readonly baseUrl: string;
  readonly prompt: string;
  readonly model?: string;
  readonly stream?: boolean;
  /** Sent as x-redgreen-session, so the server's seeded choices are reproducible. */
  readonly sessionKey?: string;
  readonly maxRetries?: number;
  readonly maxTurns?: number;
  /** Called between turns (e.g. to restart the server). */
  readonly betweenTurns?: (turn: number) => Promise<void>;
  /** Resolve the base URL afresh each turn (for a server restarted on another port). */
  readonly baseUrlForTurn?: () => string;
  /** The tools offered (default: Claude Code's Bash, Read, Glob and Grep). */
  readonly tools?: readonly Anthropic.Tool[];
  /** End the session at the first call to one of these tools, before running the turn. */
  readonly stopAtTools?: readonly string[];
}

export const testApiKey = 'sk-redgreen-test-not-a-real-key';

export function sdkClient(
  baseUrl: string,
  options: { maxRetries?: number; sessionKey?: string; apiKey?: string } = {},
): Anthropic {
  return new Anthropic({
    baseURL: baseUrl,
    apiKey: options.apiKey ?? testApiKey,
    maxRetries: options.maxRetries ?? 0,
    ...(options.sessionKey === undefined
      ? {}
      : { defaultHeaders: { 'x-redgreen-session': options.sessionKey } }),
  });
}

export async function runSession(options: SessionOptions): Promise<SessionRecord> {
  const messages: Anthropic.MessageParam[] = [{ role: 'user', content: options.prompt }];
  const toolCalls: ToolCallRecord[] = [];
  const responses: Anthropic.Message[] = [];
  const maxTurns = options.maxTurns ?? 40;
  for (let turn = 1; turn <= maxTurns; turn += 1) {
    const client = sdkClient(options.baseUrlForTurn?.() ?? options.baseUrl, {
      ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
      ...(options.sessionKey === undefined ? {} : { sessionKey: options.sessionKey }),
    });
    const request: Anthropic.MessageCreateParamsNonStreaming = {
      model: options.model ?? 'claude-sonnet-5-5',
      max_tokens: 4096,
      tools: [...(options.tools ?? claudeCodeTools)],
      messages,
    };
    const response =
      options.stream === true
        ? await client.messages.stream(request).finalMessage()
        : await client.messages.create(request);
    responses.push(response);
    messages.push({ role: 'assistant', content: response.content });
    const uses = response.content.filter(
      (block): block is Anthropic.ToolUseBlock => block.type === 'tool_use',
    );
    const stoppedAt = uses.find((use) => options.stopAtTools?.includes(use.name));
    if (stoppedAt !== undefined) {
      return { finalText: '', stoppedAt, toolCalls, responses, messages };
    }
    if (response.stop_reason !== 'tool_use' || uses.length === 0) {
      const finalText = response.content
        .filter((block): block is Anthropic.TextBlock => block.type === 'text')
        .map((block) => block.text)
        .join('');
      return { finalText, toolCalls, responses, messages };
    }
    const runs = await Promise.all(
      uses.map((use) => runLocalTool(use.name, use.input as Record<string, unknown>, options)),
    );
    const results: Anthropic.ToolResultBlockParam[] = uses.map((use, index) => {
      const input = use.input as Record<string, unknown>;
      const run = runs[index] ?? { content: '', isError: true };
      toolCalls.push({
        id: use.id,
        name: use.name,
        input,
        output: run.content,
        isError: run.isError,
      });
      return {
        type: 'tool_result',
        tool_use_id: use.id,
        content: run.content,
        is_error: run.isError,
      };
    });
    messages.push({ role: 'user', content: results });
    await options.betweenTurns?.(turn);
  }
  throw new Error(`session did not finish within ${maxTurns} turns`);
}
