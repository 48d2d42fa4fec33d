import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { trackDetachedChild } from '../lib/live-children.js';
import { noteChildExit } from '../lib/outside-signals.js';
import { handOverTree } from './sandbox-owner.js';

/**
 * How untrusted code (model-issued commands, skill scripts, a recipe's
 * tests, rep-time check commands, plugin hooks) is confined. Every such
 * command goes through `confinedArgv`, the one way redgreen runs it.
 * - `bubblewrap`: new user, mount, PID, IPC, UTS and network namespaces; no
 *   capabilities, and no user namespace can be created inside; the given
 *   directories read-write or read-only, the system read-only, a private
 *   /tmp and HOME, nothing else of the host's files, no network; process,
 *   file-size and memory limits. Started by root, bubblewrap runs as an
 *   unprivileged host user (`hostUser`), so root-only host files stay
 *   unreadable and whatever it writes belongs to that user.
 * - `process`: a plain child process with a scrubbed environment and the
 *   same limits. Weaker (no filesystem or network confinement); used only
 *   where bubblewrap is missing or cannot create namespaces, and reported as
 *   such by `redgreen doctor` and in every rep's meta.json. Started by root,
 *   it too runs as the unprivileged host user, with no capabilities and no
 *   way to gain privileges (setuid programs do not raise it): root's files,
 *   the results and redgreen's own processes stay out of its reach.
 */
export type SandboxKind = 'bubblewrap' | 'process';

/** A host user and group, by number. */
export interface HostUser {
  readonly uid: number;
  readonly gid: number;
}

export interface Sandbox {
  readonly kind: SandboxKind;
  /** One line for humans: what is confined and how. */
  readonly description: string;
  /**
   * Started by root: the unprivileged host user confined commands run as
   * (bubblewrap's, or the process fallback's). Absent: they run as
   * redgreen's own user (a normal user; or root, under a bubblewrap the
   * machine lets no other user start: then capabilities are still dropped).
   */
  readonly hostUser?: HostUser | undefined;
  /** False for a bubblewrap older than 0.8 (no `--disable-userns`). Default true. */
  readonly userNamespacesDisabled?: boolean | undefined;
}

/** Limits every confined command runs under (per process, as setrlimit sets them). */
export interface ConfinementLimits {
  /** Processes of the command's user inside its sandbox (RLIMIT_NPROC). */
  readonly processes: number;
  /** The largest file a process may write (RLIMIT_FSIZE). */
  readonly fileSizeBytes: number;
  /** Heap and other writable private memory per process (RLIMIT_DATA). */
  readonly memoryBytes: number;
}

export const CONFINED_LIMITS: ConfinementLimits = {
  processes: 512,
  fileSizeBytes: 1024 * 1024 * 1024,
  memoryBytes: 4 * 1024 * 1024 * 1024,
};

/** Where one confined command may reach, and what it gets. */
export interface Confinement {
  readonly readWrite: readonly string[];
  readonly readOnly: readonly string[];
  /** HOME inside the sandbox; created empty on the private /tmp unless it is one of the mounts. */
  readonly home: string;
  readonly cwd: string;
  readonly env: Record<string, string>;
  /**
   * Paths inside the mounts the command must not see: each is covered by an
   * empty read-only file (a project's `.npmrc`, a program a session planted).
   * bubblewrap only; the caller gives only paths that exist.
   */
  readonly hidden?: readonly string[];
  readonly limits?: ConfinementLimits;
}

export interface ConfinedCommand {
  /** argv to execute; argv[0] is looked up on the sandbox's PATH. */
  readonly argv: readonly string[];
  /** Read-write: the session's fixture; also the working directory unless `cwd` names another. */
  readonly fixtureDir: string;
  /** The working directory, inside `fixtureDir` (a linked worktree the session starts in); default `fixtureDir`. */
  readonly cwd?: string | undefined;
  /** Read-only extra directories (the skill copy). */
  readonly readOnlyDirs: readonly string[];
  /** Host directory used as HOME for the `process` fallback. */
  readonly fallbackHome: string;
  readonly timeoutMs: number;
  readonly maxOutputBytes: number;
  /** Variables the command gets besides the scrubbed environment (a plugin hook's CLAUDE_PLUGIN_ROOT); never a credential. */
  readonly env?: Readonly<Record<string, string>> | undefined;
  readonly hidden?: readonly string[];
  readonly limits?: ConfinementLimits;
}

