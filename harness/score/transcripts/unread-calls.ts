/**
 * Calls a Claude-shaped reader would otherwise pass over without a word: a
 * line of a type the reader does not read that still holds a call (another
 * tool's `tool_call` event, a message of an unknown type carrying `tool_use`
 * blocks), and an assistant block of a call kind the reader does not read
 * (`server_tool_use`, `mcp_tool_use`). The readers list them as unreadable
 * lines, so a check asserting an absence is undecided rather than passing
 * on a call it never saw. Lines that hold no call (the many bookkeeping and
 * streaming events) are still passed over quietly.
 */
import { recordOf } from './format-reader.js';

/** Assistant content blocks that are calls this family of readers reads. */
const READ_CALL_BLOCKS = new Set(['tool_use']);

/** Why an assistant block is a call the reader does not read; undefined when it is none. */
export function unreadCallBlock(block: Record<string, unknown>): string | undefined {
  const type = block.type;
  if (typeof type !== 'string' || READ_CALL_BLOCKS.has(type) || !/_tool_use$/.test(type)) {
    return undefined;
  }
  const name = typeof block.name === 'string' ? ` (${block.name})` : '';
  return `a ${type} block${name}, a call this reader does not read (not counted)`;
}

/** Why a line of a type the reader does not read holds a call; undefined when it holds none. */
export function unreadCallLine(record: Record<string, unknown>): string | undefined {
  const type = JSON.stringify(record.type);
  if (record.type === 'tool_call' || recordOf(record.tool_call) !== undefined) {
    return `a line of type ${type} holding a tool call, which this reader does not read (another tool's event; not counted)`;
  }
  const content = recordOf(record.message)?.content;
  const blocks = Array.isArray(content) ? content.map(recordOf) : [];
  if (
    blocks.some((block) => block?.type === 'tool_use' || /_tool_use$/.test(String(block?.type)))
  ) {
    return `a line of type ${type} holding tool_use blocks, which this reader does not read (not counted)`;
  }
  return undefined;
}
