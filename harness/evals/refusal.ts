/**
 * Why an eval file (or a trigger set) is refused: the field that stops it,
 * what is wrong with it, and what would fix it. A file is imported whole or
 * refused whole, so one refusal is the whole answer; the CLI prints it as one
 * line naming the file and the field, and exits 2.
 */
import { type InputError, inputError } from '../lib/input-error.js';

export interface Refusal {
  /** The field as a path into the file: `evals[2].assertions[0].type`, or `(top level)`. */
  readonly field: string;
  readonly problem: string;
  readonly fix: string;
}

export function refusal(field: string, problem: string, fix: string): Refusal {
  return { field, problem, fix };
}

/** The refusal as the one-line input error the CLI prints. */
export function refusalError(file: string, refused: Refusal): InputError {
  return inputError(`${file}: ${refused.field}`, refused.problem, refused.fix);
}

/** A plain JSON object (not an array, not null). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A JSON value named for a message: `a string`, `an array`, `null`. */
export function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return typeof value === 'string' ? 'a string' : `a ${typeof value}`;
}
