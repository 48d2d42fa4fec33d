/** How an observation appears in the Results table's Notes. */
import { z } from 'zod';
import { nonBlank } from './param-types.js';

export const summarySchema = z.union([
  /** `resolution: 4 structural, 1 neither`: a tally of what was observed. */
  z.object({ tally: nonBlank }).strict(),
  /** `2 via commit-content forensics` / `none via …`: reps where it passed. */
  z.object({ passes: nonBlank }).strict(),
]);
export type ObservationSummary = z.infer<typeof summarySchema>;
