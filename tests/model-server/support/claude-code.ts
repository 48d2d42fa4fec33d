/**
 * Run the real Claude Code engine headless (`claude -p ... --output-format
 * stream-json --verbose`) against a model server: a fresh HOME, an
 * environment built from scratch (no host variables, a dummy key), low
 * retries and an outer timeout, tools Bash/Read/Glob/Grep auto-approved.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { execa } from 'execa';
import { repoRoot } from '../../helpers/cli.js';

/** The binary `@anthropic-ai/claude-agent-sdk` ships in its platform package. */
export const claudeCodeBinary = path.join(
  repoRoot,
  'node_modules',
  '@anthropic-ai',
  `claude-agent-sdk-${process.platform}-${process.arch}`,
  'claude',
);

/** Why the engine cannot run here, or undefined when it can. */
export function claudeCodeUnavailable(): string | undefined {
  return existsSync(claudeCodeBinary)
    ? undefined
    : `Claude Code binary not installed at ${claudeCodeBinary} (install @anthropic-ai/claude-agent-sdk with its platform package)`;
}

export interface EngineRun {
  readonly exitCode: number | undefined;
  readonly timedOut: boolean;
  /** stdout verbatim: the stream-json lines. */
  readonly stdout: string;
  readonly messages: readonly Record<string, unknown>[];
  readonly stderr: string;
  readonly wallMs: number;
}

export async function runClaudeCode(options: {
  readonly baseUrl: string;
  readonly cwd: string;
  readonly home: string;
  readonly prompt: string;
  readonly model?: string;
  readonly sessionKey?: string;
  readonly apiKey?: string;
  readonly maxRetries?: number;
  readonly timeoutMs?: number;
  /** Tools offered and auto-approved (default Bash,Read,Glob,Grep). */
  readonly tools?: string;
}): Promise<EngineRun> {
  const tools = options.tools ?? 'Bash,Read,Glob,Grep';
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: options.home,
    LANG: 'C',
    ANTHROPIC_BASE_URL: options.baseUrl,
    ANTHROPIC_API_KEY: options.apiKey ?? 'sk-redgreen-dummy-key',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    CLAUDE_CODE_MAX_RETRIES: String(options.maxRetries ?? 1),
    ...(options.sessionKey === undefined
      ? {}
      : { ANTHROPIC_CUSTOM_HEADERS: `x-redgreen-session: ${options.sessionKey}` }),
  };
  const args = [
    '-p',
    options.prompt,
    '--output-format',
    'stream-json',
    '--verbose',
    '--tools',
    tools,
    '--allowedTools',
    tools,
    ...(options.model === undefined ? [] : ['--model', options.model]),
  ];
  const started = performance.now();
  const result = await execa(claudeCodeBinary, args, {
    cwd: options.cwd,
    env,
    extendEnv: false,
    reject: false,
    stdin: 'ignore',
    timeout: options.timeoutMs ?? 90_000,
  });
  const wallMs = performance.now() - started;
  const messages = String(result.stdout)
    .split('\n')
    .filter((line) => line.trim().startsWith('{'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  return {
    exitCode: result.exitCode,
    timedOut: result.timedOut,
    stdout: String(result.stdout),
    messages,
    stderr: String(result.stderr),
    wallMs,
  };
}

/** tool_use blocks of the assistant messages, deduplicated by id (one turn may span messages). */
export function engineToolUses(
  messages: readonly Record<string, unknown>[],
): { id: string; name: string; input: Record<string, unknown> }[] {
  const seen = new Map<string, { id: string; name: string; input: Record<string, unknown> }>();
  for (const message of messages) {
    if (message.type !== 'assistant') continue;
    const content = (message.message as { content?: unknown } | undefined)?.content;
    if (!Array.isArray(content)) continue;
    for (const block of content as {
      type?: string;
      id?: string;
      name?: string;
      input?: unknown;
    }[]) {
      if (block.type === 'tool_use' && typeof block.id === 'string' && !seen.has(block.id)) {
        seen.set(block.id, {
          id: block.id,
          name: String(block.name),
          input: (block.input ?? {}) as Record<string, unknown>,
        });
      }
    }
  }
  return [...seen.values()];
}

export function engineResult(
  messages: readonly Record<string, unknown>[],
): Record<string, unknown> | undefined {
  return messages.find((message) => message.type === 'result');
}
