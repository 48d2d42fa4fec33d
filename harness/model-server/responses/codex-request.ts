/**
 * What a Responses request says about itself through Codex's headers: the
 * kind of request (a turn of the main thread, a subagent thread's turn, or a
 * compaction), the session it belongs to (parent and subagent threads share
 * it, as Claude Code's subagents share the controller's) and its thread.
 *
 * Session key, in order: `x-redgreen-session` (a provider's `http_headers`
 * in Codex's config sets it); Codex's `session-id` header; the `session_id`
 * of `x-codex-turn-metadata`; a hash of the first user message.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { sha256Hex } from '../../lib/hash.js';
import { sessionHeader } from '../session-key.js';
import { RECORD_TOKEN_HEADER } from './issued-calls.js';
import { type TurnMetadata, TurnMetadataSchema } from './request-schema.js';

export type RequestKind = 'turn' | 'subagent' | 'compaction';

export interface CodexRequestFacts {
  readonly kind: RequestKind;
  readonly session: { readonly key: string; readonly source: string };
  /** The thread (Codex's `thread-id`), null when the client named none. */
  readonly thread: string | null;
  /** The record token (`x-redgreen-record`), '' when the client sent none. */
  readonly recordToken: string;
}

const maxKeyLength = 200;
const compactionPrompt = /CONTEXT CHECKPOINT COMPACTION/;

export function codexRequestFacts(
  headers: IncomingHttpHeaders,
  firstUserText: string,
  lastUserText: string,
): CodexRequestFacts {
  const metadata = turnMetadataOf(rawHeader(headers, 'x-codex-turn-metadata'));
  const kind: RequestKind =
    metadata?.request_kind === 'compaction' ||
    (metadata?.request_kind === undefined && compactionPrompt.test(lastUserText))
      ? 'compaction'
      : metadata?.thread_source === 'subagent' ||
          headerValue(headers, 'x-openai-subagent') !== undefined
        ? 'subagent'
        : 'turn';
  const explicit = headerValue(headers, sessionHeader);
  const codexSession = headerValue(headers, 'session-id');
  const session =
    explicit !== undefined
      ? { key: explicit, source: 'header' }
      : codexSession !== undefined
        ? { key: codexSession, source: 'codex-header' }
        : metadata?.session_id !== undefined && metadata.session_id !== ''
          ? { key: metadata.session_id.slice(0, maxKeyLength), source: 'codex-metadata' }
          : {
              key: `first-message:${sha256Hex(firstUserText).slice(0, 16)}`,
              source: 'first-message',
            };
  const thread = headerValue(headers, 'thread-id') ?? metadata?.thread_id ?? null;
  const recordToken = headerValue(headers, RECORD_TOKEN_HEADER) ?? '';
  return { kind, session, thread, recordToken };
}

function turnMetadataOf(raw: string | undefined): TurnMetadata | undefined {
  if (raw === undefined) return undefined;
  try {
    const parsed = TurnMetadataSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

function rawHeader(headers: IncomingHttpHeaders, name: string): string | undefined {
  const raw = headers[name];
  const value = (Array.isArray(raw) ? raw[0] : raw)?.trim();
  return value === undefined || value === '' ? undefined : value;
}

function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  return rawHeader(headers, name)?.slice(0, maxKeyLength);
}
