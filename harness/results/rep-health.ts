import { access } from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';
import { snapshotSchema } from '../fixture/index.js';
import { IrregularFileError, readRegularText } from '../lib/contained-file.js';
import { describeError } from '../lib/describe-error.js';
import type { ScheduledRep } from '../schedule/schedule.js';
import { scoreOfAnyVersionSchema } from '../score/score-rep.js';
import { type JournalRepLine, readJournal } from './rep-journal.js';
import { repMetaSchema } from './rep-meta.js';
import { REP_FILES } from './results-layout.js';

/** The files a recorded rep needs to be reported and rescored, with what each must hold. */
const REQUIRED: readonly { readonly file: string; readonly schema?: z.ZodType }[] = [
  { file: REP_FILES.meta, schema: repMetaSchema },
  // An older redgreen's score.json is stale, not damaged: `redgreen score` rebuilds it.
  { file: REP_FILES.score, schema: scoreOfAnyVersionSchema },
  { file: REP_FILES.reply },
  { file: REP_FILES.transcript },
  { file: REP_FILES.snapshotBefore, schema: snapshotSchema },
  { file: REP_FILES.snapshotAfter, schema: snapshotSchema },
];

/** A damaged file of a recorded rep: which file (`.` for the directory), and what is wrong, as a phrase. */
export interface RepDamage {
  readonly file: string;
  /** e.g. `reply.md is missing`, `score.json is corrupt (verdict: ...)`. */
  readonly problem: string;
}

/**
 * What, if anything, is missing or unreadable in a recorded rep's directory
 * (the first problem found), so a resume can rerun it instead of trusting a
 * journal line whose files are gone.
 */
export async function repDamage(repDir: string): Promise<RepDamage | undefined> {
  try {
    await access(repDir);
  } catch {
    return { file: '.', problem: `the rep directory ${path.basename(repDir)} is missing` };
  }
  for (const { file, schema } of REQUIRED) {
    let text: string;
    try {
      text = await readRegularText(path.join(repDir, file));
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      return {
        file,
        problem:
          code === 'ENOENT'
            ? `${file} is missing`
            : `${file} is unreadable (${error instanceof IrregularFileError ? error.message : code})`,
      };
    }
    if (schema === undefined) continue;
    try {
      schema.parse(JSON.parse(text));
    } catch (error) {
      return { file, problem: `${file} is corrupt (${describeError(error)})` };
    }
  }
  return undefined;
}

/** A rep of the schedule a run still has to run, and the attempt number it gets. */
export interface PendingRep {
  readonly rep: ScheduledRep;
  readonly attempt: number;
  /** Set when the rep is recorded but its files are damaged: it runs again as a new attempt. */
  readonly damage?: RepDamage;
}

/**
 * Which reps of `schedule` a run into `root` still has to run: those the journal
 * lacks (attempt 1), and those it records whose files are missing or
 * unreadable (the next attempt; the damaged attempt's directory is kept, and
 * the new attempt's journal line supersedes it).
 */
export async function pendingReps(
  root: string,
  schedule: readonly ScheduledRep[],
): Promise<{ readonly pending: readonly PendingRep[]; readonly recorded: number }> {
  const journal = await readJournal(path.join(root, 'ledger.jsonl'));
  const lines: ReadonlyMap<string, JournalRepLine> = journal.ok ? journal.value.reps : new Map();
  const pending: PendingRep[] = [];
  let recorded = 0;
  for (const rep of schedule) {
    const line = lines.get(rep.id);
    if (line === undefined) {
      pending.push({ rep, attempt: 1 });
      continue;
    }
    const damage = await repDamage(path.join(root, line.dir));
    if (damage === undefined) recorded += 1;
    else pending.push({ rep, attempt: line.attempt + 1, damage });
  }
  return { pending, recorded };
}
