import { formatInputError, type InputError } from '../lib/input-error.js';

/** Exit codes every redgreen command uses. */
export const ExitCode = {
  ok: 0,
  /** The work ran and a check it performs did not hold (a gate failed). */
  failed: 1,
  /** Bad input, or a result that cannot be decided; nothing was done or written. */
  usage: 2,
} as const;

/** Print a one-line input error to stderr and return the usage exit code. */
export function failWithInputError(error: InputError): number {
  process.stderr.write(`redgreen: ${formatInputError(error)}\n`);
  return ExitCode.usage;
}
