import { chmod, writeFile } from 'node:fs/promises';
import { commandEnvironment, confinedArgv, type Sandbox } from '../sandbox/sandbox.js';

/** Quote a word for bash so it is passed through unchanged. */
export function shellQuote(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The inner shell: go to the directory Claude Code ran the command from (when
 * it is inside the sandbox), then run the command string Claude Code passed.
 */
const INNER = ['/bin/bash', '-c', 'cd -- "$1" 2>/dev/null; eval "$2"', 'redgreen'];

export interface ShellPrefixOptions {
  readonly sandbox: Sandbox;
  readonly fixtureDir: string;
  readonly skillDir: string;
  /** The session's private HOME (Claude Code keeps its shell snapshot there): read-only inside. */
  readonly home: string;
  /** The session's private TMPDIR (Claude Code tracks the shell's cwd there): read-write inside. */
  readonly tmp: string;
}

/**
 * Write the script Claude Code runs every Bash command through
 * (CLAUDE_CODE_SHELL_PREFIX). It receives the command string as $1 and runs
 * it through `confinedArgv`: a clean environment (no API key), the limits,
 * and under bubblewrap, confined to the fixture (read-write), the skill
 * (read-only) and the session's private HOME and TMPDIR, with no network.
 * Without bubblewrap it still clears the environment. The script lives
 * outside everything the session can write.
 */
export async function writeShellPrefix(
  scriptPath: string,
  options: ShellPrefixOptions,
): Promise<void> {
  // bubblewrap itself starts with an empty environment: it is PID 1 inside the
  // sandbox, and /proc/1/environ would otherwise show the engine's (with the key).
  const argv = confinedArgv(
    options.sandbox,
    {
      readWrite: [options.fixtureDir, options.tmp],
      readOnly: [options.skillDir, options.home],
      home: options.home,
      cwd: options.fixtureDir,
      env: commandEnvironment(options.home, { TMPDIR: options.tmp }),
    },
    INNER,
  );
  const script = [
    '#!/bin/bash',
    '# Written by redgreen for one session: runs a Claude Code Bash command confined, without the API key.',
    `exec ${argv.map(shellQuote).join(' ')} "$PWD" "$1"`,
    '',
  ].join('\n');
  await writeFile(scriptPath, script, { mode: 0o555 });
  await chmod(scriptPath, 0o555);
}
