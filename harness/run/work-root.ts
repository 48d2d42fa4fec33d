import { lstat, mkdtemp, readdir, readFile, readlink, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { type InputError, inputError } from '../lib/input-error.js';
import { identityAlive, ownIdentity, processIdentitySchema } from '../lib/process-identity.js';
import { removeTree } from '../lib/remove-tree.js';
import { err, ok, type Result } from '../lib/result.js';

/**
 * A run's private work directory, `$TMPDIR/redgreen-run-XXXXXX`: fixture
 * variants, and per rep the fixture copy, skill copy, HOME and TMPDIR. The
 * run removes it at the end; a run killed with SIGKILL cannot, so each work
 * root names its owner (pid and process start time) in `owner.json`, and the
 * next run removes the work roots whose owner is gone.
 *
 * A work root without an owner file (made by a redgreen from before owner
 * files, or by a run killed between creating it and writing the file) cannot
 * say whose it is. It is removed only when it is this user's, untouched for
 * a day, and no process works in it (no process's working directory, root or
 * open file is inside it, as /proc shows); the others are left, and the run
 * names them with the command that removes them.
 */
const PREFIX = 'redgreen-run-';
const NAME = /^redgreen-run-[A-Za-z0-9]{6}$/;
const OWNER_FILE = 'owner.json';

const ownerSchema = processIdentitySchema
  .extend({
    /** Kept on purpose (--keep-workdirs): never removed as stale. */
    keep: z.boolean(),
  })
  .strict();
type Owner = z.infer<typeof ownerSchema>;

/**
 * Check, before any work, that `$TMPDIR` (or the system default) can hold a
 * work root: make one and remove it. The error names TMPDIR and the fix.
 */
export async function checkTempRoot(
  env: NodeJS.ProcessEnv = process.env,
): Promise<Result<void, InputError>> {
  const tmp = os.tmpdir();
  try {
    await rm(await mkdtemp(path.join(tmp, PREFIX)), { recursive: true, force: true });
    return ok(undefined);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? String(error);
    return err(
      inputError(
        env.TMPDIR === undefined ? `TMPDIR (unset, so ${tmp})` : `TMPDIR=${env.TMPDIR}`,
        `redgreen cannot make its work directory there (${code})`,
        'set TMPDIR to an existing directory you can write, or unset it to use /tmp',
      ),
    );
  }
}

/** Create this run's work root and record its owner; `keep` marks one the user keeps. */
export async function createWorkRoot(keep: boolean): Promise<string> {
  const root = await mkdtemp(path.join(os.tmpdir(), PREFIX));
  const owner: Owner = { ...ownIdentity(), keep };
  await writeFile(path.join(root, OWNER_FILE), `${JSON.stringify(owner)}\n`);
  return root;
}

/** How long a work root without an owner file must lie untouched before it is removed. */
const UNOWNED_MIN_AGE_MS = 24 * 60 * 60 * 1000;

/**
 * Whether a live process works in `dir`: its working directory, root or an
 * open file is inside it (/proc; processes this user cannot inspect cannot
 * enter a work root, which only its owner may). Undefined where /proc cannot
 * tell.
 */
async function inUse(dir: string): Promise<boolean | undefined> {
  let pids: string[];
  try {
    pids = (await readdir('/proc')).filter((entry) => /^\d+$/.test(entry));
  } catch {
    return undefined;
  }
  const inside = (target: string | undefined): boolean =>
    target !== undefined && (target === dir || target.startsWith(`${dir}/`));
  for (const pid of pids) {
    const links = [`/proc/${pid}/cwd`, `/proc/${pid}/root`];
    const fds = await readdir(`/proc/${pid}/fd`).catch(() => [] as string[]);
    links.push(...fds.map((fd) => `/proc/${pid}/fd/${fd}`));
    for (const link of links) {
      if (inside(await readlink(link).catch(() => undefined))) return true;
    }
  }
  return false;
}

export interface StaleWorkRoots {
  /** Work roots of killed runs, removed. */
  readonly removed: readonly string[];
  /** Work roots without an owner file that were left: younger than a day, or in use. */
  readonly unowned: readonly string[];
}

/** Remove a stale work root; false when that failed (it stays for a later run: never an error). */
async function removedQuietly(dir: string): Promise<boolean> {
  try {
    await removeTree(dir);
    return true;
  } catch {
    return false;
  }
}

/**
 * Remove the work roots in `$TMPDIR` left by runs that were killed. Only a
 * real directory (not a symlink) of this user, named as redgreen names them,
 * is considered: one whose `owner.json` names a process that is gone is
 * removed; one kept with --keep-workdirs is left; one without a readable
 * owner file is removed only when it is a day old and unused (see above),
 * else left and listed. A removal that fails (an engine its killed owner
 * left behind still writing in it) is skipped, never an error: the dir stays
 * for a later run; sweeping is housekeeping.
 */
export async function removeStaleWorkRoots(
  tmp: string = os.tmpdir(),
  now: number = Date.now(),
): Promise<StaleWorkRoots> {
  let entries: string[];
  try {
    entries = await readdir(tmp);
  } catch {
    return { removed: [], unowned: [] };
  }
  const uid = process.getuid?.();
  const removed: string[] = [];
  const unowned: string[] = [];
  for (const entry of entries) {
    if (!NAME.test(entry)) continue;
    const dir = path.join(tmp, entry);
    const stats = await lstat(dir).catch(() => undefined);
    if (stats === undefined || !stats.isDirectory()) continue;
    if (uid !== undefined && stats.uid !== uid) continue;
    let owner: Owner;
    try {
      owner = ownerSchema.parse(JSON.parse(await readFile(path.join(dir, OWNER_FILE), 'utf8')));
    } catch {
      if (
        now - stats.mtimeMs >= UNOWNED_MIN_AGE_MS &&
        (await inUse(dir)) === false &&
        (await removedQuietly(dir))
      ) {
        removed.push(dir);
      } else {
        unowned.push(dir);
      }
      continue;
    }
    if (owner.keep || owner.pid === process.pid || identityAlive(owner)) continue;
    if (await removedQuietly(dir)) removed.push(dir);
  }
  return { removed, unowned };
}
