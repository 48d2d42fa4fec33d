/**
 * The optional `judge` block of a scenario file: a second, independent
 * opinion on the reps of that scenario.
 *
 * - `rubric`: one item per post check it shadows, keyed by the check's id,
 *   each a plain-words statement of what passing means;
 * - `material`: what the judge is shown (default: the reply, the captured
 *   dispatches, a digest of tool calls with their inputs, and the diff of
 *   the files the session changed); `skill` adds the skill text under test,
 *   which is left out by default so an arm that echoes its text gains nothing;
 * - `model`: the model that judges a live run; `offlineModel`: the scripted
 *   judge used when the run is offline (default `scripted:judge-agree`);
 * - `instructions`: optional extra words for the judge.
 *
 * Unknown fields are errors. That every rubric key names a post check is
 * checked when the scenario loads (validateJudgeSpec).
 */
import { z } from 'zod';
import { type InputError, inputError } from '../lib/input-error.js';
import { isJudgePolicyName, judgePolicyNames } from './judge-policy-names.js';
import { nameSchema, nonBlank } from './param-types.js';

export const MATERIAL_KINDS = [
  'prompt',
  'reply',
  'dispatches',
  'tool-calls',
  'diff',
  'skill',
] as const;
export type MaterialKind = (typeof MATERIAL_KINDS)[number];

export const DEFAULT_MATERIAL: readonly MaterialKind[] = [
  'reply',
  'dispatches',
  'tool-calls',
  'diff',
];

/** The scripted judge an offline run uses unless the scenario names another. */
export const DEFAULT_OFFLINE_JUDGE = 'scripted:judge-agree';

export const judgeSpecSchema = z
  .object({
    rubric: z
      .record(nameSchema, nonBlank)
      .refine((rubric) => Object.keys(rubric).length > 0, 'give at least one rubric item')
      .describe('one item per post check it shadows, keyed by the check id'),
    material: z
      .array(z.enum(MATERIAL_KINDS))
      .min(1)
      .refine((kinds) => new Set(kinds).size === kinds.length, 'name each kind once')
      .default([...DEFAULT_MATERIAL]),
    model: nonBlank.describe('the model that judges a live run'),
    offlineModel: z
      .string()
      .refine(
        (id) => id.startsWith('scripted:') && isJudgePolicyName(id.slice('scripted:'.length)),
        `a scripted judge: one of ${judgePolicyNames.map((name) => `scripted:${name}`).join(', ')}`,
      )
      .default(DEFAULT_OFFLINE_JUDGE),
    instructions: nonBlank.optional(),
  })
  .strict();

export type JudgeSpec = z.infer<typeof judgeSpecSchema>;

/** Every rubric key must name a post check of the scenario: the item shadows that check. */
export function validateJudgeSpec(
  file: string,
  spec: JudgeSpec,
  postCheckIds: readonly string[],
): InputError | undefined {
  for (const id of Object.keys(spec.rubric)) {
    if (!postCheckIds.includes(id)) {
      return inputError(
        `${file}: judge.rubric.${id}`,
        `names "${id}", which is not a post check of this scenario`,
        `key each rubric item by the post check it shadows: ${postCheckIds.join(', ')}`,
      );
    }
  }
  return undefined;
}
