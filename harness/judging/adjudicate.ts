/**
 * `redgreen adjudicate`: a person settles, one rep at a time, what the checks
 * and the judge could not: each disagreement and each indeterminate rep
 * (adjudication-queue.ts). Each decision is written to overrides.json at once
 * (atomically, keeping every other entry) with the verdict, the reason, who
 * decided and when, so a walk-through stopped at any point resumes where it
 * stopped. Decisions come from the keyboard or, without a terminal, from a
 * decisions file:
 *
 *     { "red/s1-rep3": { "verdict": "pass", "reason": "…" },
 *       "green/s2-rep1": { "verdict": "skip" } }
 */
import { execFile } from 'node:child_process';
import { constants, existsSync } from 'node:fs';
import { access, readFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { z } from 'zod';
import { type Override, overridesSchema, readOverrides } from '../judge/overrides.js';
import { writeFileAtomic } from '../lib/atomic-write.js';
import { type InputError, inputError } from '../lib/input-error.js';
import { err, ok, type Result } from '../lib/result.js';
import { inputErrorFromZod } from '../lib/zod-input-error.js';
import type { QueuedRep } from './adjudication-queue.js';

export type Decision =
  | { readonly verdict: 'pass' | 'fail'; readonly reason: string }
  | { readonly verdict: 'skip' }
  | { readonly verdict: 'quit' };

const decisionSchema = z
  .object({
    verdict: z.enum(['pass', 'fail', 'skip']),
    reason: z.string().regex(/\S/, 'must not be blank').optional(),
  })
  .strict()
  .refine((decision) => decision.verdict === 'skip' || decision.reason !== undefined, {
    message: 'give a reason for a pass or a fail',
    path: ['reason'],
  });

const repIdsSchema = z.record(
  z.string().regex(/^[a-z][a-z0-9-]*\/[a-z0-9][a-z0-9-]*-rep\d+$/, 'rep ids look like red/s1-rep3'),
  z.unknown(),
);
export const decisionsFileSchema = z.record(z.string(), decisionSchema);
export type DecisionsFile = z.infer<typeof decisionsFileSchema>;

/**
 * Read a decisions file: JSON whose keys are rep ids. Each decision is
 * validated by checkDecisions, after its rep is known to be one the
 * walk-through asks about (a typo in a rep id is said first, never as a
 * missing reason).
 */
export async function readDecisionsFile(
  file: string,
): Promise<Result<Record<string, unknown>, InputError>> {
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return err(
      inputError(
        `--decisions ${file}`,
        code === undefined
          ? `is not valid JSON (${(error as Error).message})`
          : `cannot be read (${code})`,
        'give a JSON file of rep id → { "verdict": "pass" | "fail" | "skip", "reason": "…" }',
      ),
    );
  }
  const parsed = repIdsSchema.safeParse(json);
  return parsed.success
    ? ok(parsed.data)
    : err(inputErrorFromZod(`--decisions ${file}`, parsed.error));
}

/**
 * Check a decisions file against the queue: every rep it names must be one
 * the walk-through asks about, or one already settled (kept as it is); then
 * each decision must be valid (a pass or a fail has a reason).
 */
export function checkDecisions(
  file: string,
  raw: Readonly<Record<string, unknown>>,
  queue: readonly QueuedRep[],
  settled: ReadonlySet<string>,
): Result<
  { readonly decisions: DecisionsFile; readonly alreadySettled: readonly string[] },
  InputError
> {
  const asked = new Set(queue.map((rep) => rep.id));
  const alreadySettled: string[] = [];
  for (const id of Object.keys(raw)) {
    if (asked.has(id)) continue;
    if (settled.has(id)) {
      alreadySettled.push(id);
      continue;
    }
    return err(
      inputError(
        `--decisions ${file}: ${id}`,
        'is neither a disagreement between checks and judge nor an indeterminate rep of this run',
        `decide only the reps \`redgreen adjudicate\` lists${
          queue.length === 0
            ? ' (none is left)'
            : ` (${queue
                .map((rep) => rep.id)
                .slice(0, 5)
                .join(', ')}${queue.length > 5 ? ', …' : ''})`
        }; override any other rep by editing overrides.json by hand`,
      ),
    );
  }
  const parsed = decisionsFileSchema.safeParse(raw);
  if (!parsed.success) return err(inputErrorFromZod(`--decisions ${file}`, parsed.error));
  return ok({ decisions: parsed.data, alreadySettled });
}

