/**
 * `evals/import.json` in a results directory: what redgreen imported for the
 * run (each eval case and its expectations, each trigger query and its
 * label and part, where each arm's text came from), written with the
 * campaign it generated and read back by the reports. A results directory is
 * untrusted input, so it is validated like every file read back.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';

export const IMPORT_FILE = 'import.json';

export const importRecordSchema = z
  .object({
    schemaVersion: z.literal(1),
    generatedBy: z.string(),
    reach: z.enum(['installed', 'named']),
    red: z.string(),
    green: z.string(),
    arms: z.array(
      z
        .object({
          name: z.string(),
          role: z.enum(['red', 'green']),
          texts: z.array(
            z
              .object({ skill: z.string(), text: z.string(), commit: z.string().nullable() })
              .strict(),
          ),
        })
        .strict(),
    ),
    skills: z.array(
      z.object({ name: z.string(), dir: z.string(), description: z.string() }).strict(),
    ),
    sources: z.array(
      z
        .object({ kind: z.enum(['evals', 'triggers']), file: z.string(), skill: z.string() })
        .strict(),
    ),
    split: z.object({ tune: z.number(), seed: z.number() }).strict().nullable(),
    cases: z.array(
      z
        .object({
          scenario: z.string(),
          skill: z.string(),
          evalId: z.string(),
          evalName: z.string().nullable(),
          field: z.string(),
          prompt: z.string(),
          expectedOutput: z.string().nullable(),
          inputs: z.array(z.string()),
          expectations: z.array(
            z
              .object({
                checkId: z.string(),
                text: z.string(),
                decidedBy: z.enum(['check', 'transcript', 'judge']),
                field: z.string(),
              })
              .strict(),
          ),
        })
        .strict(),
    ),
    queries: z.array(
      z
        .object({
          scenario: z.string(),
          skill: z.string(),
          queryId: z.string(),
          query: z.string(),
          shouldTrigger: z.boolean(),
          part: z.enum(['tune', 'held-out', 'all']),
          note: z.string().nullable(),
        })
        .strict(),
    ),
    notes: z.array(z.string()),
  })
  .strict();
export type ImportRecord = z.infer<typeof importRecordSchema>;

/** A results directory's import record: undefined when the run imported nothing; an Error when it cannot be read. */
export async function readImportRecord(
  evalsDir: string,
): Promise<ImportRecord | undefined | Error> {
  const file = path.join(evalsDir, IMPORT_FILE);
  if (!existsSync(file)) return undefined;
  try {
    return importRecordSchema.parse(JSON.parse(await readFile(file, 'utf8')));
  } catch (error) {
    return new Error(
      `${file} is not an import record (${error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error)})`,
    );
  }
}
