import { formatInputError, type InputError } from '../lib/input-error.js';
import { ExitCode } from './exit-codes.js';

export { ExitCode };

/** Print a one-line input error to stderr and return the usage exit code. */
export function failWithInputError(error: InputError): number {
  process.stderr.write(`redgreen: ${formatInputError(error)}\n`);
  return ExitCode.usage;
}
