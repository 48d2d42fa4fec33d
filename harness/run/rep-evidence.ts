/**
 * What the runner captures for a rep's checks, beside the snapshots and the
 * transcript, so that scoring (and every rescore) reads everything from the
 * rep's directory:
 *
 * - before the session: the text of the files the pre-checks read, and the
 *   outcomes of the pre-checks' commands, run on a throwaway copy of the
 *   fixture; a pre-check that does not pass stops the rep before its
 *   session (nothing is spent on a wrong fixture);
 * - after it: the text of every file the session added or modified and of
 *   every file a check names, and the outcomes of the checks' commands, run
 *   in the same sandbox as the model's tools; and, added to the files from
 *   before the session, the earlier text of every file it modified or
 *   removed (what a judge's diff shows).
 *
 * Files are read without following symlinks and never outside the
 * repository; a file too large or not UTF-8 text is recorded as omitted.
 */
import { constants } from 'node:fs';
import { lstat, mkdir, open, readdir, realpath, rm } from 'node:fs/promises';
import path from 'node:path';
import { copyFixture, diffSnapshots, type Snapshot } from '../fixture/index.js';
import { runConfined, type Sandbox, whileHandedOver } from '../sandbox/sandbox.js';
import type { ResolvedScenario } from '../scenario/resolve-scenario.js';
import { evaluateCheck } from '../score/evaluate.js';
import type { CapturedFile, CapturedFiles, CommandOutcome } from '../score/evidence.js';
import { commandsNeeded, filesNeeded } from '../score/evidence-needs.js';
import type { Facts } from '../score/placeholders.js';

/** The most text kept per file, and per rep. */
const FILE_CAP_BYTES = 256 * 1024;
const REP_CAP_BYTES = 4 * 1024 * 1024;
const COMMAND_OUTPUT_BYTES = 16 * 1024;
const COMMAND_TAIL = 2000;

