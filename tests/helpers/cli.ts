import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { execa } from 'execa';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const cliPath = path.join(repoRoot, 'dist/harness/cli.js');

/**
 * The environment a test runs the CLI in: the caller's PATH and nothing of
 * the host's git identity, time zone, API keys or locale, unless a test adds
 * them on purpose.
 */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? '/root',
    LANG: 'C',
    ...extra,
  };
}

export interface CliResult {
  readonly exitCode: number | undefined;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
}

/** Run the compiled `redgreen` CLI as a user would, without throwing on a non-zero exit. */
export async function runCli(
  args: readonly string[],
  options: { cwd?: string; env?: Record<string, string>; timeoutMs?: number; input?: string } = {},
): Promise<CliResult> {
  const result = await execa(process.execPath, [cliPath, ...args], {
    cwd: options.cwd ?? repoRoot,
    env: options.env ?? cleanEnv(),
    extendEnv: false,
    reject: false,
    timeout: options.timeoutMs ?? 60_000,
    ...(options.input === undefined ? {} : { input: options.input }),
  });
  return {
    exitCode: result.exitCode,
    stdout: String(result.stdout),
    stderr: String(result.stderr),
    timedOut: result.timedOut,
  };
}
