/**
 * Cutting untrusted text down to what the page embeds. Sizes are UTF-8 bytes,
 * the unit the report's caps are stated in.
 */
export function utf8Bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

export interface Cut {
  readonly text: string;
  /** Bytes of the original left out (0 when nothing was cut). */
  readonly omittedBytes: number;
}

/** The longest prefix of `text` that fits in `maxBytes`, never splitting a character. */
export function cutToBytes(text: string, maxBytes: number): Cut {
  const total = utf8Bytes(text);
  if (total <= maxBytes) return { text, omittedBytes: 0 };
  const prefix = Buffer.from(text, 'utf8')
    .subarray(0, Math.max(0, maxBytes))
    .toString('utf8')
    .replace(/\uFFFD+$/, '');
  return { text: prefix, omittedBytes: total - utf8Bytes(prefix) };
}

/** One line of at most `maxChars` characters, whitespace collapsed, with an ellipsis when cut. */
export function previewLine(text: string, maxChars: number): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= maxChars ? line : `${line.slice(0, maxChars - 1)}…`;
}

/** `1.2 KB`, `340 B`: sizes as a reader wants them. */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  if (bytes < 1_000_000) return `${(bytes / 1000).toFixed(1)} KB`;
  return `${(bytes / 1_000_000).toFixed(1)} MB`;
}
