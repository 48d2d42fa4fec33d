/**
 * A campaign file that names skills' own eval files instead of scenarios:
 *
 * ```json
 * { "id": "humanize-evals", "title": "…",
 *   "evals": { "skills": [{ "skill": "../skills/humanize" },
 *                         { "skill": "../skills/ffmpeg", "triggers": "../skills/ffmpeg/evals/trigger-evals.json" }],
 *              "arms": ["old", "new"], "reach": "installed" },
 *   "reps": 5, "gates": [{ "kind": "max-indeterminate-share", "share": 0.1 }] }
 * ```
 *
 * `redgreen run <file>` expands it into an ordinary campaign (write-campaign.ts)
 * in the results directory and runs that; the file's other fields (id, title,
 * reps, model, backend, limits, gates) carry over, and its gates are added to
 * the generated ones. Paths are relative to the campaign file. Unknown fields
 * are errors, as in every campaign file.
 */
import { z } from 'zod';
import { gateSchema } from '../campaign/config-schema.js';
import { limitsSchema } from '../session/session-limits.js';
import { BACKEND_NAMES } from '../session/session-tool-table.js';
import { ARM_NAMES, REACHES } from './write-campaign.js';

export const evalsSkillEntrySchema = z
  .object({
    skill: z.string().min(1).describe('the skill directory (the folder holding SKILL.md)'),
    evals: z
      .union([z.string().min(1), z.literal(false)])
      .optional()
      .describe(
        "its eval file (default: the skill's evals/evals.json, found as redgreen finds it); false: none",
      ),
    triggers: z.string().min(1).optional().describe('a trigger set to run for it'),
    old: z
      .string()
      .min(1)
      .optional()
      .describe(
        'the old text: a git ref of its repository, git:<repo>@<ref>[:<subdir>], or a directory (default HEAD)',
      ),
  })
  .strict();

export const evalsFieldSchema = z
  .object({
    skills: z.array(evalsSkillEntrySchema).min(1),
    arms: z
      .array(z.enum(ARM_NAMES))
      .min(2)
      .refine((arms) => new Set(arms).size === arms.length, 'name each arm once')
      .optional()
      .describe('default old and new (without and new for a skill with no committed version)'),
    reach: z.enum(REACHES).default('installed'),
    library: z
      .string()
      .min(1)
      .optional()
      .describe('the distractor skills (a folder with skills/<name>/SKILL.md)'),
    split: z
      .number()
      .gt(0)
      .lt(1)
      .optional()
      .describe(
        "share of a trigger set's queries a description is tuned on; the rest is held out and gated",
      ),
    splitSeed: z.number().int().nonnegative().default(42),
    judgeModel: z.string().min(1).optional(),
  })
  .strict();
export type EvalsField = z.infer<typeof evalsFieldSchema>;

export const evalsCampaignFileSchema = z
  .object({
    $schema: z.string().optional(),
    id: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]{0,63}$/, 'use lower-case letters, digits and dashes')
      .optional(),
    title: z.string().min(1).optional(),
    description: z.string().optional(),
    evals: evalsFieldSchema,
    reps: z.number().int().min(1).max(1000).optional(),
    model: z.string().min(1).optional(),
    backend: z.enum(BACKEND_NAMES).optional(),
    concurrency: z.number().int().min(1).max(64).optional(),
    seed: z.number().int().nonnegative().optional(),
    limits: limitsSchema.partial().optional(),
    gates: z.array(gateSchema).default([]),
  })
  .strict();
export type EvalsCampaignFile = z.infer<typeof evalsCampaignFileSchema>;
