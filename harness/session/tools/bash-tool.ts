import { z } from 'zod';
import { runConfined } from '../../sandbox/sandbox.js';
import type { ToolContext, ToolOutput } from './tool-context.js';

export const bashInputSchema = z
  .object({
    command: z.string().min(1),
    description: z.string().optional(),
    timeout: z.number().positive().optional(),
    run_in_background: z.boolean().optional(),
  })
  .passthrough();

/** Run a shell command in the sandbox, in the fixture, with a per-call timeout and output cap. */
export async function runBashTool(
  input: z.infer<typeof bashInputSchema>,
  context: ToolContext,
): Promise<ToolOutput> {
  const timeoutMs = Math.min(input.timeout ?? context.timeoutMs, context.timeoutMs);
  const result = await runConfined(context.sandbox, {
    argv: ['/bin/bash', '-c', input.command],
    fixtureDir: context.fixtureDir,
    cwd: context.workDir,
    readOnlyDirs: context.readOnlyDirs,
    fallbackHome: context.fallbackHome,
    timeoutMs,
    maxOutputBytes: context.maxOutputBytes,
  });
  let content = result.output;
  if (result.truncatedBytes > 0)
    content += `\n[output truncated: ${result.truncatedBytes} more bytes]`;
  if (result.timedOut) content += `\n[command timed out after ${timeoutMs} ms]`;
  else if (result.exitCode !== 0) content += `\n[exit code ${result.exitCode ?? 'unknown'}]`;
  return {
    content: content.length > 0 ? content : '(no output)',
    isError: result.timedOut || result.exitCode !== 0,
  };
}
