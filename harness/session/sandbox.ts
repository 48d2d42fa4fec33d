import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { trackDetachedChild } from '../lib/live-children.js';
import { noteChildExit } from '../lib/outside-signals.js';
import { SESSION_PATH } from './engine-env.js';

/**
 * How model-issued commands are confined.
 * - `bubblewrap`: a fresh user, mount, PID, IPC and network namespace; the
 *   fixture read-write, the skill read-only, the system read-only, a private
 *   /tmp and HOME, nothing else of the host's files, no network.
 * - `process`: a plain child process in the fixture with a scrubbed
 *   environment. Weaker (no filesystem or network confinement); used only
 *   where bubblewrap is missing or user namespaces are disabled, and
 *   reported as such by `redgreen doctor` and in every rep's meta.json.
 */
export type SandboxKind = 'bubblewrap' | 'process';

export interface Sandbox {
  readonly kind: SandboxKind;
  /** One line for humans: what is confined and how. */
  readonly description: string;
}

export interface ConfinedCommand {
  /** argv to execute; argv[0] is looked up on the sandbox's PATH. */
  readonly argv: readonly string[];
  /** Read-write: the session's fixture; also the working directory. */
  readonly fixtureDir: string;
  /** Read-only extra directories (the skill copy). */
  readonly readOnlyDirs: readonly string[];
  /** Host directory used as HOME for the `process` fallback. */
  readonly fallbackHome: string;
  readonly timeoutMs: number;
  readonly maxOutputBytes: number;
  /** Variables the command gets besides the scrubbed environment (a plugin hook's CLAUDE_PLUGIN_ROOT); never a credential. */
  readonly env?: Readonly<Record<string, string>> | undefined;
}

export interface CommandResult {
  readonly exitCode: number | null;
  /** stdout and stderr in arrival order, capped. */
  readonly output: string;
  readonly truncatedBytes: number;
  readonly timedOut: boolean;
}

export const BWRAP = '/usr/bin/bwrap';
const SANDBOX_HOME = '/tmp/home';

/** The environment every confined command gets: nothing of the caller's, no keys. */
export function commandEnvironment(
  home: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    PATH: SESSION_PATH,
    HOME: home,
    LANG: 'C.UTF-8',
    TZ: 'UTC',
    TERM: 'dumb',
    GIT_TERMINAL_PROMPT: '0',
    GIT_PAGER: 'cat',
    // The host's /etc/gitconfig (mounted read-only with /etc) stays out of sessions: its
    // settings would change what git does in the fixture, and `git config -l` would show them.
    GIT_CONFIG_NOSYSTEM: '1',
    PAGER: 'cat',
    ...extra,
  };
}

/** What a bubblewrap sandbox exposes besides the read-only system directories. */
export interface SandboxMounts {
  readonly readWrite: readonly string[];
  readonly readOnly: readonly string[];
  /** HOME inside the sandbox; created empty on the private /tmp unless it is one of the mounts. */
  readonly home: string;
  readonly cwd: string;
  readonly env: Record<string, string>;
}

/**
 * bubblewrap arguments (without the command): new user, mount, PID, IPC, UTS
 * and network namespaces; /usr, /etc and the library dirs read-only; a
 * private /tmp; the given directories bound read-write or read-only; a clean
 * environment.
 */
export function bubblewrapArgs(mounts: SandboxMounts): string[] {
  const args = [
    '--die-with-parent',
    '--new-session',
    '--unshare-all',
    '--ro-bind',
    '/usr',
    '/usr',
    '--ro-bind',
    '/etc',
    '/etc',
  ];
  for (const dir of ['/bin', '/sbin', '/lib', '/lib32', '/lib64'])
    args.push('--ro-bind-try', dir, dir);
  args.push('--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp');
  const mounted = [...mounts.readWrite, ...mounts.readOnly];
  if (!mounted.includes(mounts.home)) args.push('--dir', mounts.home);
  for (const dir of mounts.readWrite) args.push('--bind', dir, dir);
  for (const dir of mounts.readOnly) args.push('--ro-bind', dir, dir);
  args.push('--chdir', mounts.cwd, '--clearenv');
  for (const [name, value] of Object.entries(mounts.env)) args.push('--setenv', name, value);
  return args;
}

function bubblewrapArgv(command: ConfinedCommand): string[] {
  return [
    ...bubblewrapArgs({
      readWrite: [command.fixtureDir],
      readOnly: command.readOnlyDirs,
      home: SANDBOX_HOME,
      cwd: command.fixtureDir,
      env: commandEnvironment(SANDBOX_HOME, { ...command.env }),
    }),
    '--',
    ...command.argv,
  ];
}

/** Run a command confined by the given sandbox, with a timeout and an output cap. */
export function runConfined(sandbox: Sandbox, command: ConfinedCommand): Promise<CommandResult> {
  const [file, args, env] =
    sandbox.kind === 'bubblewrap'
      ? [BWRAP, bubblewrapArgv(command), commandEnvironment(SANDBOX_HOME)]
      : [
          command.argv[0] ?? 'true',
          command.argv.slice(1),
          commandEnvironment(command.fallbackHome, { ...command.env }),
        ];
  return new Promise((resolve) => {
    const child = spawn(file, args, {
      cwd: command.fixtureDir,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    trackDetachedChild(child);
    const chunks: Buffer[] = [];
    let kept = 0;
    let dropped = 0;
    let timedOut = false;
    const collect = (chunk: Buffer): void => {
      const room = command.maxOutputBytes - kept;
      if (room > 0) {
        const part = chunk.subarray(0, room);
        chunks.push(part);
        kept += part.length;
      }
      dropped += Math.max(0, chunk.length - Math.max(room, 0));
    };
    child.stdout.on('data', collect);
    child.stderr.on('data', collect);
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        if (child.pid !== undefined) process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, command.timeoutMs);
    const finish = (exitCode: number | null): void => {
      clearTimeout(timer);
      resolve({
        exitCode,
        output: Buffer.concat(chunks).toString('utf8'),
        truncatedBytes: dropped,
        timedOut,
      });
    };
    child.on('error', (error) => {
      chunks.push(Buffer.from(`${error.message}\n`));
      finish(127);
    });
    child.on('close', (code, signal) => {
      noteChildExit(signal);
      finish(code);
    });
  });
}

let detected: Promise<Sandbox> | undefined;

/**
 * Pick the strongest sandbox this machine allows: bubblewrap when it is
 * installed and can create namespaces here (probed once by running `true`
 * inside it), else the confined child process.
 */
export function detectSandbox(): Promise<Sandbox> {
  detected ??= (async (): Promise<Sandbox> => {
    if (!existsSync(BWRAP)) {
      return {
        kind: 'process',
        description:
          'confined child process (bubblewrap not installed: no filesystem or network isolation; apt-get install bubblewrap)',
      };
    }
    const probe = await runConfined(
      { kind: 'bubblewrap', description: '' },
      {
        argv: ['true'],
        fixtureDir: '/tmp',
        readOnlyDirs: [],
        fallbackHome: '/tmp',
        timeoutMs: 10_000,
        maxOutputBytes: 4096,
      },
    );
    if (probe.exitCode === 0) {
      return {
        kind: 'bubblewrap',
        description:
          'bubblewrap: fixture read-write, skill read-only, system read-only, private /tmp and HOME, no network',
      };
    }
    return {
      kind: 'process',
      description: `confined child process (bubblewrap cannot create namespaces here: ${probe.output.trim().split('\n')[0] ?? 'unknown error'})`,
    };
  })();
  return detected;
}
