/**
 * Read a rep's `transcript.jsonl` back: one Claude Agent SDK message per line
 * (`system`, `assistant`, `user`, `result`, … as `claude -p --output-format
 * stream-json --verbose` prints them; the `messages` backend writes the same
 * shapes). Produces the tool calls (tool_use blocks deduplicated by id, with
 * outputs joined from tool_result blocks), the final reply, and counts.
 *
 * Lines are validated; unknown fields are kept, unknown message types are
 * skipped, and a malformed line is reported, never thrown.
 */
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import { type InputError, inputError } from '../../lib/input-error.js';
import { err, ok, type Result } from '../../lib/result.js';
import { apiReportedModel } from '../reported-model.js';
import { callRan, isInsideSubagent, isSubagentDispatch, type ToolCall } from '../tool-call.js';
import { contentText } from './content-text.js';
import type { MalformedLine } from './session-transcript.js';
import { unreadCallBlock, unreadCallLine } from './unread-calls.js';

const blockSchema = z.looseObject({ type: z.string() });
const toolUseBlockSchema = z.looseObject({
  type: z.literal('tool_use'),
  id: z.string().min(1),
  name: z.string().min(1),
  input: z.unknown(),
});
const textBlockSchema = z.looseObject({ type: z.literal('text'), text: z.string() });
const toolResultBlockSchema = z.looseObject({
  type: z.literal('tool_result'),
  tool_use_id: z.string().min(1),
  content: z.union([z.string(), z.array(blockSchema)]).optional(),
  is_error: z.boolean().optional(),
});

const assistantMessageSchema = z.looseObject({
  type: z.literal('assistant'),
  message: z.looseObject({
    id: z.string().optional(),
    model: z.string().optional(),
    content: z.array(blockSchema),
  }),
  parent_tool_use_id: z.string().nullable().optional(),
});
const userMessageSchema = z.looseObject({
  type: z.literal('user'),
  message: z.looseObject({ content: z.union([z.string(), z.array(blockSchema)]) }),
  parent_tool_use_id: z.string().nullable().optional(),
});
const resultMessageSchema = z.looseObject({
  type: z.literal('result'),
  subtype: z.string(),
  result: z.string().optional(),
  is_error: z.boolean().optional(),
  num_turns: z.number().optional(),
  terminal_reason: z.string().optional(),
});
const systemMessageSchema = z.looseObject({
  type: z.literal('system'),
  subtype: z.string().optional(),
  model: z.string().optional(),
  claude_code_version: z.string().optional(),
  cwd: z.string().optional(),
});

export interface TranscriptRead {
  readonly toolCalls: ToolCall[];
  /** The final reply: the successful `result` message's text, else the last assistant text; undefined if neither. */
  readonly reply: string | undefined;
  readonly counts: {
    /** Distinct tool_use blocks of the main session that ran (a capture's "Not run." did not). */
    readonly toolUses: number;
    /** Distinct tool_use blocks made inside subagents. */
    readonly subagentToolUses: number;
    /** Main-session `Task`/`Agent` tool uses that ran or were captured (subagents started). */
    readonly subagentDispatches: number;
    /** Lines whose message type this reader does not use. */
    readonly ignoredLines: number;
  };
  /** The last `result` message, when there is one. */
  readonly result:
    | {
        readonly subtype: string;
        readonly isError: boolean;
        readonly numTurns: number | undefined;
        readonly terminalReason: string | undefined;
      }
    | undefined;
  /** The text of the first user message of the main session (the prompt), when the transcript holds it. */
  readonly prompt: string | undefined;
  /** From the `system/init` message, when present. */
  readonly model: string | undefined;
  /** The model the main session's first reply names (for a transcript without an init line). */
  readonly replyModel: string | undefined;
  readonly claudeCodeVersion: string | undefined;
  /** The session's working directory, from the `system/init` message. */
  readonly cwd: string | undefined;
  readonly malformed: readonly MalformedLine[];
}

function describeIssue(error: z.ZodError): string {
  const issue = error.issues[0];
  if (issue === undefined) return 'does not match the expected shape';
  const where = issue.path.length === 0 ? '' : `${issue.path.join('.')}: `;
  return `${where}${issue.message}`;
}

