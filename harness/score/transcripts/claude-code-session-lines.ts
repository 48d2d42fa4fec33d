/**
 * The lines of Claude Code's own session log
 * (`~/.claude/projects/<project>/<session>.jsonl`, and a subagent's
 * `<session>/subagents/agent-<id>.jsonl`), read into the messages a
 * session is made of, each with its seat. What a log holds:
 *
 * - `user` and `assistant` lines, one content block per assistant line (a
 *   reply's blocks share its `message.id`), each marked `isSidechain` (true
 *   in a subagent's log, with its `agentId`);
 * - `progress` lines: hooks running, and (`data.type: agent_progress`) a
 *   subagent's messages inline in the parent log, under the dispatch's
 *   tool_use id (`parentToolUseID`) with the subagent's `agentId`;
 * - the engine's bookkeeping (`system`, `attachment`, `summary`,
 *   `file-history-snapshot`, `queue-operation`, `last-prompt`, `ai-title`,
 *   `mode`, …), which says nothing about tool calls and is passed over.
 *
 * A dispatch's result line carries `toolUseResult` (`agentId`,
 * `agentType`, `totalToolUseCount`); a skill the Skill tool loaded is
 * announced by an `isMeta` user line naming the tool call
 * (`sourceToolUseID`) and the directory it came from.
 */
import { z } from 'zod';
import { jsonLines, recordOf } from './format-reader.js';
import type { MalformedLine } from './session-transcript.js';
import { unreadCallBlock, unreadCallLine } from './unread-calls.js';

const blockSchema = z.looseObject({ type: z.string() });

const assistantSchema = z.looseObject({
  type: z.literal('assistant'),
  message: z.looseObject({
    id: z.string().optional(),
    model: z.string().optional(),
    content: z.array(blockSchema),
    stop_reason: z.string().nullish(),
  }),
});

const userSchema = z.looseObject({
  type: z.literal('user'),
  message: z.looseObject({ content: z.union([z.string(), z.array(blockSchema)]) }),
  isMeta: z.boolean().optional(),
  isCompactSummary: z.boolean().optional(),
  sourceToolUseID: z.string().optional(),
  toolUseResult: z.unknown().optional(),
});

/** Where a message was made: the controller, or a subagent (by its agent id; its dispatch when known). */
export type LineSeat =
  | { readonly kind: 'controller' }
  | { readonly kind: 'subagent'; readonly agentId: string; readonly dispatch: string | null };

export type SessionMessage =
  | {
      readonly kind: 'assistant';
      readonly seat: LineSeat;
      readonly messageId: string;
      readonly model: string | undefined;
      readonly blocks: readonly Record<string, unknown>[];
      readonly stopReason: string | null;
    }
  | {
      readonly kind: 'user';
      readonly seat: LineSeat;
      readonly content: string | readonly Record<string, unknown>[];
      /** Engine-made text (a loaded skill, a command's output): no prompt. */
      readonly meta: boolean;
      readonly sourceToolUseId: string | undefined;
      readonly toolUseResult: Record<string, unknown> | undefined;
    };

export interface LogLine {
  readonly file: string;
  readonly line: number;
  readonly message: SessionMessage;
  /** The log's session id, when the line names it. */
  readonly sessionId: string | undefined;
  /** The working directory the line was written in, when it names it. */
  readonly cwd: string | undefined;
}

/** Line types only Claude Code's session log writes. */
export const LOG_ONLY_TYPES = new Set([
  'file-history-snapshot',
  'queue-operation',
  'progress',
  'summary',
  'last-prompt',
  'ai-title',
  'custom-title',
  'permission-mode',
  'attachment',
]);

/** Whether a parsed line shows the session log: its line envelope, or a type only the log writes. */
export function isSessionLogLine(value: unknown): boolean {
  const line = recordOf(value);
  if (line === undefined || typeof line.type !== 'string') return false;
  if (typeof line.isSidechain === 'boolean' && 'parentUuid' in line) return true;
  return LOG_ONLY_TYPES.has(line.type) && ('sessionId' in line || 'uuid' in line);
}

