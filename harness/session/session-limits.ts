import { z } from 'zod';

/** What one rep's session may spend: turns, time, tool output, cost (a campaign's `limits`). */
export const limitsSchema = z
  .object({
    maxTurns: z.number().int().min(1).max(500).default(40),
    sessionTimeoutSeconds: z.number().positive().max(7200).default(600),
    toolTimeoutSeconds: z.number().positive().max(600).default(120),
    toolOutputMaxBytes: z.number().int().min(1024).max(10_000_000).default(30_000),
    maxCostUsd: z.number().positive().nullable().default(null),
    /**
     * `stop: complete` only: the turn limit of each subagent seat (each
     * dispatch's own tool loop; a resume continues its count). Default: maxTurns.
     * Optional without a default, so identities of campaigns that omit it stay.
     */
    seatMaxTurns: z.number().int().min(1).max(500).optional(),
    /** `stop: complete` only: how many subagents one rep may start. Default: 12. */
    maxSeats: z.number().int().min(1).max(100).optional(),
    /**
     * `stop: complete` only: the wall-clock seconds each subagent seat may run,
     * summed over its first run and every resume. No default (no seat limit).
     */
    seatTimeoutSeconds: z.number().positive().max(7200).optional(),
    /** `stop: complete` only: what each subagent seat may cost, priced as the rep is (USD). */
    seatMaxCostUsd: z.number().positive().optional(),
    /** What one rep (the controller and every seat) may cost, priced as the rep is (USD). */
    repMaxCostUsd: z.number().positive().optional(),
  })
  .strict();

export type Limits = z.infer<typeof limitsSchema>;
