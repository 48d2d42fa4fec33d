import { open, stat } from 'node:fs/promises';
import { z } from 'zod';
import { confinePath } from './confine-path.js';
import { type ToolContext, type ToolOutput, toolError } from './tool-context.js';

export const readInputSchema = z
  .object({
    file_path: z.string().min(1),
    offset: z.number().int().nonnegative().optional(),
    limit: z.number().int().positive().optional(),
  })
  .passthrough();

const DEFAULT_LINE_LIMIT = 2000;
/** Read at most this much of a file: a session can make a file far larger than the harness's memory. */
const MAX_READ_BYTES = 4 * 1024 * 1024;

async function readPrefix(file: string, limit: number, size: number): Promise<string> {
  const handle = await open(file, 'r');
  try {
    const buffer = Buffer.allocUnsafe(Math.min(limit, size));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    return buffer.subarray(0, bytesRead).toString('utf8');
  } finally {
    await handle.close();
  }
}
const MAX_LINE_CHARS = 2000;

/** Read a text file inside the sandbox roots, numbered like `cat -n`. */
export async function runReadTool(
  input: z.infer<typeof readInputSchema>,
  context: ToolContext,
): Promise<ToolOutput> {
  const confined = await confinePath(input.file_path, [
    context.fixtureDir,
    ...context.readOnlyDirs,
  ]);
  if (!confined.ok) return toolError(confined.message);
  const info = await stat(confined.path);
  if (info.isDirectory())
    return toolError(`EISDIR: ${input.file_path} is a directory; use Glob or Bash ls`);
  if (!info.isFile()) {
    return toolError(
      `${input.file_path} is not a regular file (a pipe, socket or device) and cannot be read`,
    );
  }
  const text = await readPrefix(confined.path, MAX_READ_BYTES, info.size);
  if (text.length === 0) return { content: '(the file is empty)', isError: false };
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const first = Math.max(1, input.offset ?? 1);
  const limit = input.limit ?? DEFAULT_LINE_LIMIT;
  const shown = lines.slice(first - 1, first - 1 + limit);
  const numbered = shown.map((line, index) => {
    const clipped = line.length > MAX_LINE_CHARS ? `${line.slice(0, MAX_LINE_CHARS)}…` : line;
    return `${String(first + index).padStart(6)}\t${clipped}`;
  });
  let content = numbered.join('\n');
  const remaining = lines.length - (first - 1 + shown.length);
  if (remaining > 0)
    content += `\n[${remaining} more lines; read on with offset ${first + shown.length}]`;
  return { content: content.slice(0, context.maxOutputBytes), isError: false };
}