export interface CommandResult {
  readonly exitCode: number | null;
  /** stdout and stderr in arrival order, capped. */
  readonly output: string;
  readonly truncatedBytes: number;
  readonly timedOut: boolean;
}

export const BWRAP = '/usr/bin/bwrap';
/** util-linux's setpriv: runs a program as another user, or with a parent-death signal. */
export const SETPRIV = '/usr/bin/setpriv';
const SANDBOX_HOME = '/tmp/home';

/**
 * The unprivileged host user bubblewrap runs as when redgreen is root:
 * `nobody`, which owns no files, so what a confined command can read of the
 * host is what any user can.
 */
export const UNPRIVILEGED_USER: HostUser = { uid: 65534, gid: 65534 };

/** The only directories a session's PATH contains: system tools (bash, git, coreutils). */
export const SESSION_PATH = '/usr/local/bin:/usr/bin:/bin';

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

/** bash that sets the limits (each as far as the current hard limit allows) and runs its arguments. */
function limitedArgv(limits: ConfinementLimits, command: readonly string[]): string[] {
  const script = [
    `ulimit -u ${limits.processes}`,
    `ulimit -f ${Math.floor(limits.fileSizeBytes / 1024)}`,
    `ulimit -d ${Math.floor(limits.memoryBytes / 1024)}`,
  ]
    .map((line) => `${line} 2>/dev/null`)
    .join('; ');
  return ['/bin/bash', '-c', `${script}; exec "$@"`, 'redgreen-limits', ...command];
}

function runsAsRoot(): boolean {
  return process.getuid?.() === 0;
}

/**
 * bubblewrap arguments (without the command): new user, mount, PID, IPC, UTS
 * and network namespaces, every capability dropped, no user namespace
 * creation inside; /usr, /etc and the library dirs read-only; a private
 * /tmp; the given directories bound read-write or read-only; the hidden
 * paths covered; a clean environment. Run by root itself (no `hostUser`),
 * the sandbox's user is `nobody` inside (host root outside, without
 * capabilities).
 */
export function bubblewrapArgs(sandbox: Sandbox, confinement: Confinement): string[] {
  const args = ['--die-with-parent', '--new-session', '--unshare-all', '--unshare-user'];
  if (sandbox.userNamespacesDisabled !== false) args.push('--disable-userns');
  args.push('--cap-drop', 'ALL');
  if (sandbox.hostUser === undefined && runsAsRoot()) {
    args.push('--uid', String(UNPRIVILEGED_USER.uid), '--gid', String(UNPRIVILEGED_USER.gid));
  }
  args.push('--ro-bind', '/usr', '/usr', '--ro-bind', '/etc', '/etc');
  for (const dir of ['/bin', '/sbin', '/lib', '/lib32', '/lib64'])
    args.push('--ro-bind-try', dir, dir);
  args.push('--proc', '/proc', '--dev', '/dev', '--tmpfs', '/tmp');
  const mounted = [...confinement.readWrite, ...confinement.readOnly];
  if (!mounted.includes(confinement.home)) args.push('--dir', confinement.home);
  for (const dir of confinement.readWrite) args.push('--bind', dir, dir);
  for (const dir of confinement.readOnly) args.push('--ro-bind', dir, dir);
  for (const hidden of confinement.hidden ?? []) args.push('--ro-bind', '/dev/null', hidden);
  args.push('--chdir', confinement.cwd, '--clearenv');
  for (const [name, value] of Object.entries(confinement.env)) args.push('--setenv', name, value);
  return args;
}

/**
 * The one way redgreen runs untrusted code: the argv that runs `command`
 * confined by `sandbox` as `confinement` says, with its limits. It starts by
 * clearing the environment, so whatever environment it is executed with
 * (the engine's, with the key) never reaches the command, nor any process
 * the command can see. Under bubblewrap started by root it first becomes
 * the unprivileged host user. The `process` fallback runs in the caller's
 * working directory; bubblewrap changes to `confinement.cwd`.
 */
