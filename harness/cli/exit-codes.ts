/** Exit codes every redgreen command uses. No imports, so the bare command list can use them. */
export const ExitCode = {
  ok: 0,
  /** The work ran and a check it performs did not hold (a gate failed). */
  failed: 1,
  /** Bad input, or a result that cannot be decided; nothing was done or written. */
  usage: 2,
} as const;
