/**
 * A brain with a fixed script, for behaviours no scripted policy shows (a
 * turn holding several calls around a dispatch, a SendMessage, the legacy
 * Task name): a Messages API endpoint on 127.0.0.1 that answers a
 * conversation's N-th assistant turn with the script's N-th content, as SSE
 * when asked to stream, and records every request it gets. Only the brain is
 * scripted: the clients (the engine, the SDK) and the backends are real.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type AssistantBlock,
  assistantMessage,
} from '../../../harness/model-server/assistant-message.js';
import { formatSse, messageEvents } from '../../../harness/model-server/sse-events.js';

export interface BrainRequest {
  /** The `x-redgreen-session` header, when the client sent one. */
  readonly session: string | undefined;
  /** The assistant turn asked for: assistant messages in the history + 1. */
  readonly turn: number;
  readonly messages: readonly { role: string; content: unknown }[];
  readonly tools: readonly string[];
}

export interface ScriptBrain {
  readonly baseUrl: string;
  readonly requests: readonly BrainRequest[];
  close(): Promise<void>;
}

export type Script = readonly (readonly AssistantBlock[])[];

/**
 * Serve `turns` (turn N answers with turns[N-1]; past the end, a plain "done").
 * `bySession` gives other conversations their own script, chosen by the
 * `x-redgreen-session` header (a full session's subagent seats send
 * `<rep id>/<agent id>`).
 */
export async function startScriptBrain(
  turns: Script,
  bySession: Readonly<Record<string, Script>> = {},
): Promise<ScriptBrain> {
  const requests: BrainRequest[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        model: string;
        stream?: boolean;
        messages: { role: string; content: unknown }[];
        tools?: { name: string }[];
      };
      const turn = body.messages.filter((message) => message.role === 'assistant').length + 1;
      const session = request.headers['x-redgreen-session'];
      const key = typeof session === 'string' ? session : undefined;
      const script = key !== undefined && Object.hasOwn(bySession, key) ? bySession[key] : turns;
      requests.push({
        session: key,
        turn,
        messages: body.messages,
        tools: (body.tools ?? []).map((tool) => tool.name),
      });
      const reply = assistantMessage({
        id: `msg_script_${turn}`,
        model: body.model,
        content: script?.[turn - 1] ?? [{ type: 'text', text: 'done' }],
        inputTokens: 10,
        redgreen: { policy: 'script', usage: 'estimated', session: 'script', turn },
      });
      if (body.stream === true) {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.end(messageEvents(reply).map(formatSse).join(''));
      } else {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(reply));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