export function confinedArgv(
  sandbox: Sandbox,
  confinement: Confinement,
  command: readonly string[],
): string[] {
  const limited = limitedArgv(confinement.limits ?? CONFINED_LIMITS, command);
  if (sandbox.kind === 'process') {
    const user = sandbox.hostUser;
    return [
      '/usr/bin/env',
      '-i',
      ...Object.entries(confinement.env).map(([name, value]) => `${name}=${value}`),
      ...(user === undefined
        ? []
        : [
            SETPRIV,
            `--reuid=${user.uid}`,
            `--regid=${user.gid}`,
            '--clear-groups',
            '--inh-caps=-all',
            '--bounding-set=-all',
            '--no-new-privs',
            '--',
          ]),
      ...limited,
    ];
  }
  const user = sandbox.hostUser;
  return [
    '/usr/bin/env',
    '-i',
    ...(user === undefined
      ? []
      : [SETPRIV, `--reuid=${user.uid}`, `--regid=${user.gid}`, '--clear-groups', '--']),
    BWRAP,
    ...bubblewrapArgs(sandbox, confinement),
    '--',
    ...limited,
  ];
}

function commandArgv(sandbox: Sandbox, command: ConfinedCommand): string[] {
  const home = sandbox.kind === 'bubblewrap' ? SANDBOX_HOME : command.fallbackHome;
  return confinedArgv(
    sandbox,
    {
      readWrite: [command.fixtureDir],
      readOnly: command.readOnlyDirs,
      home,
      cwd: command.cwd ?? command.fixtureDir,
      env: commandEnvironment(home, { ...command.env }),
      ...(command.hidden === undefined ? {} : { hidden: command.hidden }),
      ...(command.limits === undefined ? {} : { limits: command.limits }),
    },
    command.argv,
  );
}

