/**
 * Minimal, real implementations of the four tools the policies use, under
 * Claude Code's names and input schemas, for tests that drive the server with
 * the real `@anthropic-ai/sdk` client: Bash runs bash in the session's working
 * directory (clean environment, no API key), Read returns numbered lines the
 * way Claude Code 2.1.332 does (`N<TAB>line`), Glob and Grep walk the tree.
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import type Anthropic from '@anthropic-ai/sdk';

/** The tool definitions a request offers: Claude Code's names and input schemas. */
export const claudeCodeTools: Anthropic.Tool[] = [
  {
    name: 'Bash',
    description: 'Executes a bash command and returns its output.',
    input_schema: {
      type: 'object',
      properties: {
        command: { type: 'string' },
        timeout: { type: 'number' },
        description: { type: 'string' },
        run_in_background: { type: 'boolean' },
      },
      required: ['command'],
      additionalProperties: false,
    },
  },
  {
    name: 'Read',
    description: 'Reads a file from the local filesystem.',
    input_schema: {
      type: 'object',
      properties: {
        file_path: { type: 'string' },
        offset: { type: 'integer' },
        limit: { type: 'integer' },
      },
      required: ['file_path'],
      additionalProperties: false,
    },
  },
  {
    name: 'Glob',
    description: 'Fast file pattern matching.',
    input_schema: {
      type: 'object',
      properties: { pattern: { type: 'string' }, path: { type: 'string' } },
      required: ['pattern'],
      additionalProperties: false,
    },
  },
  {
    name: 'Grep',
    description: 'Content search.',
    input_schema: {
      type: 'object',
      properties: {
        pattern: { type: 'string' },
        path: { type: 'string' },
        glob: { type: 'string' },
        output_mode: { type: 'string', enum: ['content', 'files_with_matches', 'count'] },
      },
      required: ['pattern'],
      additionalProperties: false,
    },
  },
];

/** Claude Code's subagent tool as it advertises it (2.1.332), minus its long descriptions. */
export const agentTool: Anthropic.Tool = {
  name: 'Agent',
  description: 'Launch a new agent to handle a task.',
  input_schema: {
    type: 'object',
    properties: {
      description: { type: 'string' },
      prompt: { type: 'string' },
      subagent_type: { type: 'string' },
      model: { type: 'string', enum: ['sonnet', 'opus', 'haiku', 'fable'] },
      run_in_background: { type: 'boolean' },
    },
    required: ['description', 'prompt'],
    additionalProperties: false,
  },
};

export interface ToolRun {
  readonly content: string;
  readonly isError: boolean;
}

export interface ToolEnvironment {
  /** The session's working directory (the fixture repository). */
  readonly cwd: string;
  /** HOME for Bash; a temp dir so nothing of the host's setup leaks in. */
  readonly home: string;
}

export async function runLocalTool(
  name: string,
  input: Readonly<Record<string, unknown>>,
  environment: ToolEnvironment,
): Promise<ToolRun> {
  switch (name) {
    case 'Bash':
      return runBash(String(input.command ?? ''), environment);
    case 'Read':
      return runRead(String(input.file_path ?? ''), input.offset, input.limit);
    case 'Glob':
      return runGlob(String(input.pattern ?? ''), String(input.path ?? environment.cwd));
    case 'Grep':
      return runGrep(
        String(input.pattern ?? ''),
        String(input.path ?? environment.cwd),
        typeof input.output_mode === 'string' ? input.output_mode : 'files_with_matches',
      );
    default:
      return { content: `No such tool available: ${name}`, isError: true };
  }
}

function runBash(command: string, environment: ToolEnvironment): Promise<ToolRun> {
  return new Promise((resolve) => {
    execFile(
      'bash',
      ['-c', command],
      {
        cwd: environment.cwd,
        encoding: 'utf8',
        timeout: 30_000,
        env: {
          PATH: process.env.PATH ?? '/usr/bin:/bin',
          HOME: environment.home,
          LANG: 'C',
          TZ: 'UTC',
          GIT_CONFIG_NOSYSTEM: '1',
          GIT_CONFIG_GLOBAL: '/dev/null',
        },
      },
      (error, stdout, stderr) => {
        const output = [stdout, stderr]
          .filter((part) => part !== '')
          .join('\n')
          .trimEnd();
        if (error !== null) {
          const code = typeof error.code === 'number' ? error.code : 'signal';
          resolve({ content: `Exit code ${code}\n${output}`, isError: true });
          return;
        }
        resolve({ content: output, isError: false });
      },
    );
  });
}

function runRead(filePath: string, offset: unknown, limit: unknown): ToolRun {
  if (!path.isAbsolute(filePath)) {
    return { content: 'file_path must be an absolute path.', isError: true };
  }
  if (!existsSync(filePath) || !statSync(filePath).isFile()) {
    return { content: 'File does not exist.', isError: true };
  }
  const lines = readFileSync(filePath, 'utf8').split('\n');
  const start = typeof offset === 'number' && offset > 0 ? offset - 1 : 0;
  const count = typeof limit === 'number' && limit > 0 ? limit : 2000;
  return {
    content: lines
      .slice(start, start + count)
      .map((line, index) => `${start + index + 1}\t${line}`)
      .join('\n'),
    isError: false,
  };
}

function* walk(root: string): Generator<string> {
  if (!existsSync(root)) return;
  if (statSync(root).isFile()) {
    yield root;
    return;
  }
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    if (entry.name === '.git') continue;
    const full = path.join(root, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else if (entry.isFile()) yield full;
  }
}

function globToRegExp(pattern: string): RegExp {
  let source = '';
  for (let i = 0; i < pattern.length; i += 1) {
    const char = pattern[i] ?? '';
    if (char === '*' && pattern[i + 1] === '*') {
      source += '.*';
      i += pattern[i + 2] === '/' ? 2 : 1;
    } else if (char === '*') source += '[^/]*';
    else if (char === '?') source += '[^/]';
    else source += char.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

function runGlob(pattern: string, root: string): ToolRun {
  const matcher = globToRegExp(pattern);
  const matches = [...walk(root)]
    .filter((file) => matcher.test(path.relative(root, file).split(path.sep).join('/')))
    .sort();
  return { content: matches.length === 0 ? 'No files found' : matches.join('\n'), isError: false };
}

function runGrep(pattern: string, root: string, mode: string): ToolRun {
  const regex = new RegExp(pattern);
  const hits: { file: string; line: number; text: string }[] = [];
  for (const file of walk(root)) {
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((text, index) => {
        if (regex.test(text)) hits.push({ file, line: index + 1, text });
      });
  }
  const files = [...new Set(hits.map((hit) => hit.file))].sort();
  if (files.length === 0) return { content: 'No matches found', isError: false };
  if (mode === 'content') {
    return {
      content: hits.map((hit) => `${hit.file}:${hit.line}:${hit.text}`).join('\n'),
      isError: false,
    };
  }
  if (mode === 'count') {
    return {
      content: files
        .map((file) => `${file}:${hits.filter((hit) => hit.file === file).length}`)
        .join('\n'),
      isError: false,
    };
  }
  return { content: `Found ${files.length} files\n${files.join('\n')}`, isError: false };
}