async function readCapped(
  repository: string,
  root: string,
  repoPath: string,
): Promise<CapturedFile> {
  const target = path.join(repository, repoPath);
  const parent = await realpath(path.dirname(target)).catch(() => undefined);
  if (parent === undefined || (parent !== root && !parent.startsWith(`${root}${path.sep}`))) {
    return { omitted: 'outside the repository (a symlinked directory)' };
  }
  const stat = await lstat(target).catch(() => undefined);
  if (stat === undefined) return { omitted: 'absent' };
  if (!stat.isFile())
    return { omitted: stat.isSymbolicLink() ? 'a symlink (not followed)' : 'not a regular file' };
  if (stat.size > FILE_CAP_BYTES) return { omitted: `larger than ${FILE_CAP_BYTES / 1024} KB` };
  const handle = await open(target, constants.O_RDONLY | constants.O_NOFOLLOW).catch(
    () => undefined,
  );
  if (handle === undefined) return { omitted: 'unreadable' };
  try {
    const buffer = Buffer.alloc(FILE_CAP_BYTES + 1);
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    if (bytesRead > FILE_CAP_BYTES) return { omitted: `larger than ${FILE_CAP_BYTES / 1024} KB` };
    const bytes = buffer.subarray(0, bytesRead);
    if (bytes.includes(0)) return { omitted: 'binary' };
    try {
      return { text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
    } catch {
      return { omitted: 'not UTF-8 text' };
    }
  } finally {
    await handle.close();
  }
}

/**
 * The text of `paths` in the repository at `repoDir`, within the per-rep
 * budget. With `besideRoot` the fixture root is the repository's parent
 * (worktrees beside it), and `../<path>` is read there too; never above it.
 */
export async function captureFiles(
  repoDir: string,
  paths: readonly string[],
  besideRoot = false,
): Promise<CapturedFiles> {
  // Beside its worktrees the repository is a directory of the session's fixture root, which the
  // session may have replaced with a symlink: the root is resolved, the repository never followed.
  const root = await realpath(besideRoot ? path.dirname(repoDir) : repoDir);
  const repository = besideRoot ? path.join(root, path.basename(repoDir)) : root;
  // Entries, not assignments: a repository may hold a file named `__proto__`.
  const files: [string, CapturedFile][] = [];
  let spent = 0;
  for (const repoPath of [...new Set(paths)].sort()) {
    if (spent > REP_CAP_BYTES) {
      files.push([repoPath, { omitted: 'the rep capture budget was spent' }]);
      continue;
    }
    const captured = await readCapped(repository, root, repoPath);
    if ('text' in captured) spent += Buffer.byteLength(captured.text);
    files.push([repoPath, captured]);
  }
  return { schemaVersion: 1, files: Object.fromEntries(files) };
}

/**
 * What a check command's environment fixes whatever the work tree says: npm's
 * script shell and node options (a project `.npmrc` with
 * `script-shell=/bin/true` made a broken suite pass; the user config is the
 * sandbox's empty HOME's), and git's repository programs switched off.
 */
export const CHECK_ENVIRONMENT: Readonly<Record<string, string>> = {
  npm_config_script_shell: '/bin/sh',
  npm_config_node_options: '',
  GIT_CONFIG_COUNT: '2',
  GIT_CONFIG_KEY_0: 'core.fsmonitor',
  GIT_CONFIG_VALUE_0: 'false',
  GIT_CONFIG_KEY_1: 'core.hooksPath',
  GIT_CONFIG_VALUE_1: '/dev/null',
};

/** A program npm puts first on a script's PATH, in any package directory of the tree. */
const NPM_BIN = /^(?:.*\/)?node_modules\/\.bin\/[^/]+$/;

/** Whether `file` is `dir` or inside it. */
function within(file: string, dir: string): boolean {
  return file === dir || file.startsWith(`${dir}${path.sep}`);
}

/** Where a check's programs may come from that the session or the skill under test made. */
interface UntrustedPlaces {
  /** The repository, symlinks resolved. */
  readonly root: string;
  /** The read-only mounts (the skill copy), symlinks resolved. */
  readonly readOnly: readonly string[];
  readonly planted: ReadonlySet<string>;
}

/** The file a program entry runs, when it is one inside the fixture or a read-only mount. */
async function untrustedFile(places: UntrustedPlaces, entry: string): Promise<string | undefined> {
  const target = await realpath(entry).catch(() => undefined);
  // A link to a system program runs that program; a dangling link runs nothing.
  if (target === undefined || !(await lstat(target)).isFile()) return undefined;
  const inside = within(target, places.root) || places.readOnly.some((dir) => within(target, dir));
  return inside ? target : undefined;
}

/**
 * The programs of the directory npm puts first on a script's PATH at the
 * top of the repository (`node_modules/.bin`, as the shell reaches it,
 * symlinks followed) that a check must not run: every one the session
 * planted or changed (the entry, or the file it links to); and every one,
 * when the session made that directory somewhere else (a symlinked
 * `node_modules` or `.bin`) inside the fixture or a read-only mount such as
 * the skill copy. A directory that resolves outside those is the system's
 * (or the sandbox's empty /tmp).
 */
async function untrustedPrograms(places: UntrustedPlaces): Promise<string[]> {
  const { root } = places;
  const binDir = await realpath(path.join(root, 'node_modules', '.bin')).catch(() => undefined);
  if (binDir === undefined) return [];
  const inFixture = within(binDir, root);
  if (!inFixture && !places.readOnly.some((dir) => within(binDir, dir))) return [];
  const moved = binDir !== path.join(root, 'node_modules', '.bin');
  const changed = (file: string): boolean =>
    !within(file, root) || places.planted.has(path.relative(root, file).split(path.sep).join('/'));
  const programs: string[] = [];
  for (const entry of await readdir(binDir).catch(() => [] as string[])) {
    const program = path.join(binDir, entry);
    const target = await untrustedFile(places, program);
    if (target === undefined) continue;
    if (moved || !inFixture || changed(program) || changed(target)) programs.push(target);
  }
  return programs;
}

/**
 * What a check command must not see of the work tree: the project's
 * `.npmrc`, and every program the session planted or changed where npm puts
 * it first on a script's PATH (`untrustedPrograms`, and a planted
 * `node_modules/.bin/` program of any package directory, for a check that
 * runs npm there): the shell then finds the system's program of that name,
 * as before the session. Each is covered by an empty file, so only files
 * (symlinks resolved) are named.
 */
export async function hiddenFromChecks(
  repoDir: string,
  planted: readonly string[],
  readOnlyDirs: readonly string[] = [],
): Promise<string[]> {
  const root = await realpath(repoDir).catch(() => undefined);
  if (root === undefined) return [];
  const places: UntrustedPlaces = {
    root,
    readOnly: await Promise.all(readOnlyDirs.map((dir) => realpath(dir).catch(() => dir))),
    planted: new Set(planted),
  };
  const hidden: string[] = [];
  const npmrc = await untrustedFile(places, path.join(root, '.npmrc'));
  if (npmrc !== undefined) hidden.push(npmrc);
  for (const repoPath of planted.filter((file) => NPM_BIN.test(file))) {
    const program = await untrustedFile(places, path.join(root, repoPath));
    if (program !== undefined) hidden.push(program);
  }
  hidden.push(...(await untrustedPrograms(places)));
  return [...new Set(hidden)];
}

/** Run commands confined like the model's tools, recording each outcome. */
export async function runCheckCommands(
  sandbox: Sandbox,
  phase: 'pre' | 'post',
  commands: readonly { command: string; timeoutSeconds: number }[],
  place: {
    readonly repoDir: string;
    readonly readOnlyDirs: readonly string[];
    readonly home: string;
    /** Repository paths the session added or modified (after it), for `hiddenFromChecks`. */
    readonly planted?: readonly string[];
  },
): Promise<CommandOutcome[]> {
  const outcomes: CommandOutcome[] = [];
  if (commands.length === 0) return outcomes;
  await mkdir(place.home, { recursive: true });
  const hidden = await hiddenFromChecks(place.repoDir, place.planted ?? [], place.readOnlyDirs);
  // The commands may write in the repository (a suite's temp files), as the sandbox's user.
  await whileHandedOver(sandbox, [place.repoDir], async () => {
    for (const { command, timeoutSeconds } of commands) {
      const started = performance.now();
      const result = await runConfined(sandbox, {
        argv: ['bash', '-c', command],
        fixtureDir: place.repoDir,
        readOnlyDirs: place.readOnlyDirs,
        fallbackHome: place.home,
        timeoutMs: timeoutSeconds * 1000,
        maxOutputBytes: COMMAND_OUTPUT_BYTES,
        env: CHECK_ENVIRONMENT,
        hidden,
      });
      outcomes.push({
        phase,
        command,
        started: result.exitCode !== 126 && result.exitCode !== 127,
        exitCode: result.exitCode,
        timedOut: result.timedOut,
        durationMs: Math.round(performance.now() - started),
        output: result.output.slice(-COMMAND_TAIL),
      });
    }
  });
  return outcomes;
}

export interface PreEvidence {
  readonly files: CapturedFiles;
  readonly commands: readonly CommandOutcome[];
  /** Details of the pre-checks that did not pass; empty when the rep may run. */
  readonly problems: readonly string[];
}

/**
 * Capture what the pre-checks read from the rep's fixture copy (its commands
 * run on a throwaway copy, so they cannot change what the session sees), and
 * judge the pre-checks.
 */
export async function capturePreEvidence(
  scenario: ResolvedScenario,
  facts: Facts,
  rep: {
    readonly repoDir: string;
    readonly before: Snapshot;
    readonly sandbox: Sandbox;
    readonly readOnlyDirs: readonly string[];
    readonly scratchDir: string;
  },
): Promise<PreEvidence> {
  const compiled = scenario.compiled;
  const files = await captureFiles(
    rep.repoDir,
    filesNeeded(compiled, 'pre', facts, rep.before.start),
    rep.before.fixtureRoot === 'parent',
  );
  const needed = commandsNeeded(compiled, 'pre', facts);
  let commands: CommandOutcome[] = [];
  if (needed.length > 0) {
    const copy = path.join(rep.scratchDir, 'pre-check-repo');
    await rm(copy, { recursive: true, force: true });
    const copied = await copyFixture(rep.repoDir, copy);
    if (!copied.ok)
      throw new Error(`copying the fixture for pre-checks failed: ${copied.error.problem}`);
    try {
      commands = await runCheckCommands(rep.sandbox, 'pre', needed, {
        repoDir: copy,
        readOnlyDirs: rep.readOnlyDirs,
        home: path.join(rep.scratchDir, 'pre-check-home'),
      });
    } finally {
      await rm(copy, { recursive: true, force: true });
    }
  }
  const evidence = { before: rep.before, after: rep.before, contents: files.files, commands };
  const problems = compiled.pre
    .map((node) => evaluateCheck(node, evidence, facts))
    .filter((result) => result.outcome !== 'pass')
    .map((result) => result.detail);
  return { files, commands, problems };
}

/**
 * The text before the session of every file it modified or removed, read
 * from the pristine fixture variant the rep was copied from, so a judge (and
 * a reader) sees what changed in those files, not only what they hold now.
 */
export async function captureChangedBefore(
  variantDir: string,
  before: Snapshot,
  after: Snapshot,
): Promise<CapturedFiles> {
  const changed = diffSnapshots(before, after)
    .fileChanges.filter((change) => change.kind !== 'added')
    .map((change) => change.path);
  return captureFiles(variantDir, changed);
}

/**
 * After the session: the text of every file it added or modified and of the
 * files the checks name, and the checks' commands run on the repository.
 */
export async function capturePostEvidence(
  scenario: ResolvedScenario,
  facts: Facts,
  rep: {
    readonly repoDir: string;
    readonly before: Snapshot;
    readonly after: Snapshot;
    readonly sandbox: Sandbox;
    readonly readOnlyDirs: readonly string[];
    readonly scratchDir: string;
  },
): Promise<{ files: CapturedFiles; commands: CommandOutcome[] }> {
  const changed = diffSnapshots(rep.before, rep.after)
    .fileChanges.filter((change) => change.kind !== 'removed')
    .map((change) => change.path);
  const files = await captureFiles(
    rep.repoDir,
    [...changed, ...filesNeeded(scenario.compiled, 'post', facts, rep.before.start)],
    rep.before.fixtureRoot === 'parent',
  );
  const commands = await runCheckCommands(
    rep.sandbox,
    'post',
    commandsNeeded(scenario.compiled, 'post', facts),
    {
      repoDir: rep.repoDir,
      readOnlyDirs: rep.readOnlyDirs,
      home: path.join(rep.scratchDir, 'post-check-home'),
      planted: changed,
    },
  );
  return { files, commands };
}
