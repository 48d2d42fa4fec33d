/**
 * Read a transcript of a session run anywhere: Claude Code stream-json
 * (`claude -p --output-format stream-json --verbose`), redgreen's own
 * `transcript.jsonl` (the same message shapes), or an ATIF v1.4 trajectory,
 * told apart by content. Gives the tool calls (with seats) and the final
 * reply, whatever the source.
 *
 * TODO(lead, issue 9 merge): this is Part A's interim adapter with the
 * signature the issue-9 contract gives Part B's `readSessionTranscript` in
 * `harness/score/transcript-formats.ts`. When that branch lands, make this
 * module re-export Part B's function (or point `check-session.ts` at it) and
 * delete the interim readers below; `redgreen check`'s tests cover all three
 * formats either way.
 */
import { z } from 'zod';
import { type InputError, inputError } from '../lib/input-error.js';
import { err, ok, type Result } from '../lib/result.js';
import type { ToolCall } from './tool-call.js';
import { readTranscript } from './transcript-reader.js';

export type TranscriptFormat = 'claude-code-stream-json' | 'redgreen' | 'atif-1.4';

export interface SessionTranscript {
  readonly format: TranscriptFormat;
  readonly toolCalls: ToolCall[];
  /** The final reply, when the transcript carries one. */
  readonly reply: string | undefined;
  /** The controller's model as the transcript names it. */
  readonly model: string | undefined;
}

const atifSchema = z.looseObject({
  schema_version: z.string().regex(/^ATIF-v1\.[0-9]+$/),
  agent: z.looseObject({ model_name: z.string().optional() }),
  steps: z.array(
    z.looseObject({
      source: z.enum(['system', 'user', 'agent']),
      message: z.string().default(''),
      tool_calls: z
        .array(
          z.looseObject({
            tool_call_id: z.string().min(1),
            function_name: z.string().min(1),
            arguments: z.unknown(),
          }),
        )
        .optional(),
      observation: z
        .looseObject({
          results: z.array(
            z.looseObject({
              source_call_id: z.string().nullable().optional(),
              content: z.string().nullable().optional(),
            }),
          ),
        })
        .optional(),
    }),
  ),
});

function readAtif(value: unknown, source: string): Result<SessionTranscript, InputError> {
  const parsed = atifSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return err(
      inputError(
        source,
        `is not an ATIF v1.4 trajectory (${issue?.path.join('.') ?? ''}: ${issue?.message ?? ''})`,
        'pass a Claude Code stream-json, redgreen transcript.jsonl or ATIF v1.4 file',
      ),
    );
  }
  const outputs = new Map<string, string>();
  for (const step of parsed.data.steps) {
    for (const result of step.observation?.results ?? []) {
      if (result.source_call_id) outputs.set(result.source_call_id, result.content ?? '');
    }
  }
  const toolCalls: ToolCall[] = [];
  let reply: string | undefined;
  for (const step of parsed.data.steps) {
    if (step.source !== 'agent') continue;
    for (const call of step.tool_calls ?? []) {
      const output = outputs.get(call.tool_call_id);
      toolCalls.push({
        id: call.tool_call_id,
        name: call.function_name,
        input: call.arguments,
        parentToolUseId: null,
        ...(output === undefined ? {} : { output }),
      });
    }
    if ((step.tool_calls ?? []).length === 0 && step.message.trim() !== '') reply = step.message;
  }
  return ok({ format: 'atif-1.4', toolCalls, reply, model: parsed.data.agent.model_name });
}

/** Read transcript text, detecting its format; unreadable text is an InputError naming `source`. */
export function readSessionTranscript(
  text: string,
  source = 'transcript',
): Result<SessionTranscript, InputError> {
  const trimmed = text.trim();
  if (trimmed.startsWith('{') && !trimmed.includes('\n')) {
    let value: unknown;
    try {
      value = JSON.parse(trimmed);
    } catch {
      value = undefined;
    }
    if (value !== null && typeof value === 'object' && 'schema_version' in value)
      return readAtif(value, source);
  } else if (trimmed.startsWith('{') && /^\{\s*"schema_version"/.test(trimmed)) {
    try {
      return readAtif(JSON.parse(trimmed), source);
    } catch (error) {
      return err(
        inputError(
          source,
          `is not valid JSON (${(error as Error).message})`,
          'pass an ATIF v1.4 document',
        ),
      );
    }
  }
  const read = readTranscript(text);
  const lines = trimmed === '' ? 0 : trimmed.split('\n').length;
  if (read.malformed.length > 0 && read.malformed.length === lines) {
    return err(
      inputError(
        source,
        `is neither JSON lines of agent messages nor an ATIF trajectory (line ${read.malformed[0]?.line}: ${read.malformed[0]?.problem})`,
        'pass a Claude Code stream-json, redgreen transcript.jsonl or ATIF v1.4 file',
      ),
    );
  }
  // Claude Code's own stream starts with its system/init message (uuid, session_id);
  // redgreen's transcript.jsonl holds the same shapes, written by either backend.
  const format: TranscriptFormat =
    /"type"\s*:\s*"system"[^\n]*"subtype"\s*:\s*"init"[^\n]*"claude_code_version"/.test(
      text.split('\n', 1)[0] ?? '',
    )
      ? 'claude-code-stream-json'
      : 'redgreen';
  return ok({ format, toolCalls: read.toolCalls, reply: read.reply, model: read.model });
}
