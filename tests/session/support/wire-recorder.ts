/**
 * A recording proxy between a client (the Claude Code engine or the SDK) and
 * a model server: it forwards every request unchanged and keeps, per request,
 * the body the client sent and the tool_use blocks the server answered with
 * (read from the JSON body, or reassembled from the SSE stream's
 * `content_block_start` and `input_json_delta` events). It is an independent
 * witness of what the brain sent on the wire, for comparing with what a
 * backend says it captured.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface WireToolUse {
  readonly id: string;
  readonly name: string;
  readonly input: unknown;
}

export interface WireExchange {
  readonly path: string;
  readonly requestBody: Record<string, unknown>;
  readonly toolUses: readonly WireToolUse[];
}

export interface WireRecorder {
  readonly baseUrl: string;
  readonly exchanges: readonly WireExchange[];
  close(): Promise<void>;
}

export async function startWireRecorder(targetBaseUrl: string): Promise<WireRecorder> {
  const target = new URL(targetBaseUrl);
  const exchanges: WireExchange[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      const upstream = http.request(
        {
          host: target.hostname,
          port: target.port,
          method: request.method,
          path: request.url,
          headers: { ...request.headers, host: target.host },
        },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          const received: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => {
            received.push(chunk);
            response.write(chunk);
          });
          answer.on('end', () => {
            const text = Buffer.concat(received).toString('utf8');
            exchanges.push({
              path: request.url ?? '',
              requestBody: parseObject(body.toString('utf8')),
              toolUses: toolUsesIn(text, String(answer.headers['content-type'] ?? '')),
            });
            response.end();
          });
        },
      );
      upstream.on('error', () => response.destroy());
      upstream.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const port = (server.address() as AddressInfo).port;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    exchanges,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function parseObject(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

function toolUsesIn(text: string, contentType: string): WireToolUse[] {
  if (!contentType.includes('event-stream')) {
    const content = parseObject(text).content;
    if (!Array.isArray(content)) return [];
    return (content as { type?: string; id?: string; name?: string; input?: unknown }[])
      .filter((block) => block.type === 'tool_use')
      .map((block) => ({ id: String(block.id), name: String(block.name), input: block.input }));
  }
  const blocks = new Map<number, { id: string; name: string; json: string }>();
  for (const line of text.split('\n')) {
    if (!line.startsWith('data: ')) continue;
    const event = parseObject(line.slice('data: '.length)) as {
      type?: string;
      index?: number;
      content_block?: { type?: string; id?: string; name?: string };
      delta?: { type?: string; partial_json?: string };
    };
    const index = event.index ?? -1;
    if (event.type === 'content_block_start' && event.content_block?.type === 'tool_use') {
      blocks.set(index, {
        id: String(event.content_block.id),
        name: String(event.content_block.name),
        json: '',
      });
    } else if (event.type === 'content_block_delta' && event.delta?.type === 'input_json_delta') {
      const block = blocks.get(index);
      if (block !== undefined) block.json += event.delta.partial_json ?? '';
    }
  }
  return [...blocks.entries()]
    .sort(([a], [b]) => a - b)
    .map(([, block]) => ({
      id: block.id,
      name: block.name,
      input: block.json === '' ? {} : (JSON.parse(block.json) as unknown),
    }));
}

/** The system text a request body carries: its system prompt and its `system` messages. */
export function requestSystemText(body: Record<string, unknown>): string {
  const system = body.system;
  return [
    ...(typeof system === 'string'
      ? [system]
      : ((system as { text: string }[] | undefined) ?? []).map((block) => block.text)),
    ...((body.messages as { role: string; content: unknown }[]) ?? [])
      .filter((message) => message.role === 'system')
      .map((message) =>
        typeof message.content === 'string'
          ? message.content
          : (message.content as { text?: string }[]).map((block) => block.text ?? '').join('\n'),
      ),
  ].join('\n');
}
