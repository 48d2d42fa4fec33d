import { z } from 'zod';
import { gateModelField } from './model-config.js';

/**
 * `engines-agree`: a gate on the difference between engines. For each
 * scenario and arm it names (default every one), the pass rates on any two
 * engines of the run differ by at most `maxGapPts` points, or by a gap a
 * two-sided Fisher test does not find at `alpha` (corrected across every
 * pair it compares). It compares the engines, so it names none, and no model:
 * in a campaign of several models each model's engines are compared.
 */
export const enginesAgreeGateSchema = z
  .object({
    kind: z.literal('engines-agree'),
    /** The scenarios compared; default every scenario the campaign runs. */
    scenarios: z.array(z.string().min(1)).min(1).optional(),
    /** The arms compared; default every arm. */
    arms: z.array(z.string().min(1)).min(1).optional(),
    maxGapPts: z
      .number()
      .min(0)
      .max(100)
      .default(0)
      .describe('a gap between two engines at most this many points never fails the gate'),
    alpha: z.number().gt(0).lt(1).default(0.05),
    /** How the per-pair tests are corrected for their number. */
    correction: z.enum(['holm', 'none']).default('holm'),
    ...gateModelField,
  })
  .strict()
  .refine((gate) => gate.engine === undefined || gate.engine === 'every', {
    message: 'engines-agree compares the engines with each other: give it no engine',
    path: ['engine'],
  })
  .refine((gate) => gate.model === undefined || gate.model === 'every', {
    message: "engines-agree compares each model's engines: give it no model",
    path: ['model'],
  });
export type EnginesAgreeGate = z.infer<typeof enginesAgreeGateSchema>;