function issueOf(error: z.ZodError): string {
  const issue = error.issues[0];
  if (issue === undefined) return 'does not match the expected shape';
  return `${issue.path.length === 0 ? '' : `${issue.path.join('.')}: `}${issue.message}`;
}

/** The message of a user or assistant record (a log line, or a progress line's inner message). */
function messageOf(
  record: Record<string, unknown>,
  seat: LineSeat,
  lineNumber: number,
): SessionMessage | string {
  if (record.type === 'assistant') {
    const parsed = assistantSchema.safeParse(record);
    if (!parsed.success) return `assistant line: ${issueOf(parsed.error)}`;
    const { message } = parsed.data;
    return {
      kind: 'assistant',
      seat,
      messageId: message.id ?? `line-${lineNumber}`,
      model: message.model,
      blocks: message.content,
      stopReason: message.stop_reason ?? null,
    };
  }
  const parsed = userSchema.safeParse(record);
  if (!parsed.success) return `user line: ${issueOf(parsed.error)}`;
  return {
    kind: 'user',
    seat,
    content: parsed.data.message.content,
    meta: parsed.data.isMeta === true || parsed.data.isCompactSummary === true,
    sourceToolUseId: parsed.data.sourceToolUseID,
    toolUseResult: recordOf(parsed.data.toolUseResult),
  };
}

/** The agent id a subagent's log is for, from its file name (`agent-<id>.jsonl`). */
function agentOfFileName(file: string): string | undefined {
  return /(?:^|[/\\])agent-([\w-]+)\.jsonl$/.exec(file)?.[1];
}

/** Every message of one log file, in order, with the lines that could not be read. */
export function readLogLines(
  text: string,
  file: string,
): { readonly lines: LogLine[]; readonly malformed: MalformedLine[] } {
  const lines: LogLine[] = [];
  const malformed: MalformedLine[] = [];
  const fileAgent = agentOfFileName(file);
  for (const { line, value, error } of jsonLines(text)) {
    const record = recordOf(value);
    if (record === undefined || typeof record.type !== 'string') {
      malformed.push({
        line,
        file,
        problem:
          error === undefined ? 'not a log line with a string "type"' : `not JSON (${error})`,
      });
      continue;
    }
    const sessionId = typeof record.sessionId === 'string' ? record.sessionId : undefined;
    const cwd = typeof record.cwd === 'string' && record.cwd !== '' ? record.cwd : undefined;
    let inner: Record<string, unknown> | undefined;
    let seat: LineSeat;
    if (record.type === 'progress') {
      const data = recordOf(record.data);
      if (data?.type !== 'agent_progress') continue;
      inner = recordOf(data.message);
      const agentId = typeof data.agentId === 'string' ? data.agentId : undefined;
      const dispatch = typeof record.parentToolUseID === 'string' ? record.parentToolUseID : null;
      if (inner === undefined || agentId === undefined) {
        malformed.push({ line, file, problem: 'agent_progress line without a message or agentId' });
        continue;
      }
      seat = { kind: 'subagent', agentId, dispatch };
    } else if (record.type === 'user' || record.type === 'assistant') {
      inner = record;
      const agentId =
        typeof record.agentId === 'string' ? record.agentId : (fileAgent ?? 'sidechain');
      seat =
        record.isSidechain === true
          ? { kind: 'subagent', agentId, dispatch: null }
          : { kind: 'controller' };
    } else {
      const unread = unreadCallLine(record);
      if (unread !== undefined) malformed.push({ line, file, problem: unread });
      continue;
    }
    if (inner.type !== 'user' && inner.type !== 'assistant') continue;
    const message = messageOf(inner, seat, line);
    if (typeof message === 'string') {
      malformed.push({ line, file, problem: message });
      continue;
    }
    if (message.kind === 'assistant') {
      for (const block of message.blocks) {
        const unread = unreadCallBlock(block);
        if (unread !== undefined) malformed.push({ line, file, problem: unread });
      }
    }
    lines.push({ file, line, message, sessionId, cwd });
  }
  return { lines, malformed };
}
