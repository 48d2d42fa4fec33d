/**
 * The `reply.md` the runner writes: its first line is the rep's tool_uses
 * count, the rest is the reply verbatim. When the session ended at a captured
 * first dispatch, a trailer follows the reply:
 *
 *     <!-- redgreen:captured-dispatch -->
 *     ```json
 *     {"tool":"Agent","toolUseId":"toolu_…","input":{…}}
 *     ```
 *
 * `parseReplyFile` separates it from the reply text, so no extractor ever
 * reads it. Only a trailer that ends the file counts. A reply that itself
 * contains the marker line gets a trailer of `null` after it, so a model
 * cannot forge a capture by writing one. Replies gathered elsewhere are bare
 * text; they, and reply files written before captures existed, still parse.
 */
import { z } from 'zod';

/** The first dispatch a `stop: first-dispatch` session captured. */
export const capturedDispatchSchema = z
  .object({
    tool: z.string().min(1),
    toolUseId: z.string().min(1),
    input: z.unknown(),
  })
  .strict();

export type CapturedDispatchRecord = z.infer<typeof capturedDispatchSchema>;

export interface ReplyFile {
  /** The tool_uses count from the first line, when the file has one. */
  readonly toolUses: number | undefined;
  /** The reply text, verbatim, without the captured-dispatch trailer. */
  readonly reply: string;
  /** The captured first dispatch, when the file records one. */
  readonly capturedDispatch: CapturedDispatchRecord | null;
}

const TOOL_USES_LINE = /^\s*(?:tool[_ ]uses\s*[:=]?\s*)?(\d{1,6})\s*$/i;
const TRAILER_MARKER = '<!-- redgreen:captured-dispatch -->';
const TRAILER_OPENING = `\n\n${TRAILER_MARKER}\n\`\`\`json\n`;
const TRAILER_CLOSING = /^([^\n]*)\n```\n?$/;

/** Split a reply.md into its tool_uses line (when present), the verbatim reply and the trailer. */
export function parseReplyFile(content: string): ReplyFile {
  const text = content.replace(/^\uFEFF/, '');
  const { body, capturedDispatch } = splitTrailer(text);
  const newline = body.indexOf('\n');
  const first = newline < 0 ? body : body.slice(0, newline);
  const found = TOOL_USES_LINE.exec(first.replace(/\r$/, ''));
  if (found === null || newline < 0) return { toolUses: undefined, reply: body, capturedDispatch };
  return { toolUses: Number(found[1]), reply: body.slice(newline + 1), capturedDispatch };
}

/** The file's text before a trailing captured-dispatch block, and what the block records. */
function splitTrailer(text: string): {
  readonly body: string;
  readonly capturedDispatch: CapturedDispatchRecord | null;
} {
  const at = text.lastIndexOf(TRAILER_OPENING);
  if (at < 0) return { body: text, capturedDispatch: null };
  const json = TRAILER_CLOSING.exec(text.slice(at + TRAILER_OPENING.length))?.[1];
  if (json === undefined) return { body: text, capturedDispatch: null };
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return { body: text, capturedDispatch: null };
  }
  if (value === null) return { body: text.slice(0, at), capturedDispatch: null };
  const parsed = capturedDispatchSchema.safeParse(value);
  return parsed.success
    ? { body: text.slice(0, at), capturedDispatch: parsed.data }
    : { body: text, capturedDispatch: null };
}

/**
 * The reply.md content for a rep: tool_uses on the first line, then the reply
 * verbatim, then the captured dispatch's trailer when there is one (or a
 * `null` trailer when the reply itself contains the marker).
 */
export function formatReplyFile(
  toolUses: number,
  reply: string,
  capturedDispatch: CapturedDispatchRecord | null = null,
): string {
  const head = `${toolUses}\n${reply}`;
  if (capturedDispatch === null && !reply.includes(TRAILER_MARKER)) return head;
  const record =
    capturedDispatch === null
      ? 'null'
      : JSON.stringify({
          tool: capturedDispatch.tool,
          toolUseId: capturedDispatch.toolUseId,
          input: capturedDispatch.input,
        });
  return `${head}${TRAILER_OPENING}${record}\n\`\`\`\n`;
}
