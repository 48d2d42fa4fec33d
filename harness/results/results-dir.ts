import { existsSync, statSync } from 'node:fs';
import { lstat, open, readdir, rm, truncate, unlink } from 'node:fs/promises';
import path from 'node:path';
import { containedDirectoryProblem, readRegularText } from '../lib/contained-file.js';
import { isDiskFull } from '../lib/disk-full.js';
import { type InputError, inputError } from '../lib/input-error.js';
import { checkOutputDir } from '../lib/output-dir.js';
import {
  identityAlive,
  ownIdentity,
  type ProcessIdentity,
  processIdentitySchema,
} from '../lib/process-identity.js';
import { err, ok, type Result } from '../lib/result.js';
import { repScoreSchema } from '../score/score-rep.js';
import { appendRepLine, type JournalContents, type JournalRepLine } from './rep-journal.js';
import { repMetaSchema } from './rep-meta.js';
import { REP_FILES, type ResultsLayout } from './results-layout.js';

/** True when `dir` does not exist or is an empty directory (but for the entries `allowed`). */
export async function isEmptyOrMissing(
  dir: string,
  allowed: readonly string[] = [],
): Promise<boolean> {
  if (!existsSync(dir)) return true;
  return (
    statSync(dir).isDirectory() &&
    (await readdir(dir)).filter((entry) => !allowed.includes(entry)).length === 0
  );
}

/**
 * Check a directory a new run or merge may create or fill: creatable, and new
 * or empty. `allowed`: entries this run put there itself (the campaign it
 * generated from a skill's evals), which do not make it a used directory.
 */
export async function checkFreshOutput(
  dir: string,
  input: string,
  resumeHint: boolean,
  allowed: readonly string[] = [],
): Promise<Result<void, InputError>> {
  const creatable = await checkOutputDir(dir, input);
  if (!creatable.ok) return creatable;
  if (!(await isEmptyOrMissing(dir, allowed))) {
    return err(
      inputError(
        input,
        `${dir} already exists and is not empty`,
        resumeHint
          ? 'choose a new directory, or continue it with --resume'
          : 'choose a new directory',
      ),
    );
  }
  return ok(undefined);
}

const LOCK_FILE = '.redgreen.lock';

/**
 * Refuse a results directory a live run holds, without taking it: for
 * commands that only read it (`merge`, `export --out` elsewhere), which must
 * not read a run's files half-written, and may read a directory they cannot
 * write.
 */
export async function refuseLockedResultsDir(root: string): Promise<Result<void, InputError>> {
  const file = path.join(root, LOCK_FILE);
  const holder = await liveLockHolder(file);
  return holder === undefined ? ok(undefined) : err(lockedError(root, holder, file));
}

/**
 * Who a lock file names: `{pid, started, boot}` (this redgreen), or a bare
 * pid (an older redgreen's lock, which cannot tell a reused pid apart).
 */
function lockHolder(text: string): ProcessIdentity | undefined {
  try {
    const parsed = processIdentitySchema.safeParse(JSON.parse(text));
    if (parsed.success) return parsed.data;
  } catch {
    // not JSON: an older lock with the pid alone
  }
  const pid = Number(text.trim());
  return Number.isInteger(pid) && pid > 0 ? { pid, started: null, boot: null } : undefined;
}

/**
 * The live process (not this one) a lock file names, if any: a pid alive
 * now but started at another time than the lock records (a reused pid, an
 * unrelated process) holds nothing.
 */
async function liveLockHolder(file: string): Promise<number | undefined> {
  const text = await readRegularText(file).catch(() => '');
  const holder = lockHolder(text);
  return holder !== undefined && holder.pid !== process.pid && identityAlive(holder)
    ? holder.pid
    : undefined;
}

function lockedError(root: string, holder: number, file: string): InputError {
  return inputError(
    root,
    `is locked by a running redgreen process (pid ${holder}, in ${file})`,
    'wait for that run to finish, or stop it first (a lock whose process is gone is taken over)',
  );
}

/**
 * Take the results directory for this process: one writer at a time (runs,
 * and the commands that rewrite its files: score, report). The lock records
 * this process's pid and start time; a lock left by a process that no longer
 * exists (killed), or whose pid now belongs to another process, is taken over.
 */
export async function lockResultsDir(
  root: string,
): Promise<Result<() => Promise<void>, InputError>> {
  const file = path.join(root, LOCK_FILE);
  for (let tries = 0; tries < 2; tries += 1) {
    try {
      const handle = await open(file, 'wx');
      await handle.writeFile(`${JSON.stringify(ownIdentity())}\n`);
      await handle.close();
      return ok(async () => {
        await unlink(file).catch(() => undefined);
      });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST') {
        return err(
          inputError(
            root,
            `cannot create its lock file ${LOCK_FILE} (${code})`,
            isDiskFull(error)
              ? 'free space on that disk, then run the command again'
              : 'check that the directory exists and is writable',
          ),
        );
      }
      const holder = await liveLockHolder(file);
      if (holder !== undefined) return err(lockedError(root, holder, file));
      await unlink(file).catch(() => undefined);
    }
  }
  return err(
    inputError(
      root,
      'could not take the results directory lock',
      'check that the directory is writable',
    ),
  );
}

