/**
 * A brain for the model-tier tests: a Messages API endpoint on 127.0.0.1
 * that plays a controller dispatching one subagent with a model tier, and
 * that subagent, telling them apart by the conversation's first user
 * message (the seat's starts from the dispatch prompt, which carries a
 * marker). It records the model id every request asked for. Only the brain
 * is scripted: the engine, the SDK and the backends are real.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  type AssistantBlock,
  assistantMessage,
} from '../../../harness/model-server/assistant-message.js';
import { formatSse, messageEvents } from '../../../harness/model-server/sse-events.js';

/** The marker a seat's dispatch prompt carries. */
export const SEAT_MARKER = 'TIER-SEAT-BRIEF';

export interface TierRequest {
  readonly model: string;
  readonly seat: boolean;
}

export interface TierBrain {
  readonly baseUrl: string;
  readonly requests: readonly TierRequest[];
  close(): Promise<void>;
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  return Array.isArray(content) ? JSON.stringify(content) : '';
}

/** Serve a controller that dispatches one seat asking for `tier` (none: no model field). */
export async function startTierBrain(tier: string | undefined): Promise<TierBrain> {
  const requests: TierRequest[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        model: string;
        stream?: boolean;
        messages: { role: string; content: unknown }[];
      };
      const first = body.messages.find((message) => message.role === 'user');
      const seat = textOf(first?.content).includes(SEAT_MARKER);
      const turn = body.messages.filter((message) => message.role === 'assistant').length + 1;
      requests.push({ model: body.model, seat });
      const dispatch: AssistantBlock = {
        type: 'tool_use',
        id: 'toolu_tier_dispatch',
        name: 'Agent',
        input: {
          description: 'Review the work',
          prompt: `${SEAT_MARKER}: reply with one line.`,
          subagent_type: 'general-purpose',
          ...(tier === undefined ? {} : { model: tier }),
        },
      };
      const content: AssistantBlock[] = seat
        ? [{ type: 'text', text: 'Reviewed: nothing to report.' }]
        : turn === 1
          ? [dispatch]
          : [{ type: 'text', text: 'Done: the subagent reviewed the work.' }];
      const reply = assistantMessage({
        id: `msg_tier_${seat ? 'seat' : 'controller'}_${turn}`,
        model: body.model,
        content,
        inputTokens: 10,
        redgreen: { policy: 'script', usage: 'estimated', session: 'tier', turn },
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