/** Refuse a results directory this process cannot write (or whose overrides.json it cannot). */
export async function checkWritable(
  dir: string,
  overridesFile: string,
): Promise<Result<void, InputError>> {
  for (const target of [dir, ...(existsSync(overridesFile) ? [overridesFile] : [])]) {
    try {
      await access(target, constants.W_OK);
    } catch (error) {
      return err(
        inputError(
          target,
          `cannot be written (${(error as NodeJS.ErrnoException).code ?? String(error)}), so no decision could be recorded`,
          'adjudicate as a user who can write the results directory, or copy it somewhere you can',
        ),
      );
    }
  }
  return ok(undefined);
}

/** Who adjudicates: `--by`, else git's user.name. */
export async function whoAdjudicates(
  by: string | undefined,
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<Result<string, InputError>> {
  if (by !== undefined) {
    return by.trim() === ''
      ? err(inputError('--by', 'is blank', 'give the name of the person deciding'))
      : ok(by.trim());
  }
  try {
    const { stdout } = await promisify(execFile)('git', ['config', '--get', 'user.name'], {
      cwd,
      env,
    });
    const name = stdout.trim();
    if (name !== '') return ok(name);
  } catch {
    // no git, or no user.name: said below
  }
  return err(
    inputError(
      '--by',
      'is not given and git config user.name is not set',
      'say who decides with --by "<name>" (or set git config user.name)',
    ),
  );
}

/** Add one decision to overrides.json, keeping every other entry; written atomically. */
export async function recordOverride(
  overridesFile: string,
  repId: string,
  override: Override,
): Promise<Result<void, InputError>> {
  const current = await readOverrides(overridesFile);
  if (!current.ok) return current;
  const next = overridesSchema.parse({ ...current.value, [repId]: override });
  const sorted = Object.fromEntries(Object.entries(next).sort(([a], [b]) => (a < b ? -1 : 1)));
  await writeFileAtomic(overridesFile, `${JSON.stringify(sorted, null, 2)}\n`);
  return ok(undefined);
}

/** The reason written when a person presses a key without typing one. */
export function defaultReason(rep: QueuedRep, verdict: 'pass' | 'fail'): string {
  return rep.why === 'disagreement'
    ? `adjudicated ${verdict}: the checks said ${rep.checksVerdict}, the judge ${rep.judgeVerdict}`
    : `adjudicated ${verdict}: the rep was indeterminate (${rep.reasons[0] ?? 'no reason recorded'})`;
}

export interface AdjudicationOutcome {
  readonly settled: readonly string[];
  readonly skipped: readonly string[];
  /** Reps not reached because the person quit. */
  readonly notReached: readonly string[];
}

/**
 * Walk the queue: ask `decide` about each rep, record pass and fail at once,
 * stop at quit. `now` stamps each decision.
 */
export async function walkQueue(
  queue: readonly QueuedRep[],
  decide: (rep: QueuedRep, position: number) => Promise<Decision>,
  record: (rep: QueuedRep, override: Override) => Promise<Result<void, InputError>>,
  who: string,
  now: () => Date,
): Promise<Result<AdjudicationOutcome, InputError>> {
  const settled: string[] = [];
  const skipped: string[] = [];
  for (const [index, rep] of queue.entries()) {
    const decision = await decide(rep, index + 1);
    if (decision.verdict === 'quit') {
      return ok({ settled, skipped, notReached: queue.slice(index).map((entry) => entry.id) });
    }
    if (decision.verdict === 'skip') {
      skipped.push(rep.id);
      continue;
    }
    const written = await record(rep, {
      verdict: decision.verdict,
      reason: decision.reason,
      by: who,
      at: now().toISOString(),
    });
    if (!written.ok) return written;
    settled.push(rep.id);
  }
  return ok({ settled, skipped, notReached: [] });
}
