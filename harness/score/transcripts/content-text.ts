/**
 * The text of a message's content as every format writes it: a string, or
 * an array of blocks (Claude's content blocks, ATIF's content parts,
 * Codex's input/output text parts) whose `text` is joined. A block without
 * text is left out, or, with `placeholders`, shown as `[type]` (a tool
 * result's image, say).
 */
import { recordOf } from './format-reader.js';

export function contentText(
  content: unknown,
  options: { readonly separator?: string; readonly placeholders?: boolean } = {},
): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .flatMap((block) => {
      const record = recordOf(block);
      if (
        typeof record?.text === 'string' &&
        (record.type === undefined || /text/.test(String(record.type)))
      ) {
        return [record.text];
      }
      return options.placeholders === true ? [`[${String(record?.type)}]`] : [];
    })
    .join(options.separator ?? '\n');
}
