/** What the runner says about a rep before scoring: it completed, or it could not be decided (and at which stage). */
import { z } from 'zod';

export const runnerStatusSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('completed') }).strict(),
  z.object({ kind: z.literal('indeterminate'), reason: z.string(), stage: z.string() }).strict(),
]);
export type RunnerStatus = z.infer<typeof runnerStatusSchema>;
