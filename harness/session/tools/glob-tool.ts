import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { globToRegExp } from '../../lib/glob-pattern.js';
import { confinePath } from './confine-path.js';
import { type ToolContext, type ToolOutput, toolError } from './tool-context.js';

export const globInputSchema = z
  .object({ pattern: z.string().min(1), path: z.string().optional() })
  .passthrough();

const MAX_RESULTS = 100;
/** Stop walking after this many entries: a session can create millions of files. */
const MAX_WALKED = 100_000;

async function walk(root: string, relative: string, into: string[]): Promise<void> {
  const entries = await readdir(path.join(root, relative), { withFileTypes: true });
  for (const entry of entries) {
    if (into.length >= MAX_WALKED) return;
    if (entry.name === '.git') continue;
    const child = relative === '' ? entry.name : `${relative}/${entry.name}`;
    if (entry.isDirectory()) await walk(root, child, into);
    else into.push(child);
  }
}

/** List files under a sandbox root matching a glob, sorted by path, dotfiles included. */
export async function runGlobTool(
  input: z.infer<typeof globInputSchema>,
  context: ToolContext,
): Promise<ToolOutput> {
  const base = input.path ?? context.workDir ?? context.fixtureDir;
  const confined = await confinePath(base, [context.fixtureDir, ...context.readOnlyDirs]);
  if (!confined.ok) return toolError(confined.message);
  const matcher = globToRegExp(input.pattern.replace(/^\.\//, ''));
  const files: string[] = [];
  await walk(confined.path, '', files);
  const matches = files.filter((file) => matcher.test(file)).sort();
  if (matches.length === 0) return { content: 'No files found', isError: false };
  const shown = matches.slice(0, MAX_RESULTS).map((file) => path.join(confined.path, file));
  const more = matches.length - shown.length;
  return {
    content: shown.join('\n') + (more > 0 ? `\n[${more} more files not shown]` : ''),
    isError: false,
  };
}
