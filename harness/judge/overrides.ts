import { existsSync } from 'node:fs';
import { z } from 'zod';
import { readRegularText } from '../lib/contained-file.js';
import { type InputError, inputError } from '../lib/input-error.js';
import { err, ok, type Result } from '../lib/result.js';
import { inputErrorFromZod } from '../lib/zod-input-error.js';

/**
 * `overrides.json`: human verdicts that replace the scorer's for named reps
 * (hand adjudication). Every table shows an overridden verdict as such, with
 * the reason, so an override is never mistaken for a scored result.
 */
export const overrideSchema = z
  .object({
    verdict: z.enum(['pass', 'fail', 'indeterminate']),
    reason: z.string().min(1, 'say why the verdict is overridden'),
    by: z.string().optional(),
    /** When it was settled, ISO 8601 (redgreen adjudicate writes it). */
    at: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}T/, 'an ISO 8601 time such as 2026-12-01T10:00:00.000Z')
      .optional(),
  })
  .strict();

export const overridesSchema = z.record(
  z.string().regex(/^[a-z][a-z0-9-]*\/[a-z0-9][a-z0-9-]*-rep\d+$/, 'rep ids look like red/s1-rep3'),
  overrideSchema,
);

export type Override = z.infer<typeof overrideSchema>;
export type Overrides = z.infer<typeof overridesSchema>;

export async function readOverrides(file: string): Promise<Result<Overrides, InputError>> {
  if (!existsSync(file)) return ok({});
  let json: unknown;
  try {
    json = JSON.parse(await readRegularText(file));
  } catch (error) {
    return err(
      inputError(file, `is not valid JSON (${(error as Error).message})`, 'fix the JSON syntax'),
    );
  }
  const parsed = overridesSchema.safeParse(json);
  if (!parsed.success) return err(inputErrorFromZod(file, parsed.error));
  return ok(parsed.data);
}
