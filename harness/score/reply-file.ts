/**
 * The `reply.md` the runner writes: its first line is the rep's tool_uses
 * count, the rest is the reply verbatim. Replies gathered elsewhere are bare
 * text; both are accepted.
 */

export interface ReplyFile {
  /** The tool_uses count from the first line, when the file has one. */
  readonly toolUses: number | undefined;
  /** The reply text, verbatim. */
  readonly reply: string;
}

const TOOL_USES_LINE = /^\s*(?:tool[_ ]uses\s*[:=]?\s*)?(\d{1,6})\s*$/i;

/** Split a reply.md into its tool_uses line (when present) and the verbatim reply. */
export function parseReplyFile(content: string): ReplyFile {
  const text = content.replace(/^\uFEFF/, '');
  const newline = text.indexOf('\n');
  const first = newline < 0 ? text : text.slice(0, newline);
  const found = TOOL_USES_LINE.exec(first.replace(/\r$/, ''));
  if (found === null || newline < 0) return { toolUses: undefined, reply: text };
  return { toolUses: Number(found[1]), reply: text.slice(newline + 1) };
}

/** The reply.md content for a rep: tool_uses on the first line, then the reply verbatim. */
export function formatReplyFile(toolUses: number, reply: string): string {
  return `${toolUses}\n${reply}`;
}
