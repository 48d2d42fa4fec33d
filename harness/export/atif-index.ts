import { z } from 'zod';
import { ATIF_SCHEMA_VERSION } from './atif-document.js';

/**
 * `index.json` of an ATIF export directory: which trajectory file holds which
 * rep, with the figures a reader wants before opening one. Written last, so
 * an index always lists complete files.
 */
export const atifIndexEntrySchema = z
  .object({
    /** Path of the trajectory file, relative to the index, with `/` separators. */
    file: z.string().min(1),
    rep_id: z.string(),
    arm: z.string(),
    scenario: z.string(),
    rep: z.number().int().positive(),
    attempt: z.number().int().positive(),
    session_id: z.string(),
    verdict: z.enum(['pass', 'fail', 'indeterminate']),
    steps: z.number().int().positive(),
    tool_calls: z.number().int().nonnegative(),
    /** The rep's subagent trajectories (full sessions), each linked from the controller's dispatch. */
    subagents: z
      .array(
        z
          .object({
            /** Relative to the index, like `file`. */
            file: z.string().min(1),
            session_id: z.string(),
            agent_id: z.string().nullable(),
            description: z.string().nullable(),
            steps: z.number().int().positive(),
            tool_calls: z.number().int().nonnegative(),
          })
          .strict(),
      )
      .optional(),
  })
  .strict();

export const atifIndexSchema = z
  .object({
    schema_version: z.literal(ATIF_SCHEMA_VERSION),
    generated_by: z.string(),
    campaign: z.object({ id: z.string(), title: z.string(), identity: z.string() }).strict(),
    /** The results directory exported, relative to the index's directory. */
    results_dir: z.string(),
    trajectories: z.array(atifIndexEntrySchema),
    /** Reps the campaign schedules (for this shard) that the results directory has not recorded. */
    missing: z.array(z.string()),
  })
  .strict();

export type AtifIndexEntry = z.infer<typeof atifIndexEntrySchema>;
export type AtifIndex = z.infer<typeof atifIndexSchema>;

/** The index file's name inside an export directory. */
export const ATIF_INDEX_FILE = 'index.json';
