/**
 * Which session a request belongs to. The key scopes fault rules and their
 * counters, seeds a policy's randomness and names the session in the request
 * log. It is taken, in order, from:
 *   1. the `x-redgreen-session` header (set it for reproducible transcripts:
 *      Claude Code sends it with `ANTHROPIC_CUSTOM_HEADERS`, the SDK with
 *      `defaultHeaders`);
 *   2. the `session_id` inside `metadata.user_id` (Claude Code puts a JSON
 *      string there);
 *   3. the `x-claude-code-session-id` header;
 *   4. a hash of the first user message (stable across a conversation's turns).
 */
import type { IncomingHttpHeaders } from 'node:http';
import { sha256Hex } from '../lib/hash.js';
import type { CountTokensRequest } from './api-schema.js';

export type SessionKeySource = 'header' | 'metadata' | 'claude-code-header' | 'first-message';

export interface SessionKey {
  readonly key: string;
  readonly source: SessionKeySource;
}

export const sessionHeader = 'x-redgreen-session';
const maxKeyLength = 200;

export function sessionKeyOf(
  headers: IncomingHttpHeaders,
  request: Pick<CountTokensRequest, 'messages' | 'metadata'>,
): SessionKey {
  const explicit = headerValue(headers, sessionHeader);
  if (explicit !== undefined) return { key: explicit, source: 'header' };

  const fromMetadata = sessionIdInUserId(request.metadata?.user_id);
  if (fromMetadata !== undefined) return { key: fromMetadata, source: 'metadata' };

  const fromClaudeCode = headerValue(headers, 'x-claude-code-session-id');
  if (fromClaudeCode !== undefined) return { key: fromClaudeCode, source: 'claude-code-header' };

  const firstUser = request.messages.find((message) => message.role === 'user');
  const digest = sha256Hex(
    JSON.stringify(contentWithoutCacheMarks(firstUser?.content ?? null)),
  ).slice(0, 16);
  return { key: `first-message:${digest}`, source: 'first-message' };
}

/**
 * A message's content as the conversation defines it: clients move
 * `cache_control` breakpoints from turn to turn, so they must not change the key.
 */
function contentWithoutCacheMarks(content: unknown): unknown {
  if (!Array.isArray(content)) return content;
  return content.map((block: unknown) => {
    if (typeof block !== 'object' || block === null) return block;
    const { cache_control: _ignored, ...rest } = block as Record<string, unknown>;
    return rest;
  });
}

function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const raw = headers[name];
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  return value === undefined || value === '' ? undefined : value.slice(0, maxKeyLength);
}

function sessionIdInUserId(userId: string | null | undefined): string | undefined {
  if (typeof userId !== 'string' || !userId.trimStart().startsWith('{')) return undefined;
  try {
    const parsed: unknown = JSON.parse(userId);
    if (typeof parsed !== 'object' || parsed === null) return undefined;
    const sessionId = (parsed as { session_id?: unknown }).session_id;
    return typeof sessionId === 'string' && sessionId !== ''
      ? sessionId.slice(0, maxKeyLength)
      : undefined;
  } catch {
    return undefined;
  }
}