/**
 * Why a recorded rep's directory must not be read (or written): a component
 * of its path is a symlink or not a directory. A results directory is
 * untrusted input: a symlinked `reps/<arm>` would have `report` embed, and
 * `score` write, files elsewhere. A missing directory is no problem here
 * (the readers report it as missing).
 */
export async function recordedRepDirProblem(
  root: string,
  line: Pick<JournalRepLine, 'dir'>,
): Promise<InputError | undefined> {
  const found = await containedDirectoryProblem(root, line.dir);
  if (found === undefined || found.absent) return undefined;
  return inputError(
    path.join(root, line.dir),
    `cannot be read as a rep directory: ${found.problem}`,
    'restore the rep directory as the run wrote it (redgreen follows no symlink in a results directory), or rerun that rep into a new directory',
  );
}

/**
 * Refuse to resume into a results directory whose `reps/` tree holds a
 * symlink where a directory belongs: the run would land reps elsewhere.
 */
export async function repsTreeProblem(layout: ResultsLayout): Promise<InputError | undefined> {
  const reps = await lstat(layout.repsDir).catch(() => undefined);
  const bad = (where: string): InputError =>
    inputError(
      where,
      'is a symlink or not a directory, where the run keeps its reps',
      'restore the results directory as the run wrote it, or start a new one',
    );
  if (reps === undefined) return undefined;
  if (!reps.isDirectory()) return bad(layout.repsDir);
  for (const top of await readdir(layout.repsDir, { withFileTypes: true })) {
    if (top.isSymbolicLink()) return bad(path.join(layout.repsDir, top.name));
    if (!top.isDirectory()) continue;
    for (const inner of await readdir(path.join(layout.repsDir, top.name), {
      withFileTypes: true,
    })) {
      if (inner.isSymbolicLink()) return bad(path.join(layout.repsDir, top.name, inner.name));
    }
  }
  return undefined;
}

/**
 * Cut a trailing partial line (a crash mid-append) off the journal, so the
 * next append starts on a line of its own.
 */
export async function repairJournalTail(journalFile: string): Promise<void> {
  const text = await readRegularText(journalFile);
  if (text === '' || text.endsWith('\n')) return;
  await truncate(journalFile, Buffer.byteLength(text.slice(0, text.lastIndexOf('\n') + 1), 'utf8'));
}

/**
 * Remove `.partial-*` rep directories a killed run left behind: they were
 * never recorded, no reader trusts them, and resuming runs those reps again.
 */
export async function removePartialRepDirs(repsDir: string): Promise<void> {
  for (const parent of await repParentDirs(repsDir)) {
    for (const entry of await readdir(path.join(repsDir, parent))) {
      if (entry.includes('.partial-'))
        await rm(path.join(repsDir, parent, entry), { recursive: true, force: true });
    }
  }
}

const REP_DIR_NAME = /^[a-z0-9-]+-rep\d+(\.attempt\d+)?$/;

/**
 * The directories under reps/ that hold rep directories, relative to it:
 * `<arm>`, or `<model>/<arm>` in a campaign of several models.
 */
async function repParentDirs(repsDir: string): Promise<string[]> {
  if (!existsSync(repsDir)) return [];
  const parents: string[] = [];
  for (const top of await readdir(repsDir, { withFileTypes: true })) {
    if (!top.isDirectory()) continue;
    parents.push(top.name);
    for (const inner of await readdir(path.join(repsDir, top.name), { withFileTypes: true })) {
      // An arm directory under a model directory; rep directories themselves are not parents.
      if (inner.isDirectory() && !REP_DIR_NAME.test(inner.name) && !inner.name.includes('.'))
        parents.push(path.join(top.name, inner.name));
    }
  }
  return parents;
}

/**
 * Record attempts whose directory landed whole but whose journal line a crash
 * prevented (the window between the rename and the append): their meta.json
 * and score.json are complete, so they are appended to the journal instead of
 * being run again. Returns how many were adopted.
 */
export async function adoptLandedReps(
  layout: ResultsLayout,
  journal: JournalContents,
): Promise<number> {
  const recorded = new Set(journal.lines.map((line) => line.dir));
  let adopted = 0;
  for (const parent of await repParentDirs(layout.repsDir)) {
    for (const entry of (await readdir(path.join(layout.repsDir, parent))).sort()) {
      if (!REP_DIR_NAME.test(entry)) continue;
      const dir = path.join('reps', parent, entry);
      if (recorded.has(dir)) continue;
      try {
        const meta = repMetaSchema.parse(
          JSON.parse(await readRegularText(path.join(layout.root, dir, REP_FILES.meta))),
        );
        const score = repScoreSchema.parse(
          JSON.parse(await readRegularText(path.join(layout.root, dir, REP_FILES.score))),
        );
        const model = meta.model.name ?? null;
        if (
          layout.attemptDir(meta.arm, meta.scenario, meta.rep, meta.attempt, model) !==
          path.join(layout.root, dir)
        )
          continue;
        await appendRepLine(layout.journalFile, {
          type: 'rep',
          id: meta.id,
          arm: meta.arm,
          scenario: meta.scenario,
          ...(model === null ? {} : { model }),
          rep: meta.rep,
          attempt: meta.attempt,
          status: meta.status.kind,
          verdict: score.verdict,
          toolUses: meta.toolUses,
          dir,
        });
        adopted += 1;
      } catch {
        // Not a complete attempt: leave it where it is; the rep runs again and lands beside it.
      }
    }
  }
  return adopted;
}
