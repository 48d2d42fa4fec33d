import { z } from 'zod';
import { runConfined } from '../../sandbox/sandbox.js';
import { confinePath } from './confine-path.js';
import { type ToolContext, type ToolOutput, toolError } from './tool-context.js';

export const grepInputSchema = z
  .object({
    pattern: z.string().min(1),
    path: z.string().optional(),
    glob: z.string().optional(),
    output_mode: z.enum(['content', 'files_with_matches', 'count']).optional(),
    '-i': z.boolean().optional(),
    '-n': z.boolean().optional(),
    '-A': z.number().int().nonnegative().optional(),
    '-B': z.number().int().nonnegative().optional(),
    '-C': z.number().int().nonnegative().optional(),
    head_limit: z.number().int().positive().optional(),
  })
  .passthrough();

/** Search file contents with GNU grep (extended regexps), run inside the sandbox. */
export async function runGrepTool(
  input: z.infer<typeof grepInputSchema>,
  context: ToolContext,
): Promise<ToolOutput> {
  const base = input.path ?? context.workDir ?? context.fixtureDir;
  const confined = await confinePath(base, [context.fixtureDir, ...context.readOnlyDirs]);
  if (!confined.ok) return toolError(confined.message);
  const mode = input.output_mode ?? 'files_with_matches';
  const argv = [
    'grep',
    '-r',
    '-E',
    '-D',
    'skip',
    '--exclude-dir=.git',
    '--binary-files=without-match',
  ];
  if (mode === 'files_with_matches') argv.push('-l');
  if (mode === 'count') argv.push('-c');
  if (mode === 'content' && input['-n'] !== false) argv.push('-n');
  if (input['-i'] === true) argv.push('-i');
  if (mode === 'content') {
    for (const flag of ['-A', '-B', '-C'] as const) {
      const value = input[flag];
      if (value !== undefined) argv.push(flag, String(value));
    }
  }
  if (input.glob !== undefined) argv.push(`--include=${input.glob}`);
  argv.push('-e', input.pattern, '--', confined.path);
  const result = await runConfined(context.sandbox, {
    argv,
    fixtureDir: context.fixtureDir,
    readOnlyDirs: context.readOnlyDirs,
    fallbackHome: context.fallbackHome,
    timeoutMs: context.timeoutMs,
    maxOutputBytes: context.maxOutputBytes,
  });
  if (result.exitCode === 1) return { content: 'No matches found', isError: false };
  if (result.exitCode !== 0)
    return toolError(result.output || `grep failed (exit ${result.exitCode})`);
  let lines = result.output.split('\n').filter((line) => line.length > 0);
  if (mode === 'count') lines = lines.filter((line) => !line.endsWith(':0'));
  if (input.head_limit !== undefined) lines = lines.slice(0, input.head_limit);
  return { content: lines.join('\n'), isError: false };
}