/** Read transcript text (JSON lines). Pure. */
export function readTranscript(jsonl: string): TranscriptRead {
  const calls = new Map<string, ToolCall>();
  const outputs = new Map<string, { output: string; isError: boolean }>();
  const malformed: MalformedLine[] = [];
  const textByMessage = new Map<string, string[]>();
  let lastTextMessage: string | undefined;
  let lastResult: TranscriptRead['result'];
  let resultReply: string | undefined;
  let model: string | undefined;
  let replyModel: string | undefined;
  let prompt: string | undefined;
  let claudeCodeVersion: string | undefined;
  let cwd: string | undefined;
  let ignoredLines = 0;

  const lines = jsonl.split('\n');
  for (const [index, raw] of lines.entries()) {
    const lineNumber = index + 1;
    const line = raw.trim();
    if (line === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      malformed.push({ line: lineNumber, problem: `not JSON (${(error as Error).message})` });
      continue;
    }
    const type =
      typeof value === 'object' && value !== null ? (value as { type?: unknown }).type : undefined;
    if (typeof type !== 'string') {
      malformed.push({ line: lineNumber, problem: 'not a message object with a string "type"' });
      continue;
    }
    const report = (error: z.ZodError): void => {
      malformed.push({ line: lineNumber, problem: `${type} message: ${describeIssue(error)}` });
    };

    if (type === 'assistant') {
      const parsed = assistantMessageSchema.safeParse(value);
      if (!parsed.success) {
        report(parsed.error);
        continue;
      }
      const parent = parsed.data.parent_tool_use_id ?? null;
      const model = parsed.data.message.model;
      if (parent === null && replyModel === undefined) {
        replyModel = apiReportedModel(model) ?? undefined;
      }
      const messageKey = parsed.data.message.id ?? `line-${lineNumber}`;
      for (const [blockIndex, block] of parsed.data.message.content.entries()) {
        if (block.type === 'tool_use') {
          const toolUse = toolUseBlockSchema.safeParse(block);
          if (!toolUse.success) {
            malformed.push({
              line: lineNumber,
              problem: `assistant tool_use block ${blockIndex}: ${describeIssue(toolUse.error)}`,
            });
            continue;
          }
          if (!calls.has(toolUse.data.id)) {
            calls.set(toolUse.data.id, {
              id: toolUse.data.id,
              name: toolUse.data.name,
              input: toolUse.data.input,
              parentToolUseId: parent,
              ...(model === undefined || model === '' ? {} : { model }),
            });
          }
          continue;
        }
        const unread = unreadCallBlock(block);
        if (unread !== undefined) {
          malformed.push({ line: lineNumber, problem: `assistant block ${blockIndex}: ${unread}` });
          continue;
        }
        if (block.type !== 'text' || parent !== null) continue;
        const text = textBlockSchema.safeParse(block);
        if (!text.success || text.data.text.trim() === '') continue;
        const texts = textByMessage.get(messageKey) ?? [];
        if (!texts.includes(text.data.text)) texts.push(text.data.text);
        textByMessage.set(messageKey, texts);
        lastTextMessage = messageKey;
      }
    } else if (type === 'user') {
      const parsed = userMessageSchema.safeParse(value);
      if (!parsed.success) {
        report(parsed.error);
        continue;
      }
      const content = parsed.data.message.content;
      // A scripted user's answer or turn (user-question-record.ts) is never the prompt, nor is
      // text the engine added itself (`isSynthetic`: a loaded skill's own words).
      if (
        prompt === undefined &&
        (parsed.data.parent_tool_use_id ?? null) === null &&
        !('answers_question' in parsed.data) &&
        !('user_turn' in parsed.data) &&
        parsed.data.isSynthetic !== true
      ) {
        const text = contentText(content);
        if (text.trim() !== '') prompt = text;
      }
      if (typeof content === 'string') continue;
      for (const [blockIndex, block] of content.entries()) {
        if (block.type !== 'tool_result') continue;
        const toolResult = toolResultBlockSchema.safeParse(block);
        if (!toolResult.success) {
          malformed.push({
            line: lineNumber,
            problem: `user tool_result block ${blockIndex}: ${describeIssue(toolResult.error)}`,
          });
          continue;
        }
        outputs.set(toolResult.data.tool_use_id, {
          output: contentText(toolResult.data.content, { placeholders: true }),
          isError: toolResult.data.is_error === true,
        });
      }
    } else if (type === 'result') {
      const parsed = resultMessageSchema.safeParse(value);
      if (!parsed.success) {
        report(parsed.error);
        continue;
      }
      const isError = parsed.data.is_error === true;
      lastResult = {
        subtype: parsed.data.subtype,
        isError,
        numTurns: parsed.data.num_turns,
        terminalReason: parsed.data.terminal_reason,
      };
      resultReply = parsed.data.subtype === 'success' && !isError ? parsed.data.result : undefined;
    } else if (type === 'system') {
      const parsed = systemMessageSchema.safeParse(value);
      if (!parsed.success) {
        report(parsed.error);
        continue;
      }
      if (parsed.data.subtype === 'init') {
        model = parsed.data.model ?? model;
        claudeCodeVersion = parsed.data.claude_code_version ?? claudeCodeVersion;
        cwd = parsed.data.cwd ?? cwd;
      }
    } else {
      const unread = unreadCallLine(value as Record<string, unknown>);
      if (unread !== undefined) malformed.push({ line: lineNumber, problem: unread });
      else ignoredLines++;
    }
  }

  const toolCalls = [...calls.values()].map((call): ToolCall => {
    const result = outputs.get(call.id);
    return result === undefined
      ? call
      : { ...call, output: result.output, isError: result.isError };
  });
  const lastText =
    lastTextMessage === undefined ? undefined : textByMessage.get(lastTextMessage)?.join('\n\n');
  const reply = resultReply !== undefined && resultReply.trim() !== '' ? resultReply : lastText;

  return {
    toolCalls,
    reply,
    counts: {
      toolUses: toolCalls.filter((call) => !isInsideSubagent(call) && callRan(call)).length,
      subagentToolUses: toolCalls.filter((call) => isInsideSubagent(call)).length,
      subagentDispatches: toolCalls.filter(
        (call) => !isInsideSubagent(call) && isSubagentDispatch(call) && callRan(call),
      ).length,
      ignoredLines,
    },
    result: lastResult,
    prompt,
    model,
    replyModel,
    claudeCodeVersion,
    cwd,
    malformed,
  };
}

/** Read a transcript file; a missing or unreadable file is an InputError. */
export async function readTranscriptFile(
  file: string,
): Promise<Result<TranscriptRead, InputError>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return err(
      inputError(
        file,
        code === 'ENOENT' ? 'no such transcript' : `cannot read (${code ?? String(error)})`,
        "pass the path of a rep's transcript.jsonl",
      ),
    );
  }
  return ok(readTranscript(text));
}