/** Run a command confined by the given sandbox, with a timeout and an output cap. */
export async function runConfined(
  sandbox: Sandbox,
  command: ConfinedCommand,
): Promise<CommandResult> {
  const [file, ...args] = commandArgv(sandbox, command) as [string, ...string[]];
  // The fallback's HOME is a host directory: the sandbox's user must be able to write it.
  if (sandbox.kind === 'process' && sandbox.hostUser !== undefined) {
    await mkdir(command.fallbackHome, { recursive: true });
    await handOverToSandbox(sandbox, command.fallbackHome);
  }
  return new Promise((resolve) => {
    const child = spawn(file, args, {
      cwd: command.cwd ?? command.fixtureDir,
      env: {},
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

/**
 * Prepare a directory redgreen made for a confined command to write in:
 * where confined commands run as another host user, the tree becomes that
 * user's (nothing changes otherwise).
 */
export async function handOverToSandbox(sandbox: Sandbox, dir: string): Promise<void> {
  if (sandbox.hostUser !== undefined) await handOverTree(dir, sandbox.hostUser);
}

/**
 * Take a directory back from the sandbox's user once its confined commands
 * have ended: everything redgreen then does there (snapshots, captures, a
 * person's look into a kept work dir) sees redgreen's own files again.
 */
async function handBackFromSandbox(sandbox: Sandbox, dir: string): Promise<void> {
  const uid = process.getuid?.();
  const gid = process.getgid?.();
  if (sandbox.hostUser !== undefined && uid !== undefined)
    await handOverTree(dir, { uid, gid: gid ?? uid });
}

/**
 * Run `work` (confined commands writing in `dirs`) with `dirs` handed over
 * to the sandbox's user, and taken back when it ends, however it ends.
 */
export async function whileHandedOver<T>(
  sandbox: Sandbox,
  dirs: readonly string[],
  work: () => Promise<T>,
): Promise<T> {
  for (const dir of dirs) await handOverToSandbox(sandbox, dir);
  try {
    return await work();
  } finally {
    for (const dir of dirs) await handBackFromSandbox(sandbox, dir);
  }
}

/**
 * Let the sandbox's host user pass through a private directory redgreen
 * made (a work root, 0700 from mkdtemp) to the mounts inside it: 0711, so it
 * can reach names it is given but list nothing.
 */
export async function openPathToSandbox(sandbox: Sandbox, dir: string): Promise<void> {
  if (sandbox.hostUser !== undefined) await chmod(dir, 0o711);
}

/** Whether a probe command runs in this sandbox (a fresh directory of the sandbox's, read-write). */
async function probe(sandbox: Sandbox): Promise<{ ok: boolean; problem: string }> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'redgreen-probe-'));
  try {
    await openPathToSandbox(sandbox, root);
    const dir = path.join(root, 'dir');
    await mkdir(dir);
    await handOverToSandbox(sandbox, dir);
    const result = await runConfined(sandbox, {
      argv: ['/bin/sh', '-c', 'echo ok > probe && cat probe'],
      fixtureDir: dir,
      readOnlyDirs: [],
      fallbackHome: dir,
      timeoutMs: 10_000,
      maxOutputBytes: 4096,
    });
    return {
      ok: result.exitCode === 0 && result.output.trim() === 'ok',
      problem: result.output.trim().split('\n')[0] ?? 'unknown error',
    };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

const CONFINED =
  'fixture read-write, skill read-only, system read-only, private /tmp and HOME, no network, no capabilities';

/**
 * The bubblewrap configurations to try, strongest first: started by root,
 * as the unprivileged user, then as root itself with capabilities dropped
 * (where no other user may create namespaces); each with user namespaces
 * disabled inside, then without (bubblewrap < 0.8).
 */
function candidates(): Sandbox[] {
  const users: (HostUser | undefined)[] = runsAsRoot()
    ? [UNPRIVILEGED_USER, undefined]
    : [undefined];
  const found: Sandbox[] = [];
  for (const hostUser of users) {
    for (const userNamespacesDisabled of [true, false]) {
      const who =
        hostUser !== undefined
          ? `run as uid ${hostUser.uid} (root-only host files unreadable)`
          : runsAsRoot()
            ? 'run as root with every capability dropped (no other user may create namespaces here, so root-only host files stay readable)'
            : 'run as this user';
      const userns = userNamespacesDisabled
        ? 'no user namespaces inside'
        : 'user namespaces inside not disabled (bubblewrap < 0.8)';
      found.push({
        kind: 'bubblewrap',
        description: `bubblewrap ${who}: ${CONFINED}, ${userns}, process/file-size/memory limits`,
        hostUser,
        userNamespacesDisabled,
      });
    }
  }
  return found;
}

/**
 * The confined child process, `why` saying why bubblewrap is not used.
 * Started by root, its commands run as the unprivileged host user when
 * setpriv can start them so (probed); else as root.
 */
async function processFallback(why: string): Promise<Sandbox> {
  if (runsAsRoot() && existsSync(SETPRIV)) {
    const asUser: Sandbox = {
      kind: 'process',
      description: `confined child process run as uid ${UNPRIVILEGED_USER.uid} with no capabilities (${why})`,
      hostUser: UNPRIVILEGED_USER,
    };
    if ((await probe(asUser)).ok) return asUser;
  }
  const asRoot = runsAsRoot() ? ', run as root: it can change any host file' : '';
  return { kind: 'process', description: `confined child process${asRoot} (${why})` };
}

let detected: Promise<Sandbox> | undefined;

/**
 * Pick the strongest sandbox this machine allows: bubblewrap when it is
 * installed and can create namespaces here (probed once, by writing and
 * reading a file inside it), else the confined child process.
 */
export function detectSandbox(): Promise<Sandbox> {
  detected ??= (async (): Promise<Sandbox> => {
    if (!existsSync(BWRAP))
      return processFallback(
        'bubblewrap not installed: no filesystem or network isolation; apt-get install bubblewrap',
      );
    // The strongest configuration's failure says best why none works.
    let problem: string | undefined;
    for (const candidate of candidates()) {
      const result = await probe(candidate);
      if (result.ok) return candidate;
      problem ??= result.problem;
    }
    return processFallback(
      `bubblewrap cannot create namespaces here: ${problem ?? 'unknown error'}`,
    );
  })();
  return detected;
}
