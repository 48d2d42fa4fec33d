import { existsSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { appendLineDurable, writeFileAtomic } from '../lib/atomic-write.js';
import { readRegularText } from '../lib/contained-file.js';
import { describeError } from '../lib/describe-error.js';

/**
 * `ledger.jsonl`: the record of which reps of a campaign run are finished.
 * Its first line names the campaign identity; then one line per finished
 * rep attempt, appended with a single durable write once the rep's directory
 * is complete. A crash can lose only reps in flight; a trailing partial line
 * (a crash mid-append) is ignored on reading.
 */
export const journalHeaderSchema = z
  .object({
    type: z.literal('campaign'),
    identity: z.string().regex(/^[0-9a-f]{64}$/),
    campaign: z.string(),
    harness: z.string(),
  })
  .strict();

/** An arm, scenario or model name as a campaign file allows it: nothing that could name another directory. */
const NAME = /^[a-z0-9][a-z0-9-]*$/;

/**
 * Where a rep attempt's directory is, relative to the results directory:
 * `reps/[<model>/]<arm>/<scenario>-rep<N>[.attempt<k>]` (results-layout.ts).
 */
export function repDirOf(line: {
  readonly arm: string;
  readonly scenario: string;
  readonly model?: string | undefined;
  readonly rep: number;
  readonly attempt: number;
}): string {
  return [
    'reps',
    ...(line.model === undefined ? [] : [line.model]),
    line.arm,
    `${line.scenario}-rep${line.rep}${line.attempt === 1 ? '' : `.attempt${line.attempt}`}`,
  ].join('/');
}

export const journalRepLineSchema = z
  .object({
    type: z.literal('rep'),
    id: z.string(),
    arm: z.string().regex(NAME),
    scenario: z.string().regex(NAME),
    /** The model's name, in a campaign of several models (absent: its only model). */
    model: z.string().regex(NAME).optional(),
    rep: z.number().int().positive(),
    attempt: z.number().int().positive(),
    status: z.enum(['completed', 'indeterminate']),
    verdict: z.enum(['pass', 'fail', 'indeterminate']),
    toolUses: z.number().int().nonnegative(),
    /**
     * The attempt's directory: exactly where the layout puts it (a results
     * directory is untrusted input; a line naming `../../elsewhere` would have
     * `score` write there and `merge` copy it).
     */
    dir: z.string(),
    /** Set on a line appended when a rescore (`redgreen score`, or the run once its judge decided part of the verdict) changed the verdict. */
    rescored: z.literal(true).optional(),
  })
  .strict()
  .superRefine((line, context) => {
    const expected = repDirOf(line);
    if (line.dir.split(path.sep).join('/') !== expected) {
      context.addIssue({
        code: 'custom',
        path: ['dir'],
        message: `is ${JSON.stringify(line.dir)}, not where its rep lives (${expected})`,
      });
    }
  });

export type JournalHeader = z.infer<typeof journalHeaderSchema>;
export type JournalRepLine = z.infer<typeof journalRepLineSchema>;

export interface JournalContents {
  readonly header: JournalHeader;
  /** The newest attempt of each rep, by rep id (its last line: a rescore's, if any). */
  readonly reps: ReadonlyMap<string, JournalRepLine>;
  /** Every rep line, in order (superseded attempts included). */
  readonly lines: readonly JournalRepLine[];
}

export type JournalReadError =
  | { readonly kind: 'missing' }
  | { readonly kind: 'corrupt'; readonly line: number; readonly detail: string };

export async function readJournal(
  journalPath: string,
): Promise<{ ok: true; value: JournalContents } | { ok: false; error: JournalReadError }> {
  if (!existsSync(journalPath)) return { ok: false, error: { kind: 'missing' } };
  let text: string;
  try {
    text = await readRegularText(journalPath);
  } catch (error) {
    return { ok: false, error: { kind: 'corrupt', line: 1, detail: describeError(error) } };
  }
  // The last element is '' after a final newline, or a partial line a crash left: drop it.
  const complete = text.split('\n').slice(0, -1);
  const first = complete[0];
  if (first === undefined)
    return { ok: false, error: { kind: 'corrupt', line: 1, detail: 'no header line' } };
  let header: JournalHeader;
  try {
    header = journalHeaderSchema.parse(JSON.parse(first));
  } catch (error) {
    return {
      ok: false,
      error: { kind: 'corrupt', line: 1, detail: describeError(error) },
    };
  }
  const lines: JournalRepLine[] = [];
  const reps = new Map<string, JournalRepLine>();
  for (let index = 1; index < complete.length; index += 1) {
    const raw = complete[index] ?? '';
    if (raw.trim() === '') continue;
    try {
      const line = journalRepLineSchema.parse(JSON.parse(raw));
      lines.push(line);
      const previous = reps.get(line.id);
      // A later line of the same attempt (a rescore's) supersedes the earlier one.
      if (previous === undefined || previous.attempt <= line.attempt) reps.set(line.id, line);
    } catch (error) {
      return {
        ok: false,
        error: { kind: 'corrupt', line: index + 1, detail: describeError(error) },
      };
    }
  }
  return { ok: true, value: { header, reps, lines } };
}

export async function createJournal(journalPath: string, header: JournalHeader): Promise<void> {
  await writeFileAtomic(journalPath, `${JSON.stringify(journalHeaderSchema.parse(header))}\n`);
}

export async function appendRepLine(journalPath: string, line: JournalRepLine): Promise<void> {
  await appendLineDurable(journalPath, JSON.stringify(journalRepLineSchema.parse(line)));
}
